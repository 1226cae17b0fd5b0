// `tare compare` on two Google Benchmark executables: rounds of fresh GB processes give the
// same verdict table and tare-compare/1 as tare workers, with GB's memory figures per side;
// a GB executable against a tare one is refused.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "command.hpp"
#include "gbench/suites.hpp"
#include "integration/run_process.hpp"

namespace tare {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::run_process;

TEST(gbench_compare, two_gb_executables_give_a_verdict_table) {
    const fs::path out = fs::temp_directory_path() / ("tare_gbcmp_" + std::to_string(::getpid()) + ".json");
    auto r = run_process({tare_cmd, "compare", test::suite(TARE_GBENCH_ALLOC_COUNTS),
                          test::suite(TARE_GBENCH_ALLOC_COUNTS_PLAIN), "--rounds=3", "--samples=3",
                          "--min-time=0.09", "--filter=BM_allocs/", "--json=" + out.string()});
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

// `tare compare` of two Google Benchmark suites `> log 2>&1`, as CI keeps it: a whole line per
// round, all of them before the table, none among its rows.
TEST(gbench_compare, a_joined_log_keeps_progress_out_of_the_table) {
    auto r = test::run_logged(
        {tare_cmd, "compare", test::suite(TARE_GBENCH_ALLOC_COUNTS), test::suite(TARE_GBENCH_ALLOC_COUNTS),
         "--rounds=2", "--samples=2", "--min-time=0.02", "--filter=BM_allocs/"},
        "gbench_compare.log");
    ASSERT_EQ(r.exit_code, 0) << r.out;
    EXPECT_EQ(test::joined_log_faults(r.out), std::vector<std::string>{}) << r.out;
    const auto last_round = r.out.find("[2/2] round 2 ");
    const auto table = r.out.find("\nbenchmark ");
    ASSERT_NE(last_round, std::string::npos) << r.out;
    ASSERT_NE(table, std::string::npos) << r.out;
    EXPECT_LT(last_round, table) << r.out;
}

// A suite with tare::gbench against the same source without it: the hooked side's interposer and
// region hooks cost time the plain side does not pay, so the time change is not judged, the header
// and every row say why, and a gate refuses to pass on it (docs/compare.md, "Mixed
// instrumentation"). --allow-mixed-instrumentation judges anyway and still says so.
TEST(gbench_compare, a_plain_suite_against_a_hooked_one_is_mixed_instrumentation) {
    if (!TARE_ACCOUNTING_EXPECTED) {
        GTEST_SKIP() << "without accounting neither side has the interposer";
    }
    const fs::path out = fs::temp_directory_path() / ("tare_gbmix_" + std::to_string(::getpid()) + ".json");
    const std::vector<std::string> base_args = {tare_cmd,
                                                "compare",
                                                test::suite(TARE_GBENCH_ALLOC_COUNTS_PLAIN),
                                                test::suite(TARE_GBENCH_ALLOC_COUNTS),
                                                "--rounds=2",
                                                "--samples=2",
                                                "--min-time=0.04",
                                                "--filter=BM_allocs/3$",
                                                "--json=" + out.string()};
    std::vector<std::string> gate = base_args;
    gate.push_back("--fail-on-regression");
    auto r = run_process(gate);
    EXPECT_EQ(r.exit_code, 2) << r.err << r.out;
    EXPECT_NE(r.err.find("--allow-mixed-instrumentation"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("MIXED INSTRUMENTATION"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("head counts allocations"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(head, mixed_instrumentation)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1 not judged"), std::string::npos) << r.out;
    // The head's figures are real: the note names the side without them.
    EXPECT_NE(r.out.find("note: base has no memory figures"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("note: no memory figures"), std::string::npos) << r.out;
    {
        std::ifstream in(out);
        json doc = json::parse(in);
        std::vector<std::string> kinds;
        for (const auto& d : doc["context"]["mixed_instrumentation"]) {
            kinds.push_back(d["kind"]);
        }
        EXPECT_EQ(kinds, (std::vector<std::string>{"accounting", "region_hooks"}));
        EXPECT_EQ(doc["context"]["mixed_instrumentation_allowed"], false);
        ASSERT_EQ(doc["rows"].size(), 1U);
        const json& row = doc["rows"][0];
        EXPECT_EQ(row["verdict"], "no_change") << row.dump();
        EXPECT_TRUE(row["not_judged"].is_string()) << row.dump();
        EXPECT_TRUE(row["change_pct"].is_object()) << row.dump();
        EXPECT_EQ(row["head"]["warnings"].back()["kind"], "mixed_instrumentation") << row.dump();
    }

    // Judged anyway: the gate's threshold is far beyond any change, so the status does not
    // depend on how fast either side ran.
    std::vector<std::string> allowed = base_args;
    allowed.push_back("--fail-on-regression=100000");
    allowed.push_back("--allow-mixed-instrumentation");
    r = run_process(allowed);
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("MIXED INSTRUMENTATION"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("judged anyway"), std::string::npos) << r.out;
    std::ifstream in(out);
    json doc = json::parse(in);
    EXPECT_EQ(doc["context"]["mixed_instrumentation_allowed"], true);
    EXPECT_TRUE(doc["rows"][0]["not_judged"].is_null()) << doc["rows"][0].dump();
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
    auto r =
        run_process({tare_cmd, "compare", test::suite(TARE_GBENCH_ALLOC_COUNTS), TARE_COMPARE_TARE_BENCH});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("not one of each"), std::string::npos) << r.err;
}

// --instrument on a suite linked with tare::gbench counts its loop alone, through the region hooks
// (docs/instructions.md, "Google Benchmark suites"): 1,000 more no-ops are 1,000 more instructions,
// setup and pauses are outside, and the allocation figures stay.
TEST(gbench_compare, instrument_counts_a_gb_suites_loop_alone) {
    if (TARE_SANITIZED) {
        auto r =
            run_process({tare_cmd, "run", "--instrument=instructions", test::suite(TARE_GBENCH_COUNTED)});
        EXPECT_EQ(r.exit_code, 2) << r.err;
        GTEST_SKIP() << "a sanitizer build cannot run under Valgrind";
    }
    const std::string path =
        (fs::temp_directory_path() / ("tare-gb-counted-" + std::to_string(::getpid()) + ".json")).string();
    auto r = run_process(
        {tare_cmd, "run", "--instrument=instructions", test::suite(TARE_GBENCH_COUNTED), "--json=" + path});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // Progress in a log, a line per counted benchmark, as a timed run prints it.
    EXPECT_NE(r.err.find("[1/4] "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("[4/4] "), std::string::npos) << r.err;
    std::ifstream in(path);
    const json doc = json::parse(in);
    fs::remove(path);
    std::map<std::string, json> rows;
    for (const json& b : doc["benchmarks"])
        rows[b["name"].get<std::string>()] = b;
    ASSERT_EQ(rows.size(), 4U) << doc.dump();
    const auto instructions = [&](const char* name) {
        return rows[name].value("instructions_per_iter", -1.0);
    };
    for (const auto& [name, b] : rows) {
        EXPECT_EQ(b["instrument"], "callgrind") << name << b.dump();
        EXPECT_TRUE(b["time_ns"].is_null()) << name;
    }
    // The loop's own instructions (Google Benchmark's and the hooks') are a few per iteration and a
    // few dozen per run, spread over iteration counts that differ between the two bodies.
    EXPECT_NEAR(instructions("BM_nops_2000") - instructions("BM_nops_1000"), 1000.0, 0.5);
    EXPECT_GE(instructions("BM_nops_1000"), 1000.0);
    EXPECT_LT(instructions("BM_nops_1000"), 1020.0);
    // 10^6 no-ops of setup and 5,000 a pause: outside. What stays is the pair of calls that pause
    // and resume (Google Benchmark's own, a few hundred instructions at most).
    EXPECT_GE(instructions("BM_setup_and_pause"), instructions("BM_nops_1000"));
    EXPECT_LT(instructions("BM_setup_and_pause"), instructions("BM_nops_1000") + 1000)
        << rows["BM_setup_and_pause"].dump();
    if (TARE_ACCOUNTING_EXPECTED) {
        EXPECT_EQ(rows["BM_one_allocation"]["allocs_per_iter"], 1.0) << rows["BM_one_allocation"].dump();
        EXPECT_EQ(rows["BM_one_allocation"]["bytes_per_iter"], 48.0);
    }
    // The same program counts the same.
    auto again = run_process({tare_cmd, "run", "--instrument=instructions", test::suite(TARE_GBENCH_COUNTED),
                              "--filter=^BM_nops_1000$", "--json=" + path});
    ASSERT_EQ(again.exit_code, 0) << again.err;
    std::ifstream in2(path);
    EXPECT_EQ(json::parse(in2)["benchmarks"][0]["instructions_per_iter"],
              rows["BM_nops_1000"]["instructions_per_iter"]);
    fs::remove(path);
}

// A suite without tare::gbench has no hooks to find its loop: refused, by name, rather than
// counted over its whole function.
TEST(gbench_compare, instrument_refuses_a_gb_suite_without_tare_gbench) {
    auto run = run_process(
        {tare_cmd, "run", "--instrument=instructions", test::suite(TARE_GBENCH_ALLOC_COUNTS_PLAIN)});
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_NE(run.err.find("does not link tare::gbench"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace tare
