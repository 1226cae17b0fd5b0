#include "history/measures.hpp"

#include <array>
#include <cmath>
#include <string>
#include <utility>

#include "model/change.hpp"

namespace tare::history {
namespace {

// Every measure figures_of() keeps, in the order reports show them, and whether it counts
// something exactly: one table for both, so a new measure is placed and classed at once.
struct measure_kind {
    std::string_view name;
    bool exact;
};
constexpr std::array measures{
    measure_kind{"time_ns", false},
    measure_kind{"allocs_per_iter", true},
    measure_kind{"bytes_per_iter", true},
    measure_kind{"peak_live_bytes", true},
    measure_kind{"retained_bytes_per_iter", false},
    measure_kind{"page_faults_per_iter", false},
    measure_kind{"copied_bytes_per_iter", true},
    measure_kind{"set_bytes_per_iter", true},
    measure_kind{"mapped_bytes_per_iter", true},
    measure_kind{"bytes_per_second", false},
    measure_kind{"items_per_second", false},
    measure_kind{"instructions", true},
    measure_kind{"data_reads", true},
    measure_kind{"data_writes", true},
    measure_kind{"l1_misses", true},
    measure_kind{"ll_misses", true},
    measure_kind{"estimated_cycles", true},
};

// Adds the figure unless it is missing or not a number a store can keep and a test can read.
void put(std::vector<history_figure>& out, const std::string& name, std::string measure,
         std::optional<double> value, std::optional<interval> ci = std::nullopt) {
    if (!value || !std::isfinite(*value))
        return;
    history_figure f{name, std::move(measure), *value, std::nullopt, std::nullopt};
    if (ci && std::isfinite(ci->low) && std::isfinite(ci->high)) {
        f.low = ci->low;
        f.high = ci->high;
    }
    out.push_back(std::move(f));
}

std::optional<double> as_double(const std::optional<std::int64_t>& v) {
    return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
}

void put_counts(std::vector<history_figure>& out, const std::string& name,
                const boxed<instruction_counts>& c) {
    if (!c)
        return;
    put(out, name, "instructions", c->instructions);
    put(out, name, "data_reads", c->data_reads);
    put(out, name, "data_writes", c->data_writes);
    put(out, name, "l1_misses", c->l1_misses);
    put(out, name, "ll_misses", c->ll_misses);
    put(out, name, "estimated_cycles", c->estimated_cycles);
}

}  // namespace

std::vector<history_figure> figures_of(const run_results& r) {
    std::vector<history_figure> out;
    for (const benchmark_result& b : r.benchmarks) {
        if (b.error)
            continue;
        if (!b.counts && (!b.samples.empty() || !b.samples_ns.empty() || b.time.mean > 0))
            put(out, b.name, "time_ns", b.time.mean, b.time.ci);
        put(out, b.name, "allocs_per_iter", b.allocs_per_iter);
        put(out, b.name, "bytes_per_iter", b.bytes_per_iter);
        put(out, b.name, "peak_live_bytes", as_double(b.peak_live_bytes));
        put(out, b.name, "retained_bytes_per_iter", b.retained_bytes_per_iter);
        put(out, b.name, "page_faults_per_iter", b.page_faults_per_iter);
        put(out, b.name, "copied_bytes_per_iter", b.copied_bytes_per_iter);
        put(out, b.name, "set_bytes_per_iter", b.set_bytes_per_iter);
        put(out, b.name, "mapped_bytes_per_iter", b.mapped_bytes_per_iter);
        put(out, b.name, "bytes_per_second", b.bytes_per_second);
        put(out, b.name, "items_per_second", b.items_per_second);
        put_counts(out, b.name, b.counts);
        for (const auto& [counter, value] : b.counters)
            put(out, b.name, "counter:" + counter, value);
    }
    return out;
}

std::vector<history_figure> figures_of(const compare_results& r, bool head) {
    std::vector<history_figure> out;
    for (const compare_row& row : r.rows) {
        const side_figures& s = head ? row.head : row.base;
        const std::string& name = head && row.head_name ? *row.head_name : row.name;
        if (s.error)
            continue;
        if (!s.counts)
            put(out, name, "time_ns", s.time_ns, s.time_ci);
        put(out, name, "allocs_per_iter", s.allocs_per_iter);
        put(out, name, "bytes_per_iter", s.bytes_per_iter);
        put(out, name, "peak_live_bytes", as_double(s.peak_live_bytes));
        put(out, name, "page_faults_per_iter", s.page_faults_per_iter);
        put(out, name, "copied_bytes_per_iter", s.copied_bytes_per_iter);
        put(out, name, "set_bytes_per_iter", s.set_bytes_per_iter);
        put(out, name, "mapped_bytes_per_iter", s.mapped_bytes_per_iter);
        put_counts(out, name, s.counts);
    }
    return out;
}

stats::level_slack level_slack_of(std::string_view measure) {
    if (measure == "peak_live_bytes")
        return {peak_slack_bytes, peak_slack_fraction};
    return {};
}

bool exact_measure(std::string_view measure) {
    for (const measure_kind& m : measures) {
        if (m.name == measure)
            return m.exact;
    }
    return false;
}

int measure_rank(std::string_view measure) {
    for (std::size_t i = 0; i < measures.size(); ++i) {
        if (measures[i].name == measure)
            return static_cast<int>(i);
    }
    return static_cast<int>(measures.size());  // a user's counter: after every measure of tare's
}

std::optional<bool> higher_is_better(std::string_view measure) {
    if (measure.rfind("counter:", 0) == 0)
        return std::nullopt;
    return measure == "bytes_per_second" || measure == "items_per_second";
}

history_direction direction_of(std::string_view measure, double before, double after) {
    const std::optional<bool> higher = higher_is_better(measure);
    if (!higher || before == after)
        return history_direction::changed;
    return (after > before) == *higher ? history_direction::improvement : history_direction::regression;
}

}  // namespace tare::history
