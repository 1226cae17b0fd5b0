#pragma once
// One call that turns per-iteration sample times into everything a report shows.

#include <cstddef>
#include <optional>
#include <span>

#include "model/change.hpp"
#include "model/run.hpp"

namespace tare::stats {

/// From this many samples on, the interval of a benchmark's mean is the BCa bootstrap; below
/// it, Student's t. Every bootstrap interval of the mean is too narrow at small n (the resample
/// means spread by s sqrt((n - 1) / n) / sqrt(n) and the interval takes normal quantiles where
/// t's belong): simulated coverage 53 % at n = 2, 85 % at n = 5, 91 % at n = 10, 93 % at
/// n = 20-30, while t holds 94-96 % there for normal and moderately skewed data. From n = 40
/// BCa is at its level and, on skewed data, balances its misses between the two sides where a
/// symmetric t interval errs downward (docs/statistics.md, "Few samples"; the simulation:
/// bench/interval_coverage.cpp).
inline constexpr std::size_t bootstrap_min_samples = 60;

/// The 95 % interval of the mean of a benchmark's samples: Student t below
/// bootstrap_min_samples, BCa (mean_interval with the fixed default options) from there on.
/// Empty for fewer than two samples (one sample has no spread to bound the mean with) and for
/// a sample that is not finite.
std::optional<interval> mean_confidence_interval(std::span<const double> per_iteration_ns);

/// mean, median, stddev, min, max and the 95 % interval of the mean
/// (mean_confidence_interval). All zeros and no interval for no samples.
time_summary summarize(std::span<const double> per_iteration_ns);

// The limits of noise_warning; docs/statistics.md explains each choice.
/// Fewer samples than this cannot show their spread.
inline constexpr std::size_t noisy_min_samples = 5;
/// Half the width of the 95 % interval, relative to the mean.
inline constexpr double noisy_max_interval_ratio = 0.05;
/// Coefficient of variation, stddev / mean.
inline constexpr double noisy_max_variation = 0.20;
/// Share of samples beyond the severe (3 IQR) fences.
inline constexpr double noisy_max_severe_share = 0.10;

/// A "noisy" warning when the samples are too spread to trust (criteria documented in
/// docs/statistics.md), else nothing. The message gives the figures and what to do. Nothing
/// for sample_count 0 (there is no figure to distrust). The relative criteria need a positive
/// mean and are skipped otherwise.
std::optional<warning> noise_warning(const time_summary& summary, const outlier_counts& outliers,
                                     std::size_t sample_count);

/// Least-squares slope of y on x (Legendre/Gauss ordinary least squares); 0 when x has no
/// spread. Used to estimate retained bytes per iteration from live heap against iterations.
/// Uses the first min(x.size(), y.size()) pairs; 0 for fewer than two.
double ols_slope(std::span<const double> x, std::span<const double> y);

}  // namespace tare::stats
