#pragma once
// Descriptive statistics over a benchmark's samples. Every function here is pure and returns
// 0 for an empty input (a report then shows zeros rather than NaN).

#include <span>

#include "model/run.hpp"

namespace tare::stats {

double mean(std::span<const double> xs);
/// Sample standard deviation (n - 1 denominator); 0 for fewer than two values.
double stddev(std::span<const double> xs);
/// Median; the mean of the two middle values for an even count.
double median(std::span<const double> xs);
/// The p-quantile (0 <= p <= 1), Hyndman & Fan (1996) definition 7 (R's default, linear
/// interpolation between order statistics).
double quantile(std::span<const double> xs, double p);
/// quantile() over values already sorted ascending; no copy, no sort. p outside [0, 1] is
/// clamped to it (NaN counts as 0).
double quantile_sorted(std::span<const double> sorted, double p);

}  // namespace tare::stats
