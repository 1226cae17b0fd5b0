#pragma once
// One call that turns per-iteration sample times into everything a report shows.

#include <optional>
#include <span>

#include "core/result.hpp"

namespace tare::stats {

/// mean, median, stddev, min, max and the 95 % interval of the mean.
time_summary summarize(std::span<const double> per_iteration_ns);

/// A "noisy" warning when the samples are too spread to trust (criteria documented in
/// docs/statistics.md), else nothing.
std::optional<warning> noise_warning(const time_summary& summary, const outlier_counts& outliers,
                                     std::size_t sample_count);

/// Least-squares slope of y on x (Legendre/Gauss ordinary least squares); 0 when x has no
/// spread. Used to estimate retained bytes per iteration from live heap against iterations.
double ols_slope(std::span<const double> x, std::span<const double> y);

}  // namespace tare::stats
