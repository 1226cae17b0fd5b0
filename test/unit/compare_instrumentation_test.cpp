// Whether the two sides of a comparison were instrumented alike, and what a comparison of sides
// that differ reports (docs/compare.md, "Mixed instrumentation").
#include "compare/instrumentation.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tare::compare {
namespace {

// A row measured on both sides and judged slower, as an engine leaves it.
compare_row slower_row(const std::string& name) {
    compare_row row;
    row.name = name;
    row.base.time_ns = 100;
    row.head.time_ns = 137;
    paired_change c;
    c.pairs = 5;
    c.change_pct = 36.8;
    c.interval_pct = interval{30, 40};
    row.change = c;
    row.verdict = verdict::slower;
    return row;
}

std::vector<std::string> kinds(const std::vector<warning>& ws) {
    std::vector<std::string> out;
    for (const warning& w : ws) {
        out.push_back(w.kind);
    }
    return out;
}

TEST(compare_instrumentation, a_plain_google_benchmark_file_has_no_hooks_and_no_accounting) {
    run_results plain;  // what the Google Benchmark reader makes of a suite without tare::gbench
    plain.benchmarks.emplace_back().name = "BM_malloc64";
    const side_instrumentation s = instrumentation_of(plain);
    EXPECT_FALSE(s.accounting);
    EXPECT_FALSE(s.copies);
    ASSERT_TRUE(s.region_hooks.has_value());
    EXPECT_FALSE(*s.region_hooks);
    EXPECT_FALSE(s.counted);

    run_results hooked = plain;
    hooked.context.accounting = true;
    hooked.context.gbench_memory = "region";
    hooked.benchmarks[0].allocs_per_iter = 1;
    EXPECT_EQ(kinds(instrumentation_differences(instrumentation_of(plain), instrumentation_of(hooked))),
              (std::vector<std::string>{"accounting", "region_hooks"}));
}

TEST(compare_instrumentation, tare_results_say_accounting_and_copies_and_have_no_hooks) {
    run_results r;
    r.context.clock_overhead_ns = 20;  // measured by tare's own harness
    r.context.accounting = true;
    r.benchmarks.emplace_back().copied_bytes_per_iter = 64;
    const side_instrumentation s = instrumentation_of(r);
    EXPECT_TRUE(s.accounting);
    EXPECT_TRUE(s.copies);
    EXPECT_FALSE(s.region_hooks.has_value());

    run_results bare = r;
    bare.context.accounting = false;
    bare.benchmarks[0].copied_bytes_per_iter.reset();
    const auto d = instrumentation_differences(instrumentation_of(r), instrumentation_of(bare));
    EXPECT_EQ(kinds(d), (std::vector<std::string>{"accounting", "copies"}));
    EXPECT_EQ(d[0].message, "base counts allocations (tare's interposer), head does not");
}

TEST(compare_instrumentation, alike_sides_leave_the_verdicts_alone) {
    compare_results r;
    r.rows.push_back(slower_row("a"));
    side_instrumentation s;
    s.accounting = true;
    judge_instrumentation(r, s, s, false);
    EXPECT_TRUE(r.mixed_instrumentation.empty());
    EXPECT_EQ(r.rows[0].verdict, verdict::slower);
    EXPECT_FALSE(r.rows[0].unjudged);
    EXPECT_TRUE(r.rows[0].head.warnings.empty());
    EXPECT_FALSE(refuses_mixed_instrumentation(r));
}

TEST(compare_instrumentation, mixed_sides_give_time_no_verdict_but_keep_the_change) {
    compare_results r;
    r.rows.push_back(slower_row("a"));
    r.rows.push_back(slower_row("failed"));
    r.rows[1].head.error = error_info{"signal", "killed"};
    r.rows[1].verdict = verdict::error;
    r.rows[1].change.reset();
    side_instrumentation base;
    side_instrumentation head;
    head.accounting = true;
    judge_instrumentation(r, base, head, false);
    ASSERT_EQ(kinds(r.mixed_instrumentation), std::vector<std::string>{"accounting"});
    EXPECT_TRUE(refuses_mixed_instrumentation(r));
    const compare_row& a = r.rows[0];
    EXPECT_EQ(a.verdict, verdict::no_change);
    ASSERT_TRUE(a.unjudged);
    EXPECT_NE(a.unjudged->find("--allow-mixed-instrumentation"), std::string::npos) << *a.unjudged;
    ASSERT_TRUE(a.change && a.change->interval_pct);  // shown, not judged
    EXPECT_DOUBLE_EQ(a.change->change_pct, 36.8);
    EXPECT_EQ(kinds(a.head.warnings), std::vector<std::string>{"mixed_instrumentation"});
    // A failed row has nothing to misread: it stays an error, unmarked.
    EXPECT_EQ(r.rows[1].verdict, verdict::error);
    EXPECT_TRUE(r.rows[1].head.warnings.empty());
}

TEST(compare_instrumentation, allowed_mixed_sides_are_judged_and_still_marked) {
    compare_results r;
    r.rows.push_back(slower_row("a"));
    side_instrumentation base;
    side_instrumentation head;
    head.region_hooks = true;
    base.region_hooks = false;
    judge_instrumentation(r, base, head, true);
    ASSERT_EQ(kinds(r.mixed_instrumentation), std::vector<std::string>{"region_hooks"});
    EXPECT_TRUE(r.mixed_instrumentation_allowed);
    EXPECT_FALSE(refuses_mixed_instrumentation(r));
    EXPECT_EQ(r.rows[0].verdict, verdict::slower);
    EXPECT_FALSE(r.rows[0].unjudged);
    EXPECT_EQ(kinds(r.rows[0].head.warnings), std::vector<std::string>{"mixed_instrumentation"});
}

TEST(compare_instrumentation, rounds_of_a_plain_suite_against_a_hooked_one_differ) {
    rounds_data data;
    data.memory_from_results = true;  // one Google Benchmark process a benchmark
    data.base_accounting = true;
    benchmark_rounds row;
    row.name = "BM_malloc64";
    side_round hooked;
    hooked.gbench_memory = "region";
    row.base.push_back(hooked);
    row.head.emplace_back();
    data.rows.push_back(row);
    const auto [base, head] = instrumentation_of(data, true);
    EXPECT_EQ(kinds(instrumentation_differences(base, head)),
              (std::vector<std::string>{"accounting", "region_hooks"}));
    // Tare workers have no hooks to compare.
    const auto [tb, th] = instrumentation_of(data, false);
    EXPECT_FALSE(tb.region_hooks.has_value());
    EXPECT_EQ(kinds(instrumentation_differences(tb, th)), std::vector<std::string>{"accounting"});
}

}  // namespace
}  // namespace tare::compare
