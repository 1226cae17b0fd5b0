// --isolate and --timeout: a crashing, aborting, hanging or throwing benchmark is reported
// with its name and how it ended, and the others still run and are written.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "run_process.hpp"

namespace tare {
namespace {

using nlohmann::json;

// The timeout that stops `hangs`. Under ThreadSanitizer a child that has threads left at its end
// sleeps 1 s before exiting (its atexit_sleep_ms), and one that aborts or faults symbolizes its
// report first: on a loaded 2-core machine `works_too` and `aborts` have each passed 2 s there.
// Under a sanitizer the bound is 10 s, so only `hangs` ever reaches it.
TEST(isolate, each_failure_is_its_own_error_row) {
    const int timeout = TARE_SANITIZED ? 10 : 2;
    auto start = std::chrono::steady_clock::now();
    auto r = test::run_process({TARE_CRASH_BENCH, "--isolate", "--timeout=" + std::to_string(timeout),
                                "--min-time=0.02", "--json=-"});
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_LT(seconds, 15.0 * timeout) << "the hang must be stopped by the timeout";
    json doc = json::parse(r.out);
    ASSERT_EQ(doc["benchmarks"].size(), 7U);
    auto row = [&](std::size_t i) { return doc["benchmarks"][i]; };
    EXPECT_EQ(row(0)["name"], "works");
    EXPECT_TRUE(row(0)["error"].is_null());
    EXPECT_GT(row(0)["time_ns"]["mean"].get<double>(), 0.0);

    EXPECT_EQ(row(1)["name"], "segfaults");
#if !TARE_SANITIZED
    EXPECT_EQ(row(1)["error"]["kind"], "signal");
    EXPECT_NE(row(1)["error"]["message"].get<std::string>().find("SIGSEGV"), std::string::npos);
#else
    // A sanitizer catches SIGSEGV itself, reports, and exits with a status instead.
    EXPECT_TRUE(row(1)["error"]["kind"] == "signal" || row(1)["error"]["kind"] == "crash") << row(1).dump();
#endif

    EXPECT_EQ(row(2)["name"], "aborts");
    EXPECT_EQ(row(2)["error"]["kind"], "signal") << row(2).dump();
    EXPECT_NE(row(2)["error"]["message"].get<std::string>().find("SIGABRT"), std::string::npos);

    EXPECT_EQ(row(3)["name"], "hangs");
    EXPECT_EQ(row(3)["error"]["kind"], "timeout");

    EXPECT_EQ(row(4)["name"], "throws");
    EXPECT_EQ(row(4)["error"]["kind"], "exception");
    EXPECT_EQ(row(4)["error"]["message"], "invariant broken");

    EXPECT_EQ(row(5)["name"], "works_too");
    EXPECT_TRUE(row(5)["error"].is_null()) << row(5).dump();

    EXPECT_EQ(row(6)["name"], "exits_zero");
    EXPECT_EQ(row(6)["error"]["kind"], "exit") << row(6).dump();

    // The table on standard error names each failure.
    EXPECT_NE(r.err.find("segfaults"), std::string::npos);
    EXPECT_NE(r.err.find("timeout"), std::string::npos);
}

// Without --isolate, a body that calls exit(0) ends the process, but not silently: the
// benchmarks before it are written, it is an error row of kind "exit", and the status is 1.
TEST(isolate, exit_inside_a_body_is_named_and_the_finished_results_kept) {
    auto r = test::run_process(
        {TARE_CRASH_BENCH, "--filter=^(works|exits_zero|works_too)$", "--min-time=0.02", "--json=-"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("exits_zero: called exit() inside its body"), std::string::npos) << r.err;
    json doc = json::parse(r.out);
    ASSERT_EQ(doc["benchmarks"].size(), 3U) << r.out;
    EXPECT_EQ(doc["benchmarks"][0]["name"], "works");
    EXPECT_TRUE(doc["benchmarks"][0]["error"].is_null());
    EXPECT_EQ(doc["benchmarks"][1]["name"], "works_too");
    EXPECT_TRUE(doc["benchmarks"][1]["error"].is_null());
    EXPECT_EQ(doc["benchmarks"][2]["name"], "exits_zero");
    EXPECT_EQ(doc["benchmarks"][2]["error"]["kind"], "exit");
}

TEST(isolate, results_match_the_in_process_shape) {
    auto r =
        test::run_process({TARE_CRASH_BENCH, "--isolate", "--filter=^works$", "--min-time=0.02", "--json=-"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    json doc = json::parse(r.out);
    ASSERT_EQ(doc["benchmarks"].size(), 1U);
    EXPECT_EQ(doc["schema"], "tare/1");
    EXPECT_FALSE(doc["benchmarks"][0]["samples_ns"].empty());
}

}  // namespace
}  // namespace tare
