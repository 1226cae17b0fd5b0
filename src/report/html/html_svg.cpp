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
//
// A distribution beside a plot: the Rice rule, 2 n^(1/3) equal bins over the values on the axis
// (Lane, "Online Statistics Education", ch. 2). Rejected: Freedman-Diaconis widths, which on
// tare's 50 to 100 samples give 4 to 6 bins for a clean spread and hundreds for one with a wide
// outlier; and a kernel density, whose bandwidth hides or invents modes in so few samples, where
// bars show the counts as they are. Drawn on the run-order plot's own y axis, the two read
// together and one outlier clipped from one is clipped from both.

#include "report/html/html_svg.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

#include "report/table/units.hpp"

namespace tare::report::detail {
namespace {

constexpr double margin_left = 78;
constexpr double padding = 0.06;        // of the data's span, on each side of the domain
constexpr double marginal_width = 120;  // the distribution beside a plot
constexpr double marginal_gap = 12;

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
    case axis_kind::percent:
        return {1, "%", false};
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
    case axis_kind::percent:
        return (v > 0 ? "+" : "") + format_percent(v);
    case axis_kind::count:
        break;
    }
    return format_count(v);
}

// The legend's marks are drawn in a 14 x 10 box centred on (x, y).
std::string legend_mark_svg(const legend_entry& e, double x, double y) {
    const std::string cls = html_escape(e.css_class);
    const auto c = svg_number;
    switch (e.mark) {
    case legend_mark::line:
        return fmt::format("<line class=\"{}\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/>", cls, c(x),
                           c(x + 14), c(y), c(y));
    case legend_mark::trace:
        return fmt::format("<polyline class=\"trace{}\" points=\"{},{} {},{} {},{}\"/>",
                           cls.empty() ? "" : " " + cls, c(x), c(y + 4), c(x + 7), c(y - 2), c(x + 14),
                           c(y - 4));
    case legend_mark::band:
    case legend_mark::bar:
        return fmt::format("<rect class=\"{}\" x=\"{}\" y=\"{}\" width=\"14\" height=\"10\"/>", cls, c(x),
                           c(y - 5));
    case legend_mark::ring:
        return fmt::format("<circle class=\"outlier {}\" cx=\"{}\" cy=\"{}\" r=\"5\"/>", cls, c(x + 7), c(y));
    case legend_mark::clipped:
        return fmt::format("<path class=\"clipped{}\" d=\"M{} {}l5 8h-10z\"/>", cls.empty() ? "" : " " + cls,
                           c(x + 7), c(y - 4));
    case legend_mark::dot:
        break;
    }
    return fmt::format("<circle class=\"dot{}\" cx=\"{}\" cy=\"{}\" r=\"3\"/>", cls.empty() ? "" : " " + cls,
                       c(x + 7), c(y));
}

// x in the plot's own coordinates: log10(x) on a logarithmic axis.
double axis_x(const scatter_plot& plot, double x) {
    return plot.log_x ? std::log10(x) : x;
}

bool drawable(const scatter_plot& plot, const plot_point& p) {
    return std::isfinite(p.x) && std::isfinite(p.y) && (!plot.log_x || p.x > 0);
}

bool beyond_clip(const scatter_plot& plot, double y) {
    return plot.y_clip && (y < plot.y_clip->first || y > plot.y_clip->second);
}

