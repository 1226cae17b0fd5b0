// Inline SVG scatter plots for the HTML reporter, and the escaping both share.
//
// Every coordinate is printed with one decimal from finite doubles, so the output is a pure,
// deterministic function of the figures (the golden tests pin it byte for byte). Styling is
// by class, from the page's one <style> block, so a plot carries geometry only.
//
// Axes: the domain is the data's range padded by a few percent, and ticks are the round
// multiples inside it (the "nice numbers" of Heckbert, "Nice numbers for graph labels",
// Graphics Gems, 1990). Rejected: domains widened to whole ticks, which on a 1 %-wide spread of
// samples can leave the dots in a thin strip; and always starting time at zero, which hides
// exactly the spread and the outliers that the plot exists to show (the figures table says the
// magnitude).

#include "report/html/html_svg.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "report/table/units.hpp"

namespace tare::report::detail {
namespace {

constexpr double width = 640;
constexpr double margin_left = 78;
constexpr double margin_right = 16;
constexpr double margin_top = 12;
constexpr double margin_bottom = 44;
constexpr double padding = 0.06;  // of the data's span, on each side of the domain

double nice_multiple(double raw) {
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / magnitude;
    const double nice = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
    return nice * magnitude;
}

// A round step near `raw`: 1, 2 or 5 times a power of ten; for bytes above one byte a power of
// two, so ticks fall on "512 KiB" and "1.00 MiB" rather than on "488 KiB" and "977 KiB".
double round_step(double raw, axis_kind kind) {
    if (kind == axis_kind::bytes && raw >= 1)
        return std::exp2(std::round(std::log2(raw)));
    return nice_multiple(raw);
}

std::string coordinate(double v) {
    std::string text = fmt::format("{:.1f}", v);
    return text == "-0.0" ? "0.0" : text;
}

struct scale_unit {
    double divisor;
    std::string_view name;
    bool spaced;
};

scale_unit unit_for(double magnitude, axis_kind kind) {
    static constexpr std::array<scale_unit, 4> durations = {
        {{1, "ns", true}, {1e3, "µs", true}, {1e6, "ms", true}, {1e9, "s", true}}};
    static constexpr std::array<scale_unit, 5> bytes = {{{1, "B", true},
                                                         {1024.0, "KiB", true},
                                                         {1024.0 * 1024, "MiB", true},
                                                         {1024.0 * 1024 * 1024, "GiB", true},
                                                         {1024.0 * 1024 * 1024 * 1024, "TiB", true}}};
    static constexpr std::array<scale_unit, 5> counts = {
        {{1, "", false}, {1e3, "k", false}, {1e6, "M", false}, {1e9, "G", false}, {1e12, "T", false}}};
    const auto pick = [magnitude](const auto& units) {
        scale_unit chosen = units.front();
        for (const auto& u : units) {
            if (magnitude >= u.divisor)
                chosen = u;
        }
        return chosen;
    };
    switch (kind) {
    case axis_kind::duration:
        return pick(durations);
    case axis_kind::bytes:
        return pick(bytes);
    case axis_kind::count:
        break;
    }
    return pick(counts);
}

std::string unit_label(double v, axis_kind kind) {
    switch (kind) {
    case axis_kind::duration:
        return format_duration(v);
    case axis_kind::bytes:
        return format_bytes(v);
    case axis_kind::count:
        break;
    }
    return format_count(v);
}

struct domain {
    double low = 0;
    double high = 0;
};

// The data's range [low, high], padded; a single value gets a span around it. Data that are all
// >= 0 keep a domain >= 0 (no negative time or heap on the axis). Empty when not finite.
std::optional<domain> pad(double low, double high) {
    domain d{low, high};
    if (d.high == d.low) {
        const double half = d.low == 0 ? 1 : std::abs(d.low) * 0.1;
        d.low -= half;
        d.high += half;
    } else {
        const double span = d.high - d.low;
        d.low -= span * padding;
        d.high += span * padding;
    }
    if (low >= 0 && d.low < 0)
        d.low = 0;
    if (!std::isfinite(d.low) || !std::isfinite(d.high) || !std::isfinite(d.high - d.low) || d.high <= d.low)
        return std::nullopt;
    return d;
}

}  // namespace

std::string html_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default: {
            const auto byte = static_cast<unsigned char>(c);
            const bool control = (byte < 0x20U && c != '\n' && c != '\t') || byte == 0x7FU;
            out += control ? ' ' : c;
        }
        }
    }
    return out;
}

