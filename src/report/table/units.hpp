#pragma once
// Number formatting shared by the human-facing reporters (console, markdown).
//
// One rule for every figure: three significant digits, scaled to the unit that keeps the
// number between 1 and 999. Figures with a unit (durations, bytes, rates) keep trailing zeros
// ("1.00 µs", "4.00 KiB") so a column of them reads at a fixed precision; bare counts drop them
// ("1", "0.5", "12.3k") because "1.00 allocation per iteration" suggests a fraction that is not
// there. Every formatter takes any double: NaN (a figure that could not be measured) prints as
// the missing mark "—", infinities as "∞" / "-∞", without a unit, so no reporter needs its own
// special cases. Machine output (JSON) never goes through here.

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tare::report {

/// What a cell shows for a figure that is absent or could not be measured.
inline constexpr std::string_view missing_mark = "—";

/// Per-iteration time in nanoseconds: "0.312 ns", "12.3 ns", "1.25 µs", "812 ms", "2.50 s".
std::string format_duration(double ns);

/// Bytes in binary units: "0 B", "40.5 B", "1023 B", "4.00 KiB", "1.00 MiB", "1.49 GiB".
/// Below 1 KiB the value is a count of bytes, so it prints like a count ("48 B", not "48.0 B").
std::string format_bytes(double bytes);

/// A count or ratio, trailing zeros dropped: "0", "17", "0.5", "1.06", "12.3k", "4.5M", "1.2G".
/// Magnitudes below 0.001 print as "<0.001": nonzero, but too small to matter at this width.
std::string format_count(double value);

/// An exact count per iteration, every digit kept, for the figures whose point is that they do
/// not vary (--instrument's instructions and cache misses): thousands grouped by commas; one
/// decimal below 100,000 unless whole, two below 10: "5,788,952", "1,003.4", "0.14", "3".
std::string format_exact_count(double value);

/// A change of exact counts in percent, to the hundredth: "+0.10%", "-1.18%", "0.00%".
std::string format_count_change(double percent);

/// Bytes per second in binary units: "512 B/s", "1.49 GiB/s".
std::string format_byte_rate(double bytes_per_second);

/// Items per second with SI suffixes and fixed precision: "17.0 items/s", "12.3M items/s".
std::string format_item_rate(double items_per_second);

/// A value already in percent: one decimal below 100, none from 100 on: "0.8%", "12.5%", "250%".
std::string format_percent(double percent);

/// A change in percent with its sign: "+12.5%", "-0.8%", "0.0%".
std::string format_signed_percent(double percent);

/// Half-width of the interval [low, high] relative to `mean`, in percent; the missing mark when
/// it cannot be computed (a mean of 0 or a non-finite input).
std::string format_relative_half_width(double mean, double low, double high);

/// `format(*value)`, or the missing mark when the optional is empty.
template <class T, class Format>
std::string format_or_missing(const std::optional<T>& value, Format format) {
    return value ? format(*value) : std::string(missing_mark);
}

/// One figure's change for a narrow table's memory column: `label` and the signed difference
/// `to` - `from` in `format`'s unit ("allocs +1", "peak -4.00 KiB"); empty when the two are
/// equal or either is missing (a side that did not count is no change). Equal means exactly
/// equal: a change too small for the unit still shows ("allocs +<0.001"), so a row counted as
/// changed never reads as unchanged.
template <class Format>
std::string figure_change(std::string_view label, std::optional<double> from, std::optional<double> to,
                          Format format) {
    if (!from || !to || *from == *to)
        return {};
    if (!std::isfinite(*to - *from))
        return std::string(label) + " " + format(*from) + " → " + format(*to);
    return std::string(label) + " " + (*to > *from ? "+" : "-") +
           format(*to > *from ? *to - *from : *from - *to);
}

/// The memory of `to` against `from` (a comparison's base and head, a group's baseline and
/// member: anything with the per-iteration figures of a benchmark's result) in one cell, for a
/// terminal too narrow for a column per figure: only the figures that changed, "allocs -1,
/// peak -512 B, bytes -512 B"; "=" when none did; the missing mark when no figure is on both.
/// The count and the peak come first: a cell cut at its end keeps what a reviewer asks first,
/// whether the code allocates more and holds more.
template <class Figures>
std::string memory_changes(const Figures& from, const Figures& to) {
    const auto bytes = [](double b) { return format_bytes(b); };
    const auto peak = [](const Figures& f) {
        return f.peak_live_bytes ? std::optional<double>(static_cast<double>(*f.peak_live_bytes))
                                 : std::nullopt;
    };
    const std::string changes[] = {
        figure_change("allocs", from.allocs_per_iter, to.allocs_per_iter,
                      [](double n) { return format_count(n); }),
        figure_change("peak", peak(from), peak(to), bytes),
        figure_change("bytes", from.bytes_per_iter, to.bytes_per_iter, bytes),
        figure_change("mapped", from.mapped_bytes_per_iter, to.mapped_bytes_per_iter, bytes),
        figure_change("copied", from.copied_bytes_per_iter, to.copied_bytes_per_iter, bytes),
    };
    std::string text;
    for (const std::string& change : changes) {
        if (!change.empty())
            text += (text.empty() ? "" : ", ") + change;
    }
    if (!text.empty())
        return text;
    const bool compared = (from.allocs_per_iter && to.allocs_per_iter) ||
                          (from.bytes_per_iter && to.bytes_per_iter) || (peak(from) && peak(to)) ||
                          (from.copied_bytes_per_iter && to.copied_bytes_per_iter);
    return compared ? "=" : std::string(missing_mark);
}

/// Columns a terminal uses for `text`: one per code point, so "µs" is 2 wide although it is 3
/// bytes. East Asian wide characters and combining marks are not special-cased: benchmark
/// names and tare's own units do not use them, and a full wcwidth table is not worth carrying.
std::size_t display_width(std::string_view text);

/// Where shorten() cuts: keep the end (`start` is cut), both ends, or the start.
enum class cut { start, middle, end };

/// `text` shortened to `width` display columns, "…" marking where code points were cut, never
/// inside one; unchanged when it fits or `width` is 0 (and, for `middle`, below 3). A name is
/// told apart by its end (its arguments) or by both ends; a progress line by its start.
std::string shorten(std::string_view text, std::size_t width, cut where);

/// `text` right-aligned (padded on the left) to `width` display columns.
std::string pad_left(std::string_view text, std::size_t width);
/// `text` left-aligned (padded on the right) to `width` display columns.
std::string pad_right(std::string_view text, std::size_t width);

/// `text` on one line: control characters (newline, tab, ...) become spaces, so a multi-line
/// exception message or an odd benchmark name cannot break a table or a one-line-per-finding list.
std::string one_line(std::string_view text);

}  // namespace tare::report
