#include "report/table/units.hpp"

#include <array>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace tare::report {
namespace {

constexpr std::string_view infinity_mark = "∞";
constexpr double smallest_shown = 0.001;

constexpr std::array<std::string_view, 4> duration_units = {"ns", "µs", "ms", "s"};
constexpr std::array<std::string_view, 7> byte_units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
constexpr std::array<std::string_view, 5> si_suffixes = {"", "k", "M", "G", "T"};

double parse(const std::string& digits) {
    return std::strtod(digits.c_str(), nullptr);
}

// Decimal places that give three significant digits for x > 0. Below 1 the count is found by
// scaling up rather than by log10, which is off by one at exact powers of ten.
int decimals_for(double x) {
    if (x >= 100)
        return 0;
    if (x >= 10)
        return 1;
    int decimals = 2;
    for (double scaled = x; scaled < 1 && decimals < 40; scaled *= 10)
        ++decimals;
    return decimals;
}

// x >= 0, finite, with three significant digits. The precision is checked again on the printed
// text, not the arithmetic, so 9.996 prints "10.0" rather than the four-digit "10.00".
std::string three_digits(double x) {
    if (x == 0)
        return "0";
    if (x < smallest_shown)
        return fmt::format("<{}", smallest_shown);
    // Past the largest unit (a figure no measurement holds, read from a file edited by hand) the
    // digits would fill the column: three significant digits and the power of ten, as percents.
    if (x >= 1e5)
        return fmt::format("{:.2e}", x);
    const int decimals = decimals_for(x);
    std::string digits = fmt::format("{:.{}f}", x, decimals);
    const int printed = decimals_for(parse(digits));
    if (printed < decimals)
        digits = fmt::format("{:.{}f}", x, printed);
    return digits;
}

std::string drop_trailing_zeros(std::string digits) {
    if (digits.find('.') == std::string::npos)
        return digits;
    while (digits.back() == '0')
        digits.pop_back();
    if (digits.back() == '.')
        digits.pop_back();
    return digits;
}

struct scaled_number {
    std::string digits;
    std::size_t unit = 0;
};

// Divides by `base` until the value is below it, then formats. If rounding lands on the base
// ("1000 µs", "1024 KiB") the next unit up is used instead ("1.00 ms", "1.00 MiB").
scaled_number scale(double magnitude, double base, std::size_t unit_count) {
    std::size_t unit = 0;
    double x = magnitude;
    while (x >= base && unit + 1 < unit_count) {
        x /= base;
        ++unit;
    }
    std::string digits = three_digits(x);
    if (unit + 1 < unit_count && parse(digits) >= base) {
        x /= base;
        ++unit;
        digits = three_digits(x);
    }
    return {std::move(digits), unit};
}

// The shared frame of every formatter: missing and infinite values, then the sign, then the
// magnitude's own text. A negative value below the smallest shown reads ">-0.001", which is
// what "-<0.001" would mean if it were legible.
template <class Magnitude>
std::string with_sign(double value, Magnitude magnitude) {
    if (std::isnan(value))
        return std::string(missing_mark);
    if (std::isinf(value))
        return value > 0 ? std::string(infinity_mark) : "-" + std::string(infinity_mark);
    if (value >= 0)
        return magnitude(value == 0 ? 0.0 : value);  // also folds -0.0 into 0
    std::string text = magnitude(-value);
    if (!text.empty() && text.front() == '<')
        return ">-" + text.substr(1);
    return "-" + text;
}

std::string bytes_magnitude(double bytes) {
    const auto scaled = scale(bytes, 1024, byte_units.size());
    // Below 1 KiB the figure counts bytes: "48 B", not "48.0 B".
    const std::string digits = scaled.unit == 0 ? drop_trailing_zeros(scaled.digits) : scaled.digits;
    return fmt::format("{} {}", digits, byte_units[scaled.unit]);
}

}  // namespace

std::string format_duration(double ns) {
    return with_sign(ns, [](double magnitude) {
        const auto scaled = scale(magnitude, 1000, duration_units.size());
        return fmt::format("{} {}", scaled.digits, duration_units[scaled.unit]);
    });
}

std::string format_bytes(double bytes) {
    return with_sign(bytes, bytes_magnitude);
}

std::string format_count(double value) {
    return with_sign(value, [](double magnitude) {
        const auto scaled = scale(magnitude, 1000, si_suffixes.size());
        return drop_trailing_zeros(scaled.digits) + std::string(si_suffixes[scaled.unit]);
    });
}

