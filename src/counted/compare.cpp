#include "counted/compare.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "counted/profile_changes.hpp"
#include "instrument/judge.hpp"

namespace tare::counted {

namespace {

side_figures side_of(const benchmark_result& b) {
    side_figures s;
    s.error = b.error;
    s.warnings = b.warnings;
    if (b.error) {
        return s;
    }
    s.iterations = b.iterations;
    s.counts = b.counts;
    s.profile = b.profile;
    s.allocs_per_iter = b.allocs_per_iter;
    s.bytes_per_iter = b.bytes_per_iter;
    s.peak_live_bytes = b.peak_live_bytes;
    s.copied_bytes_per_iter = b.copied_bytes_per_iter;
    s.set_bytes_per_iter = b.set_bytes_per_iter;
    s.mapped_bytes_per_iter = b.mapped_bytes_per_iter;
    return s;
}

const benchmark_result* find(const run_results& r, const std::string& name) {
    for (const benchmark_result& b : r.benchmarks) {
        if (b.name == name) {
            return &b;
        }
    }
    return nullptr;
}

}  // namespace

bool is_counted(const run_results& results) {
    return std::any_of(results.benchmarks.begin(), results.benchmarks.end(),
                       [](const benchmark_result& b) { return b.counts.has_value(); }) ||
           results.context.instrument.has_value();
}

std::optional<std::string> counted_mismatch(const run_results& base, const run_results& head) {
    const bool b = is_counted(base);
    const bool h = is_counted(head);
    if (b != h) {
        return std::string(b ? "base" : "head") + " was counted (--instrument) and " + (b ? "head" : "base") +
               " was timed: compare counts with counts, times with times";
    }
    const auto kind = [](const run_results& r) {
        for (const benchmark_result& x : r.benchmarks) {
            if (x.counts) {
                return x.counts->instrument;
            }
        }
        return std::string();
    };
    if (b && !kind(base).empty() && !kind(head).empty() && kind(base) != kind(head)) {
        return "base was counted by " + kind(base) + " and head by " + kind(head) +
               ": their counts are not the same measure";
    }
    return std::nullopt;
}

compare_results compare_counted(const run_results& base, const run_results& head, double threshold_pct) {
    compare_results out;
    out.mode = pairing::counted;
    out.threshold_pct = threshold_pct;
    out.base_processes = 1;
    out.head_processes = 1;
    out.base_context = base.context;
    out.head_context = head.context;
    for (const benchmark_result& b : base.benchmarks) {
        const benchmark_result* h = find(head, b.name);
        if (h == nullptr) {
            out.only_in_base.push_back(b.name);
            continue;
        }
        compare_row row;
        row.name = b.name;
        row.base = side_of(b);
        row.head = side_of(*h);
        if (row.base.profile && row.head.profile) {
            row.functions = changed_functions(*row.base.profile, *row.head.profile);
        }
        row.allocations = changed_allocations(b, *h);
        if (row.base.error || row.head.error) {
            row.verdict = verdict::error;
        } else if (row.base.counts && row.head.counts && row.base.counts->instructions > 0 &&
                   row.head.counts->instructions > 0) {
            row.change =
                instrument::count_change(row.base.counts->instructions, row.head.counts->instructions);
            row.verdict = instrument::count_verdict(*row.change, threshold_pct);
            ++out.comparisons;
            if (row.verdict != verdict::no_change) {
                ++out.selected;
            }
        }
        out.rows.push_back(std::move(row));
    }
    for (const benchmark_result& h : head.benchmarks) {
        if (find(base, h.name) == nullptr) {
            out.only_in_head.push_back(h.name);
        }
    }
    return out;
}

}  // namespace tare::counted
