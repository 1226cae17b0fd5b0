// src/compare/aggregate: from hand-made rounds to per-side figures, changes and verdicts
// (exact), the balanced block order, unpaired file comparison, and seeded simulations of the
// whole round pipeline under a two-level noise model (per-process offsets + sample noise +
// machine drift) against the targets.

#include "compare/aggregate.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "alloc/accounting.hpp"
#include "stats/random.hpp"

namespace tare::compare {
namespace {

tare::sample make_sample(std::uint64_t iterations, double ns_per_iter, std::uint64_t allocs = 0,
                         std::uint64_t bytes = 0, std::uint64_t faults = 0) {
    tare::sample s;
    s.iterations = iterations;
    s.elapsed_ns = ns_per_iter * static_cast<double>(iterations);
    s.allocs = allocs;
    s.bytes = bytes;
    s.page_faults = faults;
    return s;
}

side_round round_of(std::vector<double> per_iter, std::uint64_t iterations = 100, std::uint64_t allocs = 0) {
    side_round r;
    for (double x : per_iter) {
        r.samples.push_back(make_sample(iterations, x, allocs * iterations, 24 * allocs * iterations));
    }
    r.peak_live_bytes = static_cast<std::int64_t>(24 * allocs);
    return r;
}

TEST(compare_aggregate, block_order_is_balanced_abba_then_baab) {
    EXPECT_EQ(block_order(0), (std::vector<int>{0, 1, 1, 0}));
    EXPECT_EQ(block_order(1), (std::vector<int>{1, 0, 0, 1}));
    // Over any two consecutive blocks each side holds each position equally often.
    for (std::size_t b = 0; b < 6; b += 2) {
        std::vector<int> both = block_order(b);
        std::vector<int> next = block_order(b + 1);
        both.insert(both.end(), next.begin(), next.end());
        double pos_sum[2] = {0, 0};
        for (std::size_t i = 0; i < both.size(); ++i) {
            pos_sum[both[i]] += static_cast<double>(i);
        }
        EXPECT_EQ(pos_sum[0], pos_sum[1]);
    }
}

TEST(compare_aggregate, rounds_give_medians_exact_memory_and_a_t_interval) {
    rounds_data d;
    d.rounds = 3;
    d.base_accounting = true;
    d.head_accounting = true;
    benchmark_rounds b;
    b.name = "bm";
    // Medians per round: base 10, 12, 11; head 11, 13.2, 12.1 (each exactly 10 % slower).
    b.base = {round_of({10, 9, 50, 10}, 100, 1), round_of({12, 12, 12, 1}, 100, 1), round_of({11}, 100, 1)};
    b.head = {round_of({11, 11, 11, 11}), round_of({13.2, 13.2}), round_of({12.1, 12.1, 12.1})};
    d.rows.push_back(b);
    d.only_in_head = {"new"};
    compare_results r = aggregate_rounds(d, {});
    ASSERT_EQ(r.rows.size(), 1U);
    const compare_row& row = r.rows[0];
    EXPECT_EQ(r.rounds, 3U);
    EXPECT_EQ(r.comparisons, 1U);
    EXPECT_EQ(r.only_in_head, std::vector<std::string>{"new"});
    EXPECT_EQ(row.base.round_ns, (std::vector<double>{10, 12, 11}));
    EXPECT_NEAR(row.head.round_ns[1], 13.2, 1e-12);
    EXPECT_DOUBLE_EQ(row.base.time_ns, 11);
    ASSERT_TRUE(row.base.time_ci);
    EXPECT_EQ(row.base.samples, 9U);
    EXPECT_EQ(row.base.iterations, 900U);
    EXPECT_EQ(row.base.allocs_per_iter, 1.0);
    EXPECT_EQ(row.base.bytes_per_iter, 24.0);
    EXPECT_EQ(row.base.peak_live_bytes, 24);
    EXPECT_EQ(row.head.allocs_per_iter, 0.0);
    ASSERT_TRUE(row.change);
    EXPECT_EQ(row.change->pairs, 3U);
    EXPECT_NEAR(row.change->change_pct, 10, 1e-9);
    ASSERT_TRUE(row.change->interval_pct);  // no spread: the point {10, 10}
    EXPECT_NEAR(row.change->interval_pct->low, 10, 1e-9);
    EXPECT_EQ(row.verdict, verdict::slower);
}

// A round's change is the median of its adjacent pairs: a sample that straddles a change of
// the machine's speed moves one pair, not the round. Time order A0 B0 B1 A1 | B2 A2 A3 B3; the
// machine halves its speed in the middle of B1. The ratio of the sides' medians would say
// 19.25 / 20 = -3.75 %; the pairs say +10 % three times out of four.
TEST(compare_aggregate, a_round_is_the_median_of_its_adjacent_pairs) {
    rounds_data d;
    d.rounds = 2;
    benchmark_rounds b;
    b.name = "bm";
    for (int r = 0; r < 2; ++r) {
        b.base.push_back(round_of({10, 20, 20, 20}));
        b.head.push_back(round_of({11, 16.5, 22, 22}));
    }
    d.rows.push_back(b);
    compare_results res = aggregate_rounds(d, {});
    ASSERT_TRUE(res.rows[0].change);
    EXPECT_NEAR(res.rows[0].change->change_pct, 10, 1e-9);
    EXPECT_EQ(res.rows[0].verdict, verdict::slower);
    // The sides' own figures stay their medians per round.
    EXPECT_EQ(res.rows[0].base.round_ns, (std::vector<double>{20, 20}));
    EXPECT_NEAR(res.rows[0].head.round_ns[0], 19.25, 1e-12);

    // Google Benchmark's rounds (one process per side, one after the other) have no partners in
    // time: there the round is the ratio of the medians.
    d.memory_from_results = true;
    compare_results gb = aggregate_rounds(d, {});
    ASSERT_TRUE(gb.rows[0].change);
    EXPECT_NEAR(gb.rows[0].change->change_pct, -3.75, 1e-9);
}

// Four rows, each 1 % slower with t = 2.5 over 20 rounds (p about 0.02): Bonferroni (98.75 %,
// t 2.86) gives no verdict; Benjamini-Hochberg selects all four (p_(4) <= 4 x 0.05 / 4) and
// reports every interval at 95 %, each of which then excludes 0.
TEST(compare_aggregate, fdr_selects_what_bonferroni_cannot_and_keeps_intervals_consistent) {
    std::vector<double> logs;
    const double d = 0.01 * std::sqrt(20.0) / 2.5 / std::sqrt(20.0 / 19.0);
    for (int r = 0; r < 20; ++r) {
        logs.push_back(0.01 + (r % 2 == 0 ? d : -d));
    }
    auto family = [&](family_control f) {
        compare_results out;
        for (int i = 0; i < 4; ++i) {
            out.rows.push_back(compare_row{});
            out.rows.back().name = "bm" + std::to_string(i);
        }
        verdict_options o;
        o.family = f;
        judge_rounds(out, std::vector<std::vector<double>>(4, logs), o);
        return out;
    };
    const compare_results fwer = family(family_control::fwer);
    const compare_results fdr = family(family_control::fdr);
    EXPECT_EQ(fwer.selected, 0U);
    EXPECT_DOUBLE_EQ(interval_level(fwer), 1 - 0.05 / 4);
    EXPECT_EQ(fdr.selected, 4U);
    EXPECT_DOUBLE_EQ(interval_level(fdr), 0.95);
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(fwer.rows[i].verdict, verdict::no_change);
        EXPECT_LT(fwer.rows[i].change->interval_pct->low, 0);
        EXPECT_EQ(fdr.rows[i].verdict, verdict::slower);
        EXPECT_GT(fdr.rows[i].change->interval_pct->low, 0);
        EXPECT_DOUBLE_EQ(fdr.rows[i].change->confidence, 0.95);
        EXPECT_NEAR(fdr.rows[i].change->p_value, 0.0217, 0.002);
    }
    // One of the four alone: its p of about 0.02 is above 0.05 x 1 / 4 once the other three
    // show nothing (here: no change at all), so BH selects none, as Bonferroni.
    compare_results mixed;
    for (int i = 0; i < 4; ++i) {
        mixed.rows.push_back(compare_row{});
    }
    std::vector<std::vector<double>> rows(4, std::vector<double>(20, 0.0));
    for (int r = 0; r < 20; ++r) {
        rows[1][static_cast<std::size_t>(r)] = r % 2 == 0 ? 0.01 : -0.01;
        rows[2][static_cast<std::size_t>(r)] = r % 3 == 0 ? 0.01 : -0.005;
        rows[3][static_cast<std::size_t>(r)] = r % 2 == 0 ? -0.02 : 0.02;
    }
    rows[0] = logs;
    judge_rounds(mixed, rows, verdict_options{});
    EXPECT_EQ(mixed.selected, 0U);
    EXPECT_DOUBLE_EQ(interval_level(mixed), 1 - 0.05 / 4);
    EXPECT_EQ(mixed.rows[0].verdict, verdict::no_change);
}

TEST(compare_aggregate, no_accounting_means_no_memory_figures) {
    rounds_data d;
    d.rounds = 2;
    d.base_accounting = false;
    d.head_accounting = true;
    d.rows.push_back(
        {"bm", {round_of({1}, 10, 3), round_of({1}, 10, 3)}, {round_of({1}, 10, 3), round_of({1}, 10, 3)}});
    compare_results r = aggregate_rounds(d, {});
    EXPECT_FALSE(r.rows[0].base.allocs_per_iter);
    EXPECT_FALSE(r.rows[0].base.peak_live_bytes);
    EXPECT_EQ(r.rows[0].head.allocs_per_iter, 3.0);
}

// A worker's own judgments of its few samples (noisy, near the loop's overhead, waiting for the
// CPU) say nothing of the comparison, whose interval over rounds is the figure that counts; what
// the body does (retained growth) is carried.
TEST(compare_aggregate, a_sides_sample_judgments_are_dropped_and_its_findings_kept) {
    rounds_data d;
    d.rounds = 2;
    benchmark_rounds row{"bm", {round_of({10}), round_of({10})}, {round_of({11}), round_of({11})}};
    for (side_round& r : row.head) {
        r.result = benchmark_result{};
        r.result->warnings = {{"contended", "ran on a CPU for 40% of its measured time"},
                              {"noisy", "samples spread"},
                              {"near_overhead", "close to the loop's overhead"},
                              {"retained_growth", "live heap grows"}};
    }
    d.rows.push_back(std::move(row));
    const compare_results r = aggregate_rounds(d, {});
    ASSERT_EQ(r.rows[0].head.warnings.size(), 1U);
    EXPECT_EQ(r.rows[0].head.warnings[0].kind, "retained_growth");
}

TEST(compare_aggregate, an_error_row_has_verdict_error_and_does_not_count_in_the_family) {
    rounds_data d;
    d.rounds = 2;
    benchmark_rounds ok{"ok", {round_of({10}), round_of({10})}, {round_of({20}), round_of({21})}};
    benchmark_rounds broken{"broken", {round_of({10}), round_of({10})}, {side_round{}, side_round{}}};
    broken.head[0].error = error_info{"signal", "killed by SIGSEGV"};
    benchmark_rounds never{"never", {side_round{}}, {side_round{}}};
    never.base[0].error = error_info{"crash", "ended"};
    d.rows = {ok, broken, never};
    compare_results r = aggregate_rounds(d, {});
    EXPECT_EQ(r.comparisons, 1U);  // Bonferroni m counts comparisons actually made
    EXPECT_TRUE(r.rows[0].change);
    EXPECT_FALSE(r.rows[1].change);
    EXPECT_EQ(r.rows[1].verdict, verdict::error);  // a script reading verdicts must not see a pass
    EXPECT_EQ(r.rows[2].verdict, verdict::error);
    ASSERT_TRUE(r.rows[1].head.error);
    EXPECT_EQ(r.rows[1].head.error->message, "round 1: killed by SIGSEGV");
    // The side that never ran because the other failed first says so.
    ASSERT_TRUE(r.rows[2].head.error);
    EXPECT_EQ(r.rows[2].head.error->kind, "not_run");
}

TEST(compare_aggregate, a_round_with_one_side_missing_does_not_pair) {
    rounds_data d;
    d.rounds = 3;
    d.rows.push_back({"bm",
                      {round_of({10}), side_round{}, round_of({10})},
                      {round_of({11}), round_of({99}), round_of({11})}});
    compare_results r = aggregate_rounds(d, {});
    EXPECT_EQ(r.rows[0].base.round_ns.size(), 2U);
    EXPECT_EQ(r.rows[0].head.round_ns, (std::vector<double>{11, 11}));
    ASSERT_TRUE(r.rows[0].change);
    EXPECT_EQ(r.rows[0].change->pairs, 2U);
}

TEST(compare_aggregate, bonferroni_level_and_threshold_band) {
    rounds_data d;
    d.rounds = 4;
    for (const char* name : {"a", "b"}) {
        d.rows.push_back({name,
                          {round_of({10}), round_of({10.2}), round_of({9.9}), round_of({10.1})},
                          {round_of({10.3}), round_of({10.6}), round_of({10.1}), round_of({10.5})}});
    }
    verdict_options fwer;
    fwer.family = family_control::fwer;
    compare_results r = aggregate_rounds(d, fwer);
    EXPECT_EQ(r.comparisons, 2U);
    ASSERT_TRUE(r.rows[0].change);
    EXPECT_DOUBLE_EQ(r.rows[0].change->confidence, 1 - 0.05 / 2);
    EXPECT_EQ(r.rows[0].verdict, verdict::slower);
    EXPECT_EQ(r.selected, 2U);
    // The default, FDR: both rows selected, so both intervals at 1 - 0.05 x 2/2.
    compare_results fdr = aggregate_rounds(d, {});
    EXPECT_EQ(fdr.family, family_control::fdr);
    EXPECT_EQ(fdr.selected, 2U);
    EXPECT_DOUBLE_EQ(fdr.rows[0].change->confidence, 0.95);
    EXPECT_EQ(fdr.rows[0].verdict, verdict::slower);
    for (family_control f : {family_control::fwer, family_control::fdr}) {
        verdict_options banded_options;
        banded_options.family = f;
        banded_options.threshold_pct = 10.0;
        compare_results banded = aggregate_rounds(d, banded_options);
        EXPECT_EQ(banded.rows[0].verdict, verdict::no_change);
        EXPECT_EQ(banded.selected, 0U);
        EXPECT_DOUBLE_EQ(banded.threshold_pct, 10.0);
    }
}

// Files of one process each: the samples differ by 20 % with little spread, which Welch's t on
// the samples would call "slower"; one process a side shows nothing of how much a fresh process
// varies, so the row keeps its change without interval or verdict, and says why.
TEST(compare_aggregate, files_of_one_process_have_no_time_verdict_and_list_one_side_names) {
    run_results base;
    run_results head;
    benchmark_result a;
    a.name = "a";
    a.samples_ns = {10, 10.1, 9.9, 10.05, 9.95};
    a.time.mean = 10;
    a.allocs_per_iter = 2;
    benchmark_result b = a;
    b.samples_ns = {12, 12.1, 11.9, 12.05, 11.95};
    b.time.mean = 12;
    benchmark_result gone = a;
    gone.name = "gone";
    benchmark_result added = a;
    added.name = "added";
    base.benchmarks = {a, gone};
    head.benchmarks = {b, added};
    compare_results r = compare_files(base, head, {}, "main.json", "pr.json");
    EXPECT_EQ(r.mode, pairing::unpaired);
    ASSERT_EQ(r.rows.size(), 1U);
    EXPECT_EQ(r.only_in_base, std::vector<std::string>{"gone"});
    EXPECT_EQ(r.only_in_head, std::vector<std::string>{"added"});
    ASSERT_TRUE(r.rows[0].change);
    EXPECT_NEAR(r.rows[0].change->change_pct, 20, 0.1);
    EXPECT_FALSE(r.rows[0].change->interval_pct);
    EXPECT_EQ(r.rows[0].verdict, verdict::no_change);
    ASSERT_TRUE(r.rows[0].unjudged);
    EXPECT_NE(r.rows[0].unjudged->find("main.json and pr.json each hold one process"), std::string::npos)
        << *r.rows[0].unjudged;
    EXPECT_NE(r.rows[0].unjudged->find("--processes"), std::string::npos);
    EXPECT_EQ(r.comparisons, 0U);
    EXPECT_FALSE(has_regression(r, 0));
    EXPECT_EQ(r.rows[0].base.allocs_per_iter, 2.0);
}

// Pairing by name, whatever the order of either side: each base row meets the head row of its
// name (the first, when a file repeats one), and the rows keep the base's order.
TEST(compare_aggregate, files_pair_rows_by_name_in_any_order) {
    run_results base;
    run_results head;
    for (int i = 0; i < 1000; ++i) {
        benchmark_result b;
        b.name = "n/" + std::to_string(i);
        b.samples_ns = {10.0 + i};
        b.time.mean = 10.0 + i;
        base.benchmarks.push_back(b);
        b.samples_ns = {20.0 + i};
        b.time.mean = 20.0 + i;
        head.benchmarks.insert(head.benchmarks.begin(), b);  // reversed
    }
    benchmark_result again = head.benchmarks.back();  // "n/0" a second time, later: not used
    again.time.mean = 1e9;
    head.benchmarks.push_back(again);
    const compare_results r = compare_files(base, head, {}, "a.json", "b.json");
    ASSERT_EQ(r.rows.size(), 1000U);
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
        EXPECT_EQ(r.rows[i].name, "n/" + std::to_string(i));
        EXPECT_EQ(r.rows[i].head.time_ns - r.rows[i].base.time_ns, 10.0) << r.rows[i].name;
    }
    EXPECT_TRUE(r.only_in_base.empty());
    EXPECT_TRUE(r.only_in_head.empty());
}

