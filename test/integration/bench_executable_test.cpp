// End to end: a real benchmark executable, its flags and exit codes (CONTRACT section 3), and
// its JSON validated field by field against CONTRACT section 4.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "executables.hpp"
#include "run_process.hpp"

namespace tare {
namespace {

using nlohmann::json;
using test::run_process;

TEST(bench_executable, list_prints_every_instance) {
    auto r = run_process({contract_bench, "--list"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.out, "round_trip/1\nround_trip/1000\nsum_inputs\nthrows_midway\nempty_body\n");
}

TEST(bench_executable, filter_selects_by_regex_search) {
    auto r = run_process({contract_bench, "--list", "--filter=trip/1$"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.out, "round_trip/1\n");
}

TEST(bench_executable, bad_arguments_exit_2_naming_the_argument) {
    auto bad_regex = run_process({contract_bench, "--filter=(", "--list"});
    EXPECT_EQ(bad_regex.exit_code, 2);
    EXPECT_NE(bad_regex.err.find("--filter"), std::string::npos) << bad_regex.err;

    auto unknown = run_process({contract_bench, "--frobnicate"});
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_NE(unknown.err.find("--frobnicate"), std::string::npos) << unknown.err;

    auto bad_time = run_process({contract_bench, "--min-time=soon"});
    EXPECT_EQ(bad_time.exit_code, 2);
    EXPECT_NE(bad_time.err.find("min-time"), std::string::npos) << bad_time.err;

    auto negative = run_process({contract_bench, "--min-time=-1"});
    EXPECT_EQ(negative.exit_code, 2);

    // NaN passes a comparison with 0 (it ran forever), infinity an open upper end. --list makes
    // a flag that is wrongly accepted end at once instead of running.
    for (const char* flag : {"--min-time=nan", "--min-time=inf", "--min-time=1e300", "--timeout=nan"}) {
        auto r = run_process({contract_bench, "--isolate", flag, "--list"});
        EXPECT_EQ(r.exit_code, 2) << flag;
        EXPECT_NE(r.err.find(std::string(flag).substr(0, std::string(flag).find('='))), std::string::npos)
            << flag << ": " << r.err;
    }
}

TEST(bench_executable, timeout_without_isolate_is_refused_not_ignored) {
    auto r = run_process({contract_bench, "--timeout=5"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--timeout"), std::string::npos) << r.err;
}

void expect_number(const json& j, const std::string& key, const std::string& where) {
    ASSERT_TRUE(j.contains(key)) << where << ": missing " << key;
    ASSERT_TRUE(j[key].is_number()) << where << ": " << key << " is " << j[key].dump();
    EXPECT_TRUE(std::isfinite(j[key].get<double>())) << where << ": " << key;
}

void expect_number_or_null(const json& j, const std::string& key, const std::string& where) {
    ASSERT_TRUE(j.contains(key)) << where << ": missing " << key;
    ASSERT_TRUE(j[key].is_number() || j[key].is_null()) << where << ": " << key << " is " << j[key].dump();
}

void validate_contract(const json& doc, bool accounting) {
    ASSERT_EQ(doc.at("schema"), "tare/1");
    const json& ctx = doc.at("context");
    for (const char* key : {"tare_version", "executable", "host", "date", "cpu"}) {
        ASSERT_TRUE(ctx.contains(key) && ctx[key].is_string()) << "context." << key;
    }
    EXPECT_NE(ctx["executable"].get<std::string>().find("contract_bench"), std::string::npos);
    ASSERT_TRUE(ctx.at("num_cpus").is_number_integer());
    EXPECT_GE(ctx["num_cpus"].get<int>(), 1);
    EXPECT_EQ(ctx["date"].get<std::string>().size(), 20U);  // 2026-11-30T05:00:00Z
    // The allocator the program ran on, and what is counted of it; null without accounting.
    ASSERT_TRUE(ctx.contains("allocator"));
    if (accounting) {
        ASSERT_TRUE(ctx["allocator"].is_string()) << ctx.dump();
        EXPECT_NE(ctx["allocator"].get<std::string>().find(": malloc family, new/delete"), std::string::npos)
            << ctx["allocator"];
    } else {
        EXPECT_TRUE(ctx["allocator"].is_null()) << ctx.dump();
    }

    const json& benchmarks = doc.at("benchmarks");
    ASSERT_TRUE(benchmarks.is_array());
    for (const json& b : benchmarks) {
        const std::string name = b.at("name").get<std::string>();
        ASSERT_TRUE(b.contains("error"));
        if (!b["error"].is_null()) {
            ASSERT_TRUE(b["error"].at("kind").is_string());
            ASSERT_TRUE(b["error"].at("message").is_string());
            continue;
        }
        ASSERT_TRUE(b.at("iterations").is_number_unsigned()) << name;
        EXPECT_GT(b["iterations"].get<std::uint64_t>(), 0U) << name;
        const json& t = b.at("time_ns");
        for (const char* key : {"mean", "median", "stddev", "min", "max", "ci_low", "ci_high"}) {
            expect_number(t, key, name + ".time_ns");
        }
        EXPECT_LE(t["min"].get<double>(), t["median"].get<double>()) << name;
        EXPECT_LE(t["median"].get<double>(), t["max"].get<double>()) << name;
        EXPECT_LE(t["ci_low"].get<double>(), t["mean"].get<double>()) << name;
        EXPECT_GE(t["ci_high"].get<double>(), t["mean"].get<double>()) << name;
        ASSERT_TRUE(b.at("samples_ns").is_array()) << name;
        EXPECT_FALSE(b["samples_ns"].empty()) << name;
        for (const json& s : b["samples_ns"]) {
            ASSERT_TRUE(s.is_number()) << name;
            EXPECT_GT(s.get<double>(), 0.0) << name;
        }
        for (const char* key : {"allocs_per_iter", "bytes_per_iter", "retained_bytes_per_iter"}) {
            if (accounting) {
                expect_number(b, key, name);
            } else {
                expect_number_or_null(b, key, name);
            }
        }
        if (accounting) {
            ASSERT_TRUE(b.at("peak_live_bytes").is_number_integer()) << name;
        } else {
            expect_number_or_null(b, "peak_live_bytes", name);
        }
        expect_number(b, "page_faults_per_iter", name);
        ASSERT_TRUE(b.at("counters").is_object()) << name;
        ASSERT_TRUE(b.at("warnings").is_array()) << name;
        for (const json& w : b["warnings"]) {
            ASSERT_TRUE(w.at("kind").is_string());
            ASSERT_TRUE(w.at("message").is_string());
        }
    }
}

TEST(bench_executable, json_to_stdout_validates_against_the_contract) {
    auto r = run_process({contract_bench, "--json=-", "--min-time=0.02"});
    EXPECT_EQ(r.exit_code, 1) << "throws_midway fails, the others run: " << r.err;
    json doc;
    ASSERT_NO_THROW(doc = json::parse(r.out)) << r.out;
    validate_contract(doc, TARE_ACCOUNTING_EXPECTED != 0);
    // The table went to standard error.
    EXPECT_NE(r.err.find("round_trip/1000"), std::string::npos);

    ASSERT_EQ(doc["benchmarks"].size(), 5U);
    const json& failed = doc["benchmarks"][3];
    EXPECT_EQ(failed["name"], "throws_midway");
    EXPECT_EQ(failed["error"]["kind"], "exception");
    EXPECT_EQ(failed["error"]["message"], "fixture exploded");
    const json& rt = doc["benchmarks"][1];
    EXPECT_EQ(rt["name"], "round_trip/1000");
    EXPECT_EQ(rt["counters"]["out_size"], 1000.0);
    if (TARE_ACCOUNTING_EXPECTED) {
        // The output buffer is cleared, not freed: after warm-up, no allocation at all.
        EXPECT_EQ(rt["allocs_per_iter"], 0.0);
        EXPECT_EQ(doc["benchmarks"][2]["allocs_per_iter"], 0.0) << "inputs are made outside the window";
    }
}

TEST(bench_executable, json_file_is_written_and_table_printed) {
    std::string path =
        (std::filesystem::temp_directory_path() / ("tare_contract_" + std::to_string(::getpid()) + ".json"))
            .string();
    auto r = run_process({contract_bench, "--json=" + path, "--min-time=0.01", "--filter=round_trip"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("round_trip/1"), std::string::npos);
    std::ifstream in(path);
    ASSERT_TRUE(in.good());
    json doc = json::parse(in);
    validate_contract(doc, TARE_ACCOUNTING_EXPECTED != 0);
    EXPECT_EQ(doc["benchmarks"].size(), 2U);
    std::filesystem::remove(path);
}

TEST(bench_executable, markdown_table) {
    auto r = run_process({contract_bench, "--md", "--min-time=0.01", "--filter=round_trip/1$"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("| `round_trip/1`"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tare
