// A row's samples: read and written as whole samples, their counts held only when one is not 0.
#include "model/sample_list.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace tare {
namespace {

sample timed(std::uint64_t iterations, double elapsed_ns, std::int64_t live = 0) {
    sample s;
    s.iterations = iterations;
    s.elapsed_ns = elapsed_ns;
    s.live_bytes_end = live;
    s.iterations_before = 7 * iterations;
    return s;
}

TEST(sample_list, samples_without_counts_keep_none) {
    sample_list list;
    list.push_back(timed(10, 100, 64));
    list.push_back(timed(20, 210, 128));
    EXPECT_FALSE(list.has_counts());
    ASSERT_EQ(list.size(), 2U);
    EXPECT_EQ(list[1], timed(20, 210, 128));
    EXPECT_EQ(list.front(), timed(10, 100, 64));
    EXPECT_EQ(list.back(), timed(20, 210, 128));
}

TEST(sample_list, a_count_after_samples_without_one_leaves_them_at_zero) {
    sample_list list;
    list.push_back(timed(10, 100));
    sample counted = timed(10, 120);
    counted.allocs = 3;
    counted.bytes = 96;
    counted.page_faults = 1;
    counted.copied_bytes = 5;
    counted.set_bytes = 6;
    counted.mapped_bytes = 4096;
    list.push_back(counted);
    list.push_back(timed(10, 130));
    EXPECT_TRUE(list.has_counts());
    EXPECT_EQ(list[0], timed(10, 100));
    EXPECT_EQ(list[1], counted);
    EXPECT_EQ(list[2], timed(10, 130));
}

TEST(sample_list, a_vector_round_trips_and_lists_compare_by_their_samples) {
    sample a = timed(1, 2, 3);
    a.allocs = 9;
    const std::vector<sample> samples = {timed(4, 5), a, timed(6, 7, 8)};
    const sample_list list(samples);
    EXPECT_EQ(list.to_vector(), samples);
    sample_list other;
    for (const sample& s : samples)
        other.push_back(s);
    EXPECT_EQ(list, other);
    other.set(1, timed(1, 2, 3));
    EXPECT_FALSE(list == other);
    EXPECT_EQ(other[1].allocs, 0U);
}

TEST(sample_list, appends_assigns_and_walks_as_a_sequence) {
    sample_list list;
    list.assign(3, timed(5, 50));
    sample_list more;
    more.push_back(timed(9, 99));
    list.append(more);
    ASSERT_EQ(list.size(), 4U);
    const auto [low, high] =
        std::minmax_element(list.begin(), list.end(),
                            [](const sample& x, const sample& y) { return x.iterations < y.iterations; });
    EXPECT_EQ(low->iterations, 5U);
    EXPECT_EQ(high->iterations, 9U);
    EXPECT_EQ(list.end() - list.begin(), 4);
    EXPECT_TRUE(
        std::all_of(list.begin(), list.begin() + 3, [](const sample& s) { return s.iterations == 5; }));
    list.clear();
    EXPECT_TRUE(list.empty());
    EXPECT_FALSE(list.has_counts());
}

}  // namespace
}  // namespace tare
