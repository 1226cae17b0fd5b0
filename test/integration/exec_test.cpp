// `tare exec` end to end on real commands: figures per run, the ABBA order, verdicts where the
// difference is 50 ms against ~1-4 ms (so they cannot flake), structure only for an A/A, and
// the error cases of CONTRACT section 6 with their exit statuses.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "executables.hpp"
#include "run_process.hpp"
#include "scratch.hpp"

namespace tare {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::run_process;

using test::scratch;

void expect_interval_around_mean(const json& change) {
    ASSERT_TRUE(change.is_object()) << change;
    EXPECT_LE(change["ci_low"].get<double>(), change["mean"].get<double>());
    EXPECT_GE(change["ci_high"].get<double>(), change["mean"].get<double>());
}

TEST(tare_exec, times_a_command_per_run) {
    fs::path out = scratch("true.json");
    auto r = run_process({tare_cmd, "exec", "--runs=4", "--json=" + out.string(), "--", "/bin/true"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* label : {"wall time", "user time", "sys time", "peak RSS", "faults"}) {
        EXPECT_NE(r.out.find(label), std::string::npos) << label << "\n" << r.out;
    }
    json doc = read_json(out);
    EXPECT_EQ(doc["schema"], "tare-exec/1");
    EXPECT_TRUE(doc["base"].is_null());
    EXPECT_TRUE(doc["comparison"].is_null());
    EXPECT_EQ(doc["head"]["argv"], json::array({"/bin/true"}));
    ASSERT_EQ(doc["head"]["runs"].size(), 4U);
    for (const json& run : doc["head"]["runs"]) {
        EXPECT_GT(run["wall_seconds"].get<double>(), 0);
        EXPECT_GT(run["max_rss_kib"].get<double>(), 0);
        EXPECT_GT(run["minor_faults"].get<double>() + run["major_faults"].get<double>(), 0);
        EXPECT_GE(run["user_seconds"].get<double>(), 0);
        EXPECT_GE(run["system_seconds"].get<double>(), 0);
    }
    const json& wall = doc["head"]["summary"]["wall_seconds"];
    EXPECT_LE(wall["ci_low"].get<double>(), wall["mean"].get<double>());
    EXPECT_GE(wall["ci_high"].get<double>(), wall["mean"].get<double>());
}

TEST(tare_exec, looks_up_a_bare_name_in_path_and_prints_markdown) {
    auto r = run_process({tare_cmd, "exec", "--runs=2", "--md", "--", "true"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("| metric "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("| :---"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("| wall time |"), std::string::npos) << r.out;
}

TEST(tare_exec, a_fast_head_against_a_slow_base_is_faster_in_abba_order) {
    fs::path out = scratch("faster.json");
    auto r = run_process({tare_cmd, "exec", "--runs=10", "--vs=/bin/sh -c 'sleep 0.05'",
                          "--json=" + out.string(), "--", "/bin/true"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("faster"), std::string::npos) << r.out;
    json doc = read_json(out);
    EXPECT_EQ(doc["base"]["argv"], json::array({"/bin/sh", "-c", "sleep 0.05"}));
    const json& c = doc["comparison"];
    EXPECT_EQ(c["verdict"], "faster");
    EXPECT_EQ(c["pairs"], 5);
    expect_interval_around_mean(c["change_pct"]);
    EXPECT_LT(c["change_pct"]["ci_high"].get<double>(), 0);
    EXPECT_LT(c["change_pct"]["mean"].get<double>(), -50);
    // ABBA, then BAAB: base at positions 0, 3, 5, 6, 8, 11, ...
    std::vector<std::size_t> base_positions;
    for (const json& run : doc["base"]["runs"]) {
        base_positions.push_back(run["position"].get<std::size_t>());
    }
    ASSERT_EQ(base_positions.size(), 10U);
    EXPECT_EQ(base_positions[0], 0U);
    EXPECT_EQ(base_positions[1], 3U);
    EXPECT_EQ(base_positions[2], 5U);
    EXPECT_EQ(base_positions[3], 6U);
}

TEST(tare_exec, a_slow_head_against_a_fast_base_is_slower) {
    auto r =
        run_process({tare_cmd, "exec", "--runs=8", "--vs=/bin/true", "--", "/bin/sh", "-c", "sleep 0.05"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("slower"), std::string::npos) << r.out;
}

TEST(tare_exec, a_to_a_reports_a_change_with_an_interval_and_some_verdict) {
    // Whether /bin/true against itself comes out no_change is a matter of chance (5 % of the
    // time it must not), so only the structure is asserted.
    fs::path out = scratch("aa.json");
    auto r = run_process(
        {tare_cmd, "exec", "--runs=6", "--vs=/bin/true", "--json=" + out.string(), "--", "/bin/true"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json doc = read_json(out);
    const json& c = doc["comparison"];
    EXPECT_EQ(c["pairs"], 3);
    EXPECT_TRUE(c["verdict"] == "faster" || c["verdict"] == "slower" || c["verdict"] == "no_change") << c;
    expect_interval_around_mean(c["change_pct"]);
    EXPECT_EQ(doc["head"]["runs"].size(), 6U);
    EXPECT_EQ(doc["base"]["runs"].size(), 6U);
    for (const char* key : {"wall_seconds", "user_seconds", "system_seconds", "max_rss_kib", "page_faults"}) {
        EXPECT_TRUE(c["metrics"].contains(key)) << key;
    }
}

TEST(tare_exec, a_command_that_cannot_be_executed_exits_3_naming_it) {
    const fs::path text = scratch("not_executable");
    std::ofstream(text) << "just text\n";
    for (const std::string& cmd : {std::string("/nonexistent/tare_exec_cmd"),
                                   std::string("no_such_command_for_tare_exec"), text.string()}) {
        auto r = run_process({tare_cmd, "exec", "--runs=2", "--", cmd});
        EXPECT_EQ(r.exit_code, 3) << cmd << ": " << r.err;
        EXPECT_NE(r.err.find(cmd), std::string::npos) << r.err;
    }
    auto vs = run_process({tare_cmd, "exec", "--runs=2", "--vs=/nonexistent/base", "--", "/bin/true"});
    EXPECT_EQ(vs.exit_code, 3);
    EXPECT_NE(vs.err.find("/nonexistent/base"), std::string::npos) << vs.err;
}

TEST(tare_exec, a_command_that_fails_or_hangs_exits_3) {
    auto failed = run_process({tare_cmd, "exec", "--runs=2", "--", "/bin/false"});
    EXPECT_EQ(failed.exit_code, 3);
    EXPECT_NE(failed.err.find("exited with 1"), std::string::npos) << failed.err;
    auto hung = run_process({tare_cmd, "exec", "--runs=1", "--timeout=0.2", "--", "/bin/sleep", "10"});
    EXPECT_EQ(hung.exit_code, 3);
    EXPECT_NE(hung.err.find("timed out"), std::string::npos) << hung.err;
}

TEST(tare_exec, bad_arguments_exit_2) {
    for (std::vector<std::string> args : {std::vector<std::string>{"--runs=0", "--", "/bin/true"},
                                          {"--runs=many", "--", "/bin/true"},
                                          {"--no-such-flag", "--", "/bin/true"},
                                          {"--vs='unterminated", "--", "/bin/true"},
                                          {"--threshold=-1", "--", "/bin/true"},
                                          {}}) {
        args.insert(args.begin(), {tare_cmd, "exec"});
        auto r = run_process(args);
        EXPECT_EQ(r.exit_code, 2) << args.back() << ": " << r.err;
        EXPECT_NE(r.err.find("error:"), std::string::npos) << r.err;
    }
}

}  // namespace
}  // namespace tare
