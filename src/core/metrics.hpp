#pragma once
// From raw samples to the reported figures: time statistics, memory of the region, and the
// warnings a reader must see. Thresholds are documented in docs/accounting.md.

#include <optional>
#include <string>

#include "core/sample_driver.hpp"
#include "model/run.hpp"

namespace tare::core {

/// Per-iteration time statistics, outliers and the noise warning.
void derive_time(const detail::loop_outcome& loop, benchmark_result& result);

/// Allocation, peak, retained-growth and page-fault figures and their warnings.
void derive_memory(const detail::loop_outcome& loop, benchmark_result& result);

/// retained_growth fires when the region's live heap grows at least this many bytes per
/// iteration across the measured samples...
inline constexpr double retained_rate_threshold = 1.0;
/// ...and by at least this much in all (so a one-off cache fill is not a leak).
inline constexpr double retained_total_threshold = 16.0 * 1024;
/// When a growth check (loop_outcome::growth_check) grew by less than this share of what the
/// samples' rate would have added over its iterations, the growth levelled off: growth_levelled,
/// not retained_growth. A leak grows on at its rate (a share near 1; a buffer that doubles, at
/// least 1/2 over as many iterations as it holds); a cache at its cap, or a batch past its flush,
/// adds nothing.
inline constexpr double levelled_share = 0.25;

/// The live heap's growth per iteration across `samples` (the least-squares slope of each
/// sample's live heap at its end against the iterations run so far) when it reaches the two
/// thresholds above; 0 when it does not, or with fewer than two samples.
double suspected_growth_rate(const std::vector<tare::sample>& samples);
/// fresh_memory fires when an iteration takes at least 16 page faults (64 KiB of 4 KiB pages)
/// and those fresh pages are at least a quarter of the bytes the iteration requested: the
/// body fills memory the kernel has to supply anew each time (examples/buffers). The share
/// keeps it quiet for an allocator that touches only the header page of each large
/// mmapped block (17 x 1 MiB blocks: 17 faults, 0.4 % of the bytes).
inline constexpr double fresh_faults_threshold = 16.0;
inline constexpr double fresh_share_threshold = 0.25;

/// unseen_memory fires, with accounting on, when an iteration takes at least fresh_faults_threshold
/// page faults and the memory the counted allocations account for is at most half of the fresh
/// pages: the rest came from somewhere the hook does not count (a pool, an allocator built into
/// another library, a mapping, memory allocated before the region and first touched in it).
/// What the allocations account for is the largest of the bytes requested per iteration, the
/// region's peak live heap and its retained growth per iteration, all in the allocator's own
/// sizes where it has them: many small blocks cost more pages than they request (a glibc chunk of
/// 32 B for malloc(8)), and an allocator that gives its heap's top back to the kernel after each
/// iteration (glibc's trim) faults it in again, both explained by the peak.
inline constexpr double unseen_share_threshold = 0.5;

/// The fresh_memory warning for an iteration's page faults and requested bytes, when they reach
/// the thresholds above. Shared by tare's runner and the Google Benchmark reader, so that a row
/// warns the same whichever harness measured it.
std::optional<warning> fresh_memory_warning(double faults_per_iter, double bytes_per_iter);
/// The unseen_memory warning for an iteration's page faults against what its counted allocations
/// and mappings account for (`seen_per_iter`: bytes requested plus bytes mapped per iteration;
/// `held`: the larger of the peak live heap and the retained growth per iteration),
/// when the thresholds above are reached. Never in a sanitizer build, whose shadow memory faults
/// pages of its own.
std::optional<warning> unseen_memory_warning(double faults_per_iter, double seen_per_iter, double held);
/// Below this share of the measured wall-clock time spent on a CPU, a row is `contended`.
inline constexpr double contended_cpu_share = 0.7;
/// The shortest measured time judged for contention: below it the CPU clock's tick decides.
inline constexpr double contended_min_wall_ns = 1e6;

/// The contended warning when the measured samples ran on a CPU for less than
/// contended_cpu_share of their wall-clock time (`cpu_ns` over `wall_ns`): the rest was spent
/// waiting, and the times include the wait. Shared by tare's runner, the Google Benchmark worker
/// and reader.
std::optional<warning> contended_warning(double cpu_ns, double wall_ns);
/// The retained_growth warning for a live heap that grows `per_iter` bytes an iteration,
/// `grown` bytes in all over `over` (what was measured, for the message), `live_end` at its end.
std::optional<warning> retained_growth_warning(double per_iter, double grown, double live_end,
                                               const std::string& over);

}  // namespace tare::core