TEST(compare_aggregate, has_regression_follows_the_threshold) {
    compare_results r;
    compare_row row;
    row.verdict = verdict::slower;
    row.change = paired_change{};
    row.change->change_pct = 3;
    r.rows.push_back(row);
    EXPECT_TRUE(has_regression(r, 0));
    EXPECT_TRUE(has_regression(r, 2.5));
    EXPECT_FALSE(has_regression(r, 3));
    r.rows[0].verdict = verdict::no_change;
    EXPECT_FALSE(has_regression(r, 0));
}

struct sim_rates {
    double slower = 0;  // share of rows
    double faster = 0;
};

// Simulated `tare compare` runs through the real aggregation: `rows` rows, `rounds` rounds of
// fresh processes, `samples` per side per round in A B B A blocks. Each process of each side
// has its own offset for its whole life (code and heap placement: sd `process_sd`), each
// sample its own noise (sd `sample_sd`), and the machine's speed for the next sample comes from
// `machine()`, shared by both sides (the workers take turns on one machine); `new_machine()`
// makes a fresh one for each run.
template <class NewMachine>
sim_rates simulate(double ratio, std::size_t rounds, std::size_t samples, std::size_t rows, int runs,
                   double process_sd, double sample_sd, stats::xoshiro256ss& rng, NewMachine new_machine) {
    auto normal = [&rng] { return stats::standard_normal_pair(rng)[0]; };
    std::size_t slower = 0;
    std::size_t faster = 0;
    for (int run = 0; run < runs; ++run) {
        auto machine = new_machine();
        rounds_data d;
        d.rounds = rounds;
        for (std::size_t row = 0; row < rows; ++row) {
            d.rows.push_back({"bm" + std::to_string(row), {}, {}});
        }
        for (std::size_t r = 0; r < rounds; ++r) {
            const double offset[2] = {process_sd * normal(), process_sd * normal()};
            for (auto& row : d.rows) {
                side_round sides[2];
                for (std::size_t b = 0; b < (samples + 1) / 2; ++b) {
                    for (int k : block_order(b)) {
                        const double speed = machine();
                        const double noise = sample_sd * normal();
                        const double scale = k == 1 ? ratio : 1.0;
                        sides[k].samples.push_back(
                            make_sample(1000, 100 * scale * speed * std::exp(offset[k] + noise)));
                    }
                }
                row.base.push_back(sides[0]);
                row.head.push_back(sides[1]);
            }
        }
        compare_results res = aggregate_rounds(d, {});
        for (const auto& row : res.rows) {
            slower += row.verdict == verdict::slower ? 1 : 0;
            faster += row.verdict == verdict::faster ? 1 : 0;
        }
    }
    const auto total = static_cast<double>(rows) * runs;
    return {static_cast<double>(slower) / total, static_cast<double>(faster) / total};
}