std::vector<double> axis_ticks(double low, double high, axis_kind kind, bool integer) {
    std::vector<double> ticks;
    const double span = high - low;
    if (!std::isfinite(low) || !std::isfinite(high) || !std::isfinite(span) || span <= 0)
        return ticks;
    double step = round_step(span / 5, kind);
    if (integer)
        step = std::max(step, 1.0);
    if (!std::isfinite(step) || step <= 0)
        return ticks;
    const double first = std::ceil(low / step);
    const double last = std::floor(high / step);
    // Too fine for doubles (the ticks would not be distinct numbers) or absurdly many.
    if (!(last - first <= 20) || std::abs(first) > 1e15 || std::abs(last) > 1e15)
        return ticks;
    for (double k = first; k <= last; ++k) {
        const double v = k * step;
        ticks.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    }
    return ticks;
}

std::vector<std::string> tick_labels(const std::vector<double>& ticks, axis_kind kind) {
    std::vector<std::string> labels;
    bool legible = true;
    for (const double v : ticks) {
        labels.push_back(unit_label(v, kind));
        const std::string& label = labels.back();
        if (label[0] == '<' || label[0] == '>' || (labels.size() > 1 && label == labels[labels.size() - 2]))
            legible = false;
    }
    if (legible || ticks.size() < 2)
        return labels;
    // Three significant digits cannot tell these ticks apart ("12.3 ns" twice): one unit for
    // the axis, and as many decimals as the step needs.
    double magnitude = 0;
    for (const double v : ticks)
        magnitude = std::max(magnitude, std::abs(v));
    const scale_unit unit = unit_for(magnitude, kind);
    const double step = (ticks[1] - ticks[0]) / unit.divisor;
    const int decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(step) - 1e-9)), 0, 15);
    labels.clear();
    for (const double v : ticks) {
        std::string digits = fmt::format("{:.{}f}", v / unit.divisor, decimals);
        if (digits.find_first_not_of("-0.") == std::string::npos)
            digits = fmt::format("{:.{}f}", 0.0, decimals);
        labels.push_back(digits + (unit.spaced ? " " : "") + std::string(unit.name));
    }
    return labels;
}

