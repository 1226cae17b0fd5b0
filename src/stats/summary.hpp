#pragma once
// One call that turns per-iteration sample times into everything a report shows.

#include <cstddef>
#include <optional>
#include <span>

#include "model/run.hpp"

namespace tare::stats {

/// mean, median, stddev, min, max and the 95 % interval of the mean (mean_interval with the
/// default, fixed bootstrap_options). All zeros for no samples.
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