// A histogram of `values` as horizontal bars in [left, left + marginal_width], on the y scale
// `sy` of the domain `d`: bins over the values inside it, those beyond counted at its ends. The
// count axis runs from 0 at `left` to the fullest bin.
template <class Scale>
std::string render_marginal(const std::vector<double>& values, const axis_domain& d, double left, double top,
                            double height, const Scale& sy) {
    std::vector<double> inside;
    std::size_t below = 0;
    std::size_t above = 0;
    for (const double v : values) {
        if (!std::isfinite(v))
            continue;
        if (v < d.low)
            ++below;
        else if (v > d.high)
            ++above;
        else
            inside.push_back(v);
    }
    const auto c = svg_number;
    std::string out = fmt::format("<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n",
                                  c(left), c(top), c(marginal_width), c(height));
    if (!inside.empty()) {
        const auto [lo_it, hi_it] = std::minmax_element(inside.begin(), inside.end());
        const double lo = *lo_it;
        const double hi = *hi_it;
        const std::size_t bins = lo == hi ? 1 : histogram_bins(inside.size());
        const double width = lo == hi ? 0 : (hi - lo) / static_cast<double>(bins);
        std::vector<std::size_t> counts(bins, 0);
        for (const double v : inside)
            ++counts[std::min(width == 0 ? 0 : static_cast<std::size_t>((v - lo) / width), bins - 1)];
        const auto most = static_cast<double>(*std::max_element(counts.begin(), counts.end()));
        std::string bars;
        for (std::size_t k = 0; k < bins; ++k) {
            if (counts[k] == 0)
                continue;
            // One value alone gets a bar 3 px tall, centred on it.
            const double y1 = width == 0 ? sy(lo) - 1.5 : sy(lo + width * static_cast<double>(k + 1));
            const double y2 = width == 0 ? sy(lo) + 1.5 : sy(lo + width * static_cast<double>(k));
            const double length = static_cast<double>(counts[k]) / most * (marginal_width - 4);
            bars += fmt::format("M{} {}h{}v{}h{}z", c(left), c(y1 + 0.5), c(length),
                                c(std::max(y2 - y1 - 1, 1.0)), c(-length));
        }
        out += "<path class=\"bar\" d=\"" + bars + "\"/>\n";
        out += fmt::format(
            "<g class=\"xt\"><text x=\"{}\" y=\"{}\">0</text><text x=\"{}\" y=\"{}\">{:.0f}</text></g>\n",
            c(left + 4), c(top + height + 16), c(left + marginal_width - 4), c(top + height + 16), most);
    }
    if (above > 0)
        out += fmt::format("<text class=\"clipped-count\" x=\"{}\" y=\"{}\">▴ {}</text>\n", c(left + 4),
                           c(top + 12), above);
    if (below > 0)
        out += fmt::format("<text class=\"clipped-count\" x=\"{}\" y=\"{}\">▾ {}</text>\n", c(left + 4),
                           c(top + height - 4), below);
    return out;
}

// Ticks of a logarithmic axis over [low, high] (log10 units): the powers of ten inside it, and
// 2 and 5 times them when fewer than three powers fit.
std::vector<double> log_ticks(double low, double high) {
    std::vector<double> ticks;
    if (!std::isfinite(low) || !std::isfinite(high) || high - low > 30)
        return ticks;
    const double first = std::floor(low);
    const bool fine = std::floor(high) - std::ceil(low) < 2;
    for (double k = first; k <= std::ceil(high); ++k) {
        for (const double m : {1.0, 2.0, 5.0}) {
            if (m > 1 && !fine)
                continue;
            const double v = k + std::log10(m);
            if (v >= low && v <= high)
                ticks.push_back(v);
        }
    }
    return ticks;
}

}  // namespace

std::size_t histogram_bins(std::size_t n) {
    const auto rice = static_cast<std::size_t>(std::ceil(2 * std::cbrt(static_cast<double>(n))));
    return std::clamp<std::size_t>(rice, 5, 30);
}

std::string svg_number(double v) {
    std::string text = fmt::format("{:.1f}", v);
    if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0)
        text.resize(text.size() - 2);  // "83", not "83.0": a page of many plots is mostly numbers
    return text == "-0" ? "0" : text;
}

std::string grid_path(const std::vector<std::array<double, 4>>& segments) {
    if (segments.empty())
        return {};
    std::string d;
    for (const auto& [x1, y1, x2, y2] : segments) {
        d += "M" + svg_number(x1) + " " + svg_number(y1);
        d += x1 == x2   ? "V" + svg_number(y2)
             : y1 == y2 ? "H" + svg_number(x2)
                        : "L" + svg_number(x2) + " " + svg_number(y2);
    }
    return "<path class=\"grid\" d=\"" + d + "\"/>\n";
}

