// Tukey's fences (Tukey 1977, "Exploratory Data Analysis", ch. 2): a sample is a mild outlier
// beyond 1.5 IQR outside the quartiles and a severe one beyond 3 IQR.
//
// Why Tukey's fences: they rest on the quartiles, which a few wild samples cannot drag, and
// they are what Criterion.rs and Haskell's criterion report, so readers know the categories.
// Rejected: a z-score cut (|x - mean| > 3 s), whose mean and s are inflated by the very
// outliers it looks for and which assumes symmetry that timings lack; the median absolute
// deviation rule (Hampel 1974; Leys et al. 2013), also robust but symmetric around the
// median, so on right-skewed timings it flags the ordinary slow tail as outliers.
//
// Outliers are counted, never removed: the mean and its interval cover every sample, so the
// counts tell the reader how much a few samples may have moved them.

#include "stats/outliers.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "stats/descriptive.hpp"

namespace tare::stats {

outlier_counts classify_outliers(std::span<const double> xs) {
    outlier_counts counts;
    if (xs.size() < 2) {
        return counts;
    }
    // Quartiles by the definition of quantile() (Hyndman & Fan 7, R's quantile(x, c(.25, .75))),
    // read from one sorted copy. Rejected: Tukey's own hinges (R's fivenum, used by boxplot),
    // which step between order statistics as n changes by one; definition 7 moves smoothly,
    // and it is the quartile the rest of the report (and Criterion.rs) uses.
    std::vector<double> sorted(xs.begin(), xs.end());
    std::sort(sorted.begin(), sorted.end());
    const double q1 = quantile_sorted(sorted, 0.25);
    const double q3 = quantile_sorted(sorted, 0.75);
    const double iqr = q3 - q1;
    const double low_severe = q1 - 3 * iqr;
    const double low_mild = q1 - 1.5 * iqr;
    const double high_mild = q3 + 1.5 * iqr;
    const double high_severe = q3 + 3 * iqr;

    // Strictly beyond a fence, as Tukey defines "outside": a sample exactly on a fence is in.
    // With IQR = 0 (more than half the samples identical, common for a coarse clock) every
    // sample that differs from the quartile value is an outlier; that is the rule, and it is
    // what the reader should hear about such a run.
    for (const double x : sorted) {
        if (x < low_severe) {
            ++counts.low_severe;
        } else if (x < low_mild) {
            ++counts.low_mild;
        } else if (x > high_severe) {
            ++counts.high_severe;
        } else if (x > high_mild) {
            ++counts.high_mild;
        }
    }
    return counts;
}

}  // namespace tare::stats
