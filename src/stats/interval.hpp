#pragma once
// The 95 % interval of the mean of a benchmark's samples.

#include <cstddef>
#include <cstdint>
#include <span>

namespace tare::stats {

struct interval {
    double low = 0;
    double high = 0;
};

/// Bootstrap settings. Fixed defaults make every report reproducible: the same samples
/// always give the same interval.
struct bootstrap_options {
    double confidence = 0.95;
    std::size_t resamples = 10000;
    std::uint64_t seed = 0x7461726562733031ULL;  // "tarebs01"
};

/// Interval of the mean by the bias-corrected and accelerated bootstrap (BCa; Efron 1987,
/// "Better Bootstrap Confidence Intervals", JASA 82; Efron & Tibshirani 1993, ch. 14).
/// Returns {x, x} for a single value and {0, 0} for none.
interval mean_interval(std::span<const double> xs, const bootstrap_options& options = {});

}  // namespace tare::stats
