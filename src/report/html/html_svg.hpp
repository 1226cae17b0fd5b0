#pragma once
// The pieces of the HTML reporter that are not page layout: HTML escaping, and inline SVG
// scatter plots with readable axes. Pure functions of their inputs, like every reporter.

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tare::report::detail {

// The frame's margins in every run and comparison plot, in pixels; the left margin, which the
// tick labels need, is each kind of plot's own.
inline constexpr double margin_right = 16;
inline constexpr double margin_top = 12;
inline constexpr double legend_height = 20;  // added above the frame when the plot has a legend
inline constexpr double margin_bottom = 44;

/// `text` safe as HTML element content and as a double- or single-quoted attribute value:
/// & < > " ' become entities; control characters other than newline and tab become spaces.
std::string html_escape(std::string_view text);

/// What the numbers on an axis are; decides the tick labels' units (report/table/units.hpp).
/// `percent`: a change in percent, labelled with its sign ("+5%").
enum class axis_kind { count, duration, bytes, percent };

/// How a legend entry is drawn: the same mark the plot uses for that series.
enum class legend_mark { dot, line, band, ring, clipped, trace, bar };

struct legend_entry {
    legend_mark mark = legend_mark::dot;
    std::string css_class;  // the series' class ("mean", "fit", "mild", "faster", ...)
    std::string label;      // plain text, escaped by the plot
};

/// A number as an SVG coordinate: one decimal, "-0.0" printed as "0.0".
std::string svg_number(double v);

/// Grid lines (x1, y1, x2, y2) as one path: one element, not one per line.
std::string grid_path(const std::vector<std::array<double, 4>>& segments);

/// Tick labels at (x, y) as one group of class `css_class` ("yt": right-aligned and centred on
/// y, "xt": centred on x), which the style sheet aligns, so each label is only its position.
std::string tick_texts(std::string_view css_class,
                       const std::vector<std::pair<std::array<double, 2>, std::string>>& ticks);

/// A legend as one row of marks and labels starting at (x, y), the marks' vertical centre.
std::string render_legend(const std::vector<legend_entry>& entries, double x, double y);

/// [low, high] of an axis: the data's range padded by a few percent of its span, a single value
/// given a span around it; data all >= 0 keep it >= 0. Empty when not finite.
struct axis_domain {
    double low = 0;
    double high = 0;
};
std::optional<axis_domain> padded_domain(double low, double high);

struct plot_point {
    double x = 0;
    double y = 0;
    int mark = 0;  // 0 plain, 1 mild outlier, 2 severe outlier
    /// Plain text, escaped by the plot. A point with a tooltip is drawn as its own element that
    /// carries it; the others are one path together, which keeps a page of many plots small.
    std::string tooltip;
};

/// A horizontal or sloped reference line: y = intercept + slope x over the points' x range.
struct plot_line {
    double intercept = 0;
    double slope = 0;
    std::string css_class;  // "mean", "fit"
};

/// One scatter plot. Non-finite coordinates are skipped, never drawn; a line or band with a
/// non-finite figure is left out.
struct scatter_plot {
    std::string title;  // the SVG's accessible name
    std::string x_title;
    std::string y_title;
    axis_kind x_kind = axis_kind::count;
    axis_kind y_kind = axis_kind::duration;
    bool integer_x = false;  // x ticks only at whole numbers (sample numbers)
    bool connect = false;    // a polyline through the points in order (a heap over time)
    /// x on a logarithmic axis (arguments 1, 10, 100, 1000), ticks at powers of ten; points
    /// with x <= 0 are then skipped.
    bool log_x = false;
    int width = 640;   // pixels
    int height = 240;  // pixels
    std::vector<plot_point> points;
    std::vector<plot_line> lines;
    std::optional<std::pair<double, double>> band;  // a shaded y interval across the plot
    /// The y range the axis may show: points beyond it are drawn as triangles on the axis's edge
    /// (their tooltip still says where they are), so one outlier cannot flatten the others.
    std::optional<std::pair<double, double>> y_clip;
    std::vector<legend_entry> legend;  // drawn above the plot
    /// Values whose distribution is drawn beside the plot, on the same y axis: a histogram of
    /// horizontal bars (html_charts.hpp's bins), the band and horizontal lines drawn across it,
    /// the values beyond the y axis counted at its ends. Empty: no distribution. The width
    /// includes it (120 px and a gap).
    std::vector<double> distribution;
};

/// The plot as an inline <svg> element (no xmlns: HTML5 does not need it, and the page makes
/// no reference outside itself), or an empty string when no point has finite coordinates.
std::string render_scatter(const scatter_plot& plot);

/// The bins of a distribution of `n` values: the Rice rule, 2 n^(1/3), between 5 and 30.
std::size_t histogram_bins(std::size_t n);

/// The tick values of an axis over [low, high] (finite, low < high): the multiples of a round
/// step that lie inside it, about five. The step is 1, 2 or 5 times a power of ten (a power of
/// two for bytes), and at least 1 when `integer`. Empty when the span
/// cannot be divided (too large or too fine for doubles). Exposed for tests.
std::vector<double> axis_ticks(double low, double high, axis_kind kind, bool integer);

/// Labels for `ticks` (as axis_ticks returns them): the report's own unit formatting when
/// that tells every tick apart, else fixed decimals in one unit chosen for the whole axis.
std::vector<std::string> tick_labels(const std::vector<double>& ticks, axis_kind kind);

}  // namespace tare::report::detail
