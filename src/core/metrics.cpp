#include "core/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "os/os.hpp"
#include "stats/outliers.hpp"
#include "stats/summary.hpp"

namespace tare::core {

namespace {

std::string format(const char* fmt, double a, double b = 0) {
    char buf[256];
    std::snprintf(buf, sizeof buf, fmt, a, b);
    return buf;
}

std::string human_bytes(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (std::fabs(bytes) >= 1024 && u < 4) {
        bytes /= 1024;
        ++u;
    }
    return u == 0 ? format("%.0f B", bytes) : format("%.1f ", bytes) + units[u];
}

}  // namespace

std::optional<warning> fresh_memory_warning(double faults_per_iter, double bytes_per_iter) {
    const double fresh_bytes = faults_per_iter * static_cast<double>(os::page_size());
    if (faults_per_iter < fresh_faults_threshold || fresh_bytes < fresh_share_threshold * bytes_per_iter) {
        return std::nullopt;
    }
    return warning{"fresh_memory",
                   format("each iteration takes %.0f page faults", faults_per_iter) + " (about " +
                       human_bytes(fresh_bytes) +
                       " of memory mapped fresh): the time includes the kernel supplying new pages. Usual "
                       "cause: a buffer allocated inside the loop; allocate it once before the loop and "
                       "reuse it"};
}

std::optional<warning> unseen_memory_warning(double faults_per_iter, double seen_per_iter, double held) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    (void)faults_per_iter;
    (void)seen_per_iter;
    (void)held;
    return std::nullopt;  // the shadow memory's own faults would read as unseen memory
#else
    const double fresh_bytes = faults_per_iter * static_cast<double>(os::page_size());
    const double explained = std::max({seen_per_iter, held, 0.0});
    if (faults_per_iter < fresh_faults_threshold || explained > unseen_share_threshold * fresh_bytes) {
        return std::nullopt;
    }
    return warning{"unseen_memory",
                   "each iteration faults in about " + human_bytes(fresh_bytes) +
                       " of fresh memory, but its counted allocations and mappings account for " +
                       human_bytes(explained) +
                       ": the rest came from memory tare does not see. Likely cause: an allocator or pool it "
                       "does not count (one built into another library, an arena carved from a block), a "
                       "buffer mapped with mmap, or memory allocated before the timed region and first "
                       "touched in it. Declare a pool's blocks with tare::report_alloc "
                       "(docs/accounting.md, \"Declared allocations\")"};
#endif
}

std::optional<warning> contended_warning(double cpu_ns, double wall_ns) {
    if (!(wall_ns >= contended_min_wall_ns) || !(cpu_ns >= 0) || cpu_ns >= contended_cpu_share * wall_ns) {
        return std::nullopt;
    }
    const auto share = static_cast<int>(std::lround(100 * cpu_ns / wall_ns));
    return warning{"contended",
                   "ran on a CPU for " + std::to_string(share) +
                       "% of its measured time: the rest it waited (for another program on a busy "
                       "machine, a lock, a sleep or I/O), and its times include the wait. Close other "
                       "programs or pin the CPU; if the body itself waits, the figure is its latency"};
}

std::optional<warning> retained_growth_warning(double per_iter, double grown, double live_end,
                                               const std::string& over) {
    if (per_iter < retained_rate_threshold || grown < retained_total_threshold) {
        return std::nullopt;
    }
    return warning{"retained_growth",
                   "live heap grows by " + human_bytes(per_iter) + " per iteration (" + human_bytes(grown) +
                       " over " + over + ", " + human_bytes(live_end) +
                       " live at the end): the loop keeps memory from one iteration to the next, so later "
                       "iterations measure a bigger heap. Usual cause: a buffer or container cleared "
                       "outside the loop; clear it inside"};
}

namespace {

// Retained growth: the least-squares slope of the region's live heap at each sample's end
// against the iterations run so far. A body that keeps b bytes an iteration gives b exactly;
// one whose live heap is flat gives 0 however large it is.
struct live_growth {
    double slope = 0;
    double grown = 0;     // from the first sample's end to the last's
    double live_end = 0;  // at the last sample's end
};

live_growth live_growth_of(const std::vector<tare::sample>& samples) {
    std::vector<double> x;
    std::vector<double> y;
    for (const tare::sample& s : samples) {
        x.push_back(static_cast<double>(s.iterations_before + s.iterations));
        y.push_back(static_cast<double>(s.live_bytes_end));
    }
    return {stats::ols_slope(x, y), y.back() - y.front(), y.back()};
}

bool suspected(const live_growth& g) {
    return g.slope >= retained_rate_threshold && g.grown >= retained_total_threshold;
}

// retained_growth, or growth_levelled when the check run after the samples saw the growth stop.
std::optional<warning> growth_warning(const live_growth& g,
                                      const detail::loop_outcome::growth_check_run& check) {
    if (!suspected(g)) {
        return std::nullopt;
    }
    if (check.iterations == 0) {
        return retained_growth_warning(g.slope, g.grown, g.live_end, "the measured samples");
    }
    const auto more = static_cast<double>(check.grown);
    const std::string run_on = std::to_string(check.iterations) + " more iterations run untimed to check";
    if (more < levelled_share * g.slope * static_cast<double>(check.iterations)) {
        return warning{"growth_levelled",
                       "live heap grew by " + human_bytes(g.slope) +
                           " per iteration over the measured samples (" + human_bytes(g.grown) +
                           " in all), then levelled off: it grew by only " +
                           human_bytes(std::max(more, 0.0)) + " in " + run_on +
                           ". A cache or buffer filling up to a bound, not a leak; the samples measured it "
                           "filling, on a heap that was still growing"};
    }
    return retained_growth_warning(
        g.slope, g.grown, g.live_end,
        "the measured samples, and kept growing: " + human_bytes(more) + " more in " + run_on);
}

}  // namespace

