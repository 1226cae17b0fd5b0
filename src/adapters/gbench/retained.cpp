// Whether a Google Benchmark loop keeps memory from one iteration to the next, judged by the
// worker after a benchmark's samples (worker.cpp), from runs of the function (runs.cpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "adapters/gbench/runs.hpp"
#include "core/metrics.hpp"

namespace tare::gbench {
namespace {

// The shorter of the two runs lasts at least this long (below).
constexpr double shortest_extra_run_ns = 25e6;

std::string rounded_count(double n) {
    return std::to_string(std::llround(n));
}

}  // namespace

// Whether the loop keeps memory from one iteration to the next, judged from runs of two
// lengths. Each sample is a run of its own, starting from the body's setup again, so what a
// run keeps mixes a per-run part (state the first iteration fills: a reused buffer, a bounded
// cache) with a per-iteration part (a container that grows every iteration). Two more runs,
// after the samples and untimed, tell them apart: one of twice the samples' count (and at
// least 25 ms) and one twice as long again; the longer's retained bytes less the shorter's,
// over the iterations it added, is the per-iteration part alone. Where the suite fixes the
// count (->Iterations(K)) or those runs would take over a second, one run's own growth is
// judged, as Google Benchmark's run is. Rejected: the slope of what every run kept added up (a
// reused buffer read as a leak); a sample against one run twice as long (a cache filling past
// a sample read as growth).
void judge_retained(benchmark_result& result, const retained_samples& in) {
    std::erase_if(result.warnings, [](const warning& w) { return w.kind == "retained_growth"; });
    if (!result.retained_bytes_per_iter || in.samples.empty()) {
        return;
    }
    const auto runs = static_cast<double>(in.samples.size());
    // Each sample's live heap adds what its run kept to the earlier ones' (the worker's sample()).
    const double kept = static_cast<double>(in.samples.back().live_bytes_end) / runs;
    double n = 0;
    double elapsed = 0;
    for (const auto& sm : in.samples) {
        n += static_cast<double>(sm.iterations);
        elapsed += sm.elapsed_ns;
    }
    n /= runs;
    elapsed /= runs;
    std::optional<std::pair<run_outcome, run_outcome>> lengths;
    // The shorter run is twice a sample and at least 25 ms: a cache fills in a time (its
    // pages' first touch) more than in a count, and a loaded machine's samples are short.
    const double scale = std::max(2.0, std::ceil(shortest_extra_run_ns / std::max(elapsed, 1.0)));
    const auto shorter_count = static_cast<std::uint64_t>(
        std::min(scale * static_cast<double>(in.requested), 0.25 * max_iterations));
    if (!in.fixed && 3 * scale * elapsed <= 1e9) {
        // Each thread and repetition runs the count asked for.
        run_outcome shorter = run_one(in.name, shorter_count);
        if (!shorter.error && static_cast<double>(shorter.sample.iterations) > n) {
            run_outcome longer = run_one(in.name, 2 * shorter_count);
            if (!longer.error && longer.sample.iterations > shorter.sample.iterations) {
                lengths.emplace(std::move(shorter), std::move(longer));
            }
        }
    }
    double per_iter = n > 0 ? kept / n : 0;
    double grown = kept;
    double live_end = kept;
    std::string over = "one run of " + rounded_count(n) + " iterations";
    if (lengths) {
        const tare::sample& a = lengths->first.sample;
        const tare::sample& b = lengths->second.sample;
        live_end = static_cast<double>(b.live_bytes_end);
        per_iter = (live_end - static_cast<double>(a.live_bytes_end)) /
                   static_cast<double>(b.iterations - a.iterations);
        grown = per_iter * static_cast<double>(in.total_iterations);
        over = "the measured iterations, from runs of " + rounded_count(static_cast<double>(a.iterations)) +
               " and " + rounded_count(static_cast<double>(b.iterations)) + " iterations";
    }
    result.retained_bytes_per_iter = per_iter;
    if (auto w = core::retained_growth_warning(per_iter, grown, live_end, over)) {
        result.warnings.push_back(std::move(*w));
    }
}

}  // namespace tare::gbench
