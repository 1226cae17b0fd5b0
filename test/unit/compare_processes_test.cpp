// Several processes pooled into one results file, and two such files compared with the process
// as the unit of replication (docs/compare.md, "Stored baselines").
#include "compare/processes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "compare/aggregate.hpp"
#include "stats/random.hpp"

namespace tare::compare {
namespace {

// One process's row: `samples_ns` per-iteration times of 1000-iteration samples, `allocs`
// allocations of 16 B per iteration, and a time summary of its own.
benchmark_result process_row(const std::string& name, const std::vector<double>& samples_ns,
                             double allocs = 0, std::int64_t peak = 0) {
    benchmark_result b;
    b.name = name;
    double sum = 0;
    for (double x : samples_ns) {
        sample s;
        s.iterations = 1000;
        s.elapsed_ns = x * 1000;
        s.allocs = static_cast<std::uint64_t>(allocs * 1000);
        b.samples.push_back(s);
        b.samples_ns.push_back(x);
        b.iterations += 1000;
        sum += x;
    }
    b.time.mean = sum / static_cast<double>(samples_ns.size());
    b.allocs_per_iter = allocs;
    b.bytes_per_iter = 16 * allocs;
    b.peak_live_bytes = peak;
    b.page_faults_per_iter = 0;
    b.retained_bytes_per_iter = 0;
    b.sample_heap_measured = true;
    return b;
}

run_results process_run(std::vector<benchmark_result> rows) {
    run_results r;
    r.context.executable = "./bench";
    r.context.accounting = true;
    r.benchmarks = std::move(rows);
    return r;
}

TEST(compare_processes, pooling_keeps_each_process_and_exact_memory) {
    std::vector<run_results> runs;
    runs.push_back(process_run({process_row("a", {10, 11, 12}, 2, 100)}));
    runs.push_back(process_run({process_row("a", {20, 21}, 2, 300)}));
    runs.push_back(process_run({process_row("a", {30, 31, 32, 33}, 2, 200)}));
    const run_results pooled = pool_processes(runs);
    EXPECT_EQ(pooled.context.processes, 3U);
    EXPECT_EQ(pooled.context.executable, "./bench");
    ASSERT_EQ(pooled.benchmarks.size(), 1U);
    const benchmark_result& a = pooled.benchmarks[0];
    EXPECT_FALSE(a.error);
    EXPECT_EQ(a.samples_ns, (std::vector<double>{10, 11, 12, 20, 21, 30, 31, 32, 33}));
    EXPECT_EQ(a.samples.size(), 9U);
    EXPECT_EQ(a.iterations, 9000U);
    ASSERT_EQ(a.processes.size(), 3U);
    EXPECT_EQ(a.processes[0].samples, 3U);
    EXPECT_DOUBLE_EQ(a.processes[0].median_ns, 11);
    EXPECT_EQ(a.processes[1].samples, 2U);
    EXPECT_DOUBLE_EQ(a.processes[1].median_ns, 20.5);
    EXPECT_DOUBLE_EQ(a.processes[2].median_ns, 31.5);
    // The mean of the processes' means (11, 20.5, 31.5), its interval Student t over them.
    EXPECT_DOUBLE_EQ(a.time.mean, 21);
    ASSERT_TRUE(a.time.ci);
    EXPECT_LT(a.time.ci->low, 11);
    EXPECT_GT(a.time.ci->high, 31.5);
    EXPECT_DOUBLE_EQ(a.time.median, 21);  // of the pooled samples
    EXPECT_DOUBLE_EQ(a.time.min, 10);
    EXPECT_DOUBLE_EQ(a.time.max, 33);
    EXPECT_DOUBLE_EQ(*a.allocs_per_iter, 2);
    EXPECT_DOUBLE_EQ(*a.bytes_per_iter, 32);
    EXPECT_EQ(*a.peak_live_bytes, 300);
    EXPECT_TRUE(a.sample_heap_measured);
}

TEST(compare_processes, allocations_are_totals_over_total_iterations) {
    std::vector<run_results> runs;
    runs.push_back(process_run({process_row("a", {10}, 1)}));          // 1000 iterations, 1 alloc each
    runs.push_back(process_run({process_row("a", {10, 10, 10}, 3)}));  // 3000 iterations, 3 each
    const run_results pooled = pool_processes(runs);
    EXPECT_DOUBLE_EQ(*pooled.benchmarks[0].allocs_per_iter, (1000.0 + 9000.0) / 4000.0);
}

TEST(compare_processes, a_failure_in_any_process_is_the_row_and_names_the_process) {
    std::vector<run_results> runs;
    runs.push_back(process_run({process_row("a", {10, 11}), process_row("b", {5, 6})}));
    benchmark_result crashed;
    crashed.name = "a";
    crashed.error = error_info{"signal", "killed by signal 11 (SIGSEGV)"};
    runs.push_back(process_run({crashed, process_row("b", {5, 6})}));
    runs.push_back(process_run({process_row("a", {10, 11})}));  // b missing from this one
    const run_results pooled = pool_processes(runs);
    ASSERT_EQ(pooled.benchmarks.size(), 2U);
    ASSERT_TRUE(pooled.benchmarks[0].error);
    EXPECT_EQ(pooled.benchmarks[0].error->kind, "signal");
    EXPECT_EQ(pooled.benchmarks[0].error->message, "process 2 of 3: killed by signal 11 (SIGSEGV)");
    EXPECT_TRUE(pooled.benchmarks[0].samples_ns.empty());
    EXPECT_TRUE(pooled.benchmarks[0].processes.empty());
    ASSERT_TRUE(pooled.benchmarks[1].error);
    EXPECT_EQ(pooled.benchmarks[1].error->kind, "not_run");
    EXPECT_NE(pooled.benchmarks[1].error->message.find("process 3 of 3 did not run it"), std::string::npos);
}

TEST(compare_processes, group_blocks_are_pooled_and_judged_again) {
    variant_comparison c;
    c.group = "g";
    c.name = "g";
    c.baseline = "base";
    c.member = "member";
    c.blocks = 2;
    c.baseline_block_ns = {10, 10.1};
    c.member_block_ns = {20, 20.3};
    std::vector<run_results> runs;
    for (int p = 0; p < 3; ++p) {
        runs.push_back(process_run({process_row("base", {10}), process_row("member", {20})}));
        runs.back().comparisons = {c};
    }
    const run_results pooled = pool_processes(runs);
    ASSERT_EQ(pooled.comparisons.size(), 1U);
    EXPECT_EQ(pooled.comparisons[0].blocks, 6U);
    EXPECT_EQ(pooled.comparisons[0].baseline_block_ns.size(), 6U);
    ASSERT_TRUE(pooled.comparisons[0].change);
    EXPECT_EQ(pooled.comparisons[0].verdict, verdict::slower);
}

TEST(compare_processes, one_run_is_kept_as_it_is) {
    std::vector<run_results> runs;
    runs.push_back(process_run({process_row("a", {10, 11, 12})}));
    const run_results one = pool_processes(runs);
    EXPECT_EQ(one.context.processes, 1U);
    EXPECT_TRUE(one.benchmarks[0].processes.empty());
}

// A file whose processes differ by a per-process offset, as fresh processes do: `n` processes
// of `samples` samples each, the process's offset sd `process_sd`, the sample noise sd 0.3 %.
run_results simulated_file(double scale, std::size_t n, std::size_t samples, double process_sd,
                           stats::xoshiro256ss& rng, std::size_t rows) {
    std::vector<run_results> runs;
    for (std::size_t p = 0; p < n; ++p) {
        std::vector<benchmark_result> bs;
        for (std::size_t row = 0; row < rows; ++row) {
            const double offset = process_sd * stats::standard_normal_pair(rng)[0];
            std::vector<double> xs;
            for (std::size_t i = 0; i < samples; ++i)
                xs.push_back(100 * scale * std::exp(offset + 0.003 * stats::standard_normal_pair(rng)[0]));
            bs.push_back(process_row("bm" + std::to_string(row), xs, 1));
        }
        runs.push_back(process_run(std::move(bs)));
    }
    return pool_processes(std::move(runs));
}

// The process offset (1.5 %) dwarfs the sample noise (0.3 %): Welch's t on the samples of one
// process a side would call most A/A rows different; on the processes' medians the false
// verdicts stay within 5 % of rows, and a 5 % slowdown is found in at least 9 runs of 10.
TEST(compare_processes, simulated_files_of_five_processes_keep_their_rates) {
    stats::xoshiro256ss rng(0xf11e5);
    constexpr int runs = 200;
    constexpr std::size_t rows = 4;
    std::size_t false_rows = 0;
    std::size_t found = 0;
    std::size_t wrong_way = 0;
    for (int run = 0; run < runs; ++run) {
        const run_results a = simulated_file(1.0, 5, 40, 0.015, rng, rows);
        const run_results b = simulated_file(1.0, 5, 40, 0.015, rng, rows);
        const run_results slow = simulated_file(1.05, 5, 40, 0.015, rng, rows);
        const compare_results aa = compare_files(a, b, {}, "a.json", "b.json");
        const compare_results ab = compare_files(a, slow, {}, "a.json", "slow.json");
        EXPECT_EQ(aa.mode, pairing::processes);
        for (const compare_row& row : aa.rows)
            false_rows += row.verdict != verdict::no_change ? 1 : 0;
        for (const compare_row& row : ab.rows) {
            EXPECT_FALSE(row.unjudged);
            found += row.verdict == verdict::slower ? 1 : 0;
            wrong_way += row.verdict == verdict::faster ? 1 : 0;
        }
    }
    const double total = runs * static_cast<double>(rows);
    std::printf("5 processes a side, process sd 1.5 %%: A/A false rows %.2f%%, 5 %% slower found %.1f%%\n",
                100 * static_cast<double>(false_rows) / total, 100 * static_cast<double>(found) / total);
    EXPECT_LE(static_cast<double>(false_rows) / total, 0.05);
    EXPECT_GE(static_cast<double>(found) / total, 0.90);
    EXPECT_EQ(wrong_way, 0U);
}

TEST(compare_processes, replicated_files_are_judged_on_process_medians) {
    stats::xoshiro256ss rng(7);
    const run_results a = simulated_file(1.0, 5, 20, 0.001, rng, 1);
    const run_results slow = simulated_file(1.2, 5, 20, 0.001, rng, 1);
    const compare_results r = compare_files(a, slow, {}, "a.json", "slow.json");
    EXPECT_EQ(r.mode, pairing::processes);
    EXPECT_EQ(r.base_processes, 5U);
    EXPECT_EQ(r.head_processes, 5U);
    ASSERT_EQ(r.rows.size(), 1U);
    EXPECT_FALSE(r.rows[0].unjudged);
    EXPECT_EQ(r.rows[0].verdict, verdict::slower);
    ASSERT_TRUE(r.rows[0].change);
    EXPECT_EQ(r.rows[0].change->pairs, 5U);
    EXPECT_NEAR(r.rows[0].change->change_pct, 20, 1);
    EXPECT_EQ(r.rows[0].base.round_ns.size(), 5U);
    EXPECT_TRUE(r.rows[0].base.time_ci);
    EXPECT_TRUE(has_regression(r, 10));
}

// One side replicated and the other not: still no verdict, naming the file that holds one.
TEST(compare_processes, a_file_of_one_process_against_a_replicated_one_is_not_judged) {
    stats::xoshiro256ss rng(8);
    const run_results a = simulated_file(1.0, 5, 20, 0.001, rng, 1);
    const run_results one = simulated_file(1.2, 1, 20, 0.001, rng, 1);
    const compare_results r = compare_files(a, one, {}, "main.json", "pr.json");
    EXPECT_EQ(r.mode, pairing::unpaired);
    ASSERT_TRUE(r.rows[0].unjudged);
    EXPECT_NE(r.rows[0].unjudged->find("pr.json holds one process"), std::string::npos)
        << *r.rows[0].unjudged;
    EXPECT_EQ(r.rows[0].verdict, verdict::no_change);
    EXPECT_NEAR(r.rows[0].change->change_pct, 20, 1);
    EXPECT_FALSE(has_regression(r, 0));
}

}  // namespace
}  // namespace tare::compare