std::string tick_texts(std::string_view css_class,
                       const std::vector<std::pair<std::array<double, 2>, std::string>>& ticks) {
    if (ticks.empty())
        return {};
    std::string out = "<g class=\"" + std::string(css_class) + "\">";
    for (const auto& [at, label] : ticks)
        out += "<text x=\"" + svg_number(at[0]) + "\" y=\"" + svg_number(at[1]) + "\">" + html_escape(label) +
               "</text>";
    return out + "</g>\n";
}

std::optional<axis_domain> padded_domain(double low, double high) {
    axis_domain d{low, high};
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

std::string render_legend(const std::vector<legend_entry>& entries, double x, double y) {
    std::string out = "<g class=\"legend\">";
    for (const legend_entry& e : entries) {
        out += legend_mark_svg(e, x, y);
        out += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>", svg_number(x + 18), svg_number(y),
                           html_escape(e.label));
        // No text metrics in a pure function: a generous width per character of the 11 px font.
        x += 18 + 6.2 * static_cast<double>(display_width(e.label)) + 14;
    }
    return out + "</g>\n";
}

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

namespace {

/// What a scatter plot draws and the ranges its axes span: the drawable points, the lines that
/// stay on the axis with their ends, the band, and the padded domains.
struct scatter_scene {
    std::vector<const plot_point*> points;
    double x_low = 0;
    double x_high = 0;
    std::vector<std::pair<const plot_line*, std::array<double, 2>>> lines;
    std::optional<std::pair<double, double>> band;
    axis_domain xd;
    axis_domain yd;
};

/// The scene of `plot`, or nothing when no point can be drawn or a range is degenerate.
std::optional<scatter_scene> scatter_scene_of(const scatter_plot& plot) {
    scatter_scene s;
    for (const auto& p : plot.points) {
        if (drawable(plot, p))
            s.points.push_back(&p);
    }
    if (s.points.empty())
        return std::nullopt;
    s.x_low = axis_x(plot, s.points.front()->x);
    s.x_high = s.x_low;
    double y_low = std::numeric_limits<double>::infinity();
    double y_high = -y_low;
    for (const auto* p : s.points) {
        s.x_low = std::min(s.x_low, axis_x(plot, p->x));
        s.x_high = std::max(s.x_high, axis_x(plot, p->x));
        if (beyond_clip(plot, p->y))
            continue;  // on the edge, not in the range
        y_low = std::min(y_low, p->y);
        y_high = std::max(y_high, p->y);
    }
    if (y_low > y_high) {  // every point beyond the clip: the clip is the range
        y_low = plot.y_clip->first;
        y_high = plot.y_clip->second;
    }
    // Lines run over the points' x range; their ends, and a finite band, widen the y range, but
    // never past the clip: a mean the outliers pulled away would flatten the rest again.
    const auto widen = [&](double y) {
        if (!beyond_clip(plot, y)) {
            y_low = std::min(y_low, y);
            y_high = std::max(y_high, y);
        }
    };
    for (const auto& fit : plot.lines) {
        const std::array<double, 2> ends = {fit.intercept + fit.slope * s.x_low,
                                            fit.intercept + fit.slope * s.x_high};
        if (!std::isfinite(ends[0]) || !std::isfinite(ends[1]) || plot.log_x)
            continue;
        s.lines.emplace_back(&fit, ends);
        widen(ends[0]);
        widen(ends[1]);
    }
    if (plot.band && std::isfinite(plot.band->first) && std::isfinite(plot.band->second) &&
        plot.band->first <= plot.band->second) {
        s.band = plot.band;
        widen(plot.y_clip ? std::max(s.band->first, plot.y_clip->first) : s.band->first);
        widen(plot.y_clip ? std::min(s.band->second, plot.y_clip->second) : s.band->second);
    }
    const auto xd = padded_domain(s.x_low, s.x_high);
    const auto yd = padded_domain(y_low, y_high);
    if (!xd || !yd)
        return std::nullopt;
    s.xd = *xd;
    s.yd = *yd;
    // A line that leaves the axis is not drawn (the caller says where it is); a band is cut to it.
    std::erase_if(s.lines, [&](const auto& l) {
        return std::min(l.second[0], l.second[1]) < s.yd.low ||
               std::max(l.second[0], l.second[1]) > s.yd.high;
    });
    return s;
}

/// Where the plot area sits in the picture, and its scales.
struct scatter_box {
    double top = 0;
    double plot_w = 0;
    double plot_h = 0;
    axis_domain xd;
    axis_domain yd;

