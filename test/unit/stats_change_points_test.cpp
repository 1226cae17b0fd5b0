// Change points of a history's series (stats/change_points.hpp): series whose changes are known.
#include "stats/change_points.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "stats/random.hpp"

namespace tare::stats {
namespace {

// `n` values around `level` with a relative spread of `noise` (uniform, +-noise*sqrt(3): that
// standard deviation), from `seed`.
std::vector<double> noisy(std::size_t n, double level, double noise, std::uint64_t seed) {
    xoshiro256ss rng(seed);
    std::vector<double> xs;
    for (std::size_t i = 0; i < n; ++i) {
        const double u = static_cast<double>(rng() >> 11) / 9007199254740992.0;  // [0, 1)
        xs.push_back(level * (1 + noise * std::sqrt(3.0) * (2 * u - 1)));
    }
    return xs;
}

std::vector<double> join(std::vector<double> a, const std::vector<double>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

TEST(stats_change_points, the_best_split_of_a_clean_step_is_the_step) {
    const std::vector<double> xs{1, 1, 1, 1, 1, 2, 2, 2, 2};
    const auto s = energy_best_split(xs, 3);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->index, 5U);
    EXPECT_GT(s->q, 0);
    EXPECT_FALSE(energy_best_split(std::vector<double>{1, 2, 3, 4, 5}, 3));  // shorter than 2 x 3
}

TEST(stats_change_points, a_five_percent_step_in_one_percent_noise_is_found_where_it_is) {
    const auto xs = join(noisy(15, 100, 0.01, 1), noisy(15, 105, 0.01, 2));
    const auto found = e_divisive(xs);
    ASSERT_EQ(found.size(), 1U);
    EXPECT_EQ(found[0].index, 15U);
    EXPECT_LE(found[0].p_value, 0.01);
}

TEST(stats_change_points, two_steps_are_both_found_by_splitting_again) {
    const auto xs = join(join(noisy(12, 100, 0.01, 3), noisy(12, 110, 0.01, 4)), noisy(12, 100, 0.01, 5));
    const auto found = e_divisive(xs);
    ASSERT_EQ(found.size(), 2U);
    EXPECT_EQ(found[0].index, 12U);
    EXPECT_EQ(found[1].index, 24U);
}

TEST(stats_change_points, a_constant_series_and_one_outlier_are_no_change) {
    EXPECT_TRUE(e_divisive(std::vector<double>(20, 7.0)).empty());
    auto xs = noisy(30, 100, 0.01, 6);
    xs[20] = 300;  // one run on a busy machine
    EXPECT_TRUE(e_divisive(xs).empty());
}

// The stated rate: a series without a change alarms with probability at most alpha. 400 series
// of white noise at alpha 0.05: 20 expected; the binomial's 99.99th percentile is 36.
TEST(stats_change_points, white_noise_alarms_at_most_at_the_stated_rate) {
    change_point_options o;
    o.alpha = 0.05;
    std::size_t alarms = 0;
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
        o.seed = seed;
        alarms += e_divisive(noisy(24, 100, 0.02, 1000 + seed), o).empty() ? 0U : 1U;
    }
    EXPECT_LE(alarms, 36U);
    EXPECT_GE(alarms, 5U);  // and the test is not blind: it does reject at about its level
}

TEST(stats_change_points, the_same_series_gives_the_same_answer) {
    const auto xs = join(noisy(10, 100, 0.02, 7), noisy(10, 103, 0.02, 8));
    const auto a = e_divisive(xs);
    const auto b = e_divisive(xs);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].index, b[i].index);
        EXPECT_EQ(a[i].p_value, b[i].p_value);
    }
}

TEST(stats_change_points, an_exact_count_changes_wherever_its_value_does) {
    const auto steps = exact_steps(std::vector<double>{4, 4, 4, 5, 5, 5, 5, 5, 4, 4});
    ASSERT_TRUE(steps);
    EXPECT_EQ(*steps, (std::vector<std::size_t>{3, 8}));
    // Two runs are enough for a count: any change is a change.
    EXPECT_EQ(exact_steps(std::vector<double>{4, 5}).value(), std::vector<std::size_t>{1});
    // The rounding of a count divided by iterations is no change.
    EXPECT_TRUE(exact_steps(std::vector<double>{0.15, 0.15 * (1 + 1e-12), 0.15})->empty());
    // A value that moves at most runs counts nothing exactly: left to the noisy test.
    EXPECT_FALSE(exact_steps(std::vector<double>{1.01, 1.02, 1.01, 1.03, 1.02, 1.01, 1.02, 1.03}));
}

}  // namespace
}  // namespace tare::stats
