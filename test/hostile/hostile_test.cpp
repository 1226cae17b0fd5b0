// The hostile suite end to end (hostile_bench.cpp, hostile_gb_bench.cpp): every way a benchmark
// can go wrong, run with and without --isolate, by the executable itself, through `tare run` and
// through `tare compare`. Every good benchmark's results are kept, every bad one is named with
// its kind, the JSON is valid, and no process and no temporary file outlives the run.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "executables.hpp"
#include "run_process.hpp"
#include "scratch.hpp"

namespace tare {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::run_process;
using test::scratch;

using kinds = std::set<std::string>;
const kinds ok{""};
// A sanitizer reports a segmentation fault (a stack overflow too) and exits 1 rather than dying
// of the signal: then the process "exited" without its results.
const kinds died = TARE_SANITIZED ? kinds{"signal", "crash"} : kinds{"signal"};

// What each benchmark of hostile_bench ends as under --isolate.
std::map<std::string, kinds> isolated_kinds() {
    std::map<std::string, kinds> k{{"good_first", ok},
                                   {"aborts", TARE_SANITIZED ? kinds{"signal", "crash"} : kinds{"signal"}},
                                   {"segfaults", died},
                                   {"overflows_stack", died},
                                   {"exits_zero", {"exit"}},
                                   {"underscore_exits_3", {"crash"}},
                                   {"throws_int", {"exception"}},
                                   {"forks_a_sleeper", ok},
                                   {"spins", {"timeout"}},
                                   {"breaks_early", {"loop_left_early"}},
                                   {"loops_twice", {"loop_twice"}},
                                   {"good_last", ok}};
    if (TARE_HOSTILE_LEAK)
        k["leaks_past_the_cap"] = {"heap_cap"};
    return k;
}

// The timeout that stops `spins`. A sanitized child starts and reports slowly, and on a loaded
// 2-core machine one that crashes or exits at once has been seen to pass 3 s: under a sanitizer
// the bound is 10 s, so only `spins` ever reaches it.
const std::string timeout_flag = TARE_SANITIZED ? "--timeout=10" : "--timeout=3";

std::string kind_of(const json& row) {
    return row["error"].is_null() ? "" : row["error"]["kind"].get<std::string>();
}

// Each row of `rows` has a kind in `expected`, every expected name
// has a row, and every good row has samples.
void expect_rows(const json& rows, const std::map<std::string, kinds>& expected) {
    std::set<std::string> seen;
    for (const json& row : rows) {
        const std::string name = row["name"].get<std::string>();
        ASSERT_TRUE(expected.count(name)) << "unexpected row " << name;
        EXPECT_TRUE(expected.at(name).count(kind_of(row))) << name << ": " << row["error"].dump();
        if (kind_of(row).empty())
            EXPECT_FALSE(row["samples_ns"].empty()) << name;
        else
            EXPECT_FALSE(row["error"]["message"].get<std::string>().empty()) << name;
        // A message names the user's files, never one in tare's private temporary directory.
        if (!kind_of(row).empty()) {
            EXPECT_EQ(row["error"]["message"].get<std::string>().find("/tare-"), std::string::npos)
                << name << ": " << row["error"]["message"];
        }
        seen.insert(name);
    }
    for (const auto& [name, k] : expected)
        EXPECT_TRUE(seen.count(name)) << "no row for " << name;
}

// Temporary files go to a directory of the test's own (TMPDIR), empty again after every run.
class hostile : public testing::Test {
protected:
    void SetUp() override {
        tmp_ = scratch("tmp");
        fs::create_directories(tmp_);
        ::setenv("TMPDIR", tmp_.c_str(), 1);
    }
    // `marker`: the path of this test's private copy of the executable, which no other test's
    // process names (another test run on the same machine runs a copy of its own).
    void expect_nothing_left(const std::string& marker) const {
        EXPECT_EQ(test::processes_mentioning(marker), 0) << "a process of " << marker << " outlived the run";
        for (const auto& entry : fs::directory_iterator(tmp_))
            ADD_FAILURE() << "left behind: " << entry.path().filename();
    }
    fs::path tmp_;
};

TEST_F(hostile, in_process_failures_are_named_and_the_good_results_kept) {
    const std::string bench = test::private_copy(TARE_HOSTILE_BENCH, "hostile_inproc");
    const fs::path out = scratch("inproc.json");
    auto r = run_process(
        {bench, "--filter=^(good_first|throws_int|breaks_early|loops_twice|leaks_past_the_cap|good_last)$",
         "--min-time=0.02", "--json=" + out.string()});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    std::map<std::string, kinds> expected;
    for (const char* name : {"good_first", "throws_int", "breaks_early", "loops_twice", "good_last"})
        expected[name] = isolated_kinds().at(name);
    if (TARE_HOSTILE_LEAK)
        expected["leaks_past_the_cap"] = {"heap_cap"};
    expect_rows(read_json(out)["benchmarks"], expected);
    expect_nothing_left(bench);
}

TEST_F(hostile, isolated_every_failure_is_its_own_row) {
    const std::string bench = test::private_copy(TARE_HOSTILE_BENCH, "hostile_isolated");
    const fs::path out = scratch("isolated.json");
    auto r = run_process({bench, "--isolate", timeout_flag, "--min-time=0.02", "--json=" + out.string()});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    expect_rows(read_json(out)["benchmarks"], isolated_kinds());
    expect_nothing_left(bench);
}

TEST_F(hostile, tare_run_isolates_and_without_it_names_the_executable) {
    const std::string bench = test::private_copy(TARE_HOSTILE_BENCH, "hostile_run");
    const fs::path out = scratch("run.json");
    auto r = run_process(
        {TARE_COMMAND, "run", bench, "--isolate", timeout_flag, "--min-time=0.02", "--json=" + out.string()});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    expect_rows(read_json(out)["benchmarks"], isolated_kinds());
    expect_nothing_left(bench);

    // One process for the suite: the abort ends it, and tare says which executable.
    auto whole = run_process({TARE_COMMAND, "run", bench, "--min-time=0.02"});
    EXPECT_EQ(whole.exit_code, 3) << whole.err;
    EXPECT_NE(whole.err.find(bench + ": "), std::string::npos) << whole.err;
    expect_nothing_left(bench);

    auto lone = run_process({TARE_COMMAND, "run", bench, timeout_flag});
    EXPECT_EQ(lone.exit_code, 2);
    EXPECT_NE(lone.err.find("--timeout applies only with --isolate"), std::string::npos) << lone.err;
}

TEST_F(hostile, tare_compare_names_each_failure_and_compares_the_rest) {
    const std::string base = test::private_copy(TARE_HOSTILE_BENCH, "hostile_cmp_base");
    const std::string head = test::private_copy(TARE_HOSTILE_BENCH, "hostile_cmp_head");
    const fs::path out = scratch("compare.json");
    auto r = run_process({TARE_COMMAND, "compare", base, head, "--rounds=2", "--min-time=0.05", timeout_flag,
                          "--json=" + out.string()});
    EXPECT_EQ(r.exit_code, 3) << r.err;  // workers that could not run to the end
    const json doc = read_json(out);
    std::set<std::string> seen;
    for (const json& row : doc["rows"]) {
        const std::string name = row["name"].get<std::string>();
        seen.insert(name);
        const kinds expected = isolated_kinds().at(name);
        const std::string base_kind = kind_of(row["base"]);
        if (expected.count("")) {
            EXPECT_EQ(base_kind, "") << name << ": " << row.dump();
            EXPECT_NE(row["verdict"], "error") << name;
        } else {
            // In a worker, exit() and _exit() end the process the controller talks to: a crash.
            EXPECT_FALSE(base_kind.empty()) << name;
            EXPECT_EQ(row["verdict"], "error") << name;
        }
    }
    EXPECT_EQ(seen.size(), isolated_kinds().size());
    expect_nothing_left(base);
    expect_nothing_left(head);
}

// Eight threads started and joined in every iteration, for at least 40 samples: no deadlock (the
// ctest timeout), no race report (ThreadSanitizer fails the process), and where tare accounts,
// exactly the threads' own allocations between the two benchmarks.
TEST_F(hostile, eight_threads_in_every_iteration_count_exactly) {
    const fs::path out = scratch("threads.json");
    auto r = run_process({TARE_THREADS_BENCH, "--min-time=0.3", "--json=" + out.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err.find("ThreadSanitizer"), std::string::npos) << r.err;
    const json doc = read_json(out);
    ASSERT_EQ(doc["benchmarks"].size(), 2U);
    const json& idle = doc["benchmarks"][0];
    const json& allocating = doc["benchmarks"][1];
    for (const json* b : {&idle, &allocating}) {
        EXPECT_TRUE((*b)["error"].is_null()) << b->dump();
        EXPECT_GE((*b)["samples_ns"].size(), 10U);
    }
    if (!TARE_ACCOUNTING_EXPECTED)
        return;
    // Starting a thread allocates the same in every iteration, so the control's figures cancel
    // exactly: 8 threads x 10 blocks of 32 bytes.
    EXPECT_EQ(allocating["allocs_per_iter"].get<double>() - idle["allocs_per_iter"].get<double>(), 80.0);
    EXPECT_EQ(allocating["bytes_per_iter"].get<double>() - idle["bytes_per_iter"].get<double>(), 80.0 * 32);
    // Flat: the live heap is in usable bytes, and now and then a block the C library made before
    // the region (a thread's cached TLS) is freed inside it, a one-off step of a few bytes over
    // the whole run; a block kept per iteration would be 24 B or more.
    EXPECT_LT(std::abs(idle["retained_bytes_per_iter"].get<double>()), 1.0);
    EXPECT_LT(std::abs(allocating["retained_bytes_per_iter"].get<double>()), 1.0);
}

// A worker that writes 64 MiB to its standard error and then fails (stderr_flood_bench.cpp): the
// flood never reaches $TMPDIR (the benchmark measured it at its last line), and the failure
// quotes that last line and names how many bytes before it tare did not keep.
TEST_F(hostile, a_worker_flooding_its_standard_error_keeps_only_the_end_of_it) {
    const std::string bench = test::private_copy(TARE_STDERR_FLOOD_BENCH, "hostile_flood");
    const fs::path out = scratch("flood.json");
    auto r = run_process({TARE_COMMAND, "compare", bench, bench, "--rounds=1", "--min-time=0.01",
                          "--timeout=60", "--json=" + out.string()});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    const json doc = read_json(out);
    ASSERT_EQ(doc["rows"].size(), 1U) << doc.dump();
    const std::string message = doc["rows"][0]["base"]["error"]["message"].get<std::string>();
    const std::string said = "its last words: tmpdir holds ";
    const std::size_t at = message.find(said);
    ASSERT_NE(at, std::string::npos) << message;
    const std::string bytes =
        message.substr(at + said.size(), message.find(' ', at + said.size()) - at - said.size());
    constexpr std::uint64_t kept = std::uint64_t{4} << 20;
    EXPECT_LE(std::stoull(bytes), kept + (std::uint64_t{1} << 20)) << "$TMPDIR held the flood: " << message;
    // Written in all: 64 MiB and the last line; kept: the last 4 MiB.
    const std::uint64_t written = (std::uint64_t{64} << 20) + ("tmpdir holds " + bytes + " bytes\n").size();
    EXPECT_NE(
        message.find(std::to_string(written - kept) + " earlier bytes of its standard error were dropped"),
        std::string::npos)
        << message;
    expect_nothing_left(bench);
}

TEST_F(hostile, a_google_benchmark_suite_is_isolated_by_tare_run) {
    const std::string gb = TARE_HOSTILE_GB_BENCH;
    if (gb.empty())
        GTEST_SKIP() << "built without Google Benchmark";
    const std::string bench = test::private_copy(gb, "hostile_gb");
    const fs::path out = scratch("gb.json");
    auto r = run_process(
        {TARE_COMMAND, "run", bench, "--isolate", timeout_flag, "--min-time=0.01", "--json=" + out.string()});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    expect_rows(read_json(out)["benchmarks"], {{"BM_good", ok},
                                               {"BM_segfault", died},
                                               {"BM_exit3", {"crash"}},
                                               {"BM_spin", {"timeout"}},
                                               {"BM_good2/8", ok}});
    expect_nothing_left(bench);

    auto whole = run_process({TARE_COMMAND, "run", bench, "--min-time=0.01"});
    EXPECT_EQ(whole.exit_code, 3) << whole.err;
    EXPECT_NE(whole.err.find(bench + ": "), std::string::npos) << whole.err;
}

// The peak resident set of `argv` run to its end, in KiB, from wait4: what the kernel counted of
// the process itself; its output discarded. -1 when it could not run or did not exit 0.
long peak_rss_kib(const std::vector<std::string>& argv) {
    std::vector<char*> args;
    for (const std::string& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int failed = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (failed != 0)
        return -1;
    int status = 0;
    rusage usage{};
    if (::wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return usage.ru_maxrss;
}

// A results file of `rows` benchmarks recorded in 3 processes, each row as bench/big_inputs.py
// writes one (some 400 bytes of JSON), on `like`'s context; `slower` scales every time. Written
// a row at a time: a child inherits its parent's peak resident set as its own (wait4 counts the
// mm it replaced at exec), so this test process must stay small.
void write_large_run(const json& like, std::size_t rows, double slower, const fs::path& out) {
    json head = like;
    head["context"]["processes"] = 3;
    head.erase("benchmarks");
    std::string text = head.dump();
    text.pop_back();  // the object's end: `benchmarks` follows its other keys
    std::ofstream file(out);
    file << text << ",\"benchmarks\":[";
    for (std::size_t i = 0; i < rows; ++i) {
        const double t = 100.0 * static_cast<double>(1 + i % 17) * slower;
        const std::vector<double> samples{t * 0.99, t, t * 1.02};
        json row{
            {"name", "suite/family_" + std::to_string(i / 4) + "/" + std::to_string(1U << (2 * (i % 4)))},
            {"iterations", 3000},
            {"time_ns",
             {{"mean", t * 1.0033},
              {"median", t},
              {"stddev", t * 0.015},
              {"min", t * 0.99},
              {"max", t * 1.02},
              {"ci_low", t * 0.966},
              {"ci_high", t * 1.04}}},
            {"samples_ns", samples},
            {"allocs_per_iter", static_cast<double>(i % 3)},
            {"bytes_per_iter", 64.0 * static_cast<double>(i % 3)},
            {"processes", json::array()}};
        for (double x : samples)
            row["processes"].push_back({{"samples", 1}, {"median_ns", x}});
        if (i % 5 == 0)
            row["counters"] = {{"items", static_cast<double>(i % 7)}};
        if (i % 9 == 0)
            row["warnings"] = json::array({{{"kind", "noisy"}, {"message", "samples spread widely"}}});
        file << (i == 0 ? "" : ",") << row.dump();
    }
    file << "]}";
}

// Two stored files of 20,000 rows compared: the peak resident set, beyond what comparing two
// files of one row takes, is about three times the two files at most (2.6 measured; the bound
// leaves a tenth for another allocator's or kernel's page habits). It was 4.8 times while both
// files' models and the comparison's rows were held at once (bench/README.md, "Tables of a
// million rows").
TEST_F(hostile, comparing_two_large_files_holds_about_three_times_them) {
    if (TARE_SANITIZED)
        GTEST_SKIP() << "a sanitizer's allocator and shadow memory are not what a user's tare holds";
    const fs::path one = scratch("one.json");
    auto r = run_process({TARE_COMMAND, "run", TARE_HOSTILE_BENCH, "--filter=^good_first$", "--min-time=0.01",
                          "--json=" + one.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json like = read_json(one);
    const fs::path small_a = scratch("small_a.json");
    const fs::path small_b = scratch("small_b.json");
    const fs::path a = scratch("a.json");
    const fs::path b = scratch("b.json");
    write_large_run(like, 1, 1.0, small_a);
    write_large_run(like, 1, 1.02, small_b);
    write_large_run(like, 20000, 1.0, a);
    write_large_run(like, 20000, 1.02, b);
    const long small = peak_rss_kib({TARE_COMMAND, "compare", small_a.string(), small_b.string(),
                                     "--json=" + scratch("small.json").string()});
    const long large = peak_rss_kib(
        {TARE_COMMAND, "compare", a.string(), b.string(), "--json=" + scratch("c.json").string()});
    ASSERT_GT(small, 0);
    ASSERT_GT(large, 0);
    const double files = static_cast<double>(fs::file_size(a) + fs::file_size(b));
    const double held = static_cast<double>(large - small) * 1024;
    EXPECT_LE(held, 3.3 * files) << held / files << " times the files (" << files / 1e6 << " MB)";
    std::cout << "compare held " << held / files << " times its files (" << small << " KiB for one row, "
              << large << " KiB)\n";
}

}  // namespace
}  // namespace tare
