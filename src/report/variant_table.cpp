// The comparison groups' table of a run (docs/variants.md): a row per member against its
// group's baseline, by time over interleaved blocks, or by count under --instrument.
#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "report/run_table.hpp"
#include "report/table/units.hpp"

namespace tare::report::detail {
namespace {

using table::cell;
using table::single;

}  // namespace

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
    if (!c.instrument.empty())  // counts: exact, no interval to give
        return format_count_change(c.change->change_pct) + " (exact)";
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

// The columns one memory column stands in for on a narrow terminal.
bool is_memory(const std::string& header) {
    return header == "allocs/iter" || header == "bytes/iter" || header == "mapped/iter" ||
           header == "peak heap" || header == "copied/iter";
}

}  // namespace

// Long by design: one declaration per column, in the table's order (as build_columns).
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
    const bool counted = std::all_of(results.comparisons.begin(), results.comparisons.end(),
                                     [](const variant_comparison& c) { return !c.instrument.empty(); });
    if (counted) {
        // Under --instrument: the counts the change is the ratio of (docs/instructions.md).
        const auto instructions = [](row r) {
            return r != nullptr && r->counts ? format_exact_count(r->counts->instructions)
                                             : std::string(missing_mark);
        };
        columns.push_back(
            make("baseline instr/iter", align::right,
                 [&](const variant_comparison&, row base, row) { return single(instructions(base)); }));
        columns.push_back(
            make("member instr/iter", align::right,
                 [&](const variant_comparison&, row, row member) { return single(instructions(member)); }));
    } else {
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
    }
    columns.push_back(make(counted ? "change" : "change [CI]", align::right,
                           [](const variant_comparison& c, row, row) { return single(change_text(c)); }));
    columns.push_back(make("verdict", align::left, [](const variant_comparison& c, row, row) {
        if (!c.instrument.empty() && c.verdict != verdict::no_change)  // counts: not a time's words
            return single(c.verdict == verdict::faster ? "fewer instr." : "more instr.");
        return single(std::string(verdict_name(c.verdict)));
    }));
    columns.push_back(make("allocs/iter", align::right, [](const variant_comparison&, row base, row member) {
        return single(memory_change(base, member, &benchmark_result::allocs_per_iter, format_count));
    }));
    columns.push_back(make("bytes/iter", align::right, [](const variant_comparison&, row base, row member) {
        return single(memory_change(base, member, &benchmark_result::bytes_per_iter, format_bytes));
    }));
    if (std::any_of(results.benchmarks.begin(), results.benchmarks.end(),
                    [](const benchmark_result& b) { return b.mapped_bytes_per_iter.value_or(0) > 0; })) {
        columns.push_back(
            make("mapped/iter", align::right, [](const variant_comparison&, row base, row member) {
                return single(
                    memory_change(base, member, &benchmark_result::mapped_bytes_per_iter, format_bytes));
            }));
    }
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
    // already sums up, the group's name (the members' names carry it) and the baseline's; then
    // the memory columns give way to one that names what changed, and the change to the change
    // without its interval (comparison_stand_ins). Each member, its change, its verdict and every
    // memory change stay.
    for (column& c : columns) {
        c.drop_rank = c.header == "blocks" ? 4
                      : c.header == "baseline time" || c.header == "member time" ||
                              c.header == "baseline instr/iter" || c.header == "member instr/iter" ||
                              c.header == "comparison" || c.header == "baseline"
                          ? 3
                      : is_memory(c.header)       ? 2
                      : c.header == "change [CI]" ? 1
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

// As the comparison of two builds does (compare_table.cpp): one memory column naming only what
// changed, so each member whose memory moved shows it at 80 columns, and the change without its
// interval.
std::vector<table::stand_in> comparison_stand_ins(const run_results& results,
                                                  const std::vector<column>& columns) {
    const auto make = [&](std::string header, align alignment, auto text_of) {
        column c{std::move(header), alignment, {}, {}, false};
        for (const auto& comparison : results.comparisons) {
            const benchmark_result* base = find_row(results, comparison.baseline);
            const benchmark_result* member = find_row(results, comparison.member);
            c.cells.push_back(single(text_of(comparison, base, member)));
        }
        return c;
    };
    using row = const benchmark_result*;
    std::vector<table::stand_in> out;
    std::vector<std::string> shown;
    for (const column& c : columns) {
        if (is_memory(c.header))
            shown.push_back(c.header);
    }
    column memory = make("memory", align::left, [](const variant_comparison&, row base, row member) {
        return base == nullptr || member == nullptr ? std::string(missing_mark)
                                                    : memory_changes(*base, *member);
    });
    memory.cut_at_end = true;
    out.push_back(
        {shown, std::move(memory), "memory shows only the figures that changed, member against baseline"});
    const auto has = [&](const std::string& header) {
        return std::any_of(columns.begin(), columns.end(),
                           [&](const column& c) { return c.header == header; });
    };
    if (has("change [CI]")) {
        out.push_back({{"change [CI]"},
                       make("change", align::right,
                            [](const variant_comparison& c, row, row) {
                                return c.change ? signed_percent(c.change->change_pct)
                                                : std::string(missing_mark);
                            }),
                       "change without its interval"});
    }
    return out;
}

std::string comparison_note(const run_results& results) {
    if (!results.comparisons.empty() &&
        std::all_of(results.comparisons.begin(), results.comparisons.end(),
                    [](const variant_comparison& c) { return !c.instrument.empty(); })) {
        return "change: the member's instructions per iteration against the baseline's, counted, so "
               "exact; a change beyond the floor is a verdict, and fewer instructions need not mean less "
               "time (docs/instructions.md)";
    }
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

}  // namespace tare::report::detail