// The two-level noise model of `tare compare` on this machine: per-process offsets and sample
// noise as above, and a machine that drifts slowly in time (a random walk in its log speed).
struct noise_model {
    double process_sd = 0.01;
    double sample_sd = 0.02;
    double drift_step_sd = 0.005;
};

sim_rates simulate_rounds(double ratio, std::size_t rounds, std::size_t samples, std::size_t rows, int runs,
                          const noise_model& m, std::uint64_t seed) {
    stats::xoshiro256ss rng(seed);
    return simulate(ratio, rounds, samples, rows, runs, m.process_sd, m.sample_sd, rng, [&rng, &m] {
        return [&rng, &m, drift = 0.0]() mutable {
            drift += m.drift_step_sd * stats::standard_normal_pair(rng)[0];
            return std::exp(drift);
        };
    });
}

// A/A: the false-verdict rate over rows must stay within 5 % under heavy per-process offsets and
// drift. The default family control is a 5 % false-discovery rate, which when nothing changed
// is a 5 % chance of any false verdict in a table, so per row it is lower still.
TEST(compare_aggregate, simulated_a_a_false_verdicts_stay_under_five_percent) {
    const noise_model heavy{0.03, 0.03, 0.01};
    for (std::size_t rounds : {3U, 10U, 20U}) {
        sim_rates r = simulate_rounds(1.0, rounds, 8, 4, 1000, heavy, 0xab0000 + rounds);
        std::printf("A/A, %zu rounds x 4 rows: false verdicts %.2f%% of rows\n", rounds,
                    100 * (r.slower + r.faster));
        EXPECT_LE(r.slower + r.faster, 0.05);
    }
}