    double sx(double x) const { return margin_left + (x - xd.low) / (xd.high - xd.low) * plot_w; }
    double sy(double y) const {
        return top + (yd.high - std::clamp(y, yd.low, yd.high)) / (yd.high - yd.low) * plot_h;
    }
};

/// The grid and both axes' tick labels.
std::string scatter_axes(const scatter_plot& plot, const scatter_box& box) {
    // Bytes are whole: a flat heap at 0 gets ticks 0 B and 1 B, not "0.2 B".
    const auto y_ticks = axis_ticks(box.yd.low, box.yd.high, plot.y_kind, plot.y_kind == axis_kind::bytes);
    const auto y_labels = tick_labels(y_ticks, plot.y_kind);
    std::vector<std::array<double, 4>> grid;
    std::vector<std::pair<std::array<double, 2>, std::string>> y_texts;
    for (std::size_t i = 0; i < y_ticks.size(); ++i) {
        const double y = box.sy(y_ticks[i]);
        grid.push_back({margin_left, y, margin_left + box.plot_w, y});
        y_texts.push_back({{margin_left - 6, y}, y_labels[i]});
    }
    std::vector<double> x_ticks;
    std::vector<std::string> x_labels;
    if (plot.log_x) {
        x_ticks = log_ticks(box.xd.low, box.xd.high);
        for (const double t : x_ticks)
            x_labels.push_back(unit_label(std::pow(10.0, t), plot.x_kind));
    } else {
        x_ticks = axis_ticks(box.xd.low, box.xd.high, plot.x_kind, plot.integer_x);
        x_labels = tick_labels(x_ticks, plot.x_kind);
    }
    std::vector<std::pair<std::array<double, 2>, std::string>> x_texts;
    for (std::size_t i = 0; i < x_ticks.size(); ++i) {
        const double x = box.sx(x_ticks[i]);
        grid.push_back({x, box.top, x, box.top + box.plot_h});
        x_texts.push_back({{x, box.top + box.plot_h + 16}, x_labels[i]});
    }
    return grid_path(grid) + tick_texts("yt", y_texts) + tick_texts("xt", x_texts);
}

/// The points: plain dots as one path of zero-length round-capped strokes, some 14 bytes a dot,
/// against some 60 for a <circle> (and 120 with a tooltip), which is what kept a page of 1,000
/// benchmarks at 14 MB. Dots with a tooltip, outliers and clipped points keep an element.
std::string scatter_points(const scatter_plot& plot, const std::vector<const plot_point*>& points,
                           const scatter_box& box) {
    std::string dots;
    std::string marked;
    long last_x = 0;  // the dots path moves relative to the last dot: "m5 -3h0" is 7 bytes
    long last_y = 0;
    for (const auto* p : points) {
        const std::string x = svg_number(box.sx(axis_x(plot, p->x)));
        const std::string y = svg_number(box.sy(p->y));
        if (p->mark > 0) {
            marked += fmt::format("<circle class=\"outlier {}\" cx=\"{}\" cy=\"{}\" r=\"{}\"/>",
                                  p->mark > 1 ? "severe" : "mild", x, y, p->mark > 1 ? "6" : "5");
        }
        const std::string tip = p->tooltip.empty() ? "" : "<title>" + html_escape(p->tooltip) + "</title>";
        if (beyond_clip(plot, p->y)) {
            // A triangle on the edge, pointing the way the point lies.
            const bool above = p->y > plot.y_clip->second;
            marked += fmt::format("<path class=\"clipped\" d=\"M{} {}l5 {}h-10z\">{}</path>\n", x, y,
                                  above ? "8" : "-8", tip);
        } else if (!tip.empty()) {
            marked +=
                fmt::format("<circle class=\"dot\" cx=\"{}\" cy=\"{}\" r=\"2.5\">{}</circle>\n", x, y, tip);
        } else if (!plot.connect) {
            // Whole pixels: a dot 5 px across gains nothing from a tenth.
            const long dx = std::lround(box.sx(axis_x(plot, p->x)));
            const long dy = std::lround(box.sy(p->y));
            dots += fmt::format("{}{} {}h0", dots.empty() ? "M" : "m", dx - last_x, dy - last_y);
            last_x = dx;
            last_y = dy;
        }
    }
    return (dots.empty() ? "" : "<path class=\"dots\" d=\"" + dots + "\"/>\n") + marked;
}

}  // namespace

