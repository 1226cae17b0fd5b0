// Tukey's fences on data built so that the quartiles and fences are known by hand.

#include "stats/outliers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "stats/random.hpp"

namespace tare::stats {
namespace {

TEST(stats_outliers, one_in_each_category) {
    // n = 12, sorted. Type 7: q1 at h = 2.75 -> 10 + 0.75 * 1 = 10.75; q3 at h = 8.25 ->
    // 16 + 0.25 * 1 = 16.25; IQR 5.5. Fences: severe below -5.75, mild below 2.5, mild above
    // 24.5, severe above 32.75. So -30 low severe, -5 low mild, 30 high mild, 60 high severe.
    const std::vector<double> xs{-30, -5, 10, 11, 12, 13, 14, 15, 16, 17, 30, 60};
    const outlier_counts counts = classify_outliers(xs);
    EXPECT_EQ(counts.low_severe, 1u);
    EXPECT_EQ(counts.low_mild, 1u);
    EXPECT_EQ(counts.high_mild, 1u);
    EXPECT_EQ(counts.high_severe, 1u);
    EXPECT_EQ(counts.total(), 4u);
}

TEST(stats_outliers, order_does_not_matter) {
    std::vector<double> xs{-30, -5, 10, 11, 12, 13, 14, 15, 16, 17, 30, 60};
    std::reverse(xs.begin(), xs.end());
    std::swap(xs[2], xs[7]);
    const outlier_counts counts = classify_outliers(xs);
    EXPECT_EQ(counts.low_severe, 1u);
    EXPECT_EQ(counts.low_mild, 1u);
    EXPECT_EQ(counts.high_mild, 1u);
    EXPECT_EQ(counts.high_severe, 1u);
}

TEST(stats_outliers, on_a_fence_is_inside) {
    // {1, 2, 3, 4, x} with x largest: q1 = 2 (h = 1), q3 = 4 (h = 3), IQR 2, whatever x is.
    // Mild fence 4 + 3 = 7, severe fence 4 + 6 = 10; "outside" means strictly beyond.
    const auto high = [](double x) {
        const outlier_counts c = classify_outliers(std::vector<double>{1, 2, 3, 4, x});
        EXPECT_EQ(c.low_severe + c.low_mild, 0u);
        return std::pair{c.high_mild, c.high_severe};
    };
    EXPECT_EQ(high(7.0), (std::pair{0u, 0u}));
    EXPECT_EQ(high(7.5), (std::pair{1u, 0u}));
    EXPECT_EQ(high(10.0), (std::pair{1u, 0u}));
    EXPECT_EQ(high(10.5), (std::pair{0u, 1u}));
}

TEST(stats_outliers, low_side_mirrors_high_side) {
    // {x, 6, 7, 8, 9} with x smallest: q1 = 6, q3 = 8, IQR 2; fences at 3 (mild), 0 (severe).
    const auto low = [](double x) {
        const outlier_counts c = classify_outliers(std::vector<double>{x, 6, 7, 8, 9});
        return std::pair{c.low_mild, c.low_severe};
    };
    EXPECT_EQ(low(3.0), (std::pair{0u, 0u}));
    EXPECT_EQ(low(2.5), (std::pair{1u, 0u}));
    EXPECT_EQ(low(0.0), (std::pair{1u, 0u}));
    EXPECT_EQ(low(-0.5), (std::pair{0u, 1u}));
}

TEST(stats_outliers, zero_iqr_flags_every_different_value) {
    // n = 8: q1 at h = 1.75 and q3 at h = 5.25 both fall among the 5s, so IQR = 0 and the
    // single 6 is beyond every fence.
    const outlier_counts counts = classify_outliers(std::vector<double>{5, 5, 5, 5, 5, 5, 5, 6});
    EXPECT_EQ(counts.high_severe, 1u);
    EXPECT_EQ(counts.total(), 1u);
    EXPECT_EQ(classify_outliers(std::vector<double>{5, 5, 5, 5}).total(), 0u);
}

TEST(stats_outliers, too_few_values) {
    EXPECT_EQ(classify_outliers({}).total(), 0u);
    EXPECT_EQ(classify_outliers(std::vector<double>{1e9}).total(), 0u);
}

TEST(stats_outliers, normal_data_matches_theory) {
    // For a normal distribution the mild fences sit at +-2.698 sigma (share outside 0.698 %)
    // and the severe ones at +-4.721 sigma (share 2.3e-6). 20,000 seeded draws: expect ~140
    // mild outliers (binomial sd ~12) and essentially no severe ones.
    xoshiro256ss rng(99);
    std::vector<double> xs;
    xs.reserve(20000);
    while (xs.size() < 20000) {
        const auto pair = standard_normal_pair(rng);
        xs.push_back(100 + 5 * pair[0]);
        xs.push_back(100 + 5 * pair[1]);
    }
    const outlier_counts counts = classify_outliers(xs);
    const unsigned severe = counts.low_severe + counts.high_severe;
    EXPECT_LE(severe, 2u);
    EXPECT_GE(counts.total(), 90u);
    EXPECT_LE(counts.total(), 190u);
    // Symmetric distribution: neither side dominates.
    const unsigned low = counts.low_mild + counts.low_severe;
    const unsigned high = counts.high_mild + counts.high_severe;
    EXPECT_GE(low, 35u);
    EXPECT_GE(high, 35u);
}

}  // namespace
}  // namespace tare::stats
