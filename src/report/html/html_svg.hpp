#pragma once
// The pieces of the HTML reporter that are not page layout: HTML escaping, and inline SVG
// scatter plots with readable axes. Pure functions of their inputs, like every reporter.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tare::report::detail {

/// `text` safe as HTML element content and as a double- or single-quoted attribute value:
/// & < > " ' become entities; control characters other than newline and tab become spaces.
std::string html_escape(std::string_view text);

/// What the numbers on an axis are; decides the tick labels' units (report/table/units.hpp).
enum class axis_kind { count, duration, bytes };

struct plot_point {
    double x = 0;
    double y = 0;
    int mark = 0;         // 0 plain, 1 mild outlier, 2 severe outlier
    std::string tooltip;  // plain text, escaped by the plot
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
    int height = 240;        // pixels; the width is fixed
    std::vector<plot_point> points;
    std::vector<plot_line> lines;
    std::optional<std::pair<double, double>> band;  // a shaded y interval across the plot
};

/// The plot as an inline <svg> element (no xmlns: HTML5 does not need it, and the page makes
/// no reference outside itself), or an empty string when no point has finite coordinates.
std::string render_scatter(const scatter_plot& plot);

/// The tick values of an axis over [low, high] (finite, low < high): the multiples of a round
/// step that lie inside it, about five. The step is 1, 2 or 5 times a power of ten (a power of
/// two for bytes), and at least 1 when `integer`. Empty when the span
/// cannot be divided (too large or too fine for doubles). Exposed for tests.
std::vector<double> axis_ticks(double low, double high, axis_kind kind, bool integer);

/// Labels for `ticks` (as axis_ticks returns them): the report's own unit formatting when
/// that tells every tick apart, else fixed decimals in one unit chosen for the whole axis.
std::vector<std::string> tick_labels(const std::vector<double>& ticks, axis_kind kind);

}  // namespace tare::report::detail
