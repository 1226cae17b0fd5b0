// Seed case 001 (examples/skip_records): one iteration is one SkipRecords call, so allocs/iter
// is allocations per call: at least 1 with a fresh validity bitmap, exactly 0 with a reused one.
#include <gtest/gtest.h>

#include <string>

#include "example_results.hpp"

namespace tare::test {
namespace {

const example_results& suite() {
    // The whole suite, 24 benchmarks, at 0.05 s each: about 3 s.
    static const example_results r({TARE_BENCH_SKIP_RECORDS_BENCH, "--min-time=0.05"});
    return r;
}

std::string name(const char* variant, int repetition, int batch) {
    return std::string(variant) + "/Repetition:" + std::to_string(repetition) +
           "/BatchSize:" + std::to_string(batch);
}

TEST(skip_records, every_benchmark_ran_and_reports_throughput) {
    EXPECT_EQ(suite().exit_code(), 0) << suite().err();
    EXPECT_EQ(suite().all().size(), 24U) << suite().err();
    for (const auto& [n, b] : suite().all()) {
        EXPECT_TRUE(b["error"].is_null()) << n << ": " << b["error"].dump();
        EXPECT_GT(b["throughput"]["bytes_per_second"].get<double>(), 0.0) << n;
        EXPECT_FALSE(example_results::has_warning(b, "retained_growth")) << n << b["warnings"].dump();
    }
}

// One comparison group per Repetition and BatchSize: fresh (the base) is the baseline, reused
// (the fix) the member, interleaved over at least 8 blocks. Its time verdict is not asserted.
TEST(skip_records, every_shape_is_a_comparison_of_reused_against_fresh) {
    EXPECT_EQ(suite().comparisons().size(), 12U) << suite().err();
    for (int repetition : {0, 1, 2}) {
        for (int batch : {1, 10, 100, 1000}) {
            const auto& c =
                suite().comparison(name("skip", repetition, batch), name("skip_reused", repetition, batch));
            if (c.is_null()) {
                continue;
            }
            EXPECT_EQ(c["group"], name("skip", repetition, batch));
            EXPECT_EQ(c["baseline"], name("skip_fresh", repetition, batch));
            EXPECT_GE(c["blocks"].get<int>(), 8);
            EXPECT_FALSE(c["change_pct"].is_null()) << c.dump();
#if TARE_ACCOUNTING_EXPECTED
            // The comparison carries both rows' memory: the bitmap, 1 allocation a call against 0.
            EXPECT_EQ(example_results::memory(c, "allocs_per_iter", "baseline"), 1.0) << c["name"];
            EXPECT_EQ(example_results::memory(c, "allocs_per_iter", "member"), 0.0) << c["name"];
            EXPECT_EQ(example_results::memory(c, "allocs_per_iter", "change"), -1.0) << c["name"];
            EXPECT_GT(example_results::memory(c, "bytes_per_iter", "baseline"), 0.0) << c["name"];
            EXPECT_EQ(example_results::memory(c, "bytes_per_iter", "member"), 0.0) << c["name"];
#endif
        }
    }
}

#if TARE_ACCOUNTING_EXPECTED
TEST(skip_records, fresh_allocates_once_per_call_and_reused_never) {
    for (int repetition : {0, 1, 2}) {
        for (int batch : {1, 10, 100, 1000}) {
            const auto& fresh = suite().get(name("skip_fresh", repetition, batch));
            const auto& reused = suite().get(name("skip_reused", repetition, batch));
            // Exactly one: the bitmap. The reader's scratch is fixed-size in both variants.
            EXPECT_EQ(fresh["allocs_per_iter"].get<double>(), 1.0) << name("skip_fresh", repetition, batch);
            EXPECT_EQ(reused["allocs_per_iter"].get<double>(), 0.0) << name("skip_reused", repetition, batch);
            EXPECT_EQ(reused["bytes_per_iter"].get<double>(), 0.0) << name("skip_reused", repetition, batch);
            // The bitmap holds one bit a level: BatchSize / 8 bytes rounded up for flat columns,
            // a little less on average because the batch at the column's end is short.
            if (repetition < 2) {
                const double expected = (batch + 7) / 8;
                EXPECT_NEAR(fresh["bytes_per_iter"].get<double>(), expected, 0.01 * expected)
                    << name("skip_fresh", repetition, batch);
            }
        }
    }
}
#endif

#if TARE_ACCOUNTING_EXPECTED
// --alloc-sites names the allocation of the report: the fresh bitmap's vector, at its line.
TEST(skip_records, alloc_sites_point_at_the_fresh_bitmap) {
    const example_results r({TARE_BENCH_SKIP_RECORDS_BENCH, "--min-time=0.02",
                             "--filter=Repetition:0/BatchSize:1000$", "--alloc-sites"});
    ASSERT_EQ(r.exit_code(), 0) << r.err();
    const auto& fresh = r.get(name("skip_fresh", 0, 1000));
    ASSERT_EQ(fresh["alloc_sites"].size(), 1U) << fresh.dump(1);
    const auto& site = fresh["alloc_sites"][0];
    EXPECT_EQ(site["function"].get<std::string>().rfind("std::vector<unsigned char", 0), 0U) << site.dump(1);
    EXPECT_NE(site["file"].get<std::string>().find("record_skipper.cpp"), std::string::npos);
    EXPECT_EQ(site["line"],
              line_holding("skip_records/record_skipper.cpp", "the allocation of PARQUET-2423"));
    EXPECT_EQ(site["allocs_per_iter"], 1.0);
    EXPECT_EQ(site["share"], 1.0);
    const auto& reused = r.get(name("skip_reused", 0, 1000));
    EXPECT_EQ(reused["alloc_sites"], nlohmann::json::array());
    EXPECT_EQ(reused["alloc_sites_pass"]["iterations"], 0);
}
#endif

}  // namespace
}  // namespace tare::test
