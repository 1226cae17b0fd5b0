// `tare history report --html=PAGE`: one self-contained page of a branch's history. Above, the
// check's table and the changes that moved most; then per benchmark its trends, one plot per
// measure (time with each run's interval, allocations, bytes, peak heap, instructions), each
// change point marked at its commit and each level between change points drawn as a line.

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "report/function_reporter.hpp"
#include "report/history_table.hpp"
#include "report/html/html_page.hpp"
#include "report/html/html_svg.hpp"

namespace tare::report::detail {
namespace {

// The measures drawn, in this order, when a benchmark has them.
constexpr const char* drawn[] = {"time_ns", "allocs_per_iter", "bytes_per_iter", "peak_live_bytes",
                                 "instructions"};

// The trend plots' own marks: change points dashed in their direction's colour.
constexpr const char* trend_style =
    "svg path.ci{stroke-width:1;fill:none}\n"
    "svg .change{stroke-width:1.5;stroke-dasharray:4 3}\n"
    "svg .change.regression{stroke:#cf222e}\n"
    "svg .change.improvement{stroke:#1a7f37}\n"
    "svg .change.changed{stroke:#57606a}\n"
    "svg .change text{stroke:none;fill:#57606a;font-size:10px;text-anchor:middle}\n"
    ".changed-most{font-size:14px}\n";

constexpr double trend_w = 560;  // two side by side on a 1,280-pixel screen
constexpr double trend_h = 200;
constexpr double frame_left = 72;
constexpr double frame_right = 16;
constexpr double frame_top = 34;  // the legend's row above the frame
constexpr double frame_bottom = 30;

axis_kind kind_of(const std::string& measure) {
    if (measure == "time_ns")
        return axis_kind::duration;
    return measure.find("bytes") != std::string::npos ? axis_kind::bytes : axis_kind::count;
}

// Each benchmark's section id: its name's letters and digits, and its place, so that two names
// that differ only in punctuation ("a/b", "a-b") still get two ids.
std::map<std::string, std::string> anchors_of(const std::vector<history_series>& series) {
    std::map<std::string, std::string> ids;
    for (const history_series& s : series) {
        if (ids.count(s.benchmark) != 0)
            continue;
        std::string id = "b" + std::to_string(ids.size()) + "-";
        for (const char c : s.benchmark)
            id += std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '-';
        ids.emplace(s.benchmark, std::move(id));
    }
    return ids;
}

// The changes of one benchmark's measure, oldest first.
std::vector<std::pair<const history_change*, const history_measure_change*>> changes_of(
    const history_check& check, const std::string& benchmark, const std::string& measure) {
    std::vector<std::pair<const history_change*, const history_measure_change*>> out;
    for (const history_change& c : check.changes) {
        if (c.benchmark != benchmark)
            continue;
        for (const history_measure_change& m : c.measures) {
            if (m.measure == measure)
                out.emplace_back(&c, &m);
        }
    }
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.first->after_position < b.first->after_position; });
    return out;
}

std::string point_tip(const history_check& check, const history_series& s, const history_point& p) {
    const history_run& run = check.runs[p.position];
    std::string tip = "run " + std::to_string(p.position + 1) + " · " + short_commit(run.commit) + " · " +
                      run.date.substr(0, 10) + " · " + history_value(s.measure, p.value, false);
    if (p.low && p.high)
        tip += " [" + history_value(s.measure, *p.low, false) + ", " +
               history_value(s.measure, *p.high, false) + "]";
    return tip;
}

// The y range: every value and interval bound, and the levels (means of the points between them).
std::optional<axis_domain> y_domain(const history_series& s) {
    double low = std::numeric_limits<double>::infinity();
    double high = -low;
    for (const history_point& p : s.points) {
        for (const std::optional<double>& v : {std::optional<double>(p.value), p.low, p.high}) {
            if (v && std::isfinite(*v)) {
                low = std::min(low, *v);
                high = std::max(high, *v);
            }
        }
    }
    if (low > high)
        return std::nullopt;
    return padded_domain(low, high);
}

// Where a plot's values land: x the run's place among those checked, y the measure.
struct trend_frame {
    axis_domain x;
    axis_domain y;
    static constexpr double w = trend_w - frame_left - frame_right;
    static constexpr double h = trend_h - frame_top - frame_bottom;
    double sx(double v) const { return frame_left + (v - x.low) / (x.high - x.low) * w; }
    double sy(double v) const {
        return frame_top + (y.high - std::clamp(v, y.low, y.high)) / (y.high - y.low) * h;
    }
};

