// src/counted/profile_changes: two builds' profiles compared by function and by allocation stack.
// Real builds compared end to end: test/integration/instrument_compare_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "counted/profile_changes.hpp"

namespace tare::counted {
namespace {

instruction_profile with_functions(const std::vector<std::pair<std::string, double>>& self) {
    instruction_profile p;
    for (const auto& [name, own] : self) {
        function_cost f;
        f.function = name;
        f.self = own;
        p.functions.push_back(f);
    }
    return p;
}

TEST(changed_functions, an_unchanged_profile_names_none_and_changes_come_largest_first) {
    const auto base = with_functions({{"hash", 1000}, {"parse", 500}, {"gone", 10}});
    EXPECT_TRUE(changed_functions(base, base).empty());
    const auto head = with_functions({{"hash", 1020}, {"parse", 400}, {"new", 30}});
    const auto changes = changed_functions(base, head);
    ASSERT_EQ(changes.size(), 4U);
    EXPECT_EQ(changes[0].function, "parse");  // -100
    EXPECT_EQ(changes[1].function, "new");    // +30, absent from base: 0 there
    EXPECT_EQ(changes[1].base, 0.0);
    EXPECT_EQ(changes[2].function, "hash");  // +20
    EXPECT_EQ(changes[3].function, "gone");  // -10
    EXPECT_EQ(changes[3].head, 0.0);
    EXPECT_EQ(changed_functions(base, head, 2).size(), 2U);
}

// A row with a sites pass of `iterations` whose sites are (function, allocations, bytes), each
// per iteration; `stacks` the distinct stacks it found.
benchmark_result with_sites(std::uint64_t iterations, std::size_t stacks,
                            const std::vector<std::tuple<std::string, double, double>>& sites) {
    benchmark_result r;
    r.name = "b";
    r.sites = sites_pass{iterations, 0.01, 0, 0, true, stacks};
    for (const auto& [function, allocs, bytes] : sites) {
        r.sites->allocations += static_cast<std::uint64_t>(allocs * static_cast<double>(iterations));
        r.alloc_sites.push_back(
            {allocs, bytes, 0, 0, {{function, std::nullopt, 1}, {"body", std::nullopt, 2}}, {}});
    }
    return r;
}

TEST(changed_allocations, a_stack_that_allocates_now_and_then_is_not_changed_by_the_passes_lengths) {
    // Once every 64 iterations, over passes of 16,384 and 16,000 iterations.
    const auto base = with_sites(16384, 1, {{"every_64", 256.0 / 16384, 256.0 * 64 / 16384}});
    const auto head = with_sites(16000, 1, {{"every_64", 251.0 / 16000, 251.0 * 64 / 16000}});
    EXPECT_TRUE(changed_allocations(base, head).empty());
    const auto more = with_sites(16000, 1, {{"every_64", 2.0, 128.0}});
    ASSERT_EQ(changed_allocations(base, more).size(), 1U);
}

TEST(changed_allocations, a_stack_new_to_a_loop_that_allocated_nothing_is_named) {
    const auto none = with_sites(0, 0, {});
    const auto one = with_sites(16384, 1, {{"make", 1.0, 48.0}});
    const auto changes = changed_allocations(none, one);
    ASSERT_EQ(changes.size(), 1U);
    EXPECT_EQ(changes[0].stack.front().function, "make");
    EXPECT_EQ(changes[0].base_allocs, 0.0);
    EXPECT_EQ(changes[0].head_allocs, 1.0);
    // A side that listed fewer stacks than it found says nothing of the ones it did not list:
    // "make" may be among base's seven; "other" is gone from head, which listed all of its own.
    const auto partial = with_sites(16384, 7, {{"other", 1.0, 8.0}});
    const auto against = changed_allocations(partial, one);
    ASSERT_EQ(against.size(), 1U);
    EXPECT_EQ(against[0].stack.front().function, "other");
    EXPECT_EQ(against[0].head_allocs, 0.0);
}

TEST(changed_allocations, sites_of_the_same_functions_are_one_entry) {
    // Two lines of one function (the sites pass tells them apart; a build moves lines).
    auto base = with_sites(1000, 2, {{"fill", 1.0, 8.0}, {"fill", 1.0, 8.0}});
    base.alloc_sites[1].stack.front().line = 9;
    const auto head = with_sites(1000, 1, {{"fill", 2.0, 16.0}});
    EXPECT_TRUE(changed_allocations(base, head).empty());
}

}  // namespace
}  // namespace tare::counted
