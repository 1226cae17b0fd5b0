// src/counted/compare: two counted runs compared row by row, and which runs compare as counts.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "counted/compare.hpp"

namespace tare::counted {
namespace {

run_results counted_run(std::vector<std::pair<std::string, double>> rows,
                        const char* instrument = "callgrind") {
    run_results r;
    for (auto& [name, instructions] : rows) {
        benchmark_result b;
        b.name = name;
        if (instructions > 0) {
            b.counts = instruction_counts{instrument, 10, instructions, {}, {}, {}, {}, {}};
        } else {
            b.error = error_info{"signal", "killed"};
        }
        r.benchmarks.push_back(std::move(b));
    }
    return r;
}

TEST(counted_compare, counted_runs_compare_row_by_row) {
    const auto base = counted_run({{"a", 1000}, {"b", 2000}, {"gone", 5}, {"crash", 100}});
    const auto head = counted_run({{"a", 1000}, {"b", 1900}, {"crash", -1}, {"new", 7}});
    const compare_results r = compare_counted(base, head, 0);
    EXPECT_EQ(r.mode, pairing::counted);
    ASSERT_EQ(r.rows.size(), 3U);
    EXPECT_EQ(r.rows[0].verdict, verdict::no_change);
    EXPECT_EQ(r.rows[1].verdict, verdict::faster);
    EXPECT_NEAR(r.rows[1].change->change_pct, -5, 1e-12);
    EXPECT_EQ(r.rows[2].verdict, verdict::error);
    EXPECT_FALSE(r.rows[2].change.has_value());
    EXPECT_EQ(r.only_in_base, std::vector<std::string>{"gone"});
    EXPECT_EQ(r.only_in_head, std::vector<std::string>{"new"});
    EXPECT_EQ(r.comparisons, 2U);
    EXPECT_EQ(r.selected, 1U);
}

TEST(counted_compare, counts_compare_only_with_counts_of_the_same_instrument) {
    run_results timed;
    timed.benchmarks.push_back({});
    timed.benchmarks.back().name = "a";
    const auto counted = counted_run({{"a", 1000}});
    EXPECT_FALSE(counted_mismatch(counted, counted).has_value());
    EXPECT_FALSE(counted_mismatch(timed, timed).has_value());
    EXPECT_EQ(counted_mismatch(counted, timed).value_or(""),
              "base was counted (--instrument) and head was timed: compare counts with counts, times with "
              "times");
    EXPECT_EQ(counted_mismatch(counted, counted_run({{"a", 1000}}, "hw-instructions")).value_or(""),
              "base was counted by callgrind and head by hw-instructions: their counts are not the same "
              "measure");
}

}  // namespace
}  // namespace tare::counted
