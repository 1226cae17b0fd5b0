// --instrument on bodies whose counts are known (instrument_bench.cpp): exact instructions of the
// timed region alone, allocation figures beside them, the same counts from every run of the same
// program wherever it lies and whatever its parent's environment, and what can still move them.
// docs/instructions.md.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "run_process.hpp"
#include "scratch.hpp"

namespace tare {
namespace {

using nlohmann::json;

// Valgrind cannot run a sanitizer's runtime: those builds refuse the instrument, and say so.
bool refused_here() {
    if (!TARE_SANITIZED)
        return false;
    auto r = test::run_process({TARE_INSTRUMENT_BENCH, "--instrument=instructions", "--filter=nops_100"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("sanitizer build"), std::string::npos) << r.err;
    return true;
}

std::map<std::string, json> counted(const std::vector<std::string>& argv, int status = 0) {
    auto r = test::run_process(argv);
    EXPECT_EQ(r.exit_code, status) << r.err;
    std::map<std::string, json> out;
    json doc = json::parse(r.out, nullptr, false);
    if (doc.is_discarded()) {
        ADD_FAILURE() << r.out << r.err;
        return out;
    }
    EXPECT_TRUE(doc["context"].contains("instrument")) << doc["context"].dump();
    for (const json& b : doc["benchmarks"])
        out[b["name"].get<std::string>()] = b;
    return out;
}

std::map<std::string, json> counted(const std::string& filter, int status = 0) {
    return counted({TARE_INSTRUMENT_BENCH, "--instrument=instructions", "--filter=" + filter, "--json=-"},
                   status);
}

// Waits (30 s at most) until the counted process of the sleeping body runs under Valgrind, from
// a run whose temporary files are in `tmp` (its command line names them): another test's
// counting of the same body, running at the same time, is not this one's.
bool sleeping_body_counted(const std::filesystem::path& tmp) {
    for (int i = 0; i < 3000; ++i) {
        if (test::processes_mentioning({tmp.string(), "--tare-exact=sleeps"}) > 0)
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

double instructions(const json& b) {
    return b.value("instructions_per_iter", -1.0);
}

TEST(instrument, counts_the_timed_region_exactly_and_nothing_else) {
    if (refused_here())
        GTEST_SKIP() << "a sanitizer build";
    auto r = counted("^(nops_1000|nops_2000|heavy_setup|light_inputs|heavy_inputs|one_allocation)$");
    ASSERT_EQ(r.size(), 6U);
    for (const auto& [name, b] : r) {
        EXPECT_EQ(b["instrument"], "callgrind") << name;
        EXPECT_TRUE(b["time_ns"].is_null()) << name;  // counted, not timed
        EXPECT_TRUE(b["page_faults_per_iter"].is_null()) << name;
        for (const char* key : {"data_reads_per_iter", "data_writes_per_iter", "l1_misses_per_iter",
                                "ll_misses_per_iter", "estimated_cycles_per_iter"})
            EXPECT_TRUE(b.contains(key)) << name << " " << key;
    }
    // 1,000 more no-ops an iteration are 1,000 more instructions, to the last one: 200,000 more
    // over the 200 iterations counted.
    EXPECT_EQ(std::llround(200 * (instructions(r["nops_2000"]) - instructions(r["nops_1000"]))), 200000)
        << r["nops_1000"].dump() << r["nops_2000"].dump();
    // The loop itself adds a compare, a decrement and a branch or so.
    EXPECT_GE(instructions(r["nops_1000"]), 1000.0);
    EXPECT_LT(instructions(r["nops_1000"]), 1010.0);
    EXPECT_EQ(r["nops_1000"]["instrument_iterations"], 200);  // ->iterations(200) is honoured
    // 10^6 no-ops of setup, and 5,000 of untimed input per iteration, are in no count.
    EXPECT_EQ(instructions(r["heavy_setup"]), instructions(r["nops_1000"])) << r["heavy_setup"].dump();
    EXPECT_EQ(instructions(r["heavy_inputs"]), instructions(r["light_inputs"])) << r["heavy_inputs"].dump();
    // Callgrind does not replace malloc: the allocation figures stay exact beside the counts.
    if (TARE_ACCOUNTING_EXPECTED) {
        EXPECT_EQ(r["one_allocation"]["allocs_per_iter"], 1.0) << r["one_allocation"].dump();
        EXPECT_EQ(r["one_allocation"]["bytes_per_iter"], 48.0);
    }
}

// Every count of every row, for comparing runs.
std::map<std::string, std::vector<double>> all_counts(const std::map<std::string, json>& rows) {
    std::map<std::string, std::vector<double>> out;
    for (const auto& [name, b] : rows) {
        for (const char* key : {"instructions_per_iter", "data_reads_per_iter", "data_writes_per_iter",
                                "l1_misses_per_iter", "ll_misses_per_iter", "estimated_cycles_per_iter"})
            out[name].push_back(b.value(key, -1.0));
        out[name].push_back(b.value("instrument_iterations", -1.0));
    }
    return out;
}

TEST(instrument, the_same_program_counts_alike_wherever_it_runs_from) {
    if (refused_here())
        GTEST_SKIP() << "a sanitizer build";
    const std::string filter = "^(nops_100|one_allocation|reads_environment)$";
    const auto first = all_counts(counted(filter));
    ASSERT_EQ(first.size(), 3U);
    // The same binary again.
    EXPECT_EQ(all_counts(counted(filter)), first);
    // The same source built again, as another target.
    EXPECT_EQ(all_counts(counted({TARE_INSTRUMENT_BENCH_AGAIN, "--instrument=instructions",
                                  "--filter=" + filter, "--json=-"})),
              first);
    // A copy at a much longer path, started from a much bigger environment that also sets the
    // variable one body reads: the child's environment is pinned and its argv[0] evened out.
    const auto dir = test::scratch("a-much-longer-directory-name-than-the-build-tree-has/and-deeper");
    std::filesystem::create_directories(dir);
    const auto copy = dir / "instrument_bench_copy";
    std::filesystem::copy_file(TARE_INSTRUMENT_BENCH, copy,
                               std::filesystem::copy_options::overwrite_existing);
    EXPECT_EQ(all_counts(counted({"/usr/bin/env", "TARE_TEST_SECRET=" + std::string(5000, 's'),
                                  "TARE_PADDING=" + std::string(20000, 'p'), copy.string(),
                                  "--instrument=instructions", "--filter=" + filter, "--json=-"})),
              first);
}

// --pass-env gives a counted process the one variable a suite needs (where its data is), and the
// JSON names it; without it the counted process sees only the pinned few, as before.
TEST(instrument, a_variable_passed_by_name_reaches_the_counted_process) {
    if (refused_here())
        GTEST_SKIP() << "a sanitizer build";
    const std::string secret = "TARE_TEST_SECRET=" + std::string(5000, 's');
    const auto pinned = counted({"/usr/bin/env", secret, TARE_INSTRUMENT_BENCH, "--instrument=instructions",
                                 "--filter=^reads_environment$", "--json=-"});
    auto r = test::run_process({"/usr/bin/env", secret, TARE_INSTRUMENT_BENCH, "--instrument=instructions",
                                "--pass-env=TARE_TEST_SECRET", "--filter=^reads_environment$", "--json=-"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json doc = json::parse(r.out);
    EXPECT_EQ(doc["context"]["instrument_env"], json::array({"TARE_TEST_SECRET"}));
    ASSERT_EQ(pinned.count("reads_environment"), 1U);
    // strlen of 5,000 characters (vectorised), every iteration: far more than the pinned run's strlen of
    // nothing.
    EXPECT_GT(instructions(doc["benchmarks"][0]), instructions(pinned.at("reads_environment")) + 200)
        << doc["benchmarks"][0].dump();
    auto timed = test::run_process({TARE_INSTRUMENT_BENCH, "--pass-env=HOME", "--filter=nops_100"});
    EXPECT_EQ(timed.exit_code, 2);
    EXPECT_NE(timed.err.find("--pass-env applies only with --instrument"), std::string::npos) << timed.err;
    // Through the tare command, the flag before the executable: one name a flag, the executable
    // after it is not a name.
    auto through = test::run_process(
        {TARE_COMMAND, "run", "--pass-env=HOME", TARE_INSTRUMENT_BENCH, "--filter=nops_100"});
    EXPECT_EQ(through.exit_code, 2);
    EXPECT_NE(through.err.find("--pass-env applies only with --instrument"), std::string::npos)
        << through.err;
    auto bad = test::run_process({TARE_INSTRUMENT_BENCH, "--instrument=instructions", "--pass-env=A-B"});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("is not a variable's name"), std::string::npos) << bad.err;
}

// A counted process that ends before its results, saying why, is an error row that quotes what
// it said: the variable a suite needs and was not passed is named, not left to guess. Passed, it
// counts.
TEST(instrument, a_counted_process_that_fails_is_reported_with_its_last_words) {
    if (refused_here())
        GTEST_SKIP() << "a sanitizer build";
    auto r = counted("^needs_data$", 1);
    ASSERT_EQ(r.count("needs_data"), 1U);
    const json& error = r["needs_data"]["error"];
    ASSERT_TRUE(error.is_object()) << r["needs_data"].dump();
    EXPECT_EQ(error["kind"], "crash");
    EXPECT_NE(error["message"].get<std::string>().find("exited with 4; its last words: instrument_bench: "
                                                       "TARE_TEST_DATA is not set: where is the test data?"),
              std::string::npos)
        << error.dump();
    const auto passed =
        counted({"/usr/bin/env", "TARE_TEST_DATA=/data", TARE_INSTRUMENT_BENCH, "--instrument=instructions",
                 "--pass-env=TARE_TEST_DATA", "--filter=^needs_data$", "--json=-"});
    ASSERT_EQ(passed.count("needs_data"), 1U);
    EXPECT_TRUE(passed.at("needs_data")["error"].is_null()) << passed.at("needs_data").dump();
}

TEST(instrument, code_that_reads_the_clock_still_counts_differently_each_run) {
    // What tare cannot pin: a body whose work depends on the time (or on anything else outside
    // the program and its pinned environment) counts differently from run to run.
    if (refused_here())
        GTEST_SKIP() << "a sanitizer build";
    const double a = instructions(counted("^reads_clock$")["reads_clock"]);
    const double b = instructions(counted("^reads_clock$")["reads_clock"]);
    EXPECT_GT(a, 0);
    EXPECT_NE(a, b);
}

TEST(instrument, a_benchmark_that_crashes_is_its_own_error_row) {
    if (refused_here())
        GTEST_SKIP() << "a sanitizer build";
    auto r = counted("^(aborts|nops_100)$", 1);
    ASSERT_EQ(r.size(), 2U);
    ASSERT_TRUE(r["aborts"]["error"].is_object()) << r["aborts"].dump();
    EXPECT_NE(r["aborts"]["error"]["message"].get<std::string>().find("SIGABRT"), std::string::npos)
        << r["aborts"].dump();
    EXPECT_GT(instructions(r["nops_100"]), 100.0);
}

// An interrupt stops the counted process at once (its body sleeps), keeps what finished, and
// leaves neither a process nor a temporary directory behind.
TEST(instrument, an_interrupt_keeps_what_finished_and_leaves_nothing_behind) {
    if (refused_here())
        GTEST_SKIP() << "a sanitizer build";
    const auto tmp = test::scratch("interrupted-tmp");
    std::filesystem::create_directories(tmp);
    const auto out = test::scratch("interrupted.json");
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int devnull = ::open("/dev/null", O_WRONLY);
        ::dup2(devnull, 1);
        ::dup2(devnull, 2);
        const std::string env_tmp = "TMPDIR=" + tmp.string();
        const std::string json_arg = "--json=" + out.string();
        ::execl("/usr/bin/env", "env", env_tmp.c_str(), TARE_INSTRUMENT_BENCH, "--instrument=instructions",
                "--filter=^(nops_100|sleeps)$", json_arg.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    // Until the second counted process (the sleeping body's) runs under Valgrind.
    ASSERT_TRUE(sleeping_body_counted(tmp));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    ::kill(pid, SIGINT);
    int status = 0;
    ::waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 130) << status;
    const json doc = json::parse(test::run_process({"/bin/cat", out.string()}).out);
    EXPECT_TRUE(doc["context"]["interrupted"].get<bool>());
    ASSERT_EQ(doc["benchmarks"].size(), 1U) << doc.dump();
    EXPECT_EQ(doc["benchmarks"][0]["name"], "nops_100");
    EXPECT_EQ(test::processes_mentioning(tmp.string()), 0);
    EXPECT_TRUE(std::filesystem::is_empty(tmp)) << std::filesystem::directory_iterator(tmp)->path();
}

TEST(instrument, a_timeout_stops_a_counted_benchmark_and_names_it) {
    if (refused_here())
        GTEST_SKIP() << "a sanitizer build";
    auto r = counted({TARE_INSTRUMENT_BENCH, "--instrument=instructions", "--timeout=6",
                      "--filter=^(sleeps|nops_100)$", "--json=-"},
                     1);
    ASSERT_EQ(r.size(), 2U);
    ASSERT_TRUE(r["sleeps"]["error"].is_object()) << r["sleeps"].dump();
    EXPECT_EQ(r["sleeps"]["error"]["kind"], "timeout");
    EXPECT_GT(instructions(r["nops_100"]), 100.0);
}

// tare compare --instrument passes --timeout on to each side, per benchmark: a body that sleeps
// 30 s an iteration is stopped after 6 s on each side and named, and the rest still compare
// (6 s: a counted run of a small body takes over 2 s on a loaded machine).
TEST(instrument, a_counted_comparison_honours_the_timeout) {
    if (refused_here())
        GTEST_SKIP() << "a sanitizer build";
    const auto out = test::scratch("timeout-compare.json");
    const auto started = std::chrono::steady_clock::now();
    auto r = test::run_process({TARE_COMMAND, "compare", "--instrument=instructions", "--timeout=6",
                                "--filter=^(sleeps|nops_100)$", TARE_INSTRUMENT_BENCH,
                                TARE_INSTRUMENT_BENCH_AGAIN, "--json=" + out.string()});
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_LT(took, 50.0) << "each side ran its 30 s iterations";
    EXPECT_NE(r.err.find("sleeps"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("timeout"), std::string::npos) << r.err;
    const json doc = json::parse(test::run_process({"/bin/cat", out.string()}).out);
    ASSERT_EQ(doc["rows"].size(), 2U) << doc.dump();
}

// SIGINT while the base side counts: the comparison ends at once with what both sides counted
// (nothing yet), marked interrupted, status 130; never "not a tare executable". With a --rename,
// which reads head's results: head has none yet (it read past the sides it had).
TEST(instrument, an_interrupted_counted_comparison_keeps_what_both_sides_counted) {
    if (refused_here())
        GTEST_SKIP() << "a sanitizer build";
    const auto out = test::scratch("interrupted-compare.json");
    const auto err = test::scratch("interrupted-compare.err");
    const auto tmp = test::scratch("interrupted-compare-tmp");
    std::filesystem::create_directories(tmp);
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int devnull = ::open("/dev/null", O_WRONLY);
        ::dup2(devnull, 1);
        ::dup2(e, 2);
        const std::string json_arg = "--json=" + out.string();
        ::setenv("TMPDIR", tmp.c_str(), 1);
        ::execl(TARE_COMMAND, TARE_COMMAND, "compare", "--instrument=instructions",
                "--filter=^(nops_100|sleeps)$", "--rename=^nops_=nops_", TARE_INSTRUMENT_BENCH,
                TARE_INSTRUMENT_BENCH_AGAIN, json_arg.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    // Until the base side's counted process of the sleeping body runs under Valgrind.
    ASSERT_TRUE(sleeping_body_counted(tmp));
    ::kill(pid, SIGINT);
    int status = 0;
    ::waitpid(pid, &status, 0);
    const std::string said = test::run_process({"/bin/cat", err.string()}).out;
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 130) << status << said;
    EXPECT_EQ(said.find("not a tare"), std::string::npos) << said;
    const json doc = json::parse(test::run_process({"/bin/cat", out.string()}).out);
    EXPECT_TRUE(doc["context"]["interrupted"].get<bool>()) << doc.dump();
    EXPECT_TRUE(doc["rows"].empty()) << doc.dump();
    EXPECT_TRUE(doc["only_in_base"].empty()) << doc.dump();
    EXPECT_EQ(test::processes_mentioning(tmp.string()), 0);
}

TEST(instrument, without_valgrind_it_says_what_is_missing) {
    auto r = test::run_process({"/usr/bin/env", "PATH=/nonexistent", TARE_INSTRUMENT_BENCH,
                                "--instrument=instructions", "--filter=nops_100"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(TARE_SANITIZED ? "sanitizer build" : "no valgrind is on PATH"), std::string::npos)
        << r.err;
}

TEST(instrument, the_hardware_counter_counts_or_says_why_not) {
    // Virtual machines rarely expose the counter; where one does, the count is the body's.
    auto r = test::run_process(
        {TARE_INSTRUMENT_BENCH, "--instrument=hw-instructions", "--filter=^nops_1000$", "--json=-"});
    if (r.exit_code == 2) {
        EXPECT_NE(r.err.find("hardware instruction counter"), std::string::npos) << r.err;
        return;
    }
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json b = json::parse(r.out)["benchmarks"][0];
    EXPECT_EQ(b["instrument"], "hw-instructions");
    EXPECT_GE(instructions(b), 1000.0);
    EXPECT_LT(instructions(b), 1100.0);
}

}  // namespace
}  // namespace tare
