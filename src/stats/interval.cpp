// The interval of the mean: BCa bootstrap (Efron 1987; Efron & Tibshirani 1993, ch. 14).
//
// Why BCa: timing samples are right-skewed (a floor set by the code, a long tail of
// preemptions, cache misses and frequency changes), so the sampling distribution of their
// mean is skewed too at the sample counts a benchmark affords. Rejected alternatives:
//  - Student t (mean +- t * s / sqrt(n)): symmetric by construction, so with skewed data it
//    puts too much of the interval below the mean and too little above; its coverage error
//    is O(n^-1/2) one-sided (Hall 1992, "The Bootstrap and Edgeworth Expansion").
//  - percentile bootstrap: follows the skew but has the same O(n^-1/2) one-sided error and
//    a known narrowness bias for small n (Efron & Tibshirani 1993, ch. 13 and 14).
//  - bootstrap-t: second-order accurate too, but needs a variance estimate per resample and
//    is erratic for small n with outliers (Efron & Tibshirani 1993, ch. 12).
// BCa corrects the percentile interval for median bias (z0) and for skewness (a); it is
// second-order accurate and transformation-respecting (Efron 1987, section 2). It is the
// default of scipy.stats.bootstrap and one of R's boot::boot.ci types.
//
// See docs/statistics.md for the seed, the resample count and the measured coverage.

#include "stats/interval.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "stats/descriptive.hpp"
#include "stats/random.hpp"