// The frame, the grid and the ticks: runs numbered from 1 along x, the measure's unit along y.
std::string trend_axes(const trend_frame& f, axis_kind kind) {
    const auto c = svg_number;
    std::string out = fmt::format("<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n",
                                  c(frame_left), c(frame_top), c(trend_frame::w), c(trend_frame::h));
    std::vector<std::array<double, 4>> grid;
    std::vector<std::pair<std::array<double, 2>, std::string>> y_texts;
    const auto y_ticks = axis_ticks(f.y.low, f.y.high, kind, false);
    const auto y_labels = tick_labels(y_ticks, kind);
    for (std::size_t i = 0; i < y_ticks.size(); ++i) {
        grid.push_back({frame_left, f.sy(y_ticks[i]), frame_left + trend_frame::w, f.sy(y_ticks[i])});
        y_texts.push_back({{frame_left - 6, f.sy(y_ticks[i])}, y_labels[i]});
    }
    std::vector<std::pair<std::array<double, 2>, std::string>> x_texts;
    for (const double t : axis_ticks(f.x.low, f.x.high, axis_kind::count, true)) {
        grid.push_back({f.sx(t), frame_top, f.sx(t), frame_top + trend_frame::h});
        x_texts.push_back(
            {{f.sx(t), frame_top + trend_frame::h + 16}, std::to_string(static_cast<long long>(t) + 1)});
    }
    return out + grid_path(grid) + tick_texts("yt", y_texts) + tick_texts("xt", x_texts);
}

// The levels between change points, and each change point, dashed before its first run after.
std::string trend_changes(const history_check& check, const history_series& s, const trend_frame& f) {
    const auto c = svg_number;
    std::string out;
    const auto changes = changes_of(check, s.benchmark, s.measure);
    std::size_t from = 0;
    for (std::size_t k = 0; k <= changes.size(); ++k) {
        const std::size_t to = k < changes.size() ? changes[k].first->after_position : check.runs.size();
        double sum = 0;
        std::size_t n = 0;
        double x0 = 0;
        double x1 = 0;
        for (const history_point& p : s.points) {
            if (p.position >= from && p.position < to) {
                x0 = n == 0 ? static_cast<double>(p.position) : x0;
                x1 = static_cast<double>(p.position);
                sum += p.value;
                ++n;
            }
        }
        if (n > 0)
            out += fmt::format("<line class=\"mean\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/>\n",
                               c(f.sx(x0)), c(f.sx(x1)), c(f.sy(sum / static_cast<double>(n))),
                               c(f.sy(sum / static_cast<double>(n))));
        from = to;
    }
    for (const auto& [change, m] : changes) {
        const double x = f.sx(static_cast<double>(change->after_position) - 0.5);
        const char* cls = m->direction == history_direction::regression    ? "regression"
                          : m->direction == history_direction::improvement ? "improvement"
                                                                           : "changed";
        std::string tip = short_commit(change->before.commit) + " → " + short_commit(change->after.commit) +
                          ": " + history_value(s.measure, m->before, m->exact) + " → " +
                          history_value(s.measure, m->after, m->exact);
        out += fmt::format(
            "<g class=\"change {0}\"><title>{1}</title><line x1=\"{2}\" x2=\"{2}\" y1=\"{3}\" y2=\"{4}\"/>"
            "<text class=\"label\" x=\"{2}\" y=\"{5}\">{6}</text></g>\n",
            cls, html_escape(tip), c(x), c(frame_top), c(frame_top + trend_frame::h), c(frame_top - 3),
            html_escape(short_commit(change->after.commit)));
    }
    return out;
}

