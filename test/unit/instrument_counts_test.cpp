// src/instrument: reading Callgrind's dumps, the figures made of them, the counted pass's
// iterations, and judging a count's change. The counting itself runs under Valgrind in
// test/integration/instrument_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <variant>

#include "instrument/callgrind_format.hpp"
#include "instrument/counted_run.hpp"
#include "instrument/judge.hpp"

namespace tare::instrument {
namespace {

// A dump as Callgrind 3.19 writes it with --cache-sim=yes (header and totals; cost lines cut).
constexpr const char* dump = R"(# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 4242
cmd:  ./bench --tare-exact=x
part: 2

desc: I1 cache: 32768 B, 64 B, 8-way associative
desc: D1 cache: 32768 B, 64 B, 8-way associative
desc: LL cache: 8388608 B, 64 B, 16-way associative
desc: Timerange: Basic block 1415307 - 1417314
desc: Trigger: Client Request: measured

positions: line
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
summary: 12018 2002 2008 2 1 0 2
fl=(1) ???
fn=(1) work
0 12000 2000 2000
totals: 12009 2002 2002 1 0 0 1
)";

callgrind_totals parsed(const std::string& text) {
    auto r = parse_callgrind_dump(text, "cg.out.2");
    if (auto* e = std::get_if<io::read_error>(&r)) {
        ADD_FAILURE() << e->message;
        return {};
    }
    return std::get<callgrind_totals>(r);
}

std::string error_of(const std::string& text) {
    auto r = parse_callgrind_dump(text, "cg.out.1");
    auto* e = std::get_if<io::read_error>(&r);
    return e != nullptr ? e->message : std::string("parsed");
}

TEST(callgrind_format, reads_the_summary_by_event_and_fills_left_out_zeros) {
    const callgrind_totals t = parsed(dump);
    ASSERT_EQ(t.events.size(), 9U);
    EXPECT_EQ(t.get("Ir"), 12018U);  // the summary, not the totals line
    EXPECT_EQ(t.get("Dw"), 2008U);
    EXPECT_EQ(t.get("D1mr"), 1U);
    EXPECT_EQ(t.get("ILmr"), 2U);
    EXPECT_EQ(t.get("DLmw"), 0U);  // left out of the summary: 0
    EXPECT_FALSE(t.get("Bc").has_value());
}

TEST(callgrind_format, names_what_is_wrong_with_line_and_column) {
    EXPECT_EQ(error_of("version: 1\nsummary: 5\n"), "cg.out.1:2:1: \"summary:\" before the \"events:\" line");
    EXPECT_EQ(error_of("events: Ir Dr\nsummary: 5 6 7\n"), "cg.out.1:2:14: more totals than the 2 events");
    EXPECT_EQ(error_of("events: Ir\nsummary: 5x\n"), "cg.out.1:2:10: \"5x\" is not a count");
    EXPECT_EQ(error_of("events: Ir\nsummary: -5\n"), "cg.out.1:2:10: \"-5\" is not a count");
    EXPECT_EQ(error_of("events: Ir\nevents: Dr\nsummary: 1\n"),
              "cg.out.1:2:1: a second \"events:\" line (the first is line 1)");
    EXPECT_EQ(error_of("events:\nsummary: 1\n"), "cg.out.1:1:8: an \"events:\" line that names no event");
    EXPECT_EQ(error_of(""), "cg.out.1: not a Callgrind dump (no \"events:\" line)");
    EXPECT_EQ(error_of("events: Ir\n"), "cg.out.1: a Callgrind dump without its \"summary:\" line");
    EXPECT_EQ(error_of("events: Ir\nsummary: 99999999999999999999999\n"),
              "cg.out.1:2:10: \"99999999999999999999999\" is not a count");
}

TEST(callgrind_format, estimated_cycles_weigh_hits_by_level) {
    callgrind_totals t;
    // 1,000 accesses: 700 instructions, 200 reads, 100 writes; 50 missed L1, 10 of them LL too.
    t.events = {{"Ir", 700},  {"Dr", 200}, {"Dw", 100}, {"I1mr", 20}, {"D1mr", 20},
                {"D1mw", 10}, {"ILmr", 5}, {"DLmr", 4}, {"DLmw", 1}};
    const callgrind_figures f = per_iteration(t, 10);
    EXPECT_DOUBLE_EQ(f.instructions, 70);
    EXPECT_DOUBLE_EQ(f.data_reads, 20);
    EXPECT_DOUBLE_EQ(f.data_writes, 10);
    EXPECT_DOUBLE_EQ(f.l1_misses, 5);
    EXPECT_DOUBLE_EQ(f.ll_misses, 1);
    // (950 L1 hits + 5 x 40 LL hits + 35 x 10 RAM) / 10 iterations
    EXPECT_DOUBLE_EQ(f.estimated_cycles, (950 + 5 * 40 + 35 * 10) / 10.0);
}

TEST(counting, the_measured_pass_aims_at_the_budget_in_whole_samples) {
    EXPECT_EQ(counted_iterations(1e6), 10U);      // 10 x 10^6 = the budget, 5 samples of 2
    EXPECT_EQ(counted_iterations(3e6), 4U);       // fewer than 5 samples' worth: as many as needed
    EXPECT_EQ(counted_iterations(2e7), 1U);       // one iteration past the budget: still one
    EXPECT_EQ(counted_iterations(1003), 9975U);   // 9,971 rounded up to 5 x 1,995
    EXPECT_EQ(counted_iterations(0), 10000000U);  // no instruction is taken as one
    EXPECT_EQ(counted_iterations(1003) % counted_samples, 0U);
}

TEST(judge, a_count_change_is_exact_and_beyond_the_floor_a_verdict) {
    const paired_change same = count_change(1000, 1000);
    EXPECT_EQ(same.change_pct, 0);
    EXPECT_EQ(count_verdict(same), verdict::no_change);
    EXPECT_EQ(same.p_value, 1);
    const paired_change more = count_change(100000, 100100);  // +0.1 %
    EXPECT_NEAR(more.change_pct, 0.1, 1e-12);
    ASSERT_TRUE(more.interval_pct.has_value());
    EXPECT_EQ(more.interval_pct->low, more.change_pct);  // a count has no sampling error
    EXPECT_EQ(count_verdict(more), verdict::slower);
    EXPECT_EQ(count_verdict(count_change(100000, 99900)), verdict::faster);
    // Within the floor of 0.01 %: no verdict; a threshold widens the band.
    EXPECT_EQ(count_verdict(count_change(100000, 100005)), verdict::no_change);
    EXPECT_EQ(count_verdict(count_change(100000, 100011)), verdict::slower);
    EXPECT_EQ(count_verdict(more, 0.5), verdict::no_change);
}

}  // namespace
}  // namespace tare::instrument
