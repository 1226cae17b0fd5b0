#pragma once
// Change points of a series of runs: where the distribution of one measure of one benchmark
// changed over a history (docs/history.md, "How a change is found").
//
// Noisy measures (time, page faults): E-divisive means (Matteson & James 2014, "A nonparametric
// approach for multiple change point analysis of multivariate data", JASA 109), the method
// Apache Otava (formerly Hunter) and MongoDB's CI use. A segment's best split maximises the
// energy statistic
//     Q(t, k) = m n / (m + n) * (2/(m n) sum|x_i - y_j| - 1/C(m,2) sum|x_i - x_k| - 1/C(n,2) sum|y_j - y_k|)
// over its splits at t into the m runs x before t and the n runs y from t up to an end k (any
// end, as the paper's estimator, so that a change undone later is found). The split is kept when a
// permutation test finds it significant: the segment's runs are shuffled `permutations` times,
// and p = (1 + b) / (1 + permutations), where b counts the shuffles whose best split scores at
// least as high (the same maximisation, so the selection of the best split is in the null
// distribution too). Segments are split again, each on its own, until no split is significant
// (binary segmentation). The statistic uses distances only, so it adapts to each series' own
// noise and needs no normality; under "no change" the runs are exchangeable, so the first test
// rejects with probability at most alpha: a series without a change gets a false alarm with
// probability at most alpha per check. A shuffle count that can no longer reach alpha stops the
// test early (Besag & Clifford 1991, "Sequential Monte Carlo p-values", Biometrika 78), which
// leaves the p-values below alpha exact and makes the unchanged series cheap.
//
// Rejected: Hunter's Student t-test of the best split (cheap, but the split was chosen to
// maximise the difference, so its nominal rate does not hold: on white noise it alarms several
// times more often than stated); a threshold on the change between adjacent runs (Bencher's
// rolling window), which is not a rate at all and misses a drift of small steps.
//
// Exact measures (allocations, bytes, instructions under a simulator): a run of equal values is
// a level, and any change of level is a change point, with no test. A series whose value changes
// at more than a quarter of its runs is not counting anything exactly (amortised growth over
// samples of varying length, another thread's allocations) and is treated as noisy.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace tare::stats {

struct change_point_options {
    /// The false-alarm rate of each series' first test (docs/history.md).
    double alpha = 0.01;
    /// Shuffles per test at most; p-values are multiples of 1 / (permutations + 1).
    std::size_t permutations = 199;
    /// Runs on each side of a split at least: a single outlier is not a level.
    std::size_t min_segment = 3;
    std::uint64_t seed = 0x7461726563703031ULL;  // "tarecp01": the same history, the same answer
};

struct change_point {
    std::size_t index = 0;  // the first run after the change
    double p_value = 0;     // 0 for an exact series' step
};

/// The change points of a noisy series, in increasing order of index.
std::vector<change_point> e_divisive(std::span<const double> xs, const change_point_options& options = {});

/// The best split of `xs` and its energy statistic Q (nothing for a series shorter than twice
/// `min_segment`). Exposed for the tests.
struct best_split {
    std::size_t index = 0;
    double q = 0;
};
std::optional<best_split> energy_best_split(std::span<const double> xs, std::size_t min_segment);

/// How far apart two values of an exact series may be and still be one level: a gap of more
/// than `absolute` and more than `fraction` of the larger value is a step. The defaults are a
/// count's rounding (a count divided by iterations); a peak heap's allow the allocator's choice
/// of blocks (model/change.hpp, peaks_differ).
struct level_slack {
    double absolute = 0;
    double fraction = 1e-9;
};

/// Whether `a` and `b` are one level under `slack`.
bool same_level(double a, double b, const level_slack& slack = {}) noexcept;

/// The level an exact series ends at, as exact_steps() walks it: the first value of its last
/// level, against which a new value is judged. NaN for an empty series.
double last_level(std::span<const double> xs, const level_slack& slack = {});

/// Where an exact series changes level: each index whose value is not at the level the series
/// is at (same_level with the level's first value); nothing when it changes at more than a
/// quarter of its runs (not an exact count: use e_divisive()).
std::optional<std::vector<std::size_t>> exact_steps(std::span<const double> xs,
                                                    const level_slack& slack = {});

}  // namespace tare::stats
