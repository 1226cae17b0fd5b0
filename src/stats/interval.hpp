#pragma once
// The 95 % interval of the mean of a benchmark's samples.

#include <cstddef>
#include <cstdint>
#include <span>

#include "model/change.hpp"

namespace tare::stats {

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
/// Never returns NaN or infinity: {x, x} when all values are equal, {0, 0} when any value is
/// not finite. `resamples` below 100 are raised to 100; a `confidence` outside (0, 1) is
/// replaced by 0.95. The same input and options always give the same interval.
interval mean_interval(std::span<const double> xs, const bootstrap_options& options = {});

/// The BCa acceleration of the mean from the jackknife (Efron & Tibshirani 1993, eq. 14.15):
/// a = sum d^3 / (6 (sum d^2)^(3/2)) with d the jackknife deviations; 0 for fewer than two
/// values or no spread.
double jackknife_acceleration(std::span<const double> xs);

/// Standard normal distribution function Phi(x).
double normal_cdf(double x);
/// Its inverse (the probit): Acklam's rational approximation refined by one Halley step,
/// accurate to ~1e-15 relative. -infinity for p <= 0, +infinity for p >= 1, NaN for NaN.
double normal_quantile(double p);

}  // namespace tare::stats