std::string render_scatter(const scatter_plot& plot) {
    const std::optional<scatter_scene> scene = scatter_scene_of(plot);
    if (!scene)
        return {};
    const double w = plot.width;
    const double h = plot.height;
    const bool marginal = !plot.distribution.empty();
    scatter_box box;
    box.top = margin_top + (plot.legend.empty() ? 0 : legend_height);
    box.plot_w = w - margin_left - margin_right - (marginal ? marginal_width + marginal_gap : 0);
    box.plot_h = h - box.top - margin_bottom;
    box.xd = scene->xd;
    box.yd = scene->yd;
    const double band_w = marginal ? box.plot_w + marginal_gap + marginal_width : box.plot_w;
    const auto sy = [&](double y) { return box.sy(y); };
    const auto c = svg_number;

    std::string out = fmt::format(
        "<svg class=\"plot\" viewBox=\"0 0 {0:.0f} {1:.0f}\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
        "role=\"img\">\n<title>{2}</title>\n",
        w, h, html_escape(plot.title));
    if (!plot.legend.empty())
        out += render_legend(plot.legend, margin_left, margin_top + legend_height / 2 - 2);
    out += fmt::format("<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n",
                       c(margin_left), c(box.top), c(box.plot_w), c(box.plot_h));
    if (scene->band) {
        const double band_top = sy(scene->band->second);
        out += fmt::format("<rect class=\"band\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n",
                           c(margin_left), c(band_top), c(band_w), c(sy(scene->band->first) - band_top));
    }
    out += scatter_axes(plot, box);
    for (const auto& [fit, ends] : scene->lines) {
        out += fmt::format("<line class=\"{}\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/>\n",
                           html_escape(fit->css_class), c(box.sx(scene->x_low)), c(box.sx(scene->x_high)),
                           c(sy(ends[0])), c(sy(ends[1])));
    }
    const std::vector<const plot_point*>& points = scene->points;
    if (plot.connect && points.size() > 1) {
        out += "<polyline class=\"trace\" points=\"";
        for (std::size_t i = 0; i < points.size(); ++i)
            out += (i > 0 ? " " : "") + c(box.sx(axis_x(plot, points[i]->x))) + "," + c(sy(points[i]->y));
        out += "\"/>\n";
    }
    out += scatter_points(plot, points, box);
    if (marginal) {
        const double left = margin_left + box.plot_w + marginal_gap;
        out += render_marginal(plot.distribution, box.yd, left, box.top, box.plot_h, sy);
        for (const auto& [fit, ends] : scene->lines) {
            if (fit->slope == 0)  // a level (the mean) runs on across the distribution
                out += fmt::format("<line class=\"{}\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/>\n",
                                   html_escape(fit->css_class), c(left), c(left + marginal_width),
                                   c(sy(ends[0])), c(sy(ends[0])));
        }
        out += fmt::format("<text class=\"axis-title\" x=\"{}\" y=\"{}\">distribution</text>\n",
                           c(left + marginal_width / 2), c(h - 8));
    }
    out += fmt::format("<text class=\"axis-title\" x=\"{}\" y=\"{}\">{}</text>\n",
                       c(margin_left + box.plot_w / 2), c(h - 8), html_escape(plot.x_title));
    out += fmt::format("<text class=\"axis-title\" transform=\"translate(14 {}) rotate(-90)\">{}</text>\n",
                       c(box.top + box.plot_h / 2), html_escape(plot.y_title));
    out += "</svg>\n";
    return out;
}

}  // namespace tare::report::detail