std::string format_exact_count(double value) {
    return with_sign(value, [](double magnitude) {
        const bool whole = magnitude == std::floor(magnitude);
        const int decimals = whole || magnitude >= 1e5 ? 0 : magnitude < 10 ? 2 : 1;
        std::string digits = fmt::format("{:.{}f}", magnitude, decimals);
        if (const auto dot = digits.find('.');
            dot != std::string::npos && digits.find_first_not_of('0', dot + 1) == std::string::npos)
            digits.erase(dot);  // rounded to a whole number: "58,105", not "58,105.0"
        const std::size_t point = std::min(digits.find('.'), digits.size());
        for (std::size_t at = point; at > 3; at -= 3)
            digits.insert(at - 3, ",");
        return digits;
    });
}

std::string format_count_change(double percent) {
    const std::string digits = fmt::format("{:.2f}%", std::abs(percent));
    if (digits == "0.00%" || std::isnan(percent))
        return std::isnan(percent) ? std::string(missing_mark) : digits;
    return (percent > 0 ? "+" : "-") + digits;
}

std::string format_byte_rate(double bytes_per_second) {
    return with_sign(bytes_per_second, [](double magnitude) { return bytes_magnitude(magnitude) + "/s"; });
}

std::string format_item_rate(double items_per_second) {
    return with_sign(items_per_second, [](double magnitude) {
        const auto scaled = scale(magnitude, 1000, si_suffixes.size());
        return fmt::format("{}{} items/s", scaled.digits, si_suffixes[scaled.unit]);
    });
}

std::string format_percent(double percent) {
    return with_sign(percent, [](double magnitude) {
        std::string digits = fmt::format("{:.1f}", magnitude);
        if (parse(digits) >= 100)
            digits = fmt::format("{:.0f}", magnitude);
        // Beyond 99,999 % (the change of two rounds far apart) the digits are noise and the
        // column would be 80 wide: three significant digits and the power of ten.
        if (parse(digits) >= 1e5)
            digits = fmt::format("{:.2e}", magnitude);
        return digits + "%";
    });
}

std::string format_signed_percent(double percent) {
    return (percent > 0 ? "+" : "") + format_percent(percent);
}

std::string format_relative_half_width(double mean, double low, double high) {
    if (!std::isfinite(mean) || mean == 0)
        return std::string(missing_mark);
    return format_percent((high - low) / 2 / std::abs(mean) * 100);
}

std::size_t display_width(std::string_view text) {
    std::size_t width = 0;
    for (const char c : text) {
        // Count every byte that starts a code point; UTF-8 continuation bytes are 10xxxxxx.
        if ((static_cast<unsigned char>(c) & 0xC0U) != 0x80U)
            ++width;
    }
    return width;
}

std::string shorten(std::string_view text, std::size_t width, cut where) {
    if (width == 0 || display_width(text) <= width || (where == cut::middle && width < 3))
        return std::string(text);
    std::vector<std::string_view> points;  // the code points, each with its continuation bytes
    for (std::size_t i = 0; i < text.size();) {
        std::size_t n = 1;
        while (i + n < text.size() && (static_cast<unsigned char>(text[i + n]) & 0xC0U) == 0x80U)
            ++n;
        points.push_back(text.substr(i, n));
        i += n;
    }
    const std::size_t keep = width - 1;  // and the "…"
    const std::size_t head = where == cut::end ? keep : where == cut::middle ? keep / 2 : 0;
    const std::size_t tail = keep - head;
    std::string out;
    for (std::size_t i = 0; i < head; ++i)
        out += points[i];
    out += "…";
    for (std::size_t i = points.size() - tail; i < points.size(); ++i)
        out += points[i];
    return out;
}

std::string pad_left(std::string_view text, std::size_t width) {
    const std::size_t used = display_width(text);
    std::string padded(used < width ? width - used : 0, ' ');
    padded += text;
    return padded;
}

std::string pad_right(std::string_view text, std::size_t width) {
    const std::size_t used = display_width(text);
    std::string padded(text);
    padded.append(used < width ? width - used : 0, ' ');
    return padded;
}

std::string one_line(std::string_view text) {
    std::string line;
    line.reserve(text.size());
    bool in_break = false;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20U || byte == 0x7FU) {
            if (!in_break)
                line += ' ';
            in_break = true;
            continue;
        }
        if (in_break && c == ' ')
            continue;  // the indentation of a continuation line
        line += c;
        in_break = false;
    }
    while (!line.empty() && line.back() == ' ')
        line.pop_back();
    return line;
}

}  // namespace tare::report