std::string render_scatter(const scatter_plot& plot) {
    std::vector<const plot_point*> points;
    for (const auto& p : plot.points) {
        if (std::isfinite(p.x) && std::isfinite(p.y))
            points.push_back(&p);
    }
    if (points.empty())
        return {};
    double x_low = points.front()->x;
    double x_high = x_low;
    double y_low = points.front()->y;
    double y_high = y_low;
    for (const auto* p : points) {
        x_low = std::min(x_low, p->x);
        x_high = std::max(x_high, p->x);
        y_low = std::min(y_low, p->y);
        y_high = std::max(y_high, p->y);
    }
    // Lines run over the points' x range; their ends, and a finite band, widen the y range.
    std::vector<std::pair<const plot_line*, std::array<double, 2>>> lines;
    for (const auto& line : plot.lines) {
        const std::array<double, 2> ends = {line.intercept + line.slope * x_low,
                                            line.intercept + line.slope * x_high};
        if (!std::isfinite(ends[0]) || !std::isfinite(ends[1]))
            continue;
        lines.emplace_back(&line, ends);
        y_low = std::min({y_low, ends[0], ends[1]});
        y_high = std::max({y_high, ends[0], ends[1]});
    }
    std::optional<std::pair<double, double>> band;
    if (plot.band && std::isfinite(plot.band->first) && std::isfinite(plot.band->second) &&
        plot.band->first <= plot.band->second) {
        band = plot.band;
        y_low = std::min(y_low, band->first);
        y_high = std::max(y_high, band->second);
    }
    const auto xd = pad(x_low, x_high);
    const auto yd = pad(y_low, y_high);
    if (!xd || !yd)
        return {};

    const double h = plot.height;
    const double plot_w = width - margin_left - margin_right;
    const double plot_h = h - margin_top - margin_bottom;
    const auto sx = [&](double x) { return margin_left + (x - xd->low) / (xd->high - xd->low) * plot_w; };
    const auto sy = [&](double y) { return margin_top + (yd->high - y) / (yd->high - yd->low) * plot_h; };
    const auto c = coordinate;

    const std::string title = html_escape(plot.title);
    std::string out = fmt::format(
        "<svg class=\"plot\" viewBox=\"0 0 {0:.0f} {1:.0f}\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
        "role=\"img\" "
        "aria-label=\"{2}\">\n<title>{2}</title>\n",
        width, h, title);
    out += fmt::format("<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n",
                       c(margin_left), c(margin_top), c(plot_w), c(plot_h));
    if (band) {
        const double top = sy(band->second);
        out += fmt::format("<rect class=\"band\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n",
                           c(margin_left), c(top), c(plot_w), c(sy(band->first) - top));
    }
    // Bytes are whole: a flat heap at 0 gets ticks 0 B and 1 B, not "0.2 B".
    const auto y_ticks = axis_ticks(yd->low, yd->high, plot.y_kind, plot.y_kind == axis_kind::bytes);
    const auto y_labels = tick_labels(y_ticks, plot.y_kind);
    for (std::size_t i = 0; i < y_ticks.size(); ++i) {
        const std::string y = c(sy(y_ticks[i]));
        out += fmt::format("<line class=\"grid\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/>", c(margin_left),
                           c(margin_left + plot_w), y, y);
        out += fmt::format(
            "<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\" dy=\"0.32em\">{}</text>\n",
            c(margin_left - 6), y, html_escape(y_labels[i]));
    }
    const auto x_ticks = axis_ticks(xd->low, xd->high, plot.x_kind, plot.integer_x);
    const auto x_labels = tick_labels(x_ticks, plot.x_kind);
    for (std::size_t i = 0; i < x_ticks.size(); ++i) {
        const std::string x = c(sx(x_ticks[i]));
        out += fmt::format("<line class=\"grid\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/>", x, x,
                           c(margin_top), c(margin_top + plot_h));
        out += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", x,
                           c(margin_top + plot_h + 16), html_escape(x_labels[i]));
    }
    for (const auto& [line, ends] : lines) {
        out += fmt::format("<line class=\"{}\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/>\n",
                           html_escape(line->css_class), c(sx(x_low)), c(sx(x_high)), c(sy(ends[0])),
                           c(sy(ends[1])));
    }
    if (plot.connect && points.size() > 1) {
        out += "<polyline class=\"trace\" points=\"";
        for (std::size_t i = 0; i < points.size(); ++i)
            out += (i > 0 ? " " : "") + c(sx(points[i]->x)) + "," + c(sy(points[i]->y));
        out += "\"/>\n";
    }
    for (const auto* p : points) {
        const std::string x = c(sx(p->x));
        const std::string y = c(sy(p->y));
        if (p->mark > 0) {
            out += fmt::format("<circle class=\"outlier {}\" cx=\"{}\" cy=\"{}\" r=\"{}\"/>",
                               p->mark > 1 ? "severe" : "mild", x, y, p->mark > 1 ? "6" : "5");
        }
        out += fmt::format("<circle class=\"dot\" cx=\"{}\" cy=\"{}\" r=\"2.5\"><title>{}</title></circle>\n",
                           x, y, html_escape(p->tooltip));
    }
    out += fmt::format("<text class=\"axis-title\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                       c(margin_left + plot_w / 2), c(h - 8), html_escape(plot.x_title));
    out += fmt::format(
        "<text class=\"axis-title\" transform=\"translate(14 {}) rotate(-90)\" "
        "text-anchor=\"middle\">{}</text>\n",
        c(margin_top + plot_h / 2), html_escape(plot.y_title));
    out += "</svg>\n";
    return out;
}

}  // namespace tare::report::detail
