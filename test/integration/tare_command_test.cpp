// The `tare` command end to end: run an executable, read a results file, and the error
// cases of CONTRACT section 6 with their exit statuses and messages.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "run_process.hpp"
#include "scratch.hpp"

namespace tare {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::run_process;

const std::string tare_cmd = TARE_COMMAND;
const std::string bench = TARE_CONTRACT_BENCH;

using test::scratch;

void write(const fs::path& p, const std::string& text) {
    std::ofstream out(p);
    out << text;
}

TEST(tare_command, version_and_help) {
    auto v = run_process({tare_cmd, "--version"});
    EXPECT_EQ(v.exit_code, 0);
    EXPECT_EQ(v.out.rfind("tare ", 0), 0U) << v.out;
    auto h = run_process({tare_cmd, "--help"});
    EXPECT_EQ(h.exit_code, 0);
    EXPECT_NE(h.out.find("compare"), std::string::npos);
}

TEST(tare_command, run_an_executable_prints_the_table_and_writes_json) {
    fs::path out = scratch("run.json");
    auto r = run_process(
        {tare_cmd, "run", bench, "--filter=round_trip", "--min-time=0.01", "--json=" + out.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("round_trip/1000"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("allocs/iter"), std::string::npos) << r.out;
    std::ifstream in(out);
    json doc = json::parse(in);
    EXPECT_EQ(doc["schema"], "tare/1");
    EXPECT_EQ(doc["benchmarks"].size(), 2U);
}

TEST(tare_command, run_reads_a_results_file_and_prints_markdown) {
    fs::path file = scratch("results.json");
    auto made = run_process({bench, "--filter=round_trip/1$", "--min-time=0.01", "--json=" + file.string()});
    ASSERT_EQ(made.exit_code, 0) << made.err;
    auto r = run_process({tare_cmd, "run", file.string(), "--md"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("| `round_trip/1`"), std::string::npos) << r.out;
}

TEST(tare_command, a_failing_benchmark_is_shown_and_exits_1) {
    auto r = run_process({tare_cmd, "run", bench, "--filter=throws", "--min-time=0.01"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.out.find("fixture exploded"), std::string::npos) << r.out;
}

TEST(tare_command, malformed_json_names_file_line_and_column) {
    fs::path bad = scratch("bad.json");
    write(bad, "{\n  \"schema\": \"tare/1\",\n  \"benchmarks\": [1, 2,, 3]\n}\n");
    auto r = run_process({tare_cmd, "run", bad.string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(bad.string() + ":3:"), std::string::npos) << r.err;
}

TEST(tare_command, wrong_schema_and_missing_files_exit_2) {
    fs::path other = scratch("other.json");
    write(other, R"({"schema": "something/9", "benchmarks": []})");
    auto r = run_process({tare_cmd, "run", other.string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("something/9"), std::string::npos) << r.err;

    auto missing = run_process({tare_cmd, "run", "/no/such/bench"});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("/no/such/bench"), std::string::npos) << missing.err;
}

TEST(tare_command, an_executable_that_cannot_run_exits_3) {
    fs::path not_exec = scratch("not_executable");
    write(not_exec, "just text");
    auto r = run_process({tare_cmd, "run", not_exec.string()});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("not_executable"), std::string::npos) << r.err;
}

TEST(tare_command, several_targets_make_one_document_and_a_broken_one_loses_nothing) {
    fs::path file = scratch("first.json");
    auto made = run_process({bench, "--filter=round_trip/1$", "--min-time=0.01", "--json=" + file.string()});
    ASSERT_EQ(made.exit_code, 0) << made.err;
    fs::path merged = scratch("merged.json");
    auto r = run_process({tare_cmd, "run", file.string(), "/no/such/suite", bench, "--filter=round_trip/1000",
                          "--min-time=0.01", "--json=" + merged.string()});
    EXPECT_EQ(r.exit_code, 2) << "a missing target is reported, the others still run";
    EXPECT_NE(r.err.find("/no/such/suite"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("== " + bench), std::string::npos) << r.out;
    std::ifstream in(merged);
    json doc = json::parse(in);
    ASSERT_EQ(doc["benchmarks"].size(), 2U);
    EXPECT_EQ(doc["benchmarks"][0]["name"], "first/round_trip/1");
    EXPECT_EQ(doc["benchmarks"][1]["name"], "contract_bench/round_trip/1000");
}

}  // namespace
}  // namespace tare