namespace tare::stats {

namespace {

constexpr std::size_t min_resamples = 100;

/// The BCa-adjusted percentile for the normal quantile z (Efron & Tibshirani 1993, eq. 14.10):
/// Phi(z0 + (z0 + z) / (1 - a (z0 + z))).
double bca_level(double z0, double a, double z) {
    const double w = z0 + z;
    const double denominator = 1 - a * w;
    // The transformation is only defined while 1 - a w > 0. Past that point the limit from
    // inside is Phi(+-infinity): take the extreme resample in w's direction. It needs a w >= 1
    // with |a| <= ~1/6 (its maximum, one sample far from n - 1 equal ones), so z0 must be
    // extreme too: only tiny, very skewed samples with many resamples get here.
    if (!(denominator > 0)) {
        return w > 0 ? 1.0 : 0.0;
    }
    return std::clamp(normal_cdf(z0 + w / denominator), 0.0, 1.0);
}

}  // namespace

double normal_cdf(double x) {
    // Phi(x) = erfc(-x / sqrt 2) / 2 (Abramowitz & Stegun 1964, 26.2.29 with 7.1.2). erfc keeps
    // full relative accuracy in the lower tail, where 1 + erf(x / sqrt 2) would cancel.
    return 0.5 * std::erfc(-x / std::numbers::sqrt2);
}

double normal_quantile(double p) {
    if (std::isnan(p)) {
        return p;
    }
    if (p <= 0) {
        return -std::numeric_limits<double>::infinity();
    }
    if (p >= 1) {
        return std::numeric_limits<double>::infinity();
    }
    // Acklam (2003), "An algorithm for computing the inverse normal cumulative distribution
    // function": rational approximations in a central region and two tails, relative error
    // below 1.15e-9, then one Halley step on Phi(x) - p (as Acklam suggests), which brings
    // it to machine precision. Rejected: Wichura's AS 241 (Appl. Stat. 37, 1988) is as
    // accurate without refinement but needs three sets of degree-7 coefficients for no gain
    // here; Beasley-Springer-Moro (Moro 1995) is tuned for Monte Carlo in finance and is no
    // more accurate than unrefined Acklam.
    static constexpr std::array<double, 6> a{-3.969683028665376e+01, 2.209460984245205e+02,
                                             -2.759285104469687e+02, 1.383577518672690e+02,
                                             -3.066479806614716e+01, 2.506628277459239e+00};
    static constexpr std::array<double, 5> b{-5.447609879822406e+01, 1.615858368580409e+02,
                                             -1.556989798598866e+02, 6.680131188771972e+01,
                                             -1.328068155288572e+01};
    static constexpr std::array<double, 6> c{-7.784894002430293e-03, -3.223964580411365e-01,
                                             -2.400758277161838e+00, -2.549732539343734e+00,
                                             4.374664141464968e+00,  2.938163982698783e+00};
    static constexpr std::array<double, 4> d{7.784695709041462e-03, 3.224671290700398e-01,
                                             2.445134137142996e+00, 3.754408661907416e+00};
    constexpr double p_low = 0.02425;

    // Only the lower half is computed; the upper half follows from Phi^-1(p) = -Phi^-1(1 - p),
    // where 1 - p is exact for p >= 1/2 (Sterbenz's lemma). Why: the Halley step needs
    // Phi(x) - p, which in the upper tail is the difference of two numbers near 1 and loses
    // every digit that the refinement is meant to add (measured: 1e-9 relative error left).
    const bool upper = p > 0.5;
    const double lower_p = upper ? 1 - p : p;
    double x = 0;
    if (lower_p < p_low) {
        const double q = std::sqrt(-2 * std::log(lower_p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    } else {
        const double q = lower_p - 0.5;
        const double r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    }
    // Halley's step: e = Phi(x) - p, u = e / phi(x), x -= u / (1 + x u / 2). In the lower half
    // Phi(x) comes from erfc with full relative accuracy, so e is accurate too.
    const double e = normal_cdf(x) - lower_p;
    const double u = e * std::sqrt(2 * std::numbers::pi) * std::exp(x * x / 2);
    x -= u / (1 + x * u / 2);
    return upper ? -x : x;
}

double jackknife_acceleration(std::span<const double> xs) {
    if (xs.size() < 2) {
        return 0;
    }
    // For the mean the leave-one-out estimates are theta_(i) = (S - x_i) / (n - 1), whose
    // average is the mean itself, so theta_(.) - theta_(i) = (x_i - mean) / (n - 1). The
    // (n - 1) factors cancel in eq. 14.15, leaving the deviations from the mean: the exact
    // jackknife in O(n) and without the cancellation of forming S - x_i.
    const double m = mean(xs);
    double sum_d2 = 0;
    double sum_d3 = 0;
    for (const double x : xs) {
        const double dev = x - m;
        sum_d2 += dev * dev;
        sum_d3 += dev * dev * dev;
    }
    if (!(sum_d2 > 0)) {
        return 0;
    }
    const double a = sum_d3 / (6 * sum_d2 * std::sqrt(sum_d2));
    return std::isfinite(a) ? a : 0;
}

interval mean_interval(std::span<const double> xs, const bootstrap_options& options) {
    const std::size_t n = xs.size();
    if (n == 0) {
        return {0, 0};
    }
    if (!std::all_of(xs.begin(), xs.end(), [](double x) { return std::isfinite(x); })) {
        return {0, 0};
    }
    const auto [min_it, max_it] = std::minmax_element(xs.begin(), xs.end());
    if (*min_it == *max_it) {
        // One value, or all equal: every resample has the same mean, and z0 would be
        // infinite. The interval is the value itself.
        return {*min_it, *min_it};
    }
    const double theta = mean(xs);
    if (!std::isfinite(theta)) {
        return {0, 0};  // the sum overflowed; no finite interval is meaningful
    }

    const std::size_t resamples = std::max(options.resamples, min_resamples);
    const double confidence = options.confidence > 0 && options.confidence < 1 ? options.confidence : 0.95;

    // The resampling loop: `resamples` means of n draws with replacement. One buffer for the
    // whole run, nothing allocated per resample. Each mean is summed left to right and
    // divided by n exactly as mean() does, so a resample that happens to be a permutation
    // of the data lands on theta up to summation order only.
    xoshiro256ss rng(options.seed);
    const auto count = static_cast<std::uint64_t>(n);
    const auto divisor = static_cast<double>(n);
    const double* const data = xs.data();
    std::vector<double> means(resamples);
    for (double& resample_mean : means) {
        double sum = 0;
        for (std::size_t i = 0; i < n; ++i) {
            sum += data[bounded(rng, count)];
        }
        resample_mean = sum / divisor;
    }
    std::sort(means.begin(), means.end());

    // Bias correction z0 = Phi^-1(share of resample means below theta) (Efron & Tibshirani
    // 1993, eq. 14.14). Ties with theta count one half, as current scipy.stats.bootstrap does:
    // timings are often quantised to whole nanoseconds, so resample means equal to theta
    // happen, and counting them all as "not below" (R's boot, older scipy) biases z0
    // downward. The share is kept within half a resample of 0 and 1 so that z0 stays finite
    // when theta lies outside every resample mean.
    const auto [lower, upper] = std::equal_range(means.begin(), means.end(), theta);
    const double below = static_cast<double>(lower - means.begin());
    const double equal = static_cast<double>(upper - lower);
    const double b_count = static_cast<double>(resamples);
    const double share = std::clamp((below + 0.5 * equal) / b_count, 0.5 / b_count, 1 - 0.5 / b_count);
    const double z0 = normal_quantile(share);
    const double a = jackknife_acceleration(xs);

    const double alpha = (1 - confidence) / 2;
    const double level_low = bca_level(z0, a, normal_quantile(alpha));
    const double level_high = bca_level(z0, a, normal_quantile(1 - alpha));

    // Percentiles of the resample means at the adjusted levels. Efron & Tibshirani take the
    // (B alpha)-th order statistic; interpolating (Hyndman & Fan definition 7) instead keeps
    // the bound a continuous function of the level and needs no rounding convention.
    interval result{quantile_sorted(means, level_low), quantile_sorted(means, level_high)};
    if (result.low > result.high) {
        std::swap(result.low, result.high);
    }
    return result;
}

}  // namespace tare::stats
