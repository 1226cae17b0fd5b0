// A benchmark's section of the run's HTML page: its findings, its figures, the plots of its
// samples (per-iteration time in run order beside their distribution) and of its live heap, and
// its allocation sites (html_run.hpp).
//
// The time axis is robust: samples beyond Tukey's far fences (3 IQR from the quartiles, the IQR
// taken as at least 1 % of the median so a flat run keeps a readable span) are drawn as
// triangles on the axis's edge and counted in the caption, so one 19 ms sample cannot flatten
// fifty at 1.4 ms into a line. Rejected: a logarithmic time axis, which keeps the outlier
// on screen but squeezes the spread that matters into a few pixels.

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "report/html/html_flame.hpp"
#include "report/html/html_forest.hpp"
#include "report/html/html_run.hpp"
#include "report/html/html_svg.hpp"
#include "report/run_table.hpp"
#include "report/table/units.hpp"
#include "stats/descriptive.hpp"

namespace tare::report::detail {
namespace {

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

// --instrument's figures in place of the time's (docs/instructions.md): counts, not time.
std::string count_figures(const instruction_counts& c) {
    std::string out;
    out += definition("instructions/iter",
                      format_exact_count(c.instructions) + " (" + c.instrument + ", counted, not timed)");
    const auto add = [&](const char* label, const std::optional<double>& v) {
        if (v)
            out += definition(label, format_exact_count(*v));
    };
    add("est. cycles/iter", c.estimated_cycles);
    add("data reads/iter", c.data_reads);
    add("data writes/iter", c.data_writes);
    add("L1 misses/iter", c.l1_misses);
    add("LL misses/iter", c.ll_misses);
    out += definition("iterations", format_exact_count(static_cast<double>(c.iterations)) + " counted");
    return out;
}

std::string timed_figures(const benchmark_result& b) {
    const auto& t = b.time;
    std::string out = definition("time/iter", format_duration(t.mean) + " mean");
    if (t.ci) {
        out +=
            definition("95% interval",
                       fmt::format("{} to {} (± {})", format_duration(t.ci->low), format_duration(t.ci->high),
                                   format_relative_half_width(t.mean, t.ci->low, t.ci->high)));
    }
    out += definition("median · stddev", format_duration(t.median) + " · " + format_duration(t.stddev));
    const std::size_t count = b.samples.empty() ? b.samples_ns.size() : b.samples.size();
    if (count == 0) {
        // Figures summarised elsewhere (Google Benchmark's aggregates only): no min, max or count.
        out += definition("samples", "none in the file (aggregates only): no min, max or interval");
    } else {
        out += definition("min · max", format_duration(t.min) + " · " + format_duration(t.max));
        out += definition(
            "samples", fmt::format("{} sample{}, {} iterations", format_count(static_cast<double>(count)),
                                   count == 1 ? "" : "s", format_count(static_cast<double>(b.iterations))));
    }
    out += definition("outliers", outlier_text(b.outliers));
    return out;
}

std::string figures(const benchmark_result& b) {
    std::string out = "<dl class=\"figures\">\n";
    out += b.counts ? count_figures(*b.counts) : timed_figures(b);
    out += definition("allocs/iter", format_or_missing(b.allocs_per_iter, format_count));
    out += definition("bytes/iter", format_or_missing(b.bytes_per_iter, format_bytes));
    if (b.mapped_bytes_per_iter.value_or(0) > 0)
        out += definition("mapped/iter", format_bytes(*b.mapped_bytes_per_iter) + " (mmap)");
    out += definition("peak heap", format_or_missing(b.peak_live_bytes, [](std::int64_t v) {
                          return format_bytes(static_cast<double>(v));
                      }));
    out += definition("retained/iter", format_or_missing(b.retained_bytes_per_iter, format_bytes));
    if (!b.counts)  // a simulator's page faults are its own
        out += definition("faults/iter", format_or_missing(b.page_faults_per_iter, format_count));
    if (b.copied_bytes_per_iter)
        out += definition("copied/iter", format_bytes(*b.copied_bytes_per_iter) + " (memcpy, memmove)");
    if (b.set_bytes_per_iter)
        out += definition("set/iter", format_bytes(*b.set_bytes_per_iter) + " (memset)");
    if (b.bytes_per_second)
        out += definition("throughput", format_byte_rate(*b.bytes_per_second));
    if (b.items_per_second)
        out += definition("throughput", format_item_rate(*b.items_per_second));
    for (const auto& [name, value] : b.counters)
        out +=
            "<dt>" + html_escape(one_line(name)) + "</dt><dd>" + html_escape(format_count(value)) + "</dd>\n";
    if (b.label)
        out += definition("label", one_line(*b.label));
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

// The y range a time axis shows: Tukey's far fences, with the IQR taken as at least 1 % of the
// median; empty when no finite sample lies beyond them (nothing to clip).
std::optional<std::pair<double, double>> robust_range(const std::vector<double>& xs) {
    std::vector<double> sorted;
    for (const double x : xs) {
        if (std::isfinite(x))
            sorted.push_back(x);
    }
    if (sorted.size() < 4)
        return std::nullopt;
    std::sort(sorted.begin(), sorted.end());
    const double q1 = stats::quantile_sorted(sorted, 0.25);
    const double q3 = stats::quantile_sorted(sorted, 0.75);
    const double iqr = std::max(q3 - q1, 0.01 * std::abs(stats::quantile_sorted(sorted, 0.5)));
    const std::pair<double, double> range{q1 - 3 * iqr, q3 + 3 * iqr};
    if (sorted.front() >= range.first && sorted.back() <= range.second)
        return std::nullopt;
    return range;
}

std::size_t clipped_count(const std::vector<double>& xs,
                          const std::optional<std::pair<double, double>>& clip) {
    return clip ? static_cast<std::size_t>(std::count_if(
                      xs.begin(), xs.end(),
                      [&](double x) { return std::isfinite(x) && (x < clip->first || x > clip->second); }))
                : 0;
}

std::string clipped_note(std::size_t clipped) {
    if (clipped == 0)
        return {};
    return fmt::format(
        " {} sample{} beyond the axis {} drawn as {} on its edge, and counted at the distribution's end.",
        clipped, clipped == 1 ? "" : "s", clipped == 1 ? "is" : "are",
        clipped == 1 ? "a triangle" : "triangles");
}

std::string time_plot(const benchmark_result& b, const std::optional<std::pair<double, double>>& clip) {
    scatter_plot plot;
    plot.title = one_line(b.name) + ": time per iteration of each sample";
    plot.x_title = "sample, in run order";
    plot.y_title = "time / iteration";
    plot.integer_x = true;
    plot.width = 780;
    plot.y_clip = clip;
    plot.distribution = b.samples_ns;
    const auto marks = outlier_marks(b.samples_ns);
    const std::size_t stride = dot_stride(b.samples_ns.size());
    const auto [fastest, slowest] = std::minmax_element(b.samples_ns.begin(), b.samples_ns.end());
    std::size_t skipped = 0;
    for (std::size_t i = 0; i < b.samples_ns.size(); ++i) {
        const double ns = b.samples_ns[i];
        if (!std::isfinite(ns))
            ++skipped;
        const auto at = b.samples_ns.begin() + static_cast<std::ptrdiff_t>(i);
        const bool extreme = at == fastest || at == slowest;
        if (i % stride != 0 && !extreme)
            continue;
        // Tooltips on the samples a reader asks about: the outliers, and in a thinned plot the
        // extremes drawn off the stride (the figures above give both).
        std::string tooltip;
        if ((extreme && stride > 1) || marks[i] > 0 || (clip && (ns < clip->first || ns > clip->second))) {
            tooltip = fmt::format("sample {}: {}/iter", i + 1, format_duration(ns));
            if (i < b.samples.size())
                tooltip += fmt::format(" over {} iterations",
                                       format_count(static_cast<double>(b.samples[i].iterations)));
        }
        plot.points.push_back({static_cast<double>(i + 1), ns, marks[i], std::move(tooltip)});
    }
    plot.legend.push_back({legend_mark::dot, "", "sample"});
    plot.legend.push_back({legend_mark::bar, "bar", "distribution"});
    const std::size_t finite = static_cast<std::size_t>(
        std::count_if(b.samples_ns.begin(), b.samples_ns.end(), [](double x) { return std::isfinite(x); }));
    // The legend names the marks and the figures above give the mean and its interval, so the
    // caption says only what neither does.
    std::string caption =
        fmt::format("Each sample's time per iteration in run order; right, their distribution ({} bins).",
                    histogram_bins(finite - clipped_count(b.samples_ns, clip))) +
        thinned_note(b.samples_ns.size(), stride);
    if (std::isfinite(b.time.mean)) {
        if (clip && (b.time.mean < clip->first || b.time.mean > clip->second)) {
            caption += " The mean, " + format_duration(b.time.mean) +
                       ", lies beyond the axis: the outliers pulled it there; the median is " +
                       format_duration(b.time.median) + ".";
        } else {
            plot.lines.push_back({b.time.mean, 0, "mean"});
            plot.legend.push_back({legend_mark::line, "mean", "mean"});
        }
    }
    if (b.time.ci) {
        const std::string interval =
            format_duration(b.time.ci->low) + " to " + format_duration(b.time.ci->high);
        if (std::isfinite(b.time.ci->low) && std::isfinite(b.time.ci->high)) {
            plot.band = {b.time.ci->low, b.time.ci->high};
            plot.legend.push_back({legend_mark::band, "band", "95% interval"});
        } else {
            caption += " Its 95 % interval, " + interval + ", is not drawn.";
        }
    }
    if (std::any_of(marks.begin(), marks.end(), [](int m) { return m > 0; })) {
        caption += " Ringed: beyond Tukey's fences (orange 1.5, red 3 IQR from the quartiles).";
        plot.legend.push_back({legend_mark::ring, "mild", "outlier"});
    }
    const std::size_t clipped = clipped_count(b.samples_ns, clip);
    if (clipped > 0)
        plot.legend.push_back({legend_mark::clipped, "", "beyond the axis"});
    caption += clipped_note(clipped);
    if (skipped > 0)
        caption +=
            fmt::format(" {} sample{} not finite, not plotted.", skipped, skipped == 1 ? " is" : "s are");
    return figure(render_scatter(plot), caption);
}

// The live heap of the region at each sample's end against the iterations run by then: the
// points retained/iter is the least-squares slope of (core/metrics.cpp), with that line drawn
// through their means.
std::string heap_plot(const benchmark_result& b) {
    scatter_plot plot;
    plot.title = one_line(b.name) + ": live heap at each sample's end";
    plot.x_title = "iterations run";
    plot.y_title = "live heap";
    plot.x_kind = axis_kind::count;
    plot.y_kind = axis_kind::bytes;
    plot.connect = true;
    plot.height = 200;
    plot.legend.push_back({legend_mark::trace, "", "live heap"});
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
        // The last point's tooltip says where the heap ended; the rest are one path.
        std::string tooltip;
        if (i + 1 == b.samples.size())
            tooltip = fmt::format("sample {}: {} live after {} iterations", i + 1, format_bytes(y),
                                  format_count(x));
        plot.points.push_back({x, y, 0, std::move(tooltip)});
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
        plot.legend.push_back({legend_mark::line, "fit", "least-squares line"});
        caption +=
            " Dashed: the least-squares line, whose slope is retained/iter, " + format_bytes(*slope) + ".";
    }
    return figure(render_scatter(plot), caption);
}

// A heap that ends every sample at the same size is a flat line: said in words, not drawn (a
// page of 1,000 benchmarks would otherwise carry 1,000 flat lines).
std::string heap_figure(const benchmark_result& b) {
    const auto first = b.samples.front().live_bytes_end;
    const bool flat = std::all_of(b.samples.begin(), b.samples.end(),
                                  [&](const sample& s) { return s.live_bytes_end == first; });
    if (!flat)
        return heap_plot(b);
    return fmt::format("<p class=\"note\">Live heap of the timed region at every sample's end: {}.</p>\n",
                       html_escape(format_bytes(static_cast<double>(first))));
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

// The thread column of a site: "main", "2", or several threads' numbers.
std::string thread_cell(const alloc_site& site) {
    if (site.threads.empty())
        return site.thread == 0 ? "main" : std::to_string(site.thread);
    std::string out;
    for (const thread_share& t : site.threads)
        out += (out.empty() ? "" : ", ") + (t.thread == 0 ? std::string("main") : std::to_string(t.thread));
    return out;
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
            html_escape(format_bytes(site.bytes_per_iter)), thread_cell(site),
            html_escape(short_function(site.stack.front().function)), stack,
            html_escape(site_location(site)));
    }
    return out + "</tbody>\n</table>\n";
}

// A profiled benchmark's functions by their own instructions (--profile), the ten largest.
std::string functions_table(const instruction_profile& p) {
    if (p.functions.empty())
        return {};
    double total = 0;
    for (const profile_stack& s : p.stacks)
        total += s.self;
    std::string out =
        "<table class=\"functions\">\n<caption>Functions by their own instructions per iteration (callees "
        "excluded)</caption>\n<thead><tr><th>function</th><th>instructions/iter</th><th>share</th></tr></"
        "thead>"
        "\n<tbody>\n";
    for (std::size_t i = 0; i < std::min<std::size_t>(10, p.functions.size()); ++i) {
        const function_cost& f = p.functions[i];
        out +=
            fmt::format("<tr><td class=\"fn\"><code title=\"{}\">{}</code></td><td>{}</td><td>{}</td></tr>\n",
                        html_escape(f.function), html_escape(short_function(f.function)),
                        html_escape(format_exact_count(f.self)),
                        total > 0 ? html_escape(format_percent(100 * f.self / total)) : "");
    }
    return out + "</tbody>\n</table>\n";
}

}  // namespace

