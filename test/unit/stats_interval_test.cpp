// The random source (against published reference vectors and an independent transcription)
// and the BCa interval of the mean (edge cases, determinism, a reference result, coverage).

#include "stats/interval.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <vector>

#include "stats/descriptive.hpp"
#include "stats/random.hpp"

namespace tare::stats {
namespace {

TEST(stats_random, splitmix64_reference_vector) {
    // First outputs of Vigna's splitmix64.c from state 0.
    std::uint64_t state = 0;
    EXPECT_EQ(splitmix64(state), 0xe220a8397b1dcdafULL);
    EXPECT_EQ(splitmix64(state), 0x6e789e6aa1b965f4ULL);
    EXPECT_EQ(splitmix64(state), 0x06c45d188009454fULL);
    EXPECT_EQ(splitmix64(state), 0xf88bb8a8724c81ecULL);
}

TEST(stats_random, xoshiro256ss_reference_vector) {
    // Outputs of the reference xoshiro256starstar.c from the state {1, 2, 3, 4} (the vector
    // that rand_xoshiro and other ports check against).
    auto rng = xoshiro256ss::from_state({1, 2, 3, 4});
    // clang-format off
    const std::array<std::uint64_t, 10> expected{
        11520ULL, 0ULL, 1509978240ULL, 1215971899390074240ULL, 1216172134540287360ULL,
        607988272756665600ULL, 16172922978634559625ULL, 8476171486693032832ULL,
        10595114339597558777ULL, 2904607092377533576ULL};
    // clang-format on
    for (const std::uint64_t e : expected) {
        EXPECT_EQ(rng(), e);
    }
}

// The values below come from an independent Python transcription of splitmix64 seeding,
// xoshiro256** and the plain definition of unbiased bounding (reject x whose low word of
// x * range is below 2^64 mod range, return the high word). They pin every bootstrap
// interval to the same resamples on every platform.
TEST(stats_random, seeded_stream_matches_independent_transcription) {
    xoshiro256ss rng(0x7461726562733031ULL);
    EXPECT_EQ(rng(), 0x104cf110036a2274ULL);
    EXPECT_EQ(rng(), 0xd7ff2a73beeb77afULL);
    EXPECT_EQ(rng(), 0x23b10125b09f2674ULL);
}

TEST(stats_random, bounded_matches_independent_transcription) {
    xoshiro256ss small(7);
    for (const std::uint64_t e : {7ULL, 2ULL, 8ULL, 9ULL, 9ULL, 8ULL, 0ULL, 1ULL}) {
        EXPECT_EQ(bounded(small, 10), e);
    }
    // Range 2^63 + 1 rejects almost half the draws, so this walks the slow path.
    xoshiro256ss large(7);
    const std::uint64_t range = (std::uint64_t{1} << 63) + 1;
    EXPECT_EQ(bounded(large, range), 6461677535414237997ULL);
    EXPECT_EQ(bounded(large, range), 7744196453246319819ULL);
    EXPECT_EQ(bounded(large, range), 9049029322324588832ULL);
}

TEST(stats_random, bounded_edges_and_uniformity) {
    xoshiro256ss rng(1);
    EXPECT_EQ(bounded(rng, 0), 0u);
    EXPECT_EQ(bounded(rng, 1), 0u);
    // 60,000 draws in [0, 6): each count ~ 10,000 with sd ~ 91; chi-square with 5 degrees of
    // freedom stays below 20.5 with probability 0.999.
    std::array<int, 6> counts{};
    for (int i = 0; i < 60000; ++i) {
        const std::uint64_t v = bounded(rng, 6);
        ASSERT_LT(v, 6u);
        ++counts[v];
    }
    double chi2 = 0;
    for (const int c : counts) {
        chi2 += (c - 10000.0) * (c - 10000.0) / 10000.0;
    }
    EXPECT_LT(chi2, 20.5);
}

TEST(stats_random, wide_multiply_paths_agree) {
    const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
    const wide_product top = multiply_wide_portable(max, max);  // (2^64 - 1)^2
    EXPECT_EQ(top.high, max - 1);
    EXPECT_EQ(top.low, 1u);
    xoshiro256ss rng(3);
    for (int i = 0; i < 10000; ++i) {
        const std::uint64_t a = rng();
        const std::uint64_t b = rng() >> (i % 64);
        const wide_product fast = multiply_wide(a, b);
        const wide_product portable = multiply_wide_portable(a, b);
        ASSERT_EQ(fast.high, portable.high);
        ASSERT_EQ(fast.low, portable.low);
    }
}

TEST(stats_random, uniform01_reference_and_range) {
    xoshiro256ss rng(2024);
    EXPECT_EQ(uniform01(rng), 0.055792889110163335);
    EXPECT_EQ(uniform01(rng), 0.782103772866755);
    EXPECT_EQ(uniform01(rng), 0.07205494006296331);
    for (int i = 0; i < 10000; ++i) {
        const double u = uniform01(rng);
        ASSERT_GE(u, 0.0);
        ASSERT_LT(u, 1.0);
    }
}

TEST(stats_random, box_muller_moments) {
    xoshiro256ss rng(5);
    std::vector<double> zs;
    for (int i = 0; i < 50000; ++i) {
        const auto pair = standard_normal_pair(rng);
        zs.push_back(pair[0]);
        zs.push_back(pair[1]);
    }
    // Standard errors: mean 1 / sqrt(1e5) ~ 0.0032, sd ~ 0.0022.
    EXPECT_NEAR(mean(zs), 0.0, 0.015);
    EXPECT_NEAR(stddev(zs), 1.0, 0.01);
}

TEST(stats_normal, cdf_known_values) {
    EXPECT_DOUBLE_EQ(normal_cdf(0), 0.5);
    EXPECT_NEAR(normal_cdf(1.959963984540054), 0.975, 1e-15);
    EXPECT_NEAR(normal_cdf(-1), 0.15865525393145707, 1e-16);
    // Deep lower tail keeps its relative accuracy: Phi(-10) = 7.619853024160527e-24.
    EXPECT_NEAR(normal_cdf(-10) / 7.619853024160527e-24, 1.0, 1e-13);
}

TEST(stats_normal, quantile_known_values) {
    // Reference values: scipy.special.ndtri 1.10.1 (Cephes).
    EXPECT_NEAR(normal_quantile(0.975), 1.959963984540054, 1e-14);
    EXPECT_NEAR(normal_quantile(0.025), -1.959963984540054, 1e-14);
    EXPECT_NEAR(normal_quantile(0.001), -3.090232306167813, 1e-14);
    EXPECT_NEAR(normal_quantile(0.02), -2.053748910631823, 1e-14);  // just below Acklam's
    EXPECT_NEAR(normal_quantile(0.3), -0.5244005127080409, 1e-14);  // region boundary
    EXPECT_NEAR(normal_quantile(0.8), 0.8416212335729143, 1e-14);
    EXPECT_NEAR(normal_quantile(0.99), 2.3263478740408408, 1e-14);
    EXPECT_NEAR(normal_quantile(0.9999), 3.7190164854557088, 1e-14);  // refined via symmetry
    EXPECT_NEAR(normal_quantile(1e-10), -6.361340902404056, 1e-13);
    EXPECT_EQ(normal_quantile(0.5), 0.0);
}

TEST(stats_normal, quantile_inverts_cdf) {
    for (int i = 0; i < 50; ++i) {
        const double p = 1e-12 * std::pow(1.7, i);  // 1e-12 .. 0.19
        const double x = normal_quantile(p);
        EXPECT_NEAR(normal_cdf(x) / p, 1.0, 1e-13) << "p = " << p;
        // Symmetry, on the upper tail's own representable probability: 1 - q is exact for
        // q >= 0.5 (Sterbenz), so the two calls ask for mirror-image points.
        const double q = 1 - p;
        EXPECT_NEAR(normal_quantile(q) / -normal_quantile(1 - q), 1.0, 1e-12) << "p = " << p;
    }
}

TEST(stats_normal, quantile_edges) {
    EXPECT_EQ(normal_quantile(0), -std::numeric_limits<double>::infinity());
    EXPECT_EQ(normal_quantile(1), std::numeric_limits<double>::infinity());
    EXPECT_TRUE(std::isnan(normal_quantile(std::numeric_limits<double>::quiet_NaN())));
}

TEST(stats_interval, acceleration_hand_computed) {
    // {1, 2, 3, 4, 10}: mean 4, d = -3 -2 -1 0 6, sum d^2 = 50, sum d^3 = 180;
    // a = 180 / (6 * 50^1.5) = 0.6 / sqrt(50).
    EXPECT_NEAR(jackknife_acceleration(std::vector<double>{1, 2, 3, 4, 10}), 0.6 / std::sqrt(50.0), 1e-16);
    // scipy's _bca_interval, which forms the leave-one-out means explicitly, gives
    // 0.10229572699097889 for the skewed data of matches_scipy_bca_on_skewed_data below.
    const std::vector<double> skewed{101, 102, 103, 104, 106, 108,   111,   115,   120, 128,
                                     140, 160, 190, 250, 400, 100.5, 101.5, 103.5, 105, 107};
    EXPECT_NEAR(jackknife_acceleration(skewed), 0.10229572699097889, 1e-15);
    EXPECT_EQ(jackknife_acceleration(std::vector<double>{1, 2, 3}), 0.0);  // symmetric
    EXPECT_EQ(jackknife_acceleration(std::vector<double>{4, 4}), 0.0);
    EXPECT_EQ(jackknife_acceleration(std::vector<double>{4}), 0.0);
}

TEST(stats_interval, edge_cases) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const auto check = [](std::vector<double> xs, double low, double high) {
        const interval iv = mean_interval(xs);
        EXPECT_EQ(iv.low, low);
        EXPECT_EQ(iv.high, high);
    };
    check({}, 0, 0);
    check({7.5}, 7.5, 7.5);
    check({3, 3, 3, 3}, 3, 3);
    check({1, nan, 3}, 0, 0);
    check({1, inf, 3}, 0, 0);
    check({1.5e308, 1.7e308}, 0, 0);  // the sum overflows