double suspected_growth_rate(const std::vector<tare::sample>& samples) {
    if (samples.size() < 2) {
        return 0;
    }
    const live_growth g = live_growth_of(samples);
    return suspected(g) ? g.slope : 0;
}

void derive_time(const detail::loop_outcome& loop, benchmark_result& result) {
    result.samples_ns.clear();
    result.iterations = 0;
    for (const sample& s : loop.samples) {
        result.samples_ns.push_back(s.elapsed_ns / static_cast<double>(s.iterations));
        result.iterations += s.iterations;
    }
    result.samples = sample_list(loop.samples);
    result.time = stats::summarize(result.samples_ns);
    result.outliers = stats::classify_outliers(result.samples_ns);
    if (auto w = stats::noise_warning(result.time, result.outliers, result.samples_ns.size())) {
        result.warnings.push_back(*w);
    }
    if (loop.measured_cpu_ns) {
        double wall = 0;
        for (const sample& s : loop.samples) {
            wall += s.elapsed_ns;
        }
        if (auto w = contended_warning(*loop.measured_cpu_ns, wall)) {
            result.warnings.push_back(*w);
        }
    }
    if (result.time.mean > 0) {
        if (loop.bytes_per_iteration > 0) {
            result.bytes_per_second = loop.bytes_per_iteration * 1e9 / result.time.mean;
        }
        if (loop.items_per_iteration > 0) {
            result.items_per_second = loop.items_per_iteration * 1e9 / result.time.mean;
        }
    }
}

void derive_memory(const detail::loop_outcome& loop, benchmark_result& result) {
    std::uint64_t iterations = 0;
    std::uint64_t allocs = 0;
    std::uint64_t bytes = 0;
    std::uint64_t faults = 0;
    std::uint64_t copied = 0;
    std::uint64_t set = 0;
    std::uint64_t mapped = 0;
    for (const sample& s : loop.samples) {
        iterations += s.iterations;
        allocs += s.allocs;
        bytes += s.bytes;
        faults += s.page_faults;
        copied += s.copied_bytes;
        set += s.set_bytes;
        mapped += s.mapped_bytes;
    }
    if (iterations == 0) {
        return;
    }
    const auto n = static_cast<double>(iterations);
    result.page_faults_per_iter = static_cast<double>(faults) / n;
    const double requested = loop.accounting ? static_cast<double>(bytes) / n : 0;
    if (auto w = fresh_memory_warning(*result.page_faults_per_iter, requested)) {
        result.warnings.push_back(std::move(*w));
    }
    if (!loop.accounting) {
        return;
    }
    result.sample_heap_measured = true;
    result.allocs_per_iter = static_cast<double>(allocs) / n;
    result.bytes_per_iter = static_cast<double>(bytes) / n;
    result.peak_live_bytes = loop.peak_live_bytes;
    if (loop.untracked_paused_blocks > 0) {
        result.warnings.push_back(
            {"untracked_inputs",
             std::to_string(loop.untracked_paused_blocks) +
                 " blocks made outside the timed window were more than tare can keep apart at once (about "
                 "16,000): freed inside it, they lowered the live heap, so the peak and what is retained may "
                 "read low. Make fewer untimed inputs at a time (->input_chunk)"});
    }
    if (loop.copies) {
        result.copied_bytes_per_iter = static_cast<double>(copied) / n;
        result.set_bytes_per_iter = static_cast<double>(set) / n;
    }
    if (loop.mappings) {
        result.mapped_bytes_per_iter = static_cast<double>(mapped) / n;
    }

    if (loop.samples.size() >= 2) {
        const live_growth g = live_growth_of(loop.samples);
        result.retained_bytes_per_iter = g.slope;
        if (auto w = growth_warning(g, loop.growth_check)) {
            result.warnings.push_back(std::move(*w));
        }
    }
    const double held =
        std::max(static_cast<double>(loop.peak_live_bytes), result.retained_bytes_per_iter.value_or(0));
    const double seen = *result.bytes_per_iter + result.mapped_bytes_per_iter.value_or(0);
    if (auto w = unseen_memory_warning(*result.page_faults_per_iter, seen, held)) {
        result.warnings.push_back(std::move(*w));
    }
    if (loop.stopped_early) {
        result.warnings.push_back({"stopped_early", "measuring stopped early: " + *loop.stopped_early});
    }
}

}  // namespace tare::core