// The rates the real runs need (2 % found in >= 19 of 20 runs, 1 % in >= 9 of 10), under the
// noise measured for compute-bound bodies on this machine (bench/ab: process offsets about
// 0.3 %, samples 1 %).
TEST(compare_aggregate, simulated_one_and_two_percent_shifts_are_found) {
    const noise_model measured{0.003, 0.01, 0.002};
    sim_rates two = simulate_rounds(1.02, 10, 8, 4, 500, measured, 0xab1000);
    sim_rates one = simulate_rounds(1.01, 20, 4, 4, 500, measured, 0xab2000);
    std::printf(
        "2%% slower, 10 rounds: found %.1f%% (wrong way %.2f%%); 1%% slower, 20 rounds: found %.1f%%\n",
        100 * two.slower, 100 * two.faster, 100 * one.slower);
    EXPECT_GE(two.slower, 0.95);
    EXPECT_GE(one.slower, 0.90);
    EXPECT_EQ(two.faster, 0.0);
    EXPECT_EQ(one.faster, 0.0);
}

// The machine measured on this VM with both workers pinned to one CPU (docs/compare.md,
// "Pinning"): its speed switches between a fast state and one about 1.9x slower, and stays in
// each for some milliseconds; both sides see the same state. Each sample is 1 ms long; at each
// sample the state flips with probability `flip`, part way through the sample (which then
// takes the mixed speed). Process offsets 0.3 %, sample noise 1 %, 4 rows.
sim_rates simulate_switching_machine(double ratio, std::size_t rounds, std::size_t samples, int runs,
                                     double flip, std::uint64_t seed) {
    stats::xoshiro256ss rng(seed);
    auto uniform = [&rng] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
    return simulate(ratio, rounds, samples, 4, runs, 0.003, 0.01, rng, [&uniform, flip] {
        return [&uniform, flip, slow = false]() mutable {
            double speed = slow ? 1.9 : 1.0;
            if (uniform() < flip) {
                const double part = uniform();
                slow = !slow;
                speed = part * speed + (1 - part) * (slow ? 1.9 : 1.0);
            }
            return speed;
        };
    });
}

