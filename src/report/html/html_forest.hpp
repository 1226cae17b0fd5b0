#pragma once
// The forest plot of a comparison's changes, for its HTML page. A pure function of its input,
// like every reporter; styled by class from the page's one style sheet.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/html/html_svg.hpp"

namespace tare::report::detail {

/// One row of a forest plot: a change and its interval.
struct forest_row {
    std::string label;  // plain text; shortened from the left when long (the tooltip has it whole)
    std::string href;   // where the label links ("#r-3"); empty: no link
    std::optional<double> estimate;
    std::optional<std::pair<double, double>> interval;  // empty: none could be computed
    std::string css_class;                              // the verdict's class: "faster", "slower", ...
    std::string tooltip;                                // plain text
};

/// Every row's change on one axis, in row order, with 0 drawn and the threshold band shaded.
struct forest_plot {
    std::string title;
    std::string x_title;
    double threshold = 0;  // half-width of the band around 0 (0: no band)
    std::vector<forest_row> rows;
    std::vector<legend_entry> legend;
};

/// The plot as an inline <svg>, or an empty string without rows. The axis spans every estimate,
/// 0 and the band, and the intervals up to as far again as that span: longer intervals end in
/// an arrow on the edge, so one row of two rounds cannot squeeze every other row to a dot.
std::string render_forest(const forest_plot& plot);

}  // namespace tare::report::detail