std::string trend_plot(const history_check& check, const history_series& s) {
    const auto yd = y_domain(s);
    const auto xd = padded_domain(0, static_cast<double>(check.runs.empty() ? 0 : check.runs.size() - 1));
    if (!yd || !xd)
        return {};
    const trend_frame f{*xd, *yd};
    const auto c = svg_number;
    const std::string name = s.benchmark + ": " + history_measure_label(s.measure);
    std::string out = fmt::format(
        "<svg class=\"plot trend\" viewBox=\"0 0 {0:.0f} {1:.0f}\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
        "role=\"img\" "
        "aria-label=\"{2}\">\n<title>{2} over the runs</title>\n",
        trend_w, trend_h, html_escape(name));
    out += render_legend({{legend_mark::dot, "dot", "a run"},
                          {legend_mark::line, "ci", "its 95% interval"},
                          {legend_mark::line, "mean", "level"},
                          {legend_mark::line, "change regression", "change point"}},
                         frame_left, 14);
    out += trend_axes(f, kind_of(s.measure));
    // Each run's interval, one path for all.
    std::string whiskers;
    for (const history_point& p : s.points) {
        if (p.low && p.high && std::isfinite(*p.low) && std::isfinite(*p.high))
            whiskers += fmt::format("M{} {}V{}", c(f.sx(static_cast<double>(p.position))), c(f.sy(*p.low)),
                                    c(f.sy(*p.high)));
    }
    if (!whiskers.empty())
        out += "<path class=\"ci\" d=\"" + whiskers + "\"/>\n";
    out += trend_changes(check, s, f);
    std::string trace;
    for (const history_point& p : s.points)
        trace += fmt::format("{}{} {}", trace.empty() ? "M" : "L", c(f.sx(static_cast<double>(p.position))),
                             c(f.sy(p.value)));
    out += "<path class=\"trace\" d=\"" + trace + "\"/>\n";
    for (const history_point& p : s.points)
        out += fmt::format("<circle class=\"dot\" cx=\"{}\" cy=\"{}\" r=\"2.5\"><title>{}</title></circle>\n",
                           c(f.sx(static_cast<double>(p.position))), c(f.sy(p.value)),
                           html_escape(point_tip(check, s, p)));
    return out + "</svg>\n";
}

// The changes that moved most: every measure's change by its size, largest first.
std::string changed_most(const history_check& check, const std::map<std::string, std::string>& anchors) {
    std::vector<std::pair<const history_change*, const history_measure_change*>> all;
    for (const history_change& c : check.changes) {
        for (const history_measure_change& m : c.measures) {
            if (m.change_pct)
                all.emplace_back(&c, &m);
        }
    }
    if (all.empty())
        return {};
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
        return std::fabs(*a.second->change_pct) > std::fabs(*b.second->change_pct);
    });
    std::string out = "<h2>Changed most</h2>\n<ol class=\"changed-most\">\n";
    for (std::size_t i = 0; i < all.size() && i < 10; ++i) {
        const auto& [c, m] = all[i];
        const auto id = anchors.find(c->benchmark);
        out += fmt::format("<li><a href=\"#{}\"><code>{}</code></a> {} {}{:.1f}% at {}</li>\n",
                           id != anchors.end() ? id->second : "", html_escape(c->benchmark),
                           html_escape(history_measure_label(m->measure)), *m->change_pct > 0 ? "+" : "",
                           *m->change_pct, html_escape(short_commit(c->after.commit)));
    }
    return out + "</ol>\n";
}

std::string history_page(const history_trends& t) {
    const std::map<std::string, std::string> anchors = anchors_of(t.series);
    std::string body = "<main>\n<h1>tare history: " + html_escape(t.check.branch) + "</h1>\n" +
                       render_html(history_document(t.check)) + changed_most(t.check, anchors);
    std::map<std::string, std::vector<const history_series*>> by_benchmark;
    for (const history_series& s : t.series)
        by_benchmark[s.benchmark].push_back(&s);
    for (const auto& [benchmark, series] : by_benchmark) {
        body += fmt::format(
            "<section class=\"benchmark\" id=\"{}\">\n<h2><code>{}</code></h2>\n<div class=\"plots\">\n",
            anchors.at(benchmark), html_escape(benchmark));
        for (const char* measure : drawn) {
            for (const history_series* s : series) {
                if (s->measure == measure)
                    body += "<figure>" + trend_plot(t.check, *s) + "<figcaption>" +
                            html_escape(history_measure_label(s->measure)) + "</figcaption></figure>\n";
            }
        }
        body += "</div>\n</section>\n";
    }
    return html_page("tare history: " + t.check.branch, body + "</main>\n", false, trend_style);
}

}  // namespace
}  // namespace tare::report::detail

namespace tare::report {

template <>
std::unique_ptr<reporter<history_trends>> make_html_reporter() {
    return detail::make_function_reporter<history_trends, detail::history_page>();
}

}  // namespace tare::report
