#include "core/runner.hpp"

#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "unit/manual_probes.hpp"

namespace tare {
namespace {

core::name_filter filter(const std::string& pattern) {
    return std::get<core::name_filter>(core::name_filter::parse(pattern));
}

TEST(runner, expands_instances_with_argument_names) {
    benchmark plain("plain", [](State&) {});
    benchmark with_args("round_trip", [](State&) {});
    with_args.arg(1)->arg(1000)->args({4, 5});
    std::vector<benchmark*> all{&plain, &with_args};
    auto inst = core::expand(all);
    ASSERT_EQ(inst.size(), 4U);
    EXPECT_EQ(inst[0].name, "plain");
    EXPECT_EQ(inst[1].name, "round_trip/1");
    EXPECT_EQ(inst[2].name, "round_trip/1000");
    EXPECT_EQ(inst[3].name, "round_trip/4/5");
    EXPECT_EQ(inst[3].args, (std::vector<std::int64_t>{4, 5}));
}

TEST(runner, filter_uses_search_semantics) {
    benchmark b("round_trip", [](State&) {});
    b.arg(1)->arg(1000);
    benchmark c("encode", [](State&) {});
    std::vector<benchmark*> all{&b, &c};
    auto inst = core::expand(all);
    EXPECT_EQ(core::select(inst, filter("trip/1$")).size(), 1U);
    EXPECT_EQ(core::select(inst, filter("o")).size(), 3U);
    EXPECT_EQ(core::select(inst, filter("^enc")).size(), 1U);
    EXPECT_EQ(core::select(inst, filter("")).size(), 3U);
    EXPECT_EQ(core::select(inst, core::name_filter{}).size(), 3U);
}

TEST(runner, a_filter_that_is_not_a_regular_expression_says_why) {
    auto bad = core::name_filter::parse("(");
    ASSERT_TRUE(std::holds_alternative<std::string>(bad));
    EXPECT_FALSE(std::get<std::string>(bad).empty());
    // ECMAScript, not POSIX: \d is a digit.
    EXPECT_TRUE(filter(R"(/\d+$)").matches("round_trip/64"));
    EXPECT_FALSE(filter(R"(/\d+$)").matches("round_trip/x"));
}

// std::regex compiles and matches by recursion: 50,000 nested groups crashed every executable
// (a segmentation fault, before anything ran), and counted repetitions expand into copies.
TEST(runner, a_filter_past_the_bounds_of_std_regex_is_refused_not_compiled) {
    const auto error_of = [](const std::string& pattern) {
        auto parsed = core::name_filter::parse(pattern);
        return std::holds_alternative<std::string>(parsed) ? std::get<std::string>(parsed) : "";
    };
    const std::string deep = std::string(50000, '(') + "a" + std::string(50000, ')');
    EXPECT_EQ(error_of(deep),
              "'" + std::string(60, '(') +
                  "...' (100001 characters) is beyond what a filter may be: longer than 1000 characters");
    EXPECT_EQ(
        error_of(std::string(17, '(') + "a" + std::string(17, ')')),
        "'(((((((((((((((((a)))))))))))))))))' is beyond what a filter may be: groups nested deeper than 16");
    EXPECT_EQ(
        error_of("((a{300}){300})"),
        "'((a{300}){300})' is beyond what a filter may be: counted repetitions ({n}) that expand past 10000 "
        "copies");
    // std::regex reads these digits into a long unchecked: 20 of them were undefined behaviour.
    EXPECT_EQ(error_of("(a)\\66666666666666666666"),
              "'(a)\\66666666666666666666' is beyond what a filter may be: a back-reference (\\N) of more "
              "than 3 digits");
    EXPECT_EQ(error_of("[\\1234]"),
              "'[\\1234]' is beyond what a filter may be: a back-reference (\\N) of more than 3 digits");
    EXPECT_EQ(error_of("(").rfind("'(' is not a valid regular expression: ", 0), 0U) << error_of("(");
    // Within the bounds, and what looks like a bound inside a class or escaped is none.
    EXPECT_TRUE(filter(std::string(16, '(') + "a" + std::string(16, ')')).matches("a"));
    EXPECT_TRUE(filter("^x{2,100}$|[({]{3}|\\(\\(\\(").matches("xx"));
    EXPECT_TRUE(filter("(a{100}){100}").matches(std::string(10000, 'a')));
    // Back-references are refused (the polynomial-time matcher has none); the ambiguous
    // repetitions that made the backtracking matcher take exponential time match at once.
    EXPECT_EQ(error_of("(a)\\1").rfind("'(a)\\1' is not a valid regular expression: ", 0), 0U)
        << error_of("(a)\\1");
    EXPECT_FALSE(filter("(|a|b|ab|ba){300}t").matches("abba/64"));
    EXPECT_FALSE(filter("^(a?){30}a{30}$").matches(std::string(29, 'a')));
    EXPECT_TRUE(filter("x\\0123456").matches(std::string("x") + '\0' + "123456"));
}

TEST(runner, run_instance_builds_a_full_result) {
    test::manual_clock clock;
    test::manual_probe probe;
    benchmark b("sized", [&](State& s) {
        s.set_bytes_per_iteration(1000);
        for (auto _ : s) {
            probe.allocate(16);
            probe.release(16);
            clock.advance(250);
        }
    });
    b.iterations(100)->samples(20);
    core::instance inst{"sized", &b, {}};
    detail::sample_plan plan;
    plan.budget_ns = 1e6;
    benchmark_result r = core::run_instance(inst, clock, probe, plan, /*loop_overhead_ns=*/0.5);
    EXPECT_FALSE(r.error);
    EXPECT_EQ(r.iterations, 2000U);
    ASSERT_EQ(r.samples_ns.size(), 20U);
    EXPECT_DOUBLE_EQ(r.time.mean, 250.0);
    ASSERT_TRUE(r.time.ci);
    EXPECT_DOUBLE_EQ(r.time.ci->low, 250.0);
    EXPECT_DOUBLE_EQ(r.time.ci->high, 250.0);
    ASSERT_TRUE(r.allocs_per_iter);
    EXPECT_DOUBLE_EQ(*r.allocs_per_iter, 1.0);
    EXPECT_DOUBLE_EQ(*r.bytes_per_iter, 16.0);
    EXPECT_EQ(*r.peak_live_bytes, 16);
    EXPECT_DOUBLE_EQ(*r.retained_bytes_per_iter, 0.0);
    EXPECT_DOUBLE_EQ(*r.page_faults_per_iter, 0.0);
    ASSERT_TRUE(r.bytes_per_second);
    EXPECT_DOUBLE_EQ(*r.bytes_per_second, 4e9);
    EXPECT_TRUE(r.warnings.empty());
}

TEST(runner, near_overhead_bodies_are_flagged_not_corrected) {
    test::manual_clock clock;
    test::manual_probe probe;
    benchmark b("tiny", [&](State& s) {
        for (auto _ : s) {
            clock.advance(1);
        }
    });
    b.iterations(1000)->samples(10);
    core::instance inst{"tiny", &b, {}};
    benchmark_result r = core::run_instance(inst, clock, probe, {}, /*loop_overhead_ns=*/0.5);
    EXPECT_DOUBLE_EQ(r.time.mean, 1.0);  // as measured: nothing subtracted
    ASSERT_FALSE(r.warnings.empty());
    EXPECT_EQ(r.warnings.back().kind, "near_overhead");
}

TEST(runner, errors_become_error_rows) {
    test::manual_clock clock;
    test::manual_probe probe;
    benchmark b("bad", [&](State&) { throw std::runtime_error("no fixture"); });
    core::instance inst{"bad", &b, {}};
    benchmark_result r = core::run_instance(inst, clock, probe, {}, 0);
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.name, "bad");
    EXPECT_EQ(r.error->kind, "exception");
    EXPECT_EQ(r.error->message, "no fixture");
}

TEST(runner, loop_overhead_is_measured_through_the_same_loop) {
    // A real clock: the loop's work is one decrement and a branch, so whatever the machine,
    // it lands far below one clock read and far above nothing.
    core::steady_clock_source clock;
    test::manual_probe probe;
    detail::sample_plan plan;
    plan.budget_ns = 5e6;
    plan.clock_overhead_ns = core::measure_clock_overhead(clock);
    double overhead = core::measure_loop_overhead(clock, probe, plan);
    EXPECT_GT(overhead, 0.0);
    EXPECT_LT(overhead, 50.0);
}

}  // namespace
}  // namespace tare
