// Descriptive statistics against values computed by hand (and, for quantiles, by R's
// quantile(x, p, type = 7), whose arithmetic the implementation mirrors).

#include "stats/descriptive.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace tare::stats {
namespace {

TEST(stats_mean, hand_computed) {
    const std::vector<double> xs{1, 2, 3, 4};
    EXPECT_DOUBLE_EQ(mean(xs), 2.5);
    EXPECT_DOUBLE_EQ(mean(std::vector<double>{-3, 3, 9}), 3.0);
    EXPECT_DOUBLE_EQ(mean(std::vector<double>{5}), 5.0);
}

TEST(stats_mean, empty_is_zero) {
    EXPECT_EQ(mean({}), 0.0);
}

TEST(stats_stddev, hand_computed_sample_deviation) {
    // Deviations from the mean 5: -3 -1 -1 -1 0 0 2 4; squares sum to 32; 32 / (8 - 1).
    const std::vector<double> xs{2, 4, 4, 4, 5, 5, 7, 9};
    EXPECT_DOUBLE_EQ(stddev(xs), std::sqrt(32.0 / 7.0));
    // Two values: |a - b| / sqrt 2.
    EXPECT_DOUBLE_EQ(stddev(std::vector<double>{1, 3}), std::sqrt(2.0));
}

TEST(stats_stddev, fewer_than_two_or_no_spread_is_zero) {
    EXPECT_EQ(stddev({}), 0.0);
    EXPECT_EQ(stddev(std::vector<double>{42}), 0.0);
    EXPECT_EQ(stddev(std::vector<double>{7.25, 7.25, 7.25}), 0.0);
}

TEST(stats_stddev, stable_when_spread_is_tiny_next_to_the_mean) {
    // Deviations -6 -3 3 6 around 10 (or 1e9 + 10): squares sum to 90, variance 30. The
    // one-pass textbook formula loses every digit here; the two-pass one is exact.
    const std::vector<double> small{4, 7, 13, 16};
    const std::vector<double> large{1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16};
    EXPECT_DOUBLE_EQ(stddev(small), std::sqrt(30.0));
    EXPECT_DOUBLE_EQ(stddev(large), std::sqrt(30.0));
}

TEST(stats_median, odd_and_even_counts) {
    EXPECT_DOUBLE_EQ(median(std::vector<double>{3, 1, 2}), 2.0);
    EXPECT_DOUBLE_EQ(median(std::vector<double>{4, 1, 3, 2}), 2.5);
    EXPECT_DOUBLE_EQ(median(std::vector<double>{10, 1, 7, 7, 2, 100}), 7.0);
    EXPECT_DOUBLE_EQ(median(std::vector<double>{9}), 9.0);
    EXPECT_EQ(median({}), 0.0);
}

TEST(stats_median, does_not_overflow_between_huge_values) {
    const double m = median(std::vector<double>{1.5e308, 1.7e308});
    EXPECT_TRUE(std::isfinite(m));
    EXPECT_DOUBLE_EQ(m, 1.6e308);
}

TEST(stats_median, leaves_input_untouched) {
    const std::vector<double> xs{5, 3, 9, 1};
    (void)median(xs);
    EXPECT_EQ(xs, (std::vector<double>{5, 3, 9, 1}));
}

// R: x <- 1:10; quantile(x, c(0, .1, .25, .5, .75, .9, 1))
//    1.00 1.90 3.25 5.50 7.75 9.10 10.00
TEST(stats_quantile, type7_on_one_to_ten) {
    const std::vector<double> xs{10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
    EXPECT_DOUBLE_EQ(quantile(xs, 0.0), 1.0);
    EXPECT_NEAR(quantile(xs, 0.1), 1.9, 1e-12);  // h = 0.9
    EXPECT_DOUBLE_EQ(quantile(xs, 0.25), 3.25);  // h = 2.25
    EXPECT_DOUBLE_EQ(quantile(xs, 0.5), 5.5);    // h = 4.5
    EXPECT_DOUBLE_EQ(quantile(xs, 0.75), 7.75);  // h = 6.75
    EXPECT_NEAR(quantile(xs, 0.9), 9.1, 1e-12);  // h = 8.1
    EXPECT_DOUBLE_EQ(quantile(xs, 1.0), 10.0);
}

// R: x <- c(7.2, 1.5, 3.3, 9.8, 4.4, 2.1); quantile(x, c(.1, .25, .33, .75, .9))
// sorted 1.5 2.1 3.3 4.4 7.2 9.8, h = 5 p:
//   p = .10: h = 0.50 -> 1.5 + 0.50 * 0.6 = 1.80
//   p = .25: h = 1.25 -> 2.1 + 0.25 * 1.2 = 2.40
//   p = .33: h = 1.65 -> 2.1 + 0.65 * 1.2 = 2.88
//   p = .75: h = 3.75 -> 4.4 + 0.75 * 2.8 = 6.50
//   p = .90: h = 4.50 -> 7.2 + 0.50 * 2.6 = 8.50
TEST(stats_quantile, type7_on_irregular_values) {
    const std::vector<double> xs{7.2, 1.5, 3.3, 9.8, 4.4, 2.1};
    EXPECT_NEAR(quantile(xs, 0.10), 1.80, 1e-12);
    EXPECT_NEAR(quantile(xs, 0.25), 2.40, 1e-12);
    EXPECT_NEAR(quantile(xs, 0.33), 2.88, 1e-12);
    EXPECT_NEAR(quantile(xs, 0.75), 6.50, 1e-12);
    EXPECT_NEAR(quantile(xs, 0.90), 8.50, 1e-12);
}

TEST(stats_quantile, agrees_with_median) {
    const std::vector<double> odd{8, 3, 5, 1, 9};
    const std::vector<double> even{8, 3, 5, 1, 9, 4};
    EXPECT_DOUBLE_EQ(quantile(odd, 0.5), median(odd));
    EXPECT_DOUBLE_EQ(quantile(even, 0.5), median(even));
}

TEST(stats_quantile, edges) {
    EXPECT_EQ(quantile({}, 0.5), 0.0);
    EXPECT_EQ(quantile(std::vector<double>{4.5}, 0.3), 4.5);
    const std::vector<double> xs{3, 1, 2};
    EXPECT_EQ(quantile(xs, -0.5), 1.0);  // clamped
    EXPECT_EQ(quantile(xs, 1.5), 3.0);   // clamped
    EXPECT_EQ(quantile(xs, std::numeric_limits<double>::quiet_NaN()), 1.0);
    // Equal neighbours give the value itself, not (1 - g) a + g a with its rounding.
    EXPECT_EQ(quantile(std::vector<double>{0.1, 0.1, 0.1}, 0.37), 0.1);
}

TEST(stats_quantile, sorted_variant_matches) {
    const std::vector<double> unsorted{7.2, 1.5, 3.3, 9.8, 4.4, 2.1};
    const std::vector<double> sorted{1.5, 2.1, 3.3, 4.4, 7.2, 9.8};
    for (const double p : {0.0, 0.05, 0.25, 0.5, 0.61, 0.75, 0.99, 1.0}) {
        EXPECT_EQ(quantile(unsorted, p), quantile_sorted(sorted, p)) << "p = " << p;
    }
}

TEST(stats_quantile, monotone_in_p) {
    const std::vector<double> xs{5, 1, 4, 4, 9, 2, 6, 3, 8, 7, 0.5};
    double previous = quantile(xs, 0);
    for (int i = 1; i <= 1000; ++i) {
        const double q = quantile(xs, i / 1000.0);
        EXPECT_GE(q, previous);
        previous = q;
    }
}

}  // namespace
}  // namespace tare::stats
