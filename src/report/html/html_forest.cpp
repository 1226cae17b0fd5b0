// The forest plot of a comparison (html_forest.hpp). As in html_svg.cpp every coordinate is
// printed with one decimal from finite doubles, so the chart is a deterministic function of its
// figures and golden tests pin it byte for byte.
//
// Forest plot: one row per benchmark, the point estimate as a dot, its interval as a line, in
// the order of the table (Lewis & Clarke, "Forest plots: trying to see the wood and the
// trees", BMJ 322, 2001). The axis is linear in percent, as the tables print the change.

#include "report/html/html_forest.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "report/table/units.hpp"

namespace tare::report::detail {
namespace {

std::string svg_open(const std::string& title, double w, double h, std::string_view css_class) {
    const std::string name = html_escape(title);
    return fmt::format(
        "<svg class=\"{3}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
        "role=\"img\">\n<title>{2}</title>\n",
        w, h, name, css_class);
}

// Vertical grid lines at the axis's ticks from y_top to y_bottom (none when equal), labelled at
// `label_y`.
template <class Scale>
std::string x_axis(const axis_domain& d, axis_kind kind, double y_top, double y_bottom, double label_y,
                   const Scale& sx) {
    const auto ticks = axis_ticks(d.low, d.high, kind, false);
    const auto labels = tick_labels(ticks, kind);
    std::vector<std::array<double, 4>> grid;
    std::vector<std::pair<std::array<double, 2>, std::string>> texts;
    for (std::size_t i = 0; i < ticks.size(); ++i) {
        const double x = sx(ticks[i]);
        if (y_bottom > y_top)
            grid.push_back({x, y_top, x, y_bottom});
        texts.push_back({{x, label_y}, labels[i]});
    }
    return grid_path(grid) + tick_texts("xt", texts);
}

/// The x axis's range: the core (estimates, 0 and the band of +-`band`), widened by the
/// intervals up to as far again on each side.
std::optional<axis_domain> forest_domain(const forest_plot& plot, double band) {
    double core_low = -band;
    double core_high = band;
    for (const forest_row& r : plot.rows) {
        if (r.estimate && std::isfinite(*r.estimate)) {
            core_low = std::min(core_low, *r.estimate);
            core_high = std::max(core_high, *r.estimate);
        }
    }
    const double span = std::max(core_high - core_low, 1.0);
    double low = core_low;
    double high = core_high;
    for (const forest_row& r : plot.rows) {
        if (r.interval && std::isfinite(r.interval->first) && std::isfinite(r.interval->second)) {
            low = std::min(low, std::max(r.interval->first, core_low - span));
            high = std::max(high, std::min(r.interval->second, core_high + span));
        }
    }
    return padded_domain(low, high);
}

}  // namespace

std::string render_forest(const forest_plot& plot) {
    if (plot.rows.empty())
        return {};
    constexpr double width = 1100;
    constexpr double label_width = 330;  // names, right-aligned against the plot
    constexpr double row_height = 18;
    constexpr std::size_t label_chars = 50;
    const double left = label_width + 16;
    const double plot_w = width - left - margin_right;
    const double top = margin_top + (plot.legend.empty() ? 0 : legend_height) + 20;  // ticks above too
    const double plot_h = row_height * static_cast<double>(plot.rows.size());
    const double h = top + plot_h + margin_bottom;

    const double band = std::isfinite(plot.threshold) ? std::abs(plot.threshold) : 0;
    const auto d = forest_domain(plot, band);
    if (!d)
        return {};
    const auto sx = [&](double x) {
        return left + (std::clamp(x, d->low, d->high) - d->low) / (d->high - d->low) * plot_w;
    };
    const auto c = svg_number;

    std::string out = svg_open(plot.title, width, h, "plot forest");
    if (!plot.legend.empty())
        out += render_legend(plot.legend, left, margin_top + legend_height / 2 - 2);
    out += fmt::format("<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n", c(left),
                       c(top), c(plot_w), c(plot_h));
    if (band > 0) {
        const double x = sx(-band);
        out += fmt::format("<rect class=\"threshold\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n", c(x),
                           c(top), c(sx(band) - x), c(plot_h));
    }
    out += x_axis(*d, axis_kind::percent, top, top + plot_h, top + plot_h + 16, sx);
    out += x_axis(*d, axis_kind::percent, top, top, top - 6, sx);
    const std::string zero = c(sx(0));
    out += fmt::format("<line class=\"zero\" x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\"/>\n", zero, c(top),
                       c(top + plot_h));
    for (std::size_t i = 0; i < plot.rows.size(); ++i) {
        const forest_row& r = plot.rows[i];
        const double y = top + row_height * (static_cast<double>(i) + 0.5);
        out += fmt::format("<g class=\"row {}\"><title>{}</title>", html_escape(r.css_class),
                           html_escape(r.tooltip));
        const std::string label =
            fmt::format("<text class=\"label\" x=\"{}\" y=\"{}\" text-anchor=\"end\" dy=\"0.32em\">{}</text>",
                        c(label_width), c(y), html_escape(shorten(r.label, label_chars, cut::start)));
        out += r.href.empty() ? label : "<a href=\"" + html_escape(r.href) + "\">" + label + "</a>";
        if (r.interval && std::isfinite(r.interval->first) && std::isfinite(r.interval->second)) {
            const double x1 = sx(r.interval->first);
            const double x2 = sx(r.interval->second);
            out += fmt::format("<line class=\"ci\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/>", c(x1), c(x2),
                               c(y), c(y));
            // An interval past the axis ends in an arrow on the edge.
            if (r.interval->first < d->low)
                out += fmt::format("<path class=\"arrow\" d=\"M{} {}l6 -4v8z\"/>", c(x1), c(y));
            if (r.interval->second > d->high)
                out += fmt::format("<path class=\"arrow\" d=\"M{} {}l-6 -4v8z\"/>", c(x2), c(y));
        }
        if (r.estimate && std::isfinite(*r.estimate)) {
            out += fmt::format("<circle class=\"estimate\" cx=\"{}\" cy=\"{}\" r=\"4\"/>", c(sx(*r.estimate)),
                               c(y));
        } else {
            out +=
                fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" dy=\"0.32em\">no change computed</text>",
                            c(left + 6), c(y));
        }
        out += "</g>\n";
    }
    out += fmt::format("<text class=\"axis-title\" x=\"{}\" y=\"{}\">{}</text>\n", c(left + plot_w / 2),
                       c(h - 8), html_escape(plot.x_title));
    return out + "</svg>\n";
}

}  // namespace tare::report::detail
