// src/protocol/worker_protocol.hpp: the worker's sample line round-trips exactly, and malformed lines
// are refused rather than half-read.

#include "protocol/worker_protocol.hpp"

#include <gtest/gtest.h>

namespace tare::protocol {
namespace {

TEST(worker_protocol, sample_line_round_trips_exactly) {
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

TEST(worker_protocol, malformed_lines_are_refused) {
    EXPECT_FALSE(parse_sample("sample 1 2 3"));
    EXPECT_FALSE(parse_sample("sample 1 2 3 4 5 6 7 trailing"));
    EXPECT_FALSE(parse_sample("result 12"));
    EXPECT_EQ(parse_count("calibrated 1000", "calibrated "), 1000U);
    EXPECT_FALSE(parse_count("calibrated 10x", "calibrated "));
    EXPECT_FALSE(parse_count("calibrated ", "calibrated "));
    EXPECT_FALSE(parse_count("names 3", "calibrated "));
}

TEST(worker_protocol, every_message_reads_back_as_it_was_made) {
    EXPECT_EQ(hello(true), "tare-worker 1 accounting=1\n");
    EXPECT_EQ(parse_hello("tare-worker 1 accounting=1"), true);
    EXPECT_EQ(parse_hello("tare-worker 1 accounting=0"), false);
    EXPECT_FALSE(parse_hello("tare-worker 2 accounting=1"));
    EXPECT_FALSE(parse_hello("hello"));

    EXPECT_EQ(names({"a", "b c"}), "names 2\na\nb c\n");
    EXPECT_EQ(parse_names("names 2"), 2U);

    // A name with spaces and a sample size that needs every digit come back as they went.
    const run_request r{1e7 / 3, 0.1, "BM_x/8 threads:2"};
    std::string text = run(r);
    ASSERT_EQ(text.back(), '\n');
    text.pop_back();
    const auto back = parse_run(text);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->sample_ns, r.sample_ns);
    EXPECT_EQ(back->warmup_ns, r.warmup_ns);
    EXPECT_EQ(back->name, r.name);
    EXPECT_FALSE(parse_run("run 0 0 name"));  // a sample of no time
    EXPECT_FALSE(parse_run("run 10 -1 name"));
    EXPECT_FALSE(parse_run("run 10"));
    EXPECT_FALSE(parse_run("sample 10"));

    const sized_request z{37, 5e6, "BM_x/8 with spaces"};
    std::string sized = run_sized(z);
    ASSERT_EQ(sized.back(), '\n');
    sized.pop_back();
    const auto again = parse_run_sized(sized);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->iterations, 37U);
    EXPECT_EQ(again->warmup_ns, 5e6);
    EXPECT_EQ(again->name, z.name);
    EXPECT_FALSE(parse_run_sized("run_sized 0 0 name"));  // a sample of no iterations
    EXPECT_FALSE(parse_run_sized("run_sized 10 -1 name"));
    EXPECT_FALSE(parse_run_sized("run_sized 10"));
    // A count with a sign or past 2^64, and a warm-up no loop can reach, are not run_sized lines
    // (sscanf's %llu took -1 as 2^64 - 1, and %lg took inf: the warm-up never ended).
    EXPECT_FALSE(parse_run_sized("run_sized -1 0 name"));
    EXPECT_FALSE(parse_run_sized("run_sized 18446744073709551616 0 name"));
    EXPECT_FALSE(parse_run_sized("run_sized 10 inf name"));
    EXPECT_FALSE(parse_run_sized("run_sized 10 nan name"));
    EXPECT_FALSE(parse_run(sized));  // the two starts are told apart
    EXPECT_FALSE(parse_run_sized(text));

    EXPECT_EQ(calibrated(1000), "calibrated 1000\n");
    EXPECT_EQ(parse_calibrated("calibrated 1000"), 1000U);
    EXPECT_EQ(sample_request(64), "sample 64\n");
    EXPECT_EQ(parse_sample_request("sample 64"), 64U);
    EXPECT_FALSE(parse_sample_request("sample 0"));  // a sample runs at least one iteration
    EXPECT_EQ(result("{}"), "result 2\n{}");
    EXPECT_EQ(parse_result("result 2"), 2U);
    EXPECT_EQ(line(stop), "stop\n");
}

}  // namespace
}  // namespace tare::protocol
