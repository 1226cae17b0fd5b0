#pragma once
// The change of a head against a base from paired replicates, its 95 % interval, and the
// verdict (docs/statistics.md, "Paired change").
//
// Method: the mean of the log-ratios log(head/base) over replicates, with a Student t interval
// (Student 1908, "The probable error of a mean", Biometrika 6) on n - 1 degrees of freedom,
// back-transformed to percent: 100 (exp(x) - 1). The log scale because timing ratios are
// multiplicative (a 2x slowdown and a 2x speedup are symmetric there) and raw times are
// right-skewed, while their logarithms are close to normal, which is what t assumes.
//
// Rejected for the small n of a process-level comparison (5-20 replicates):
// - the sign test on the median log-ratio (nanobench's compare()): distribution-free, but its
//   interval is made of order statistics, so its level jumps with n (the best available at n = 5
//   is 93.75 %, and below n = 6 no 95 % interval exists at all), and it ignores the magnitudes.
// - the bootstrap (BCa, as src/stats/interval.hpp uses for one benchmark's many samples): for the
//   mean it behaves like mean +- z s sqrt((n-1)/n) / sqrt(n), a normal quantile where t belongs
//   (Efron & Tibshirani 1993, ch. 13): at n = 5 that is a factor 1.75 / 2.78 too narrow, i.e.
//   the false verdicts this module must avoid. nanobench's docs measured coverages of 96.7 % and
//   95.0 % for its candidates under skew: at its n both are near nominal, so coverage at large n
//   does not decide; the behaviour at n = 5-10 does, and there t is exact for normal logs.
// - t on raw differences: the right skew of raw times makes the interval lopsided.
// With n < 2 the t interval is infinite; it is represented as "no interval" (an empty optional)
// and the verdict is then no_change.

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "model/change.hpp"
#include "stats/interval.hpp"

namespace tare::stats {

/// The paired change from base[i] and head[i] (same length; extra values of the longer side
/// are ignored). Every value must be positive and finite: returns nothing otherwise (a log-ratio
/// of 0 or infinity means nothing; callers show the change as missing). With no spread at all
/// the interval is the point {x, x}.
std::optional<paired_change> paired_log_change(std::span<const double> base, std::span<const double> head,
                                               double confidence = 0.95);

/// The same from the log-ratios log(head/base) themselves, one per replicate (when a replicate's
/// ratio is itself an estimate, e.g. the median of a round's adjacent sample pairs). Nothing for
/// an empty or non-finite input.
std::optional<paired_change> log_ratio_change(std::span<const double> log_ratios, double confidence = 0.95);

/// The change of head against base from two independent groups of values (two results files:
/// each process's median time, nothing paired). Welch's t interval (Welch 1947, "The generalization
/// of Student's problem when several different population variances are involved", Biometrika
/// 34) on the difference of the mean logs, with Welch-Satterthwaite degrees of freedom;
/// `pairs` holds the smaller group's size. Its values must be replicates of what varies between
/// the groups: the samples of one process are not (they leave out how much a fresh process
/// differs), which is why tare does not judge files of one process (docs/compare.md).
/// Returns nothing for a non-positive or non-finite value or an empty group; fewer than 2
/// values on a side give no interval.
std::optional<paired_change> welch_log_change(std::span<const double> base, std::span<const double> head,
                                              double confidence = 0.95);

/// The verdict, with criterion's practical-significance band: with threshold_pct <= 0,
/// "slower" needs interval low > 0 and "faster" interval high < 0; with threshold_pct > 0,
/// "slower" needs low > threshold_pct and "faster" high < -threshold_pct. No interval, or one
/// that touches the band, is no_change.
verdict judge(const paired_change& change, double threshold_pct = 0);

/// The smallest alpha at which judge(change at level 1 - alpha, threshold_pct) is not no_change,
/// i.e. the p-value of "the change lies inside the band" (two-sided, as the interval is): with
/// threshold_pct = 0 the usual p-value of "no change". 1 when there is no interval.
double band_p_value(const paired_change& change, double threshold_pct = 0);

/// `change` with its interval at `confidence` instead: mean +- t_{df} quantile * log_se on the
/// log scale, back-transformed, exactly as the interval was made (log_ratio_change,
/// welch_log_change). A change without an interval, or with no spread (log_se 0: the interval
/// is the point), keeps its interval. What `tare merge` uses to judge the rows of several
/// comparisons as one family (docs/cli.md, "tare merge").
paired_change at_level(const paired_change& change, double confidence);

/// Benjamini-Hochberg (1995, "Controlling the false discovery rate", JRSS B 57): the number R
/// of hypotheses rejected at false-discovery rate q, the largest k with p_(k) <= k q / m.
std::size_t benjamini_hochberg_count(std::span<const double> p_values, double q);

/// One row of a family of comparisons: its paired replicates.
struct paired_samples {
    std::span<const double> base;
    std::span<const double> head;
};

/// The changes of m rows with Bonferroni-adjusted intervals (level 1 - alpha/m each), so the
/// family-wise error rate of their verdicts is at most alpha (strong control, any dependence
/// between rows; Bonferroni 1936, Dunn 1961). judge() on the result keeps "no_change iff the
/// interval includes 0" for the interval that is reported. Rows whose change cannot be computed
/// stay empty. Why not Holm or Benjamini-Hochberg: see docs/statistics.md.
std::vector<std::optional<paired_change>> family_changes(std::span<const paired_samples> rows,
                                                         double alpha = 0.05);

/// Student t interval of the mean of xs at `confidence`; empty for fewer than 2 values or a
/// non-finite value; {x, x} when all values are equal.
std::optional<interval> student_mean_interval(std::span<const double> xs, double confidence = 0.95);

/// Regularized incomplete beta I_x(a, b) by its continued fraction (Lentz's method; Press et
/// al. 2007, "Numerical Recipes" 3rd ed., section 6.4). a, b > 0, 0 <= x <= 1.
double incomplete_beta(double x, double a, double b);
/// Student t distribution function P(T <= t) with df > 0 degrees of freedom.
double student_t_cdf(double t, double df);
/// Its inverse: exact for df = 1 and 2, else bisection on student_t_cdf to ~1e-12 relative.
/// +-infinity for p at 0 or 1, NaN for a p outside [0, 1] or df <= 0.
double student_t_quantile(double p, double df);

}  // namespace tare::stats