std::string benchmark_section(const benchmark_result& b, std::size_t index) {
    std::string out = fmt::format("<section class=\"benchmark\" id=\"{}\">\n<h2><code>{}</code></h2>\n",
                                  section_id(index), html_escape(one_line(b.name)));
    out += findings(b);
    if (!b.error) {
        out += figures(b);
        if (!b.samples_ns.empty()) {
            const auto clip = robust_range(b.samples_ns);
            out += time_plot(b, clip);
        }
        if (!b.samples.empty() && b.sample_heap_measured)
            out += heap_figure(b);
        if (b.profile)
            out += functions_table(*b.profile) +
                   flame_graph(
                       instruction_stacks(*b.profile),
                       "Instructions by call stack, per iteration: each frame as wide as its instructions "
                       "and its callees'; click a frame to zoom, \"all\" to go back",
                       "instructions/iter", false);
        if (!b.alloc_sites.empty())
            out += sites_table(b.alloc_sites, false);
        if (!b.retained_sites.empty())
            out += sites_table(b.retained_sites, true);
        if (b.sites && !b.alloc_sites.empty())
            out +=
                flame_graph(allocation_stacks(b.alloc_sites),
                            "Bytes allocated by call stack, per iteration of the diagnostic pass (the sites "
                            "above); click a frame to zoom",
                            "/iter", true);
    }
    return out + "</section>\n";
}

}  // namespace tare::report::detail
