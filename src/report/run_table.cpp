#include "report/run_table.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "report/function_reporter.hpp"
#include "report/profile/profile_lines.hpp"
#include "report/table/units.hpp"

namespace tare::report::detail {
namespace {

using table::cell;
using table::single;

cell blank() {
    return single("");
}

cell error_cell(const benchmark_result& b) {
    return single("error: " + (b.error->kind.empty() ? std::string("unknown") : one_line(b.error->kind)));
}

// A count of --instrument's (docs/instructions.md); a failed row shows its error in the first
// count column, as a timed run shows it in the time column.
cell count_cell(const benchmark_result& b, std::optional<double> instruction_counts::*member, bool first) {
    if (failed(b))
        return first ? error_cell(b) : blank();
    if (!b.counts)
        return single(std::string(missing_mark));
    return single(format_or_missing((*b.counts).*member, format_exact_count));
}

cell time_cell(const benchmark_result& b) {
    if (failed(b)) {
        return error_cell(b);
    }
    if (b.counts) {  // counted, not timed (--instrument)
        return single(std::string(missing_mark));
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

// Long by design: one declaration per column, in the order the table shows them, each with the
// rule that keeps or drops it. Rejected: a function per column group, which scattered the order
// a reader checks against the golden tables over several places.
std::vector<column> build_columns(const run_results& results) {
    std::vector<column> columns;
    column names =
        make_column(results, "benchmark", "", [](const auto& b) { return single(one_line(b.name)); });
    names.alignment = align::left;
    names.names = true;
    columns.push_back(std::move(names));
    // Under --instrument the rows are counted, not timed: the counts take the time's place, and a
    // run that holds both kinds (a merge) shows both.
    const bool counted = std::any_of(results.benchmarks.begin(), results.benchmarks.end(),
                                     [](const benchmark_result& b) { return b.counts.has_value(); });
    const bool timed = std::any_of(results.benchmarks.begin(), results.benchmarks.end(),
                                   [](const benchmark_result& b) { return !failed(b) && !b.counts; });
    if (timed || !counted) {
        columns.push_back(make_column(results, "time/iter ± 95% CI", " ± ", time_cell));
        columns.push_back(make_column(results, "samples", " × ", samples_cell));
    }
    if (counted) {
        const bool errors_here = !timed;
        columns.push_back(make_column(results, "instructions/iter", "", [&](const benchmark_result& b) {
            if (failed(b))
                return errors_here ? error_cell(b) : blank();
            return single(b.counts ? format_exact_count(b.counts->instructions) : std::string(missing_mark));
        }));
        columns.push_back(make_column(results, "est. cycles/iter", "", [](const benchmark_result& b) {
            return count_cell(b, &instruction_counts::estimated_cycles, false);
        }));
        columns.push_back(make_column(results, "L1 misses/iter", "", [](const benchmark_result& b) {
            return count_cell(b, &instruction_counts::l1_misses, false);
        }));
        columns.push_back(make_column(results, "LL misses/iter", "", [](const benchmark_result& b) {
            return count_cell(b, &instruction_counts::ll_misses, false);
        }));
        columns.push_back(make_column(results, "iterations", "", [](const benchmark_result& b) {
            if (failed(b) || !b.counts)
                return blank();
            return single(format_exact_count(static_cast<double>(b.counts->iterations)));
        }));
    }
    columns.push_back(make_column(results, "allocs/iter", "", [](const benchmark_result& b) {
        return figure(b, b.allocs_per_iter, format_count);
    }));
    columns.push_back(make_column(results, "bytes/iter", "", [](const benchmark_result& b) {
        return figure(b, b.bytes_per_iter, format_bytes);
    }));
    // Only when some row mapped memory of its own (mmap): 0 for every row is no column.
    if (std::any_of(results.benchmarks.begin(), results.benchmarks.end(),
                    [](const benchmark_result& b) { return b.mapped_bytes_per_iter.value_or(0) > 0; })) {
        columns.push_back(make_column(results, "mapped/iter", "", [](const benchmark_result& b) {
            return figure(b, b.mapped_bytes_per_iter, format_bytes);
        }));
    }
    columns.push_back(make_column(results, "peak heap", "", [](const benchmark_result& b) {
        return figure(b, b.peak_live_bytes, format_peak);
    }));
    if (timed || !counted) {  // a simulator's page faults are its own: counted rows have none
        columns.push_back(make_column(results, "faults/iter", "", [](const benchmark_result& b) {
            return figure(b, b.page_faults_per_iter, format_count);
        }));
    }
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
    // Google Benchmark's label (often the input's name), where it shows in its own table.
    if (std::any_of(results.benchmarks.begin(), results.benchmarks.end(),
                    [](const benchmark_result& b) { return b.label.has_value(); })) {
        column label = make_column(results, "label", "", [](const benchmark_result& b) {
            return b.label ? single(one_line(*b.label)) : blank();
        });
        label.alignment = align::left;
        columns.push_back(std::move(label));
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
    // On a narrow terminal (table/document.hpp) the counters and the label go first, then the samples, the
    // throughput, the faults, copies and mappings, then the warnings' kinds (each warning is
    // printed in full under the table); the name, time, allocations, bytes and peak heap stay
    // (the figures tare is for).
    for (std::size_t i = 1; i < columns.size(); ++i) {
        column& c = columns[i];
        c.drop_rank = c.header == "samples" || c.header == "iterations"              ? 4
                      : c.header == "L1 misses/iter" || c.header == "LL misses/iter" ? 3
                      : c.header == "throughput" || c.header == "set/iter"           ? 3
                      : c.header == "faults/iter"                                    ? 2
                      : c.header == "copied/iter" || c.header == "mapped/iter"       ? 2
                      : c.header == "warnings"                                       ? 1
                      : c.header == "time/iter ± 95% CI" || c.header == "allocs/iter" ||
                              c.header == "bytes/iter" || c.header == "peak heap" ||
                              c.header == "instructions/iter" || c.header == "est. cycles/iter"
                          ? 0
                          : 5;  // a counter
    }
    for (const benchmark_result& b : results.benchmarks)  // "error: kind"
        columns[1].tones.push_back(b.error ? table::tone::bad : table::tone::none);
    return columns;
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
    if (!context.accounting && context.gbench_memory == "none_measured") {
        lines.push_back("accounting: unknown (no benchmark ran to its end)");
    } else if (!context.accounting) {
        lines.push_back("accounting: off (allocation and heap figures unavailable)");
    } else {
        lines.push_back(context.allocator ? "accounting: on — " + one_line(*context.allocator)
                                          : "accounting: on");
    }
    if (context.instrument) {
        // Honest labels: a count is not a time, and these rows have no time at all.
        lines.push_back("counted, not timed: " + one_line(*context.instrument) +
                        " · instructions and cache misses of each timed region, per iteration "
                        "(docs/instructions.md)");
        if (!context.instrument_env.empty()) {
            std::string names;
            for (const std::string& n : context.instrument_env)
                names += (names.empty() ? "" : ", ") + one_line(n);
            lines.push_back("passed to the counted processes from the environment: " + names);
        }
    }
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

std::string stack_text(const std::vector<stack_frame>& stack) {
    std::string where;
    for (std::size_t k = stack.size(); k-- > 0;) {
        if (stack.size() > 4 && k < stack.size() - 1 && k > 1) {
            if (k == 2)
                where += " → …";
            continue;
        }
        where += (where.empty() ? "" : " → ") + short_function(stack[k].function);
    }
    return where;
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
    std::string where = stack_text(site.stack);
    if (const std::string at = site_location(site); !at.empty())
        where += " at " + at;
    std::string figures = retained ? format_bytes(site.bytes_per_iter) + "/iter still live"
                                   : format_count(site.allocs_per_iter) + " allocs/iter, " +
                                         format_bytes(site.bytes_per_iter) + "/iter";
    figures += " (" + format_percent(100 * site.share) + ")";
    if (!site.threads.empty()) {
        std::string parts;
        for (const thread_share& t : site.threads)
            parts += (parts.empty() ? "" : ", ") +
                     (t.thread == 0 ? std::string("the benchmark's") : std::to_string(t.thread)) +
                     (site.allocs_per_iter > 0
                          ? " (" + format_percent(100 * t.allocs_per_iter / site.allocs_per_iter) + ")"
                          : "");
        figures += " in threads " + parts;
    } else if (site.thread != 0) {
        figures += " in thread " + std::to_string(site.thread);
    }
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
    const bool addresses =
        std::any_of(results.benchmarks.begin(), results.benchmarks.end(), [](const auto& b) {
            return b.sites && !failed(b) && !b.sites->source_lines && !b.alloc_sites.empty();
        });
    if (addresses) {
        items.items.push_back(
            {"note",
             {{"sites are named from the dynamic symbol table, others as module+offset: libdw "
               "(elfutils) was not found, so no function, file or line was read from "
               "debug information (install libdw1; build tare with libdw-dev)"}}});
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
    const bool counted = std::all_of(results.comparisons.begin(), results.comparisons.end(),
                                     [](const variant_comparison& c) { return !c.instrument.empty(); });
    std::string text =
        counted ? fmt::format("{} with fewer instructions, {} with more, {} no change", faster, slower, same)
                : fmt::format("{} faster, {} slower, {} no change", faster, slower, same);
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
        std::vector<column> columns = build_comparison_columns(results);
        std::vector<table::stand_in> stand_ins = comparison_stand_ins(results, columns);
        doc.add(table::grid{std::move(columns), std::move(stand_ins)}, /*joined=*/true);
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
    if (table::item_list profiles = profile_items(results); !profiles.items.empty())
        doc.add(std::move(profiles));
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
