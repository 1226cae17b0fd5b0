// The paired change (src/stats/difference.hpp): the t quantile against tables, exact intervals for
// constructed inputs, the verdict rules of CONTRACT section 6, Bonferroni families, and seeded
// simulations of A/A and A/B comparisons under a per-process noise model.

#include "stats/difference.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "stats/random.hpp"

namespace tare::stats {
namespace {

TEST(stats_change, t_quantile_matches_the_tables) {
    // t_{0.975, df} (Fisher & Yates tables; more digits from R's qt()).
    struct row {
        double df;
        double t;
    };
    for (row r : {row{1, 12.7062047}, row{2, 4.3026527}, row{5, 2.5705818}, row{10, 2.2281389},
                  row{30, 2.0422725}, row{100, 1.9839715}}) {
        EXPECT_NEAR(student_t_quantile(0.975, r.df), r.t, 1e-6 * r.t) << "df " << r.df;
        EXPECT_NEAR(student_t_quantile(0.025, r.df), -r.t, 1e-6 * r.t) << "df " << r.df;
    }
    EXPECT_NEAR(student_t_quantile(0.995, 4), 4.6040949, 1e-6);
    // Non-integer df lies between the tabulated neighbours t_{0.9,7} and t_{0.9,8}.
    EXPECT_GT(student_t_quantile(0.9, 7.5), 1.396815);
    EXPECT_LT(student_t_quantile(0.9, 7.5), 1.414924);
    EXPECT_NEAR(student_t_quantile(0.975, 1e6), 1.959966, 1e-5);  // the normal limit
    EXPECT_EQ(student_t_quantile(0.5, 3), 0.0);
    EXPECT_TRUE(std::isinf(student_t_quantile(1, 3)));
    EXPECT_TRUE(std::isnan(student_t_quantile(1.5, 3)));
    EXPECT_TRUE(std::isnan(student_t_quantile(0.9, 0)));
}

TEST(stats_change, t_cdf_round_trips_and_matches_known_values) {
    EXPECT_NEAR(student_t_cdf(0, 5), 0.5, 1e-15);
    EXPECT_NEAR(student_t_cdf(1, 1), 0.75, 1e-12);  // Cauchy: 1/2 + atan(1)/pi
    EXPECT_NEAR(student_t_cdf(2.2281389, 10), 0.975, 1e-8);
    for (double df : {1.0, 3.0, 9.0, 40.0}) {
        for (double p : {0.001, 0.05, 0.3, 0.7, 0.99}) {
            EXPECT_NEAR(student_t_cdf(student_t_quantile(p, df), df), p, 1e-10) << df << " " << p;
        }
    }
    EXPECT_NEAR(incomplete_beta(0.5, 2, 2), 0.5, 1e-14);
    EXPECT_NEAR(incomplete_beta(0.3, 1, 1), 0.3, 1e-14);
    EXPECT_NEAR(incomplete_beta(0.2, 2, 3), 0.1808, 1e-12);  // 1 - sum_{j<2} C(4,j) .2^j .8^(4-j)
}

TEST(stats_change, constant_ratio_gives_a_point_interval) {
    std::vector<double> base{1, 2, 4};
    std::vector<double> head{2, 4, 8};
    auto c = paired_log_change(base, head);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->pairs, 3U);
    EXPECT_NEAR(c->change_pct, 100, 1e-12);
    ASSERT_TRUE(c->interval_pct);
    EXPECT_NEAR(c->interval_pct->low, 100, 1e-12);
    EXPECT_NEAR(c->interval_pct->high, 100, 1e-12);
    EXPECT_EQ(c->p_value, 0.0);
    EXPECT_EQ(judge(*c), verdict::slower);
    EXPECT_EQ(judge(*c, 150), verdict::no_change);
}

TEST(stats_change, three_log_ratios_give_the_textbook_t_interval) {
    // log-ratios 0, 0.2, 0.4: mean 0.2, s = 0.2, se = 0.2 / sqrt(3), t_{.975,2} = 4.3026527.
    std::vector<double> base{1, 1, 1};
    std::vector<double> head{1, std::exp(0.2), std::exp(0.4)};
    auto c = paired_log_change(base, head);
    ASSERT_TRUE(c && c->interval_pct);
    const double half = 4.3026527 * 0.2 / std::sqrt(3.0);
    EXPECT_NEAR(c->mean_log_ratio, 0.2, 1e-12);
    EXPECT_NEAR(c->change_pct, 100 * (std::exp(0.2) - 1), 1e-9);
    EXPECT_NEAR(c->interval_pct->low, 100 * (std::exp(0.2 - half) - 1), 1e-5);
    EXPECT_NEAR(c->interval_pct->high, 100 * (std::exp(0.2 + half) - 1), 1e-5);
    // t = 0.2 / (0.2 / sqrt 3) = sqrt 3 on 2 df: two-sided p = 1 - sqrt(3)/sqrt(3 + 2)... = 0.2254
    // (for df = 2, P(|T| > t) = 1 - t / sqrt(2 + t^2)).
    EXPECT_NEAR(c->p_value, 1 - std::sqrt(3.0) / std::sqrt(5.0), 1e-10);
    EXPECT_EQ(judge(*c), verdict::no_change);  // the interval includes 0
}

TEST(stats_change, symmetric_pair_gives_the_df1_interval) {
    std::vector<double> base{1, 1};
    std::vector<double> head{std::exp(0.1), std::exp(-0.1)};
    auto c = paired_log_change(base, head);
    ASSERT_TRUE(c && c->interval_pct);
    const double half = 12.7062047 * 0.1;  // s = 0.1 sqrt 2, se = 0.1
    EXPECT_NEAR(c->change_pct, 0, 1e-12);
    EXPECT_NEAR(c->interval_pct->low, 100 * (std::exp(-half) - 1), 1e-4);
    EXPECT_NEAR(c->interval_pct->high, 100 * (std::exp(half) - 1), 1e-4);
    EXPECT_NEAR(c->p_value, 1.0, 1e-12);
}

TEST(stats_change, fewer_than_two_pairs_have_no_interval_and_no_verdict) {
    std::vector<double> one{1};
    std::vector<double> two{2};
    auto c = paired_log_change(one, two);
    ASSERT_TRUE(c);
    EXPECT_FALSE(c->interval_pct);
    EXPECT_NEAR(c->change_pct, 100, 1e-12);
    EXPECT_EQ(judge(*c), verdict::no_change);
    EXPECT_FALSE(paired_log_change({}, {}));
}

TEST(stats_change, non_positive_or_non_finite_values_give_no_change_figure) {
    std::vector<double> base{1, 0, 1};
    std::vector<double> head{1, 1, 1};
    EXPECT_FALSE(paired_log_change(base, head));
    std::vector<double> nan_head{1, std::nan(""), 1};
    EXPECT_FALSE(paired_log_change(head, nan_head));
}

TEST(stats_change, judge_follows_contract_and_threshold_band) {
    paired_change c;
    c.interval_pct = interval{0.5, 3};
    EXPECT_EQ(judge(c), verdict::slower);
    EXPECT_EQ(judge(c, 1), verdict::no_change);  // low 0.5 does not clear the 1 % band
    c.interval_pct = interval{-3, -1.5};
    EXPECT_EQ(judge(c), verdict::faster);
    EXPECT_EQ(judge(c, 1), verdict::faster);
    EXPECT_EQ(judge(c, 2), verdict::no_change);
    c.interval_pct = interval{0, 3};  // touching 0 is including it
    EXPECT_EQ(judge(c), verdict::no_change);
    c.interval_pct = interval{-1, 1};
    EXPECT_EQ(judge(c), verdict::no_change);
    EXPECT_EQ(verdict_name(verdict::no_change), "no_change");
    EXPECT_EQ(verdict_name(verdict::slower), "slower");
    EXPECT_EQ(verdict_name(verdict::faster), "faster");
}

TEST(stats_change, bonferroni_family_widens_each_interval) {
    std::vector<double> base{1, 1, 1, 1};
    std::vector<double> head{1.01, 1.03, 1.02, 1.04};
    std::vector<paired_samples> rows(10, paired_samples{base, head});
    auto single = paired_log_change(base, head);
    auto family = family_changes(rows);
    ASSERT_EQ(family.size(), 10U);
    ASSERT_TRUE(single && family[0] && family[0]->interval_pct);
    EXPECT_NEAR(family[0]->confidence, 0.995, 1e-15);
    EXPECT_LT(family[0]->interval_pct->low, single->interval_pct->low);
    EXPECT_GT(family[0]->interval_pct->high, single->interval_pct->high);
    auto alone = family_changes(std::span<const paired_samples>(rows.data(), 1));
    ASSERT_TRUE(alone[0] && alone[0]->interval_pct);
    EXPECT_DOUBLE_EQ(alone[0]->interval_pct->low, single->interval_pct->low);
}

TEST(stats_change, student_mean_interval_of_raw_values) {
    std::vector<double> xs{1, 2, 3};  // mean 2, s 1, se 1/sqrt 3
    auto i = student_mean_interval(xs);
    ASSERT_TRUE(i);
    EXPECT_NEAR(i->low, 2 - 4.3026527 / std::sqrt(3.0), 1e-6);
    EXPECT_NEAR(i->high, 2 + 4.3026527 / std::sqrt(3.0), 1e-6);
    std::vector<double> one{1};
    EXPECT_FALSE(student_mean_interval(one));
}

// Welch with equal variances and sizes: df = 2n - 2 and the pooled-t interval. Logs of base
// {0, .1, .2} and head {.1, .2, .3}: difference .1, se sqrt(.01/3 * 2), t(4, .975) = 2.776445.
TEST(stats_change, welch_interval_on_logs_matches_the_hand_computation) {
    std::vector<double> base{std::exp(0.0), std::exp(0.1), std::exp(0.2)};
    std::vector<double> head{std::exp(0.1), std::exp(0.2), std::exp(0.3)};
    auto c = welch_log_change(base, head);
    ASSERT_TRUE(c);
    const double half = 2.7764451 * std::sqrt(0.01 / 3 * 2);
    EXPECT_NEAR(c->mean_log_ratio, 0.1, 1e-12);
    EXPECT_NEAR(c->change_pct, 100 * std::expm1(0.1), 1e-9);
    ASSERT_TRUE(c->interval_pct);
    EXPECT_NEAR(c->interval_pct->low, 100 * std::expm1(0.1 - half), 1e-5);
    EXPECT_NEAR(c->interval_pct->high, 100 * std::expm1(0.1 + half), 1e-5);
    EXPECT_EQ(judge(*c), verdict::no_change);
    std::vector<double> one{1.0};
    auto single = welch_log_change(one, head);
    ASSERT_TRUE(single);
    EXPECT_FALSE(single->interval_pct);
    std::vector<double> zero{0.0, 1.0};
    EXPECT_FALSE(welch_log_change(zero, head));
}

// The noise model of a whole-process comparison: every run is a fresh process, so it carries
// its own offset (code/heap placement, ASLR: sd 5 % here, the issue measured up to +-7 %) on top
// of within-run noise (sd 2 %), and the machine drifts between ABBA blocks (sd 10 %, shared by
// both sides of a block). One replicate = one ABBA block: log(sum head / sum base).
struct sim_result {
    double slower = 0;
    double faster = 0;
};

sim_result simulate(double true_ratio, std::size_t blocks, int comparisons, std::uint64_t seed,
                    double threshold_pct = 0) {
    xoshiro256ss rng(seed);
    auto normal = [&rng] { return standard_normal_pair(rng)[0]; };
    auto run = [&](double scale) { return scale * std::exp(0.05 * normal() + 0.02 * normal()); };
    int slower = 0;
    int faster = 0;
    for (int c = 0; c < comparisons; ++c) {
        std::vector<double> base;
        std::vector<double> head;
        for (std::size_t b = 0; b < blocks; ++b) {
            const double drift = std::exp(0.10 * normal());
            base.push_back(run(drift) + run(drift));
            head.push_back(run(drift * true_ratio) + run(drift * true_ratio));
        }
        auto change = paired_log_change(base, head);
        verdict v = change ? judge(*change, threshold_pct) : verdict::no_change;
        slower += v == verdict::slower ? 1 : 0;
        faster += v == verdict::faster ? 1 : 0;
    }
    return {static_cast<double>(slower) / comparisons, static_cast<double>(faster) / comparisons};
}

// A 95 % interval that is exact has a false-verdict rate of exactly 5 % in expectation, so a
// finite simulation lands on either side of 5 % by chance (200,000 runs per n outside this test
// gave 4.95-5.07 %). The bound is therefore 5 % plus three Monte Carlo standard errors
// (sqrt(.05 .95 / N) = 0.15 % at N = 20,000): an anti-conservative method (e.g. z in place of t,
// 12.2 % at 5 pairs, 8.2 % at 10, or the bootstrap) fails it, an exact one passes.
TEST(stats_change, simulated_a_a_false_verdict_rate_is_at_most_five_percent) {
    constexpr int comparisons = 20000;
    const double bound = 0.05 + 3 * std::sqrt(0.05 * 0.95 / comparisons);
    for (std::size_t blocks : {3U, 5U, 10U, 20U}) {
        sim_result r = simulate(1.0, blocks, comparisons, 0x5eed0000 + blocks);
        const double false_rate = r.slower + r.faster;
        std::printf("A/A, %zu pairs: false verdicts %.2f%% (slower %.2f%%, faster %.2f%%)\n", blocks,
                    100 * false_rate, 100 * r.slower, 100 * r.faster);
        EXPECT_LE(false_rate, bound) << blocks << " pairs";
        sim_result banded = simulate(1.0, blocks, comparisons / 4, 0x5eed0000 + blocks, 1.0);
        std::printf("A/A, %zu pairs, 1%% band: false verdicts %.2f%%\n", blocks,
                    100 * (banded.slower + banded.faster));
        EXPECT_LE(banded.slower + banded.faster, bound);
    }
}

TEST(stats_change, simulated_five_percent_slowdown_is_found) {
    sim_result r10 = simulate(1.05, 10, 2000, 0x5eed1000);
    sim_result r20 = simulate(1.05, 20, 2000, 0x5eed2000);
    std::printf(
        "5%% slower: found %.1f%% with 10 pairs, %.1f%% with 20 pairs (wrong direction %.2f%%, "
        "%.2f%%)\n",
        100 * r10.slower, 100 * r20.slower, 100 * r10.faster, 100 * r20.faster);
    EXPECT_GE(r20.slower, 0.90);
    EXPECT_EQ(r20.faster, 0.0);
    sim_result fast = simulate(1 / 1.05, 20, 2000, 0x5eed3000);
    std::printf("5%% faster: found %.1f%% with 20 pairs\n", 100 * fast.faster);
    EXPECT_GE(fast.faster, 0.90);
}

TEST(stats_change, benjamini_hochberg_steps_up) {
    const double q = 0.05;
    // Thresholds k q / 4: 0.0125, 0.025, 0.0375, 0.05.
    EXPECT_EQ(benjamini_hochberg_count(std::vector<double>{0.5, 0.02, 0.01, 0.03}, q), 3U);
    // Step-up: none passes its own rank but the last, so all four are rejected.
    EXPECT_EQ(benjamini_hochberg_count(std::vector<double>{0.04, 0.04, 0.04, 0.04}, q), 4U);
    EXPECT_EQ(benjamini_hochberg_count(std::vector<double>{0.03, 0.9}, q), 0U);
    EXPECT_EQ(benjamini_hochberg_count(std::vector<double>{}, q), 0U);
    // One hypothesis: BH is the plain test.
    EXPECT_EQ(benjamini_hochberg_count(std::vector<double>{0.05}, q), 1U);
}

// band_p_value is the level at which judge() starts giving a verdict, with and without a band.
TEST(stats_change, band_p_value_is_where_the_verdict_starts) {
    const std::vector<double> logs = {0.031, 0.012, 0.025, 0.040, 0.018, 0.029, 0.022, 0.035};
    for (double band : {0.0, 1.0, 2.0}) {
        const auto ref = log_ratio_change(logs, 0.95);
        ASSERT_TRUE(ref);
        const double p = band_p_value(*ref, band);
        ASSERT_GT(p, 0);
        ASSERT_LT(p, 0.5);
        const auto just_wider = log_ratio_change(logs, 1 - p * 0.999);
        const auto just_narrower = log_ratio_change(logs, 1 - p * 1.001);
        EXPECT_EQ(judge(*just_wider, band), verdict::no_change) << band;
        EXPECT_EQ(judge(*just_narrower, band), verdict::slower) << band;
        if (band == 0) {
            EXPECT_NEAR(p, ref->p_value, 1e-12);
        }
    }
    // Inside the band: never a verdict.
    const auto ref = log_ratio_change(logs, 0.95);
    EXPECT_EQ(band_p_value(*ref, 5.0), 1.0);
    // Faster, against a band: the log of 1 - band is the edge.
    std::vector<double> down;
    for (double x : logs) {
        down.push_back(-x);
    }
    const auto d = log_ratio_change(down, 0.95);
    const double pd = band_p_value(*d, 1.0);
    EXPECT_EQ(judge(*log_ratio_change(down, 1 - pd * 1.001), 1.0), verdict::faster);
    EXPECT_EQ(judge(*log_ratio_change(down, 1 - pd * 0.999), 1.0), verdict::no_change);
}

// at_level gives the interval log_ratio_change and welch_log_change would have made at that level.
TEST(stats_change, at_level_remakes_the_interval_at_another_level) {
    const std::vector<double> logs = {0.031, 0.012, 0.025, 0.040, 0.018, 0.029, 0.022, 0.035};
    const std::vector<double> base = {100, 103, 98, 101, 99};
    const std::vector<double> head = {104, 108, 101, 103};
    for (double level : {0.5, 0.9, 0.99, 0.999}) {
        const auto paired = at_level(*log_ratio_change(logs, 0.95), level);
        const auto direct = log_ratio_change(logs, level);
        ASSERT_TRUE(paired.interval_pct && direct->interval_pct);
        EXPECT_EQ(paired.confidence, level);
        EXPECT_NEAR(paired.interval_pct->low, direct->interval_pct->low, 1e-12) << level;
        EXPECT_NEAR(paired.interval_pct->high, direct->interval_pct->high, 1e-12) << level;
        EXPECT_EQ(paired.p_value, direct->p_value);
        const auto welch = at_level(*welch_log_change(base, head, 0.95), level);
        const auto welch_direct = welch_log_change(base, head, level);
        EXPECT_NEAR(welch.interval_pct->low, welch_direct->interval_pct->low, 1e-12) << level;
        EXPECT_NEAR(welch.interval_pct->high, welch_direct->interval_pct->high, 1e-12) << level;
    }
    // One pair has no interval, and no level gives it one; no spread keeps the point.
    const std::vector<double> one = {0.02};
    EXPECT_FALSE(at_level(*log_ratio_change(one, 0.95), 0.99).interval_pct);
    const std::vector<double> flat = {0.02, 0.02, 0.02};
    const auto point = at_level(*log_ratio_change(flat, 0.95), 0.99);
    ASSERT_TRUE(point.interval_pct);
    EXPECT_EQ(point.interval_pct->low, point.interval_pct->high);
}

}  // namespace
}  // namespace tare::stats
