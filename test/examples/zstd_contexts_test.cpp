// Seed case 002 (examples/zstd_contexts): one iteration is one writer pass or one decode of all
// frames, so allocs/iter ÷ frames is allocations per frame: the fresh variants create a context
// (and its workspace) for every frame, the reused ones allocate nothing once warmed up.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "example_results.hpp"

namespace tare::test {
namespace {

struct row_shape {
    std::string suffix;  // the name after "<stage>/<policy>/"
    std::string stage;
    double frames;
};

// The small subset the test runs: the 2,000-partition level-1 writer and every decoder row.
const std::vector<row_shape>& shapes() {
    static const std::vector<row_shape> s = {
        {"parts:2000/level:1", "write", 2000}, {"small64", "decode", 64}, {"large1", "decode", 1}};
    return s;
}

const example_results& suite() {
    // Twelve benchmarks at 0.05 s each: about 2 s.
    static const example_results r({TARE_BENCH_ZSTD_CONTEXTS_BENCH, "--min-time=0.05",
                                    "--filter=parts:2000/level:1|write/none/parts:2000|decode/"});
    return r;
}

TEST(zstd_contexts, every_benchmark_ran_and_reports_frames_per_second) {
    EXPECT_EQ(suite().exit_code(), 0) << suite().err();
    EXPECT_EQ(suite().all().size(), 12U) << suite().err();
    for (const auto& [n, b] : suite().all()) {
        // An error row here would also mean the setup's round trip found decoded != input.
        EXPECT_TRUE(b["error"].is_null()) << n << ": " << b["error"].dump();
        EXPECT_GT(b["throughput"]["items_per_second"].get<double>(), 0.0) << n;
        EXPECT_FALSE(example_results::has_warning(b, "retained_growth")) << n << b["warnings"].dump();
    }
}

// Comparison groups: per shape, the reused context is the baseline and the fresh one the member;
// over-cap has the capped reused context as baseline and fresh and uncapped as members. The
// filter above names members of four groups, which run whole. No time verdict is asserted.
TEST(zstd_contexts, each_shape_is_a_comparison_of_fresh_against_reused) {
    EXPECT_EQ(suite().comparisons().size(), 5U) << suite().err();
    for (const auto& s : shapes()) {
        const std::string group = s.stage + "/" + s.suffix;
        const auto& c = suite().comparison(group, s.stage + "/fresh/" + s.suffix);
        if (c.is_null()) {
            continue;
        }
        EXPECT_EQ(c["baseline"], s.stage + "/reused/" + s.suffix);
        // Eight blocks normally; fewer when the machine is so loaded that the samples run far slower
        // than planned and meet the group's bound (16 budgets of measured time before the eighth
        // block, docs/variants.md). What a change needs is whole pairs, at least one.
        EXPECT_GE(c["blocks"].get<int>(), 2);
        EXPECT_EQ(c["blocks"].get<int>() % 2, 0);
        EXPECT_FALSE(c["change_pct"].is_null()) << c.dump();
#if TARE_ACCOUNTING_EXPECTED
        // The contexts' allocations per frame, on both sides of one comparison.
        EXPECT_GE(example_results::memory(c, "allocs_per_iter", "member") / s.frames, 1.0) << group;
        EXPECT_GE(example_results::memory(c, "bytes_per_iter", "member") / s.frames, 16.0 * 1024) << group;
        EXPECT_LT(example_results::memory(c, "allocs_per_iter", "baseline"), 0.01 * s.frames) << group;
        EXPECT_GT(example_results::memory(c, "peak_live_bytes", "member"),
                  example_results::memory(c, "peak_live_bytes", "baseline"))
            << group;
#endif
    }
    const auto& fresh = suite().comparison("decode/overcap16", "decode/fresh/overcap16");
    const auto& uncapped = suite().comparison("decode/overcap16", "decode/uncapped/overcap16");
    if (fresh.is_null() || uncapped.is_null()) {
        return;
    }
    EXPECT_EQ(fresh["baseline"], "decode/reused/overcap16");
    EXPECT_EQ(uncapped["baseline"], "decode/reused/overcap16");
#if TARE_ACCOUNTING_EXPECTED
    // The cap's price against a context kept whatever it grows to: a context and a window per
    // wide frame (4 to 16 a pass) against nothing; fresh contexts: at least one per frame.
    const double capped_allocs = example_results::memory(uncapped, "allocs_per_iter", "baseline");
    EXPECT_GE(capped_allocs, 4.0);
    EXPECT_LE(capped_allocs, 16.0);
    EXPECT_EQ(example_results::memory(uncapped, "allocs_per_iter", "member"), 0.0);
    EXPECT_GE(example_results::memory(fresh, "allocs_per_iter", "member"), 64.0);
    EXPECT_GE(example_results::memory(uncapped, "peak_live_bytes", "baseline"), 8.0 * 1024 * 1024);
#endif
}

#if TARE_ACCOUNTING_EXPECTED
TEST(zstd_contexts, fresh_contexts_allocate_per_frame_and_reused_do_not) {
    for (const auto& s : shapes()) {
        const std::string fresh_name = s.stage + "/fresh/" + s.suffix;
        const std::string reused_name = s.stage + "/reused/" + s.suffix;
        const auto& fresh = suite().get(fresh_name);
        const auto& reused = suite().get(reused_name);
        // At least the context itself each frame, and its workspace: tens of KiB (16 KiB is a
        // floor well below what zstd 1.4-1.5 allocates for a CCtx or a DCtx).
        EXPECT_GE(fresh["allocs_per_iter"].get<double>() / s.frames, 1.0) << fresh_name;
        EXPECT_GE(fresh["bytes_per_iter"].get<double>() / s.frames, 16.0 * 1024) << fresh_name;
        // Warmed up before the loop, the reused context keeps its workspace: no allocation.
        const double reused_allocs = reused["allocs_per_iter"].get<double>();
        if (s.frames < 100) {
            EXPECT_EQ(reused_allocs, 0.0) << reused_name;
        } else {
            EXPECT_LT(reused_allocs, 0.01 * s.frames) << reused_name;
        }
    }
    for (const char* control : {"write/none/parts:2000", "decode/none/small64", "decode/none/large1"}) {
        EXPECT_EQ(suite().get(control)["allocs_per_iter"].get<double>(), 0.0) << control;
    }
}

// The over-cap scenario: every 16th of 64 frames has an 8 MiB window. A reused context without a
// cap keeps that window for good; the capped one drops it after each wide frame (so it allocates
// a context and a window again, four times a pass) and keeps only a small context; fresh
// contexts allocate for every frame.
TEST(zstd_contexts, the_workspace_cap_trades_retained_memory_for_reallocation) {
    const auto& capped = suite().get("decode/reused/overcap16");
    const auto& uncapped = suite().get("decode/uncapped/overcap16");
    const auto& fresh = suite().get("decode/fresh/overcap16");
    auto counter = [](const nlohmann::json& b) {
        return b["counters"]["retained_workspace_bytes"].get<double>();
    };
    EXPECT_GE(counter(uncapped), 8.0 * 1024 * 1024);
    EXPECT_LE(counter(capped), 1024.0 * 1024);
    EXPECT_EQ(uncapped["allocs_per_iter"].get<double>(), 0.0);
    const double capped_allocs = capped["allocs_per_iter"].get<double>();
    EXPECT_GE(capped_allocs, 4.0);   // at least one new context per wide frame
    EXPECT_LE(capped_allocs, 16.0);  // and nothing per small frame
    EXPECT_GE(capped["peak_live_bytes"].get<double>(), 8.0 * 1024 * 1024);  // the window, inside the region
    EXPECT_GE(fresh["allocs_per_iter"].get<double>(), 64.0);
}
#endif

}  // namespace
}  // namespace tare::test
