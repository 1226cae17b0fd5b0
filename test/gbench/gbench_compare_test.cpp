// `tare compare` on two Google Benchmark executables: rounds of fresh GB processes give the
// same verdict table and tare-compare/1 as tare workers, with GB's memory figures per side;
// a GB executable against a tare one is refused.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "integration/run_process.hpp"

namespace tare {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::run_process;

const std::string tare_cmd = TARE_COMMAND;

TEST(gbench_compare, two_gb_executables_give_a_verdict_table) {
    const fs::path out = fs::temp_directory_path() / ("tare_gbcmp_" + std::to_string(::getpid()) + ".json");
    auto r = run_process({tare_cmd, "compare", TARE_GBENCH_ALLOC_COUNTS, TARE_GBENCH_ALLOC_COUNTS_PLAIN,
                          "--rounds=3", "--samples=3", "--min-time=0.09", "--filter=BM_allocs/",
                          "--json=" + out.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("3 rounds of fresh Google Benchmark processes"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("BM_allocs/3"), std::string::npos) << r.out;
    std::ifstream in(out);
    json doc = json::parse(in);
    EXPECT_EQ(doc["context"]["mode"], "process_rounds");
    ASSERT_EQ(doc["rows"].size(), 3U);
    for (const auto& row : doc["rows"]) {
        EXPECT_EQ(row["base"]["round_ns"].size(), 3U) << row.dump();
        EXPECT_EQ(row["base"]["samples"], 9);  // 3 repetitions x 3 rounds
        EXPECT_TRUE(row["change_pct"].is_object()) << row.dump();
        // The plain build has no memory manager: no figures on that side, never zeros.
        EXPECT_TRUE(row["head"]["allocs_per_iter"].is_null()) << row.dump();
    }
#if TARE_ACCOUNTING_EXPECTED
    // BM_allocs/3: three allocations per iteration, the timed region's alone (the region hooks;
    // the memory run's window read 3 + 2/16).
    EXPECT_EQ(doc["rows"][2]["base"]["allocs_per_iter"].get<double>(), 3.0);
#endif
    fs::remove(out);
}

// A Google Benchmark file is one process: its repetitions are samples of that process, so the
// rows have no time verdict, and say so.
TEST(gbench_compare, two_gb_json_files_are_compared_unpaired_and_labelled_so) {
    const std::string file = std::string(TARE_GBENCH_DATA) + "/fixture.json";  // NaN, errors, repetitions
    auto r = run_process({tare_cmd, "compare", file, file});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("TIME NOT JUDGED"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("BM_repeated/1000/repeats:3"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("error: gbench_error"), std::string::npos) << r.out;
}

TEST(gbench_compare, a_gb_executable_against_a_tare_one_is_refused) {
    auto r = run_process({tare_cmd, "compare", TARE_GBENCH_ALLOC_COUNTS, TARE_COMPARE_TARE_BENCH});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("not one of each"), std::string::npos) << r.err;
}

// --instrument counts tare executables' regions; a Google Benchmark suite is refused, by name, rather
// than counted over its whole function (docs/instructions.md, "Google Benchmark suites").
TEST(gbench_compare, instrument_refuses_a_gb_executable_by_name) {
    auto r = run_process({tare_cmd, "compare", "--instrument=instructions", TARE_GBENCH_ALLOC_COUNTS,
                          TARE_GBENCH_ALLOC_COUNTS});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("is a Google Benchmark one"), std::string::npos) << r.err;
    auto run = run_process({tare_cmd, "run", "--instrument=instructions", TARE_GBENCH_ALLOC_COUNTS});
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_NE(run.err.find("--instrument counts the timed regions of tare executables"), std::string::npos)
        << run.err;
}

}  // namespace
}  // namespace tare
