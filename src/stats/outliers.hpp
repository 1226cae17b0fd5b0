#pragma once
// Tukey's fences over a benchmark's samples.

#include <span>

#include "model/run.hpp"

namespace tare::stats {

/// Counts samples beyond Tukey's fences (1.5 and 3 IQR from the quartiles; Tukey 1977).
outlier_counts classify_outliers(std::span<const double> xs);

}  // namespace tare::stats