// The defaults (20 rounds x 40 samples) on that machine, a state change every 10 samples on
// average: identical sides keep their false verdicts under 5 %, 2 % and 1 % are found, never
// the wrong way.
TEST(compare_aggregate, simulated_switching_machine_keeps_its_rates) {
    const sim_rates aa = simulate_switching_machine(1.0, 20, 40, 300, 0.1, 0xab3000);
    const sim_rates two = simulate_switching_machine(1.02, 20, 40, 200, 0.1, 0xab4000);
    const sim_rates one = simulate_switching_machine(1.01, 20, 40, 200, 0.1, 0xab5000);
    std::printf("switching machine: A/A false %.2f%% of rows; 2%% found %.1f%%; 1%% found %.1f%%\n",
                100 * (aa.slower + aa.faster), 100 * two.slower, 100 * one.slower);
    EXPECT_LE(aa.slower + aa.faster, 0.05);
    EXPECT_GE(two.slower, 0.95);
    EXPECT_GE(one.slower, 0.90);
    EXPECT_EQ(two.faster, 0.0);
    EXPECT_EQ(one.faster, 0.0);
}

// The rows of a comparison of two stored files are reserved for every benchmark before they are
// made: measured by tare's own accounting, the comparison's peak is its rows and what each row
// is judged from. Grown by doubling, the rows' vector held up to twice its rows while it moved.
TEST(compare_aggregate, comparing_two_files_holds_its_rows_once) {
    if (!alloc::available())
        GTEST_SKIP() << "built without the interposer (the sanitizer owns malloc)";
    constexpr std::size_t rows = 2100;  // just past a power of two, where doubling costs most
    run_results base;
    run_results head;
    for (std::size_t i = 0; i < rows; ++i) {
        benchmark_result b;
        b.name = "suite/family/" + std::to_string(i);
        b.samples_ns = {100.0, 101.0, 99.0};
        b.time.mean = 100.0;
        base.benchmarks.push_back(b);
        b.time.mean = 102.0;
        head.benchmarks.push_back(b);
    }
    alloc::region_begin();
    const compare_results r = compare_files(std::move(base), std::move(head), {}, "base.json", "head.json");
    const alloc::counters c = alloc::snapshot();
    alloc::region_end();
    ASSERT_EQ(r.rows.size(), rows);
    const auto row_bytes = static_cast<std::int64_t>(sizeof(compare_row));
    const auto n = static_cast<std::int64_t>(rows);
    EXPECT_LT(c.peak, n * (row_bytes + 600)) << c.peak / n << " B a row at the peak, a row is " << row_bytes;
}

