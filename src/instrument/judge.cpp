#include "instrument/judge.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "instrument/profile.hpp"

namespace tare::instrument {

paired_change count_change(double base, double head) {
    paired_change c;
    c.pairs = 1;
    c.confidence = 1;
    c.mean_log_ratio = std::log(head / base);
    c.change_pct = 100 * (head / base - 1);
    c.interval_pct = interval{c.change_pct, c.change_pct};
    c.p_value = head == base ? 1 : 0;
    return c;
}

verdict count_verdict(const paired_change& change, double threshold_pct) {
    const double band = std::max(count_floor_pct, threshold_pct);
    if (change.change_pct > band) {
        return verdict::slower;
    }
    if (change.change_pct < -band) {
        return verdict::faster;
    }
    return verdict::no_change;
}

std::vector<variant_comparison> compare_members(const core::group_instance& group,
                                                const std::vector<benchmark_result>& rows) {
    std::vector<variant_comparison> out;
    if (rows.empty() || rows.size() != group.members.size()) {
        return out;
    }
    const benchmark_result& base = rows.front();
    for (std::size_t i = 1; i < rows.size(); ++i) {
        variant_comparison v;
        v.group = group.group;
        v.name = group.name;
        v.baseline = base.name;
        v.member = rows[i].name;
        v.instrument = base.counts ? base.counts->instrument : std::string("instructions");
        if (base.counts && rows[i].counts && base.counts->instructions > 0 &&
            rows[i].counts->instructions > 0) {
            v.change = count_change(base.counts->instructions, rows[i].counts->instructions);
            v.verdict = count_verdict(*v.change);
        }
        out.push_back(std::move(v));
    }
    return out;
}

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
            row.change = count_change(row.base.counts->instructions, row.head.counts->instructions);
            row.verdict = count_verdict(*row.change, threshold_pct);
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

}  // namespace tare::instrument
