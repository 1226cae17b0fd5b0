// The HTML reporter: one self-contained HTML5 page, for reading a run in a browser or attaching
// it to a CI build. Inline CSS, inline SVG plots, no script, no reference to anything outside the
// file, so it opens the same offline, from an artifact store, or years later.
//
// The page: the run's context; the summary table (the console's columns plus retained/iter and
// a warnings count, every name linking to its section); the comparison groups' table when groups
// ran; then a section per benchmark with its figures, a plot of every sample's per-iteration time
// in run order (the mean, its 95 % interval shaded, outliers ringed), a plot of the live heap at
// each sample's end when memory was accounted (the points retained/iter is fitted on, and the
// fitted line), and its warnings and error in full.
//
// Everything printed goes through html_escape: benchmark names, messages and counters are
// arbitrary user text. Figures go through report/units like the console's, so the two agree to
// the digit; non-finite figures print as "—" or "∞" there and are never plotted.

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "report/html/html_page.hpp"
#include "report/html/html_svg.hpp"
#include "report/reporter.hpp"
#include "report/run_table.hpp"
#include "report/table/units.hpp"
#include "stats/descriptive.hpp"

namespace tare::report {
namespace {

using detail::html_escape;

bool failed(const benchmark_result& b) {
    return b.error.has_value();
}

std::string section_id(std::size_t index) {
    return fmt::format("b-{}", index + 1);
}

std::string or_missing(const std::string& text) {
    return text.empty() ? std::string(missing_mark) : text;
}

// ---- header ----------------------------------------------------------------------------------

std::string definition(std::string_view term, const std::string& text) {
    return fmt::format("<dt>{}</dt><dd>{}</dd>\n", term, html_escape(or_missing(text)));
}

std::string page_header(const run_context& c) {
    std::string out = "<header>\n<h1>tare report</h1>\n<dl class=\"context\">\n";
    out += definition("executable", c.executable);
    out += definition("host", c.host);
    std::string cpu = c.cpu;
    if (c.num_cpus > 0)
        cpu += fmt::format("{}{} cpu{}", cpu.empty() ? "" : " · ", c.num_cpus, c.num_cpus == 1 ? "" : "s");
    out += definition("cpu", cpu);
    out += definition("date", c.date);
    out += definition("tare", c.tare_version);
    out += definition("accounting", c.accounting ? "on" : "off: allocation and heap figures unavailable");
    out += definition("clock", c.clock_overhead_ns ? format_duration(*c.clock_overhead_ns) + " per read"
                                                   : std::string(missing_mark));
    const std::string loop = format_or_missing(c.loop_overhead_ns, format_duration);
    out += definition("loop overhead",
                      c.loop_overhead_ns && std::isfinite(*c.loop_overhead_ns) ? loop + "/iter" : loop);
    return out + "</dl>\n</header>\n";
}

// ---- tables ----------------------------------------------------------------------------------

struct html_column {
    std::string header;
    bool left = false;
    std::vector<std::string> cells;  // HTML
};

html_column from_text(const table::column& c) {
    html_column h{c.header, c.alignment == table::align::left, {}};
    for (const auto& parts : c.cells)
        h.cells.push_back(html_escape(table::join_cell(c, parts)));
    return h;
}

std::string render_table(const std::vector<html_column>& columns,
                         const std::vector<std::string>& row_classes) {
    std::string out = "<div class=\"scroll\"><table>\n<thead><tr>";
    for (const auto& c : columns)
        out += fmt::format("<th{}>{}</th>", c.left ? " class=\"l\"" : "", html_escape(c.header));
    out += "</tr></thead>\n<tbody>\n";
    for (std::size_t row = 0; row < row_classes.size(); ++row) {
        out += row_classes[row].empty() ? "<tr>" : "<tr class=\"" + row_classes[row] + "\">";
        for (const auto& c : columns)
            out += fmt::format("<td{}>{}</td>", c.left ? " class=\"l\"" : "", c.cells[row]);
        out += "</tr>\n";
    }
    return out + "</tbody>\n</table></div>\n";
}

std::string warnings_cell(const benchmark_result& b) {
    if (b.warnings.empty())
        return "0";
    std::vector<std::string> kinds;
    for (const auto& w : b.warnings) {
        std::string kind = one_line(w.kind.empty() ? "warning" : w.kind);
        if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
            kinds.push_back(std::move(kind));
    }
    return fmt::format("{} <span class=\"kinds\">{}</span>", b.warnings.size(),
                       html_escape(fmt::format("{}", fmt::join(kinds, ", "))));
}

// The console's columns, with retained/iter after peak heap (the figure the heap plot shows)
// and the warnings as a count with their kinds; every name links to its section.
std::string summary_table(const run_results& results) {
    const auto& benchmarks = results.benchmarks;
    std::vector<html_column> columns;
    for (const auto& c : detail::build_columns(results)) {
        if (c.header == "warnings")
            continue;
        columns.push_back(from_text(c));
        if (c.header == "peak heap") {
            html_column retained{"retained/iter", false, {}};
            for (const auto& b : benchmarks) {
                retained.cells.push_back(
                    failed(b) ? std::string()
                              : html_escape(format_or_missing(b.retained_bytes_per_iter, format_bytes)));
            }
            columns.push_back(std::move(retained));
        }
    }
    for (std::size_t i = 0; i < benchmarks.size(); ++i) {
        columns.front().cells[i] = fmt::format("<a href=\"#{}\"><code>{}</code></a>", section_id(i),
                                               html_escape(one_line(benchmarks[i].name)));
    }
    html_column warnings{"warnings", true, {}};
    std::vector<std::string> row_classes;
    for (const auto& b : benchmarks) {
        warnings.cells.push_back(warnings_cell(b));
        row_classes.emplace_back(failed(b) ? "error" : "");
    }
    columns.push_back(std::move(warnings));
    return render_table(columns, row_classes);
}

std::string comparisons_section(const run_results& results) {
    std::vector<html_column> columns;
    for (const auto& c : detail::build_comparison_columns(results))
        columns.push_back(from_text(c));
    std::string out = "<section id=\"comparisons\">\n<h2>Comparison groups</h2>\n";
    out += render_table(columns, std::vector<std::string>(results.comparisons.size()));
    if (const std::string note = detail::comparison_note(results); !note.empty())
        out += "<p>" + html_escape(note) + "</p>\n";
    return out + "</section>\n";
}

// ---- a benchmark's section -------------------------------------------------------------------

std::string outlier_text(const outlier_counts& o) {
    if (o.total() == 0)
        return "none";
    std::vector<std::string> parts;
    const auto add = [&](std::uint32_t n, std::string_view what) {
        if (n > 0)
            parts.push_back(fmt::format("{} {}", n, what));
    };
    add(o.low_severe, "low severe");
    add(o.low_mild, "low mild");
    add(o.high_mild, "high mild");
    add(o.high_severe, "high severe");
    return fmt::format("{}", fmt::join(parts, ", "));
}

std::string figures(const benchmark_result& b) {
    std::string out = "<dl class=\"figures\">\n";
    const auto& t = b.time;
    out += definition("time/iter", format_duration(t.mean) + " mean");
    if (t.ci) {
        out +=
            definition("95% interval",
                       fmt::format("{} to {} (± {})", format_duration(t.ci->low), format_duration(t.ci->high),
                                   format_relative_half_width(t.mean, t.ci->low, t.ci->high)));
    }
    out += definition("median · stddev", format_duration(t.median) + " · " + format_duration(t.stddev));
    out += definition("min · max", format_duration(t.min) + " · " + format_duration(t.max));
    const std::size_t count = b.samples.empty() ? b.samples_ns.size() : b.samples.size();
    out += definition("samples",
                      fmt::format("{} samples, {} iterations", format_count(static_cast<double>(count)),
                                  format_count(static_cast<double>(b.iterations))));
    out += definition("outliers", outlier_text(b.outliers));
    out += definition("allocs/iter", format_or_missing(b.allocs_per_iter, format_count));
    out += definition("bytes/iter", format_or_missing(b.bytes_per_iter, format_bytes));
    out += definition("peak heap", format_or_missing(b.peak_live_bytes, [](std::int64_t v) {
                          return format_bytes(static_cast<double>(v));
                      }));
    out += definition("retained/iter", format_or_missing(b.retained_bytes_per_iter, format_bytes));
    out += definition("faults/iter", format_or_missing(b.page_faults_per_iter, format_count));
    if (b.bytes_per_second)
        out += definition("throughput", format_byte_rate(*b.bytes_per_second));
    if (b.items_per_second)
        out += definition("throughput", format_item_rate(*b.items_per_second));
    for (const auto& [name, value] : b.counters)
        out +=
            "<dt>" + html_escape(one_line(name)) + "</dt><dd>" + html_escape(format_count(value)) + "</dd>\n";
    return out + "</dl>\n";
}

// Which samples lie beyond Tukey's fences (mild 1.5 IQR, severe 3 IQR, quartiles as
// stats/outliers.cpp takes them), over the finite samples: 0, 1 mild or 2 severe per sample.
std::vector<int> outlier_marks(const std::vector<double>& xs) {
    std::vector<double> sorted;
    for (const double x : xs) {
        if (std::isfinite(x))
            sorted.push_back(x);
    }
    std::vector<int> marks(xs.size(), 0);
    if (sorted.size() < 2)
        return marks;
    std::sort(sorted.begin(), sorted.end());
    const double q1 = stats::quantile_sorted(sorted, 0.25);
    const double q3 = stats::quantile_sorted(sorted, 0.75);
    const double iqr = q3 - q1;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const double x = xs[i];
        if (!std::isfinite(x))
            continue;
        if (x < q1 - 3 * iqr || x > q3 + 3 * iqr)
            marks[i] = 2;
        else if (x < q1 - 1.5 * iqr || x > q3 + 1.5 * iqr)
            marks[i] = 1;
    }
    return marks;
}

// A chart draws at most this many dots: past it the page grows with the samples (a dot and its
// tooltip are some 250 bytes) and the browser stalls, while the eye sees no more. tare itself
// takes at most 10,000 samples; a file merged or written elsewhere can hold millions.
constexpr std::size_t max_dots = 2000;

// Every stride-th sample is drawn (1: all); the figures are always computed on all of them.
std::size_t dot_stride(std::size_t samples) {
    return samples <= max_dots ? 1 : (samples + max_dots - 1) / max_dots;
}

// "2nd", "11th", "23rd": the stride as the caption says it.
std::string ordinal(std::size_t n) {
    const std::size_t tens = n % 100;
    const char* suffix = "th";
    if (tens < 11 || tens > 13) {
        suffix = n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
    }
    return fmt::format("{}{}", n, suffix);
}

std::string thinned_note(std::size_t samples, std::size_t stride) {
    if (stride == 1)
        return {};
    return fmt::format(
        " Drawn: every {} of the {} samples, and the fastest and slowest; every figure is "
        "over all of them.",
        ordinal(stride), samples);
}

std::string figure(const std::string& svg, const std::string& caption) {
    if (svg.empty())
        return "<p>" + html_escape(caption) + " Nothing finite to plot.</p>\n";
    return "<figure>\n" + svg + "<figcaption>" + html_escape(caption) + "</figcaption>\n</figure>\n";
}

std::string time_plot(const benchmark_result& b) {
    detail::scatter_plot plot;
    plot.title = one_line(b.name) + ": time per iteration of each sample";
    plot.x_title = "sample, in run order";
    plot.y_title = "time / iteration";
    plot.integer_x = true;
    const auto marks = outlier_marks(b.samples_ns);
    const std::size_t stride = dot_stride(b.samples_ns.size());
    const auto [fastest, slowest] = std::minmax_element(b.samples_ns.begin(), b.samples_ns.end());
    std::size_t skipped = 0;
    for (std::size_t i = 0; i < b.samples_ns.size(); ++i) {
        const double ns = b.samples_ns[i];
        if (!std::isfinite(ns))
            ++skipped;
        const auto at = b.samples_ns.begin() + static_cast<std::ptrdiff_t>(i);
        if (i % stride != 0 && at != fastest && at != slowest)
            continue;
        std::string tooltip = fmt::format("sample {}: {}/iter", i + 1, format_duration(ns));
        if (i < b.samples.size())
            tooltip += fmt::format(" over {} iterations",
                                   format_count(static_cast<double>(b.samples[i].iterations)));
        plot.points.push_back({static_cast<double>(i + 1), ns, marks[i], std::move(tooltip)});
    }
    std::string caption = "Per-iteration time of each sample, in run order. Line: the mean, " +
                          format_duration(b.time.mean) + "." + thinned_note(b.samples_ns.size(), stride);
    if (std::isfinite(b.time.mean))
        plot.lines.push_back({b.time.mean, 0, "mean"});
    if (b.time.ci) {
        const std::string interval =
            format_duration(b.time.ci->low) + " to " + format_duration(b.time.ci->high);
        if (std::isfinite(b.time.ci->low) && std::isfinite(b.time.ci->high)) {
            plot.band = {b.time.ci->low, b.time.ci->high};
            caption += " Band: its 95 % interval, " + interval + ".";
        } else {
            caption += " Its 95 % interval, " + interval + ", is not drawn.";
        }
    }
    if (std::any_of(marks.begin(), marks.end(), [](int m) { return m > 0; }))
        caption += " Ringed: samples beyond Tukey's fences (orange 1.5 IQR, red 3 IQR from the quartiles).";
    if (skipped > 0)
        caption +=
            fmt::format(" {} sample{} not finite, not plotted.", skipped, skipped == 1 ? " is" : "s are");
    return figure(detail::render_scatter(plot), caption);
}

// The live heap of the region at each sample's end against the iterations run by then: the
// points retained/iter is the least-squares slope of (core/metrics.cpp), with that line drawn
// through their means.
std::string heap_plot(const benchmark_result& b) {
    detail::scatter_plot plot;
    plot.title = one_line(b.name) + ": live heap at each sample's end";
    plot.x_title = "iterations run";
    plot.y_title = "live heap";
    plot.x_kind = detail::axis_kind::count;
    plot.y_kind = detail::axis_kind::bytes;
    plot.connect = true;
    plot.height = 200;
    double sum_x = 0;
    double sum_y = 0;
    const std::size_t stride = dot_stride(b.samples.size());
    for (std::size_t i = 0; i < b.samples.size(); ++i) {
        const sample& s = b.samples[i];
        const auto x = static_cast<double>(s.iterations_before + s.iterations);
        const auto y = static_cast<double>(s.live_bytes_end);
        sum_x += x;
        sum_y += y;
        if (i % stride != 0 && i + 1 != b.samples.size())
            continue;
        plot.points.push_back(
            {x, y, 0,
             fmt::format("sample {}: {} live after {} iterations", i + 1, format_bytes(y), format_count(x))});
    }
    std::string caption =
        "Live heap of the timed region at each sample's end, against the iterations run by then." +
        (stride == 1 ? std::string()
                     : fmt::format(" Drawn: every {} of the {} samples, and the last.", ordinal(stride),
                                   b.samples.size()));
    const auto slope = b.retained_bytes_per_iter;
    if (b.samples.size() >= 2 && slope && std::isfinite(*slope)) {
        const auto n = static_cast<double>(b.samples.size());
        plot.lines.push_back({sum_y / n - *slope * (sum_x / n), *slope, "fit"});
        caption +=
            " Dashed: the least-squares line, whose slope is retained/iter, " + format_bytes(*slope) + ".";
    }
    return figure(detail::render_scatter(plot), caption);
}

std::string findings(const benchmark_result& b) {
    if (b.warnings.empty() && !b.error)
        return {};
    std::string out = "<ul class=\"findings\">\n";
    for (const auto& w : b.warnings) {
        out +=
            fmt::format("<li><strong class=\"warning\">warning: {}</strong> {}</li>\n",
                        html_escape(one_line(w.kind.empty() ? "warning" : w.kind)), html_escape(w.message));
    }
    if (b.error) {
        out += fmt::format("<li class=\"error\"><strong>error: {}</strong>",
                           html_escape(one_line(b.error->kind.empty() ? "unknown" : b.error->kind)));
        if (!b.error->message.empty())
            out += "<pre>" + html_escape(b.error->message) + "</pre>";
        out += "</li>\n";
    }
    return out + "</ul>\n";
}

// A table of sites (--alloc-sites): one row a call stack, the stack itself folded under the
// function's name, the whole names kept there.
std::string sites_table(const std::vector<alloc_site>& sites, bool retained) {
    std::string out = fmt::format(
        "<table class=\"sites\">\n<caption>{}</caption>\n<thead><tr><th>share</th><th>allocs/iter</th>"
        "<th>bytes/iter</th><th>thread</th><th>site</th><th>at</th></tr></thead>\n<tbody>\n",
        retained
            ? "Retained: the call stacks of the blocks the diagnostic pass left live, per iteration"
            : "Allocation sites: where the timed region allocates, per iteration of the diagnostic pass");
    for (const alloc_site& site : sites) {
        std::string stack;
        for (const stack_frame& f : site.stack) {
            std::string where =
                f.file ? html_escape(*f.file) + (f.line ? ":" + std::to_string(*f.line) : "") : "";
            stack += fmt::format("<li><code>{}</code>{}</li>", html_escape(f.function),
                                 where.empty() ? "" : " " + where);
        }
        out += fmt::format(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><details><summary><code>{}</code></summary>"
            "<ol>{}</ol></details></td><td>{}</td></tr>\n",
            html_escape(format_percent(100 * site.share)), html_escape(format_count(site.allocs_per_iter)),
            html_escape(format_bytes(site.bytes_per_iter)),
            site.thread == 0 ? "main" : std::to_string(site.thread),
            html_escape(detail::short_function(site.stack.front().function)), stack,
            html_escape(detail::site_location(site)));
    }
    return out + "</tbody>\n</table>\n";
}

std::string benchmark_section(const benchmark_result& b, std::size_t index) {
    std::string out = fmt::format("<section class=\"benchmark\" id=\"{}\">\n<h2><code>{}</code></h2>\n",
                                  section_id(index), html_escape(one_line(b.name)));
    out += findings(b);
    if (!failed(b)) {
        out += figures(b);
        if (!b.samples_ns.empty())
            out += time_plot(b);
        if (!b.samples.empty() && b.sample_heap_measured)
            out += heap_plot(b);
        if (!b.alloc_sites.empty())
            out += sites_table(b.alloc_sites, false);
        if (!b.retained_sites.empty())
            out += sites_table(b.retained_sites, true);
    }
    return out + "</section>\n";
}

class html_reporter final : public reporter<run_results> {
public:
    std::string render(const run_results& results) const override {
        const std::string executable = one_line(results.context.executable);
        std::string out = page_header(results.context);
        out += "<main>\n";
        if (results.benchmarks.empty()) {
            out += "<p>No benchmarks ran.</p>\n";
        } else {
            out += "<section id=\"summary\">\n<h2>Summary</h2>\n" + summary_table(results) + "</section>\n";
            if (!results.comparisons.empty())
                out += comparisons_section(results);
            for (std::size_t i = 0; i < results.benchmarks.size(); ++i)
                out += benchmark_section(results.benchmarks[i], i);
        }
        return detail::html_page("tare report" + (executable.empty() ? "" : ": " + executable),
                                 out + "</main>\n");
    }
};

}  // namespace

template <>
std::unique_ptr<reporter<run_results>> make_html_reporter() {
    return std::make_unique<html_reporter>();
}

}  // namespace tare::report
