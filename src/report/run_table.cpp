#include "report/run_table.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "report/function_reporter.hpp"
#include "report/table/units.hpp"

namespace tare::report::detail {
namespace {

using cell = std::vector<std::string>;

cell single(std::string text) {
    return cell{std::move(text)};
}
cell blank() {
    return single("");
}

bool failed(const benchmark_result& b) {
    return b.error.has_value();
}

cell time_cell(const benchmark_result& b) {
    if (failed(b)) {
        const std::string kind = b.error->kind.empty() ? "unknown" : one_line(b.error->kind);
        return single("error: " + kind);
    }
    // One sample has no spread to bound the mean with: "—", not a misleading "± 0.0%".
    if (!b.time.ci) {
        return {format_duration(b.time.mean), std::string(missing_mark)};
    }
    return {format_duration(b.time.mean),
            format_relative_half_width(b.time.mean, b.time.ci->low, b.time.ci->high)};
}

// "8 × 16k": samples, and iterations per sample. Samples of unequal length (a ramp) show the
// range; imported results that only carry per-sample times show the average; results with no
// samples at all show the iteration total alone.
cell samples_cell(const benchmark_result& b) {
    if (failed(b))
        return blank();
    const std::size_t count = !b.samples.empty() ? b.samples.size() : b.samples_ns.size();
    if (count == 0) {
        return single(b.iterations == 0 ? std::string(missing_mark)
                                        : format_count(static_cast<double>(b.iterations)));
    }
    std::string per_sample;
    if (!b.samples.empty()) {
        const auto [low, high] =
            std::minmax_element(b.samples.begin(), b.samples.end(),
                                [](const sample& x, const sample& y) { return x.iterations < y.iterations; });
        per_sample = format_count(static_cast<double>(low->iterations));
        if (low->iterations != high->iterations) {
            per_sample += "–" + format_count(static_cast<double>(high->iterations));
        }
    } else {
        per_sample = format_count(static_cast<double>(b.iterations) / static_cast<double>(count));
    }
    return {format_count(static_cast<double>(count)), std::move(per_sample)};
}

template <class T, class Format>
cell figure(const benchmark_result& b, const std::optional<T>& value, Format format) {
    if (failed(b))
        return blank();
    return single(format_or_missing(value, format));
}

std::string format_peak(std::int64_t bytes) {
    return format_bytes(static_cast<double>(bytes));
}

bool has_throughput(const benchmark_result& b) {
    return !failed(b) && (b.bytes_per_second || b.items_per_second);
}

cell throughput_cell(const benchmark_result& b) {
    if (failed(b))
        return blank();
    std::vector<std::string> rates;
    if (b.bytes_per_second)
        rates.push_back(format_byte_rate(*b.bytes_per_second));
    if (b.items_per_second)
        rates.push_back(format_item_rate(*b.items_per_second));
    if (rates.empty())
        return single(std::string(missing_mark));
    return single(fmt::format("{}", fmt::join(rates, " · ")));
}

std::vector<std::string> counter_names(const run_results& results) {
    std::vector<std::string> names;
    for (const auto& b : results.benchmarks) {
        if (failed(b))
            continue;
        for (const auto& [name, value] : b.counters) {
            if (std::find(names.begin(), names.end(), name) == names.end())
                names.push_back(name);
        }
    }
    return names;
}

cell counter_cell(const benchmark_result& b, const std::string& name) {
    if (failed(b))
        return blank();
    const auto it = std::find_if(b.counters.begin(), b.counters.end(),
                                 [&](const auto& counter) { return counter.first == name; });
    return single(it == b.counters.end() ? std::string(missing_mark) : format_count(it->second));
}

cell warning_kinds_cell(const benchmark_result& b) {
    std::vector<std::string> kinds;
    for (const auto& w : b.warnings) {
        std::string kind = one_line(w.kind.empty() ? "warning" : w.kind);
        if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
            kinds.push_back(std::move(kind));
    }
    return single(fmt::format("{}", fmt::join(kinds, ", ")));
}

template <class Make>
column make_column(const run_results& results, std::string header, std::string separator, Make make) {
    column c{std::move(header), align::right, {}, {}, false};
    if (!separator.empty())
        c.separators.push_back(std::move(separator));
    c.cells.reserve(results.benchmarks.size());
    for (const auto& b : results.benchmarks)
        c.cells.push_back(make(b));
    return c;
}

}  // namespace

std::vector<column> build_columns(const run_results& results) {
    std::vector<column> columns;
    column names =
        make_column(results, "benchmark", "", [](const auto& b) { return single(one_line(b.name)); });
    names.alignment = align::left;
    names.names = true;
    columns.push_back(std::move(names));
    columns.push_back(make_column(results, "time/iter ± 95% CI", " ± ", time_cell));
    columns.push_back(make_column(results, "samples", " × ", samples_cell));
    columns.push_back(make_column(results, "allocs/iter", "", [](const benchmark_result& b) {
        return figure(b, b.allocs_per_iter, format_count);
    }));
    columns.push_back(make_column(results, "bytes/iter", "", [](const benchmark_result& b) {
        return figure(b, b.bytes_per_iter, format_bytes);
    }));
    columns.push_back(make_column(results, "peak heap", "", [](const benchmark_result& b) {
        return figure(b, b.peak_live_bytes, format_peak);
    }));
    columns.push_back(make_column(results, "faults/iter", "", [](const benchmark_result& b) {
        return figure(b, b.page_faults_per_iter, format_count);
    }));
    // Only with tare::copies linked: bytes through memcpy/memmove/mempcpy, and through memset.
    if (std::any_of(results.benchmarks.begin(), results.benchmarks.end(),
                    [](const benchmark_result& b) { return b.copied_bytes_per_iter.has_value(); })) {
        columns.push_back(make_column(results, "copied/iter", "", [](const benchmark_result& b) {
            return figure(b, b.copied_bytes_per_iter, format_bytes);
        }));
        columns.push_back(make_column(results, "set/iter", "", [](const benchmark_result& b) {
            return figure(b, b.set_bytes_per_iter, format_bytes);
        }));
    }
    if (std::any_of(results.benchmarks.begin(), results.benchmarks.end(), has_throughput)) {
        columns.push_back(make_column(results, "throughput", "", throughput_cell));
    }
    for (const auto& name : counter_names(results)) {
        columns.push_back(make_column(results, one_line(name), "",
                                      [&](const benchmark_result& b) { return counter_cell(b, name); }));
    }
    // The kinds of each row's warnings, so the table alone shows which rows to distrust; the
    // messages follow the table.
    if (std::any_of(results.benchmarks.begin(), results.benchmarks.end(),
                    [](const benchmark_result& b) { return !b.warnings.empty(); })) {
        column warnings = make_column(results, "warnings", "", warning_kinds_cell);
        warnings.alignment = align::left;
        for (const benchmark_result& b : results.benchmarks)
            warnings.tones.push_back(b.warnings.empty() ? table::tone::none : table::tone::warn);
        columns.push_back(std::move(warnings));
    }
    // On a narrow terminal (table/document.hpp) the counters go first, then the samples, the
    // throughput, the faults and the peak; the name, time, allocations, bytes and warnings stay.
    for (std::size_t i = 1; i < columns.size(); ++i) {
        column& c = columns[i];
        c.drop_rank = c.header == "samples"                                  ? 4
                      : c.header == "throughput" || c.header == "set/iter"   ? 3
                      : c.header == "faults/iter"                            ? 2
                      : c.header == "peak heap" || c.header == "copied/iter" ? 1
                      : c.header == "time/iter ± 95% CI" || c.header == "allocs/iter" ||
                              c.header == "bytes/iter" || c.header == "warnings"
                          ? 0
                          : 5;  // a counter
    }
    for (const benchmark_result& b : results.benchmarks)
        columns[1].tones.push_back(b.error ? table::tone::bad : table::tone::none);  // "error: kind"
    return columns;
}

namespace {

const benchmark_result* find_row(const run_results& results, const std::string& name) {
    const auto it = std::find_if(results.benchmarks.begin(), results.benchmarks.end(),
                                 [&](const benchmark_result& b) { return b.name == name; });
    return it == results.benchmarks.end() || failed(*it) ? nullptr : &*it;
}

std::string signed_percent(double pct) {
    return (pct >= 0 ? "+" : "") + format_percent(pct);
}

std::string change_text(const variant_comparison& c) {
    if (!c.change)
        return std::string(missing_mark);
    if (!c.change->interval_pct)
        return signed_percent(c.change->change_pct) + " [no interval]";
    return fmt::format("{} [{}, {}]", signed_percent(c.change->change_pct),
                       signed_percent(c.change->interval_pct->low),
                       signed_percent(c.change->interval_pct->high));
}

// A member's time per iteration as its change against the baseline uses it: the geometric mean
// over blocks of each block's median (the change is exp(mean log-ratio) - 1 over the blocks,
// i.e. the ratio of the two geometric means). The rows' own means weigh every outlier fully,
// and a table whose times disagree with its change misleads.
std::string block_time(const std::vector<double>& block_ns) {
    if (block_ns.empty())
        return std::string(missing_mark);
    double logs = 0;
    for (const double ns : block_ns) {
        if (!(ns > 0) || !std::isfinite(ns))
            return std::string(missing_mark);
        logs += std::log(ns);
    }
    return format_duration(std::exp(logs / static_cast<double>(block_ns.size())));
}

// "baseline → member", then the difference when there is one: memory figures are counts, not
// noisy timings, so the plain difference is the change a reader wants ("0 → 64 (+64)").
template <class T, class Format>
std::string memory_change(const benchmark_result* base, const benchmark_result* member,
                          std::optional<T> benchmark_result::*figure, Format format) {
    if (base == nullptr || member == nullptr || !(base->*figure) || !(member->*figure))
        return std::string(missing_mark);
    const auto b = static_cast<double>(*(base->*figure));
    const auto m = static_cast<double>(*(member->*figure));
    std::string text = format(b) + " → " + format(m);
    if (m != b && std::isfinite(m - b))
        text += " (" + std::string(m > b ? "+" : "-") + format(std::abs(m - b)) + ")";
    return text;
}

}  // namespace

std::vector<column> build_comparison_columns(const run_results& results) {
    const auto make = [&](std::string header, align alignment, auto cell_of) {
        column c{std::move(header), alignment, {}, {}, false};
        for (const auto& comparison : results.comparisons) {
            const benchmark_result* base = find_row(results, comparison.baseline);
            const benchmark_result* member = find_row(results, comparison.member);
            c.cells.push_back(cell_of(comparison, base, member));
        }
        return c;
    };
    using row = const benchmark_result*;
    std::vector<column> columns;
    columns.push_back(make("comparison", align::left,
                           [](const variant_comparison& c, row, row) { return single(one_line(c.name)); }));
    columns.back().names = true;
    columns.push_back(make("baseline", align::left, [](const variant_comparison& c, row, row) {
        return single(one_line(c.baseline));
    }));
    columns.back().names = true;
    columns.push_back(make("member", align::left,
                           [](const variant_comparison& c, row, row) { return single(one_line(c.member)); }));
    columns.back().names = true;
    columns.push_back(make("blocks", align::right, [](const variant_comparison& c, row, row) {
        return cell{format_count(static_cast<double>(c.blocks)),
                    format_count(static_cast<double>(c.samples_per_block))};
    }));
    columns.back().separators = {" × "};
    // The times the change is computed from: their ratio is the change, to the digit shown.
    columns.push_back(make("baseline time", align::right, [](const variant_comparison& c, row, row) {
        return single(block_time(c.baseline_block_ns));
    }));
    columns.push_back(make("member time", align::right, [](const variant_comparison& c, row, row) {
        return single(block_time(c.member_block_ns));
    }));
    columns.push_back(make("change [CI]", align::right,
                           [](const variant_comparison& c, row, row) { return single(change_text(c)); }));
    columns.push_back(make("verdict", align::left, [](const variant_comparison& c, row, row) {
        return single(std::string(verdict_name(c.verdict)));
    }));
    columns.push_back(make("allocs/iter", align::right, [](const variant_comparison&, row base, row member) {
        return single(memory_change(base, member, &benchmark_result::allocs_per_iter, format_count));
    }));
    columns.push_back(make("bytes/iter", align::right, [](const variant_comparison&, row base, row member) {
        return single(memory_change(base, member, &benchmark_result::bytes_per_iter, format_bytes));
    }));
    columns.push_back(make("peak heap", align::right, [](const variant_comparison&, row base, row member) {
        return single(memory_change(base, member, &benchmark_result::peak_live_bytes, format_bytes));
    }));
    if (std::any_of(results.benchmarks.begin(), results.benchmarks.end(),
                    [](const benchmark_result& b) { return b.copied_bytes_per_iter.has_value(); })) {
        columns.push_back(
            make("copied/iter", align::right, [](const variant_comparison&, row base, row member) {
                return single(
                    memory_change(base, member, &benchmark_result::copied_bytes_per_iter, format_bytes));
            }));
    }
    // On a narrow terminal (table/document.hpp): the blocks go first, then the times the change
    // already sums up, then the peak, the bytes and the group's name (the members' names carry
    // it); the members, change, verdict and allocations stay.
    for (column& c : columns) {
        c.drop_rank = c.header == "blocks"                                       ? 4
                      : c.header == "baseline time" || c.header == "member time" ? 3
                      : c.header == "peak heap" || c.header == "copied/iter"     ? 2
                      : c.header == "bytes/iter" || c.header == "comparison"     ? 1
                                                                                 : 0;
        if (c.header == "verdict") {
            for (const auto& comparison : results.comparisons)
                c.tones.push_back(comparison.verdict == verdict::slower   ? table::tone::bad
                                  : comparison.verdict == verdict::faster ? table::tone::good
                                                                          : table::tone::none);
        }
    }
    return columns;
}

std::string comparison_note(const run_results& results) {
    double confidence = 0;
    for (const auto& c : results.comparisons) {
        if (c.change)
            confidence = std::max(confidence, c.change->confidence);
    }
    if (confidence <= 0 || confidence >= 1)
        return {};
    // Bonferroni: each interval at 1 - 0.05 / m, so m follows from the level.
    const auto family = static_cast<long>(std::lround(0.05 / (1 - confidence)));
    std::string text = fmt::format(
        "change: the member's time per iteration against the baseline's, over blocks of interleaved "
        "calls (times: geometric mean of the blocks' medians); each interval at {:.1f}%",
        confidence * 100);
    if (family > 1)
        text += fmt::format(" (Bonferroni: 95% for the run's {} comparisons together)", family);
    return text + "; no_change whenever the interval includes 0";
}

namespace {

std::string per_iteration(double ns) {
    return std::isfinite(ns) ? format_duration(ns) + "/iter" : format_duration(ns);
}

}  // namespace

std::vector<std::string> context_lines(const run_context& context) {
    // Each line joins only the fields that are known; a blank host is left out, not printed "".
    const auto join = [](std::vector<std::string> fields) {
        fields.erase(std::remove(fields.begin(), fields.end(), std::string()), fields.end());
        return fmt::format("{}", fmt::join(fields, " · "));
    };
    const auto labelled = [](std::string_view label, const std::string& value) {
        return value.empty() ? std::string() : fmt::format("{} {}", label, one_line(value));
    };
    std::vector<std::string> lines;
    lines.push_back(join({labelled("tare", context.tare_version.empty() ? "?" : context.tare_version),
                          one_line(context.executable), one_line(context.date)}));
    lines.push_back(join({labelled("host", context.host), labelled("cpu", context.cpu),
                          context.num_cpus == 0
                              ? std::string()
                              : fmt::format("{} cpu{}", context.num_cpus, context.num_cpus == 1 ? "" : "s"),
                          "clock " + format_or_missing(context.clock_overhead_ns, format_duration),
                          "loop overhead " + format_or_missing(context.loop_overhead_ns, per_iteration)}));
    lines.push_back(context.accounting ? "accounting: on"
                                       : "accounting: off (allocation and heap figures unavailable)");
    if (context.interrupted) {
        lines.push_back("interrupted: the benchmarks below finished; the rest did not run");
    }
    if (context.processes > 1) {
        // What the ± now means: the spread of fresh processes, not of one process's samples.
        lines.push_back(
            fmt::format("{} fresh processes: time is the mean of their means, ± its 95 % interval "
                        "over processes",
                        context.processes));
    }
    return lines;
}

std::vector<finding> collect_findings(const run_results& results) {
    std::vector<finding> findings;
    for (const auto& b : results.benchmarks) {
        for (const auto& w : b.warnings) {
            findings.push_back({false, one_line(b.name), one_line(w.message.empty() ? w.kind : w.message)});
        }
    }
    for (const auto& b : results.benchmarks) {
        if (!failed(b))
            continue;
        std::string text = b.error->kind.empty() ? "unknown" : one_line(b.error->kind);
        if (!b.error->message.empty())
            text += ": " + one_line(b.error->message);
        findings.push_back({true, one_line(b.name), std::move(text)});
    }
    return findings;
}

namespace {

table::paragraph lines_of(const std::vector<std::string>& texts) {
    table::paragraph p;
    for (const std::string& text : texts)
        p.lines.push_back({{text}});
    return p;
}

table::grid grid_of(std::vector<column> columns) {
    return table::grid{std::move(columns)};
}

}  // namespace

std::string short_function(std::string_view name) {
    std::string out;
    constexpr std::string_view anonymous = "(anonymous namespace)::";
    for (std::size_t i = 0; i < name.size();) {
        if (name.substr(i, anonymous.size()) == anonymous) {
            i += anonymous.size();
            continue;
        }
        if (name[i] == '<' && (i == 0 || name[i - 1] != '<') &&
            name.substr(0, i).find("operator") == std::string_view::npos) {
            int depth = 0;
            std::size_t j = i;
            for (; j < name.size(); ++j) {
                depth += name[j] == '<' ? 1 : name[j] == '>' ? -1 : 0;
                if (depth == 0)
                    break;
            }
            if (j < name.size() && j - i > 30) {
                out += "<…>";
                i = j + 1;
                continue;
            }
        }
        out += name[i++];
    }
    return one_line(out);
}

std::string site_location(const alloc_site& site) {
    const stack_frame& at = site.stack.front();
    if (!at.file)
        return {};
    const auto slash = at.file->rfind('/');
    std::string out = one_line(slash == std::string::npos ? *at.file : at.file->substr(slash + 1));
    if (at.line)
        out += ":" + std::to_string(*at.line);
    return out;
}

namespace {

// A site as one line: "3.00 allocs/iter, 1.17 KiB/iter (75.0%): body → helper at file.cpp:61",
// the stack from the body in, at most four frames (the body, "…", the two innermost), then
// where the innermost allocates; "thread N" for another thread's.
std::string site_text(const alloc_site& site, bool retained) {
    std::string where;
    const auto& stack = site.stack;
    for (std::size_t k = stack.size(); k-- > 0;) {
        if (stack.size() > 4 && k < stack.size() - 1 && k > 1) {
            if (k == 2)
                where += " → …";
            continue;
        }
        where += (where.empty() ? "" : " → ") + short_function(stack[k].function);
    }
    if (const std::string at = site_location(site); !at.empty())
        where += " at " + at;
    std::string figures = retained ? format_bytes(site.bytes_per_iter) + "/iter still live"
                                   : format_count(site.allocs_per_iter) + " allocs/iter, " +
                                         format_bytes(site.bytes_per_iter) + "/iter";
    figures += " (" + format_percent(100 * site.share) + ")";
    if (site.thread != 0)
        figures += " in thread " + std::to_string(site.thread);
    return figures + ": " + where;
}

// Where each benchmark of an --alloc-sites run allocates, and, where its heap grows, what
// holds the growth (docs/reading-results.md, "Allocation sites").
table::item_list site_items(const run_results& results) {
    table::item_list items;
    for (const auto& b : results.benchmarks) {
        if (!b.sites || failed(b))
            continue;
        for (const alloc_site& site : b.alloc_sites)
            items.items.push_back(
                {"site", {{one_line(b.name), table::style::code}, {": " + site_text(site, false)}}});
        const bool grows = std::any_of(b.warnings.begin(), b.warnings.end(),
                                       [](const warning& w) { return w.kind == "retained_growth"; });
        if (grows) {
            for (const alloc_site& site : b.retained_sites)
                items.items.push_back(
                    {"retained", {{one_line(b.name), table::style::code}, {": " + site_text(site, true)}}});
        }
        if (b.sites->dropped > 0) {
            items.items.push_back(
                {"note",
                 {{one_line(b.name), table::style::code},
                  {": " + std::to_string(b.sites->dropped) + " of " + std::to_string(b.sites->allocations) +
                   " allocations of the pass were counted but not located"}}});
        }
    }
    return items;
}

// The comparison groups in one line, above their table: "comparison groups: 1 faster, 1 slower,
// 1 no change" ("not computed" added for members without a change, a failed member's).
table::paragraph variant_summary(const run_results& results) {
    std::size_t faster = 0, slower = 0, same = 0, none = 0;
    for (const variant_comparison& c : results.comparisons) {
        if (!c.change)
            ++none;
        else if (c.verdict == verdict::faster)
            ++faster;
        else if (c.verdict == verdict::slower)
            ++slower;
        else
            ++same;
    }
    std::string text = fmt::format("{} faster, {} slower, {} no change", faster, slower, same);
    if (none > 0)
        text += fmt::format(", {} not computed", none);
    return table::paragraph{{{{"comparison groups: "}, {text, table::style::strong}}}};
}

}  // namespace

table::document run_document(const run_results& results) {
    table::document doc;
    doc.add(lines_of(context_lines(results.context)));
    if (results.benchmarks.empty()) {
        doc.add(table::paragraph{{{{"no benchmarks ran", table::style::note}}}});
        return doc;
    }
    doc.add(grid_of(build_columns(results)));
    if (!results.comparisons.empty()) {
        doc.add(variant_summary(results));
        doc.add(grid_of(build_comparison_columns(results)), /*joined=*/true);
        if (std::string note = comparison_note(results); !note.empty())
            doc.add(lines_of({std::move(note)}), /*joined=*/true);
    }
    table::item_list findings;
    for (finding& f : collect_findings(results)) {
        findings.items.push_back(
            {f.is_error ? "error" : "warning",
             {{std::move(f.benchmark), table::style::code}, {": " + std::move(f.text)}}});
    }
    if (!findings.items.empty())
        doc.add(std::move(findings));
    if (table::item_list sites = site_items(results); !sites.items.empty())
        doc.add(std::move(sites));
    return doc;
}

}  // namespace tare::report::detail

namespace tare::report {

template <>
std::unique_ptr<reporter<run_results>> make_console_reporter(const table::console_style& style) {
    return detail::make_document_console_reporter<run_results, detail::run_document>(style);
}

template <>
std::unique_ptr<reporter<run_results>> make_markdown_reporter() {
    return detail::make_function_reporter<run_results,
                                          detail::markdown_text<run_results, detail::run_document>>();
}

}  // namespace tare::report
