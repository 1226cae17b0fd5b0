#include "core/variant_groups.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "unit/manual_probes.hpp"

namespace tare {
namespace {

core::name_filter filter_of(const std::string& pattern) {
    return std::get<core::name_filter>(core::name_filter::parse(pattern));
}

std::vector<core::instance> instances_of(std::vector<benchmark*> all) {
    return core::expand(all);
}

TEST(variants, split_member_names_trims_the_stringified_list) {
    EXPECT_EQ(detail::split_member_names("ctx_reused, ctx_fresh"),
              (std::vector<std::string>{"ctx_reused", "ctx_fresh"}));
    EXPECT_EQ(detail::split_member_names("a,b ,\n c"), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(variants, resolve_pairs_instances_by_argument_list) {
    benchmark a("ctx_reused", [](State&) {});
    benchmark b("ctx_fresh", [](State&) {});
    benchmark other("unrelated", [](State&) {});
    a.arg(64)->arg(1024);
    b.arg(64)->arg(1024);
    auto all = instances_of({&a, &other, &b});
    auto r = core::resolve_variants(all, {{"contexts", {"ctx_reused", "ctx_fresh"}}});
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.instances.size(), 2U);
    EXPECT_EQ(r.instances[0].name, "contexts/64");
    EXPECT_EQ(r.instances[0].group, "contexts");
    ASSERT_EQ(r.instances[0].members.size(), 2U);
    EXPECT_EQ(r.instances[0].members[0].name, "ctx_reused/64");
    EXPECT_EQ(r.instances[0].members[1].name, "ctx_fresh/64");
    EXPECT_EQ(r.instances[1].name, "contexts/1024");
    EXPECT_EQ(r.instances[1].members[1].name, "ctx_fresh/1024");
}

TEST(variants, resolve_names_every_declaration_error) {
    benchmark a("a", [](State&) {});
    benchmark b("b", [](State&) {});
    benchmark c("c", [](State&) {});
    a.arg(1)->arg(2);
    b.arg(1)->arg(2);
    c.arg(1);
    auto all = instances_of({&a, &b, &c});
    const auto error_of = [&](std::vector<variant_group> groups) {
        return core::resolve_variants(all, groups).error;
    };

    std::string missing = error_of({{"g", {"a", "nope"}}});
    EXPECT_NE(missing.find("no benchmark named 'nope'"), std::string::npos) << missing;
    EXPECT_NE(missing.find("'g'"), std::string::npos) << missing;

    std::string args = error_of({{"g", {"a", "c"}}});
    EXPECT_NE(args.find("same argument lists"), std::string::npos) << args;
    EXPECT_NE(args.find("'a' has 1, 2, 'c' has 1"), std::string::npos) << args;

    std::string twice = error_of({{"g", {"a", "b"}}, {"h", {"b", "a"}}});
    EXPECT_NE(twice.find("'g' and 'h'"), std::string::npos) << twice;

    EXPECT_NE(error_of({{"g", {"a"}}}).find("1 member(s)"), std::string::npos);
    EXPECT_NE(error_of({{"g", {"a", "a"}}}).find("names 'a' twice"), std::string::npos);
    EXPECT_NE(error_of({{"g", {"a", "b"}}, {"g", {"c", "c"}}}).find("declared twice"), std::string::npos);
    EXPECT_NE(error_of({{"c", {"a", "b"}}}).find("comparison 'c/1' has the name of a benchmark"),
              std::string::npos);
    EXPECT_TRUE(core::resolve_variants(all, {{"g", {"a", "nope"}}}).instances.empty());
}

TEST(variants, a_filter_matching_one_member_runs_the_whole_group) {
    benchmark a("reused", [](State&) {});
    benchmark lone("lone", [](State&) {});
    benchmark b("fresh", [](State&) {});
    a.arg(8)->arg(64);
    b.arg(8)->arg(64);
    auto all = instances_of({&a, &lone, &b});
    auto groups = core::resolve_variants(all, {{"ctx", {"reused", "fresh"}}}).instances;

    auto units = core::plan_units(all, groups, filter_of("fresh/64$"));
    ASSERT_EQ(units.size(), 1U);
    EXPECT_EQ(units[0].name(), "ctx/64");
    ASSERT_EQ(units[0].instances().size(), 2U);
    EXPECT_EQ(units[0].instances()[0].name, "reused/64");
    EXPECT_EQ(units[0].instances()[1].name, "fresh/64");

    // Everything: a group takes the place of its first member, in registration order.
    auto every = core::plan_units(all, groups, filter_of(""));
    ASSERT_EQ(every.size(), 3U);
    EXPECT_EQ(every[0].name(), "ctx/8");
    EXPECT_EQ(every[1].name(), "ctx/64");
    EXPECT_EQ(every[2].name(), "lone");
    EXPECT_FALSE(every[2].group);

    EXPECT_EQ(core::plan_units(all, groups, filter_of("^ctx/8$")).size(), 1U);  // the group's own name
    EXPECT_TRUE(core::plan_units(all, groups, filter_of("nothing")).empty());
}

TEST(variants, block_order_alternates_forward_and_reversed) {
    EXPECT_EQ(core::block_order(2, 0), (std::vector<std::size_t>{0, 1}));
    EXPECT_EQ(core::block_order(2, 1), (std::vector<std::size_t>{1, 0}));
    EXPECT_EQ(core::block_order(2, 2), (std::vector<std::size_t>{0, 1}));
    EXPECT_EQ(core::block_order(3, 0), (std::vector<std::size_t>{0, 1, 2}));
    EXPECT_EQ(core::block_order(3, 1), (std::vector<std::size_t>{2, 1, 0}));
}

TEST(variants, schedule_spreads_the_budget_over_at_least_eight_even_blocks) {
    detail::sample_plan plan;
    plan.budget_ns = 1e6;
    // 100 samples of 10 µs fit the budget: blocks of 5 samples, 20 blocks.
    auto s = core::schedule_group(100, 100, plan);
    EXPECT_EQ(s.iterations, 100U);
    EXPECT_EQ(s.samples_per_block, 5U);
    EXPECT_EQ(s.blocks, 20U);
    // 45 samples: 9 blocks of 5, rounded up to whole pairs.
    s = core::schedule_group(100, 1e6 / 45 / 100, plan);
    EXPECT_EQ(s.samples_per_block, 5U);
    EXPECT_EQ(s.blocks, 10U);
    // A body slower than the budget still gets min_blocks one-sample blocks.
    s = core::schedule_group(1, 3e6, plan);
    EXPECT_EQ(s.samples_per_block, 1U);
    EXPECT_EQ(s.blocks, core::min_blocks);
    // ->samples(20) on the baseline: 10 blocks of 2.
    plan.fixed_samples = 20;
    s = core::schedule_group(100, 100, plan);
    EXPECT_EQ(s.samples_per_block, 2U);
    EXPECT_EQ(s.blocks, 10U);
}

// A group of two members under the manual clock: the baseline costs `base_ns` per iteration, the
// member `member_ns`; `log` records each body call.
struct two_member_group {
    test::manual_clock clock;
    test::manual_probe probe;
    std::vector<std::string> log;
    std::int64_t member_ns = 100;
    std::int64_t member_alloc = 0;
    int member_throws_at_call = -1;
    bool slow_down = false;
    double budget_ns = 1e6;
    benchmark base{"base", [this](State& s) {
                       log.push_back("A");
                       for (auto _ : s) {
                           clock.advance(100);
                       }
                   }};
    benchmark member{"member", [this](State& s) {
                         log.push_back("B");
                         if (static_cast<int>(log.size()) == member_throws_at_call) {
                             throw std::runtime_error("member exploded");
                         }
                         if (slow_down && log.size() > 3) {
                             member_ns *= 4;
                         }
                         for (auto _ : s) {
                             clock.advance(member_ns);
                             if (member_alloc > 0) {
                                 probe.allocate(member_alloc);
                                 probe.release(member_alloc);
                             }
                         }
                     }};

    core::group_outcome run() {
        core::group_instance g{"g", "g", {{"base", &base, {}}, {"member", &member, {}}}};
        detail::sample_plan plan;
        plan.budget_ns = budget_ns;
        return core::run_group(g, clock, probe, plan, 0);
    }
};

TEST(variants, members_run_in_abba_blocks_with_equal_iterations) {
    two_member_group f;
    f.member_ns = 300;
    core::group_outcome out = f.run();
    ASSERT_EQ(out.comparisons.size(), 1U);
    const variant_comparison& c = out.comparisons[0];
    EXPECT_EQ(c.blocks, 8U);  // 40 samples of 25 µs in the 1 ms budget: 8 blocks of 5
    EXPECT_EQ(c.samples_per_block, 5U);
    EXPECT_EQ(c.baseline, "base");
    EXPECT_EQ(c.member, "member");

    // The calibration calls of the baseline and the member, then A B | B A | A B ...
    ASSERT_EQ(f.log.size(), 2 + 2 * c.blocks);
    EXPECT_EQ(f.log[0], "A");
    EXPECT_EQ(f.log[1], "B");
    for (std::size_t b = 0; b < c.blocks; ++b) {
        const std::string first = b % 2 == 0 ? "A" : "B";
        const std::string second = b % 2 == 0 ? "B" : "A";
        EXPECT_EQ(f.log[2 + 2 * b], first) << "block " << b;
        EXPECT_EQ(f.log[3 + 2 * b], second) << "block " << b;
    }

    // Every sample of every member has the calibrated size; rows pool all blocks' samples.
    ASSERT_EQ(out.members.size(), 2U);
    for (const benchmark_result& r : out.members) {
        ASSERT_FALSE(r.error) << r.error->message;
        EXPECT_EQ(r.samples.size(), c.blocks * c.samples_per_block) << r.name;
        for (const sample& s : r.samples) {
            EXPECT_EQ(s.iterations, c.iterations) << r.name;
        }
    }
    EXPECT_EQ(c.iterations, 250U);
    EXPECT_DOUBLE_EQ(out.members[0].time.mean, 100.0);
    EXPECT_DOUBLE_EQ(out.members[1].time.mean, 300.0);
    ASSERT_EQ(c.baseline_block_ns.size(), c.blocks);
    EXPECT_DOUBLE_EQ(c.baseline_block_ns[3], 100.0);
    EXPECT_DOUBLE_EQ(c.member_block_ns[3], 300.0);

    core::judge_comparisons(out.comparisons);
    ASSERT_TRUE(out.comparisons[0].change);
    EXPECT_NEAR(out.comparisons[0].change->change_pct, 200.0, 1e-9);
    EXPECT_EQ(out.comparisons[0].verdict, verdict::slower);
}

// A member 100x slower than the baseline would take 100 budgets at the baseline's sample size:
// after the first block the schedule is made again for it, and the group stays within a few
// budgets per member while the comparison keeps its blocks.
TEST(variants, a_far_slower_member_is_scheduled_for_its_own_time) {
    two_member_group f;
    f.member_ns = 100 * 100;
    f.budget_ns = 1e8;  // samples of 1 ms: the baseline calibrates to 10,000 iterations
    const std::int64_t start = f.clock.now_ns();
    core::group_outcome out = f.run();
    const double elapsed = static_cast<double>(f.clock.now_ns() - start);
    ASSERT_EQ(out.comparisons.size(), 1U);
    const variant_comparison& c = out.comparisons[0];
    // The baseline alone calibrated to 10,000; the slowest member's sample at 1 ms would be 100,
    // but the baseline's samples stay at the driver's shortest, 25 µs (1,000 reads of 25 ns).
    EXPECT_EQ(c.iterations, 250U);
    EXPECT_GE(c.blocks, core::min_blocks);
    EXPECT_EQ(c.baseline_block_ns.size(), c.blocks);
    // 100 ms per member; at the baseline's size the member alone would have taken ~10 s.
    EXPECT_LT(elapsed, 2 * core::max_group_budgets * 1e8) << elapsed;
    core::judge_comparisons(out.comparisons);
    ASSERT_TRUE(out.comparisons[0].change);
    EXPECT_NEAR(out.comparisons[0].change->change_pct, 9900.0, 1e-6);
    EXPECT_EQ(out.comparisons[0].verdict, verdict::slower);
    ASSERT_EQ(out.members.size(), 2U);
    EXPECT_DOUBLE_EQ(out.members[1].time.mean, 10000.0);
}

TEST(variants, a_body_that_slows_down_stops_the_group_at_its_cap) {
    two_member_group f;
    f.slow_down = true;  // every call of the member 4x slower than the one before
    const std::int64_t start = f.clock.now_ns();
    core::group_outcome out = f.run();
    const double elapsed = static_cast<double>(f.clock.now_ns() - start);
    ASSERT_EQ(out.comparisons.size(), 1U);
    EXPECT_GE(out.comparisons[0].blocks, 2U);
    EXPECT_LT(out.comparisons[0].blocks, core::min_blocks);
    // The cap is checked after whole pairs of blocks: at most one more pair past it.
    EXPECT_LT(elapsed, 64 * core::max_group_budgets * 2 * 1e6) << elapsed;
}

TEST(variants, identical_members_are_no_change_and_memory_is_per_member) {
    two_member_group f;
    f.member_alloc = 48;
    core::group_outcome out = f.run();
    ASSERT_EQ(out.members.size(), 2U);
    EXPECT_DOUBLE_EQ(*out.members[0].allocs_per_iter, 0.0);
    EXPECT_DOUBLE_EQ(*out.members[1].allocs_per_iter, 1.0);
    EXPECT_DOUBLE_EQ(*out.members[1].bytes_per_iter, 48.0);
    EXPECT_EQ(*out.members[1].peak_live_bytes, 48);
    core::judge_comparisons(out.comparisons);
    ASSERT_TRUE(out.comparisons[0].change);
    EXPECT_DOUBLE_EQ(out.comparisons[0].change->change_pct, 0.0);
    EXPECT_EQ(out.comparisons[0].verdict, verdict::no_change);
}

TEST(variants, retained_growth_comes_from_one_call) {
    two_member_group f;
    benchmark keeper("keeper", [&](State& s) {
        for (auto _ : s) {
            f.clock.advance(100);
            f.probe.allocate(64);  // kept until the call ends: 64 bytes an iteration
        }
    });
    core::group_instance g{"g", "g", {{"base", &f.base, {}}, {"keeper", &keeper, {}}}};
    detail::sample_plan plan;
    plan.budget_ns = 1e6;
    core::group_outcome out = core::run_group(g, f.clock, f.probe, plan, 0);
    ASSERT_TRUE(out.members[1].retained_bytes_per_iter);
    // Pooled across calls, whose live heap restarts at 0, the slope would be far off 64.
    EXPECT_NEAR(*out.members[1].retained_bytes_per_iter, 64.0, 1e-6);
    EXPECT_NEAR(*out.members[0].retained_bytes_per_iter, 0.0, 1e-9);
}

TEST(variants, a_failing_member_ends_the_blocks_and_has_no_change) {
    two_member_group f;
    f.member_throws_at_call = 8;  // calibrations A B, then A B | B A | A B: the third block's B
    core::group_outcome out = f.run();
    ASSERT_EQ(out.members.size(), 2U);
    EXPECT_FALSE(out.members[0].error);
    ASSERT_TRUE(out.members[1].error);
    EXPECT_EQ(out.members[1].error->kind, "exception");
    EXPECT_EQ(f.log.size(), 8U);  // no block after the failure
    EXPECT_EQ(out.members[0].samples.size(), 3 * out.comparisons[0].samples_per_block);
    core::judge_comparisons(out.comparisons);
    EXPECT_FALSE(out.comparisons[0].change);
    EXPECT_EQ(out.comparisons[0].verdict, verdict::no_change);
}

TEST(variants, judging_is_bonferroni_over_every_comparison_of_the_run) {
    variant_comparison slow;
    slow.blocks = 4;
    slow.baseline_block_ns = {100, 101, 99, 100};
    slow.member_block_ns = {150, 152, 149, 151};
    variant_comparison same = slow;
    same.member_block_ns = {101, 100, 99, 100};
    variant_comparison failed;  // no blocks: not judged, not in the family
    std::vector<variant_comparison> all{slow, same, failed};
    core::judge_comparisons(all);
    ASSERT_TRUE(all[0].change);
    EXPECT_DOUBLE_EQ(all[0].change->confidence, 1 - 0.05 / 2);
    EXPECT_EQ(all[0].verdict, verdict::slower);
    EXPECT_GT(all[0].change->interval_pct->low, 0);
    ASSERT_TRUE(all[1].change);
    EXPECT_EQ(all[1].verdict, verdict::no_change);
    EXPECT_LE(all[1].change->interval_pct->low, 0);
    EXPECT_GE(all[1].change->interval_pct->high, 0);
    EXPECT_FALSE(all[2].change);
    EXPECT_EQ(all[2].verdict, verdict::no_change);
}

}  // namespace
}  // namespace tare