    const interval two = mean_interval(std::vector<double>{1, 2});
    EXPECT_TRUE(std::isfinite(two.low) && std::isfinite(two.high));
    EXPECT_GE(two.low, 1.0);
    EXPECT_LE(two.high, 2.0);
}

TEST(stats_interval, odd_options_stay_finite) {
    const std::vector<double> xs{10, 12, 11, 15, 30, 11, 10, 13};
    bootstrap_options few;
    few.resamples = 0;  // raised to 100
    const interval a = mean_interval(xs, few);
    EXPECT_TRUE(std::isfinite(a.low) && std::isfinite(a.high));
    EXPECT_LE(a.low, a.high);

    bootstrap_options bad;
    bad.confidence = 1.5;  // replaced by 0.95
    const interval b = mean_interval(xs, bad);
    const interval c = mean_interval(xs);
    EXPECT_EQ(b.low, c.low);
    EXPECT_EQ(b.high, c.high);

    bootstrap_options half;
    half.confidence = 0.5;
    const interval d = mean_interval(xs, half);
    EXPECT_GE(d.low, c.low);
    EXPECT_LE(d.high, c.high);
}

TEST(stats_interval, deterministic) {
    xoshiro256ss rng(11);
    std::vector<double> xs;
    xs.reserve(40);
    for (int i = 0; i < 40; ++i) {
        xs.push_back(1000 * std::exp(0.3 * standard_normal_pair(rng)[0]));
    }
    const interval first = mean_interval(xs);
    const std::vector<double> copy = xs;
    const interval second = mean_interval(copy);
    EXPECT_EQ(first.low, second.low);  // bit for bit
    EXPECT_EQ(first.high, second.high);

    bootstrap_options other;
    other.seed = 12345;
    const interval third = mean_interval(xs, other);
    EXPECT_TRUE(third.low != first.low || third.high != first.high);
}

TEST(stats_interval, matches_scipy_bca_on_skewed_data) {
    // scipy.stats.bootstrap(method="BCa") 1.10.1 with 400,000 resamples, nine seeds, gives
    // low 116.675..116.875 and high 189.23..190.18 for these 20 right-skewed values (mean
    // 137.775; z0 = 0.107, a = 0.1023, so the bounds are the 7.4th and 99.7th percentiles of
    // the resample means). With our default 10,000 resamples the Monte Carlo error of the
    // upper bound, so far in the tail, is about +-1.
    const std::vector<double> xs{101, 102, 103, 104, 106, 108,   111,   115,   120, 128,
                                 140, 160, 190, 250, 400, 100.5, 101.5, 103.5, 105, 107};
    const interval iv = mean_interval(xs);
    EXPECT_NEAR(iv.low, 116.73, 0.6);
    EXPECT_NEAR(iv.high, 189.6, 2.0);
    // The skew shows: far more room above the mean than below.
    const double m = mean(xs);
    EXPECT_GT(iv.high - m, 1.5 * (m - iv.low));
}

// --- coverage -------------------------------------------------------------------------------
// Share of seeded trials whose interval contains the true mean. 2,000 resamples per interval
// (not the default 10,000) keep the whole set under a second in a Release build; at n = 30 the
// two resample counts give the same coverage within Monte Carlo error (docs/statistics.md).

struct coverage_result {
    double covered = 0;      // share of trials whose interval contains the truth
    double truth_below = 0;  // interval entirely above the truth
    double truth_above = 0;  // interval entirely below the truth
};

coverage_result measure_coverage(std::size_t n, bool lognormal, int trials) {
    xoshiro256ss data_rng(12345);
    const double truth = lognormal ? std::exp(0.5) : 0.0;  // E[exp(Z)] = e^(1/2)
    std::vector<double> xs(n);
    int hit = 0;
    int below = 0;
    int above = 0;
    for (int t = 0; t < trials; ++t) {
        for (std::size_t i = 0; i < n; i += 2) {
            const auto pair = standard_normal_pair(data_rng);
            xs[i] = lognormal ? std::exp(pair[0]) : pair[0];
            if (i + 1 < n) {
                xs[i + 1] = lognormal ? std::exp(pair[1]) : pair[1];
            }
        }
        bootstrap_options options;
        options.resamples = 2000;
        options.seed = static_cast<std::uint64_t>(t) + 1;
        const interval iv = mean_interval(xs, options);
        if (truth < iv.low) {
            ++below;
        } else if (truth > iv.high) {
            ++above;
        } else {
            ++hit;
        }
    }
    const double count = trials;
    return {hit / count, below / count, above / count};
}

void report(const char* name, const coverage_result& r) {
    std::cout << "[ coverage ] " << name << ": " << 100 * r.covered << " % (interval above truth "
              << 100 * r.truth_below << " %, below " << 100 * r.truth_above << " %)\n";
}

TEST(stats_interval_coverage, simulated_normal_n30) {
    // Measured 94.6 % for this seed. Over 20,000 trials the figure is 93.2 %: bootstrap
    // intervals of the mean are too narrow by sqrt((n - 1) / n) and use z, not t; for
    // n = 30 that predicts ~93.6 %. So 93-97 % holds here, but with little margin.
    const coverage_result r = measure_coverage(30, false, 1000);
    report("normal, n = 30", r);
    EXPECT_GE(r.covered, 0.93);
    EXPECT_LE(r.covered, 0.97);
    EXPECT_NEAR(r.truth_below, r.truth_above, 0.02);  // symmetric data: misses balance
}

TEST(stats_interval_coverage, simulated_normal_n10) {
    // Measured 90.1 % (90.0 % over 20,000 trials): the small-n narrowness of every bootstrap
    // interval, documented rather than hidden.
    const coverage_result r = measure_coverage(10, false, 1000);
    report("normal, n = 10", r);
    EXPECT_GE(r.covered, 0.86);
    EXPECT_LE(r.covered, 0.95);
}

TEST(stats_interval_coverage, simulated_lognormal_n30) {
    // Measured 90.5 % (89.1 % over 20,000 trials; Student t gives 88.2 % with 11.6 % of its
    // misses on one side). Asserted loosely: the point is that BCa follows the skew, so its
    // upper bound misses far less often than a symmetric interval's would.
    const coverage_result r = measure_coverage(30, true, 1000);
    report("lognormal, n = 30", r);
    EXPECT_GE(r.covered, 0.85);
    EXPECT_LE(r.covered, 0.97);
    EXPECT_LT(r.truth_above, 0.10);
}

TEST(stats_interval_coverage, simulated_lognormal_n10) {
    const coverage_result r = measure_coverage(10, true, 1000);
    report("lognormal, n = 10", r);
    EXPECT_GE(r.covered, 0.75);
}

}  // namespace
}  // namespace tare::stats