// Base's model is released as it becomes the rows, before head's is read: at the end of
// add_base, what is left of base is its rows. Measured by tare's own accounting.
TEST(compare_aggregate, a_file_comparison_keeps_base_as_its_rows_alone) {
    if (!alloc::available())
        GTEST_SKIP() << "built without the interposer (the sanitizer owns malloc)";
    constexpr std::size_t rows = 2000;
    run_results base;
    for (std::size_t i = 0; i < rows; ++i) {
        benchmark_result b;
        b.name = "suite/a_name_past_the_small_string_buffer/" + std::to_string(i);
        b.samples.assign(3, sample{});
        b.samples_ns = {100.0, 101.0, 99.0};
        b.processes = {{1, 100.0}, {1, 101.0}, {1, 99.0}};
        b.counters = {{"items", 1.0}};
        base.benchmarks.push_back(b);
    }
    base.context.processes = 3;
    alloc::region_begin();
    file_comparison files({}, "base.json", "head.json");
    files.add_base(std::move(base));
    const alloc::counters c = alloc::snapshot();
    alloc::region_end();
    // Live in the region: the rows made (base's model was there before it, and is gone).
    const auto row_bytes = static_cast<std::int64_t>(sizeof(compare_row));
    const auto n = static_cast<std::int64_t>(rows);
    EXPECT_LT(c.live, n * (row_bytes + 200) - static_cast<std::int64_t>(rows * sizeof(benchmark_result)))
        << c.live / n << " B live a row";
}

// The parts few rows carry (an error, instruction counts, a profile, an allocation-sites pass)
// are held out of line (model/boxed.hpp): a file of a million rows holds a million of each row.
// In place they made a benchmark_result 848 bytes and a compare_row 1,264 (528 and 720 with
// GCC 12 on x86-64 once boxed).
TEST(compare_aggregate, a_rows_rare_parts_are_out_of_line) {
    EXPECT_LE(sizeof(benchmark_result), 560U);
    EXPECT_LE(sizeof(compare_row), 760U);
}

}  // namespace
}  // namespace tare::compare
