// The figures a report shows for one benchmark, the noise verdict, and the OLS slope.

#include "stats/summary.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <system_error>
#include <utility>

#include "stats/descriptive.hpp"
#include "stats/difference.hpp"
#include "stats/interval.hpp"

namespace tare::stats {

namespace {

/// `value` with one decimal, independent of the C locale (std::to_chars never uses it, unlike
/// printf, whose decimal separator follows setlocale).
std::string fixed1(double value) {
    std::array<char, 64> buffer{};
    const auto [end, error] =
        std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::fixed, 1);
    if (error != std::errc{}) {
        return "?";
    }
    return std::string(buffer.data(), end);
}

}  // namespace

time_summary summarize(std::span<const double> per_iteration_ns) {
    time_summary summary;
    if (per_iteration_ns.empty()) {
        return summary;
    }
    const auto [min_it, max_it] = std::minmax_element(per_iteration_ns.begin(), per_iteration_ns.end());
    summary.mean = mean(per_iteration_ns);
    summary.median = median(per_iteration_ns);
    summary.stddev = stddev(per_iteration_ns);
    summary.min = *min_it;
    summary.max = *max_it;
    summary.ci = mean_confidence_interval(per_iteration_ns);
    return summary;
}

std::optional<interval> mean_confidence_interval(std::span<const double> per_iteration_ns) {
    if (per_iteration_ns.size() < 2) {
        return std::nullopt;
    }
    for (const double x : per_iteration_ns) {
        if (!std::isfinite(x)) {
            return std::nullopt;
        }
    }
    if (per_iteration_ns.size() < bootstrap_min_samples) {
        return student_mean_interval(per_iteration_ns);
    }
    return mean_interval(per_iteration_ns);
}

std::optional<warning> noise_warning(const time_summary& summary, const outlier_counts& outliers,
                                     std::size_t sample_count) {
    if (sample_count == 0) {
        return std::nullopt;
    }
    // Four independent symptoms, any one of which makes the figures untrustworthy; the
    // thresholds are argued in docs/statistics.md. Relative spread is the natural scale for
    // timings (a 2 ns jitter is noise at 10 ns and nothing at 10 ms), so the first two need a
    // positive mean; a non-positive mean (overhead subtracted from a near-empty body) has no
    // meaningful relative spread and is left to the other two.
    const bool few = sample_count < noisy_min_samples;
    const bool relative = summary.mean > 0 && std::isfinite(summary.mean);
    const double variation = relative ? summary.stddev / summary.mean : 0;
    const double interval_ratio =
        relative && summary.ci ? (summary.ci->high - summary.ci->low) / 2 / summary.mean : 0;
    const std::uint32_t severe = outliers.low_severe + outliers.high_severe;
    const double severe_share = static_cast<double>(severe) / static_cast<double>(sample_count);

    const bool spread =
        relative && (variation > noisy_max_variation || interval_ratio > noisy_max_interval_ratio);
    const bool wild = severe_share > noisy_max_severe_share;
    if (!few && !spread && !wild) {
        return std::nullopt;
    }

    // One kind, "noisy", whatever the cause: a reader or a script acts the same way on all of
    // them (do not trust the figure, re-run under better conditions). The message says which
    // symptom fired, with its numbers, and what to do.
    std::string message;
    const auto append = [&message](const std::string& part) {
        if (!message.empty()) {
            message += "; ";
        }
        message += part;
    };
    if (few) {
        append("only " + std::to_string(sample_count) + " sample" + (sample_count == 1 ? "" : "s") +
               ", too few to judge the spread");
    }
    if (relative && (spread || few || wild)) {
        append("samples spread \u00b1" + fixed1(100 * variation) + "% around the mean (95% interval \u00b1" +
               fixed1(100 * interval_ratio) + "%)");
    }
    if (wild) {
        append(std::to_string(severe) + " of " + std::to_string(sample_count) + " samples (" +
               fixed1(100 * severe_share) + "%) are severe outliers, beyond 3 IQR from the quartiles");
    }
    if (few && !spread && !wild) {
        message += "; results are unreliable: raise --min-time so that more samples are taken";
    } else {
        message += "; results are unreliable: close other programs, raise --min-time, or pin the CPU";
    }
    return warning{"noisy", std::move(message)};
}

double ols_slope(std::span<const double> x, std::span<const double> y) {
    const std::size_t n = std::min(x.size(), y.size());
    if (n < 2) {
        return 0;
    }
    // beta = sum (x - mean x)(y - mean y) / sum (x - mean x)^2 on centred data: the two-pass
    // form of the corrected sums of squares and products (Welford 1962, Technometrics 4;
    // the same argument as Chan, Golub & LeVeque 1983 make for the variance). Rejected: the
    // textbook one-pass (n sum xy - sum x sum y) / (n sum x^2 - (sum x)^2), which cancels
    // catastrophically here, where x is an iteration count of 10^6..10^9 that varies by a few
    // percent; and a QR fit of [1 x], which for one regressor reduces to this centring.
    const auto xs = x.first(n);
    const auto ys = y.first(n);
    const double mean_x = mean(xs);
    const double mean_y = mean(ys);
    double sxy = 0;
    double sxx = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double dx = xs[i] - mean_x;
        sxy += dx * (ys[i] - mean_y);
        sxx += dx * dx;
    }
    if (!(sxx > 0)) {
        return 0;
    }
    const double slope = sxy / sxx;
    return std::isfinite(slope) ? slope : 0;
}

}  // namespace tare::stats
