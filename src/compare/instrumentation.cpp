#include "compare/instrumentation.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

namespace tare::compare {
namespace {

// "region" and "mixed" (docs/gbench.md): the hooks measured the timed loop of every row or most.
bool hooks_measured(const std::optional<std::string>& gbench_memory) {
    return gbench_memory && (*gbench_memory == "region" || *gbench_memory == "mixed");
}

bool any_copies(const std::vector<side_round>& rounds) {
    return std::any_of(rounds.begin(), rounds.end(),
                       [](const side_round& s) { return s.result && s.result->copied_bytes_per_iter; });
}

bool any_hooks(const std::vector<side_round>& rounds) {
    return std::any_of(rounds.begin(), rounds.end(),
                       [](const side_round& s) { return hooks_measured(s.gbench_memory); });
}

std::string list_text(const std::vector<warning>& differences) {
    std::vector<std::string> kinds;
    for (const warning& d : differences) {
        kinds.push_back(d.kind);
    }
    return fmt::format("{}", fmt::join(kinds, ", "));
}

}  // namespace

side_instrumentation instrumentation_of(const run_results& r) {
    side_instrumentation s;
    s.accounting = r.context.accounting;
    s.copies = std::any_of(r.benchmarks.begin(), r.benchmarks.end(),
                           [](const benchmark_result& b) { return b.copied_bytes_per_iter.has_value(); });
    s.counted = r.context.instrument.has_value() ||
                std::any_of(r.benchmarks.begin(), r.benchmarks.end(),
                            [](const benchmark_result& b) { return b.counts.has_value(); });
    const auto& memory = r.context.gbench_memory;
    if (memory) {
        // "none_measured": every row failed, so whether the hooks were there is unknown.
        if (*memory != "none_measured") {
            s.region_hooks = hooks_measured(memory);
        }
    } else if (!r.context.clock_overhead_ns && !s.counted) {
        // Only tare's own harness measures its clock; results without that and without
        // memory figures are a plain Google Benchmark suite's.
        s.region_hooks = false;
    }
    return s;
}

std::pair<side_instrumentation, side_instrumentation> instrumentation_of(const rounds_data& data,
                                                                         bool gbench) {
    side_instrumentation base;
    side_instrumentation head;
    base.accounting = data.base_accounting;
    head.accounting = data.head_accounting;
    for (const benchmark_rounds& row : data.rows) {
        base.copies = base.copies || any_copies(row.base);
        head.copies = head.copies || any_copies(row.head);
    }
    if (gbench) {
        // Workers are suites with tare::gbench linked on both sides, hooks and all; one process a
        // benchmark says in each process's results what measured its memory.
        base.region_hooks = !data.memory_from_results;
        head.region_hooks = !data.memory_from_results;
        for (const benchmark_rounds& row : data.rows) {
            base.region_hooks = *base.region_hooks || any_hooks(row.base);
            head.region_hooks = *head.region_hooks || any_hooks(row.head);
        }
    }
    return {base, head};
}

std::vector<warning> instrumentation_differences(const side_instrumentation& base,
                                                 const side_instrumentation& head) {
    std::vector<warning> out;
    const auto which = [](bool b) { return std::string(b ? "base" : "head"); };
    const auto other = [](bool b) { return std::string(b ? "head" : "base"); };
    if (base.accounting != head.accounting) {
        out.push_back({"accounting", which(base.accounting) + " counts allocations (tare's interposer), " +
                                         other(base.accounting) + " does not"});
    }
    if (base.copies != head.copies) {
        out.push_back({"copies", which(base.copies) + " counts copied bytes (tare::copies), " +
                                     other(base.copies) + " does not"});
    }
    if (base.region_hooks && head.region_hooks && *base.region_hooks != *head.region_hooks) {
        out.push_back({"region_hooks", which(*base.region_hooks) + " runs tare::gbench's region hooks, " +
                                           other(*base.region_hooks) + " does not"});
    }
    if (base.counted != head.counted) {
        out.push_back({"counted", which(base.counted) + " was counted (--instrument), " +
                                      other(base.counted) + " was timed"});
    }
    return out;
}

void judge_instrumentation(compare_results& r, const side_instrumentation& base,
                           const side_instrumentation& head, bool allow) {
    r.mixed_instrumentation = instrumentation_differences(base, head);
    r.mixed_instrumentation_allowed = allow;
    if (r.mixed_instrumentation.empty()) {
        return;
    }
    const std::string what = list_text(r.mixed_instrumentation);
    for (compare_row& row : r.rows) {
        if (row.base.error || row.head.error) {
            continue;  // nothing measured on both sides, nothing to misread
        }
        row.head.warnings.push_back(
            {"mixed_instrumentation", "base and head are not instrumented alike (" + what +
                                          "): the time change is partly the instrumentation's"});
        if (allow) {
            continue;
        }
        row.verdict = verdict::no_change;
        if (!row.unjudged) {
            row.unjudged = "base and head are not instrumented alike (" + what +
                           "); build both alike, or judge anyway with --allow-mixed-instrumentation";
        }
    }
}

bool refuses_mixed_instrumentation(const compare_results& r) {
    return !r.mixed_instrumentation.empty() && !r.mixed_instrumentation_allowed;
}

}  // namespace tare::compare
