// src/compare/protocol.hpp: the worker's sample line round-trips exactly, and malformed lines
// are refused rather than half-read.

#include "compare/protocol.hpp"

#include <gtest/gtest.h>

namespace tare::compare::protocol {
namespace {

TEST(compare_protocol, sample_line_round_trips_exactly) {
    tare::sample s;
    s.iterations = 123456789012ULL;
    s.elapsed_ns = 987654321.123456789;
    s.allocs = 17;
    s.bytes = 1ULL << 40;
    s.page_faults = 65536;
    s.live_bytes_end = -24;
    std::string line = format_sample(s, 1 << 20);
    ASSERT_EQ(line.back(), '\n');
    line.pop_back();
    auto r = parse_sample(line);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->sample.iterations, s.iterations);
    EXPECT_EQ(r->sample.elapsed_ns, s.elapsed_ns);  // %.17g: bit-exact
    EXPECT_EQ(r->sample.allocs, 17U);
    EXPECT_EQ(r->sample.bytes, 1ULL << 40);
    EXPECT_EQ(r->sample.page_faults, 65536U);
    EXPECT_EQ(r->sample.live_bytes_end, -24);
    EXPECT_EQ(r->peak_live_bytes, 1 << 20);
}

TEST(compare_protocol, malformed_lines_are_refused) {
    EXPECT_FALSE(parse_sample("sample 1 2 3"));
    EXPECT_FALSE(parse_sample("sample 1 2 3 4 5 6 7 trailing"));
    EXPECT_FALSE(parse_sample("result 12"));
    EXPECT_EQ(parse_count("calibrated 1000", "calibrated "), 1000U);
    EXPECT_FALSE(parse_count("calibrated 10x", "calibrated "));
    EXPECT_FALSE(parse_count("calibrated ", "calibrated "));
    EXPECT_FALSE(parse_count("names 3", "calibrated "));
}

}  // namespace
}  // namespace tare::compare::protocol
