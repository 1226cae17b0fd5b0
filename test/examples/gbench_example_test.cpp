// examples/gbench: a plain Google Benchmark suite with tare::gbench linked. Its README sets the
// region hooks' figures beside Google Benchmark's memory run; this test holds both to it.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "heap.hpp"
#include "run_process.hpp"

namespace tare::test {
namespace {

using nlohmann::json;

constexpr bool exact_counts = TARE_ACCOUNTING_EXPECTED != 0 && TARE_SANITIZED == 0;

std::map<std::string, json> rows_of(const std::vector<std::string>& argv) {
    const process_result run = run_process(argv);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    std::map<std::string, json> rows;
    const json doc = json::parse(run.out);
    for (const json& row : doc.at("benchmarks"))
        rows[row.at("name").get<std::string>()] = row;
    return rows;
}

const std::string fresh = "BM_skip_records_fresh_bitmap/4096";
const std::string reused = "BM_skip_records_reused_bitmap/4096";

TEST(gbench_example, the_timed_region_and_the_memory_run_side_by_side) {
    if (!exact_counts) {
        GTEST_SKIP() << "no exact allocation counts in this build";
    }
    auto rows = rows_of({"/usr/bin/env", "TARE_GBENCH_MEMORY_RUN=1", TARE_BENCH_GBENCH_EXAMPLE,
                         "--benchmark_format=json", "--benchmark_min_time=0.05"});
    ASSERT_EQ(rows.size(), 2U);
    // The region: the fix saves exactly one 512-byte allocation a call.
    EXPECT_EQ(rows[fresh].at("tare_allocs_per_iter").get<double>(), 1.0);
    EXPECT_EQ(rows[fresh].at("tare_bytes_per_iter").get<double>(), 512.0);
    expect_blocks_of(rows[fresh].at("tare_peak_live_bytes").get<double>(), 1, 512);
    // The reused buffer grows once, in the first iteration of the run.
    const double iterations = rows[reused].at("iterations").get<double>();
    EXPECT_EQ(rows[reused].at("tare_allocs_per_iter").get<double>(), 1.0 / iterations);
    expect_blocks_of(rows[reused].at("tare_peak_live_bytes").get<double>(), 1, 512);
    // Google Benchmark's memory run: 16 iterations, setup and its own allocations in the window.
    EXPECT_EQ(rows[fresh].at("allocs_per_iter").get<double>(), 23.0 / 16.0);
    EXPECT_EQ(rows[reused].at("allocs_per_iter").get<double>(), 8.0 / 16.0);
}

TEST(gbench_example, with_the_hooks_there_is_no_memory_run) {
    auto rows = rows_of({TARE_BENCH_GBENCH_EXAMPLE, "--benchmark_format=json", "--benchmark_min_time=0.01"});
    ASSERT_EQ(rows.size(), 2U);
    for (const auto& [name, row] : rows)
        EXPECT_FALSE(row.contains("allocs_per_iter")) << name;
    if (exact_counts) {
        EXPECT_EQ(rows[fresh].at("tare_allocs_per_iter").get<double>(), 1.0);
    }
}

}  // namespace
}  // namespace tare::test
