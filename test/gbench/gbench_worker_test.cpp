// tare::gbench's worker mode (src/adapters/gbench/worker.cpp): a Google Benchmark suite with the
// adapter linked serves tare compare's worker protocol, runs one benchmark at exactly the asked
// iteration count with the timed region's memory, and tare compare drives it as it drives a tare
// executable. A suite without the link options keeps the rounds of fresh processes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "command.hpp"
#include "gbench/suites.hpp"
#include "integration/heap.hpp"
#include "integration/run_process.hpp"
#include "os/channel.hpp"
#include "protocol/worker_protocol.hpp"

namespace tare {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::run_process;

// One worker, spoken to line by line as tare compare does.
class worker {
public:
    explicit worker(const std::string& exe)
        : child_(os::spawn_with_channel({exe}, std::nullopt, {}, std::nullopt, {"TARE_GBENCH_WORKER=1"})),
          in_(child_.from_child) {}
    worker(const worker&) = delete;
    worker& operator=(const worker&) = delete;
    worker(worker&&) = delete;
    worker& operator=(worker&&) = delete;
    ~worker() { os::finish_child(child_, 5.0); }

    std::string line() {
        std::string l;
        EXPECT_EQ(in_.read_line(l, 60), os::read_status::ok);
        return l;
    }
    void say(const std::string& l) { ASSERT_TRUE(os::write_all(child_.to_child, l + "\n")); }
    json result() {
        const std::string header = line();
        auto n = protocol::parse_result(header);
        EXPECT_TRUE(n.has_value()) << header;
        std::string text;
        EXPECT_EQ(in_.read_bytes(n.value_or(0), text, 60), os::read_status::ok);
        return json::parse(text).at("benchmarks").at(0);
    }
    os::child_result end() {
        say("quit");
        return os::finish_child(child_, 10.0);
    }

private:
    os::channel_child child_;
    os::line_reader in_;
};

TEST(gbench_worker, serves_the_protocol_and_runs_exactly_the_asked_iterations) {
    worker w(test::suite(TARE_GBENCH_ALLOC_COUNTS));
    EXPECT_EQ(w.line(), std::string("tare-worker 1 accounting=") + (accounting_expected ? "1" : "0"));
    w.say("list");
    EXPECT_EQ(w.line(), "names 4");
    for (const char* name : {"BM_allocs/0", "BM_allocs/1", "BM_allocs/3", "BM_retains"})
        EXPECT_EQ(w.line(), name);

    w.say("run 1000000 0 BM_allocs/3");
    ASSERT_TRUE(protocol::parse_calibrated(w.line()).has_value());
    for (std::uint64_t n : {1U, 1000U, 777U}) {
        w.say("sample " + std::to_string(n));
        auto s = protocol::parse_sample(w.line());
        ASSERT_TRUE(s.has_value());
        EXPECT_EQ(s->sample.iterations, n);  // the count asked for, not one Google Benchmark chose
        EXPECT_GT(s->sample.elapsed_ns, 0);
        if (exact_counts) {
            EXPECT_EQ(s->sample.allocs, 3 * n);
            EXPECT_EQ(s->sample.bytes, 192 * n);
            EXPECT_EQ(s->sample.live_bytes_end, 0);
            test::expect_blocks_of(static_cast<double>(s->peak_live_bytes), 1, 64);
        }
    }
    w.say("stop");
    const json r = w.result();
    EXPECT_EQ(r.at("name"), "BM_allocs/3");
    EXPECT_EQ(r.at("samples_ns").size(), 3U);
    if (exact_counts) {
        EXPECT_EQ(r.at("allocs_per_iter").get<double>(), 3.0);
        EXPECT_EQ(r.at("bytes_per_iter").get<double>(), 192.0);
    }

    w.say("run 1000000 0 BM_nothing_of_this_name");
    EXPECT_EQ(w.result().at("error").at("kind"), "not_found");
    const auto end = w.end();
    EXPECT_EQ(end.exit_code, 0) << os::describe_end(end);
}

TEST(gbench_worker, families_it_cannot_fix_by_the_public_api_run_at_the_asked_count) {
    worker w(test::suite(TARE_GBENCH_WORKER_SUITE));
    ASSERT_EQ(w.line().rfind("tare-worker 1 ", 0), 0U);
    // name -> iterations a sample of 100 runs (three repetitions: three runs of 100)
    for (const auto& [name, ran] : {std::pair<std::string, std::uint64_t>{"BM_min_time/min_time:0.050", 100},
                                    {"BM_repeated/repeats:3", 300},
                                    {"BM_special(x)[1]+.*", 100},
                                    {"BM_manual/manual_time", 100}}) {
        SCOPED_TRACE(name);
        w.say("run 1000000 0 " + name);
        ASSERT_TRUE(protocol::parse_calibrated(w.line()).has_value());
        w.say("sample 100");
        auto s = protocol::parse_sample(w.line());
        ASSERT_TRUE(s.has_value());
        EXPECT_EQ(s->sample.iterations, ran);
        if (exact_counts) {
            EXPECT_EQ(s->sample.allocs, ran);
            EXPECT_EQ(s->sample.bytes, 32 * ran);
        }
        if (name == "BM_manual/manual_time") {
            EXPECT_NEAR(s->sample.elapsed_ns, 100e3, 1e-3);  // the manual time, not the clock's
        }
        w.say("stop");
        const json r = w.result();
        EXPECT_TRUE(r.at("error").is_null()) << r.dump();
    }
    w.say("run 1000000 0 BM_no_loop");
    const json skipped = w.result();
    EXPECT_EQ(skipped.at("error").at("kind"), "gbench_error");
    EXPECT_EQ(skipped.at("error").at("message"), "nothing to measure");
    EXPECT_EQ(w.end().exit_code, 0);
}

// `tare compare SUITE SUITE` with `flags`: its exit status, output and tare-compare/1 document.
struct compared {
    test::process_result run;
    json doc;
};

// `env` (NAME=VALUE words, may be empty) is added to tare's environment, and so its workers'.
compared compare_suite(const std::string& suite, const std::vector<std::string>& flags,
                       const std::vector<std::string>& env = {}) {
    const fs::path out = fs::temp_directory_path() / ("tare_gbw_" + std::to_string(::getpid()) + ".json");
    std::vector<std::string> argv = {"/usr/bin/env"};
    argv.insert(argv.end(), env.begin(), env.end());
    argv.insert(argv.end(), {tare_cmd, "compare", suite, suite, "--json=" + out.string()});
    argv.insert(argv.end(), flags.begin(), flags.end());
    compared c{run_process(argv), json()};
    std::ifstream in(out);
    if (in) {
        c.doc = json::parse(in);
    }
    fs::remove(out);
    return c;
}

const json& row_named(const json& doc, const std::string& name) {
    for (const auto& row : doc.at("rows")) {
        if (row.at("name") == name) {
            return row;
        }
    }
    static const json none;
    ADD_FAILURE() << "no row " << name;
    return none;
}

// The ground truth of the region hooks holds sample by sample: setup, pauses and fixtures are
// outside, threads are counted per iteration of the run, and both sides measure the same counts.
TEST(gbench_worker, tare_compare_drives_two_suites_sample_by_sample) {
    auto c = compare_suite(test::suite(TARE_GBENCH_REGION),
                           {"--rounds=3", "--min-time=0.15",
                            "--filter=^(BM_setup_and_pause|BM_setup_and_pause/iterations:4|"
                            "with_buffers/BM_fixture_loop|BM_threads/threads:4)$"});
    ASSERT_EQ(c.run.exit_code, 0) << c.run.err << c.run.out;
    EXPECT_EQ(c.doc.at("context").at("mode"), "rounds");  // workers, not fresh processes
    ASSERT_EQ(c.doc.at("rows").size(), 4U);
    for (const auto& row : c.doc.at("rows")) {
        SCOPED_TRACE(row.at("name").get<std::string>());
        // At least one block a round, 2 samples a side: a Google Benchmark sample's cost is its
        // wall time, setup included, so on a loaded machine a round may hold no more.
        EXPECT_GE(row.at("base").at("samples").get<int>(), 3 * 2);
        EXPECT_EQ(row.at("base").at("iterations"), row.at("head").at("iterations"));
        EXPECT_EQ(row.at("base").at("round_ns").size(), 3U);
        EXPECT_TRUE(row.at("change_pct").is_object());
    }
    if (exact_counts) {
        const auto expect = [&](const std::string& name, double allocs, double bytes) {
            const json& side = row_named(c.doc, name).at("base");
            EXPECT_EQ(side.at("allocs_per_iter").get<double>(), allocs) << name;
            EXPECT_EQ(side.at("bytes_per_iter").get<double>(), bytes) << name;
        };
        expect("BM_setup_and_pause", 1, 48);
        expect("BM_setup_and_pause/iterations:4", 1, 48);
        expect("with_buffers/BM_fixture_loop", 0, 0);
        expect("BM_threads/threads:4", 10, 160);
        // A suite's own ->Iterations(4) is kept: every sample is 4 iterations.
        const json& fixed = row_named(c.doc, "BM_setup_and_pause/iterations:4").at("base");
        EXPECT_EQ(fixed.at("iterations").get<int>(), 4 * fixed.at("samples").get<int>());
    }
    if (accounting_expected) {  // without the interposer (ASan) there are no figures to describe
        EXPECT_NE(c.run.out.find("timed region's alone"), std::string::npos) << c.run.out;
    }
}

// A body that crashes is its own error row, by name, and the benchmarks after it still run.
TEST(gbench_worker, a_crashing_benchmark_is_its_row_and_the_rest_run) {
    auto c = compare_suite(test::suite(TARE_GBENCH_WORKER_SUITE),
                           {"--rounds=2", "--min-time=0.1", "--filter=^(BM_crash|BM_no_loop|BM_after)$"});
    EXPECT_EQ(c.run.exit_code, 3) << c.run.err << c.run.out;  // as for a tare executable (docs/cli.md)
    ASSERT_EQ(c.doc.at("rows").size(), 3U) << c.run.out;
    const json& crash = row_named(c.doc, "BM_crash");
    EXPECT_EQ(crash.at("verdict"), "error");
    EXPECT_EQ(crash.at("base").at("error").at("kind"), "signal") << crash.dump();
    EXPECT_EQ(row_named(c.doc, "BM_no_loop").at("base").at("error").at("kind"), "gbench_error");
    const json& after = row_named(c.doc, "BM_after");
    EXPECT_NE(after.at("verdict"), "error") << after.dump();
    EXPECT_EQ(after.at("base").at("round_ns").size(), 2U);
    if (exact_counts) {
        EXPECT_EQ(after.at("base").at("allocs_per_iter").get<double>(), 1.0);
    }
}

// A name holding every character special to Google Benchmark's filter is still selected exactly
// when tare runs a suite a benchmark at a time ("\\]" and "\\}" do not compile there).
TEST(gbench_worker, isolate_selects_a_name_of_regular_expression_characters) {
    auto r = run_process({tare_cmd, "run", test::suite(TARE_GBENCH_WORKER_SUITE), "--isolate",
                          "--filter=special", "--min-time=0.01"});
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("BM_special(x)[1]+.*"), std::string::npos) << r.out;
    EXPECT_EQ(r.err.find("error"), std::string::npos) << r.err;
}

// Without tare::gbench's link options the suite cannot serve: tare compare runs it as before.
TEST(gbench_worker, a_suite_without_the_link_options_is_compared_in_fresh_processes) {
    auto c = compare_suite(test::suite(TARE_GBENCH_UNWRAPPED),
                           {"--rounds=2", "--samples=2", "--min-time=0.05", "--filter=^BM_allocs/1$"});
    ASSERT_EQ(c.run.exit_code, 0) << c.run.err << c.run.out;
    EXPECT_EQ(c.doc.at("context").at("mode"), "process_rounds");
}

// --shard on Google Benchmark suites, which have no shards of their own: tare picks each shard's
// names from the suite's list, for tare run and on both sides of tare compare.
TEST(gbench_worker, shards_split_a_suite_for_run_and_compare) {
    std::set<std::string> seen;
    for (const char* shard : {"1/2", "2/2"}) {
        SCOPED_TRACE(shard);
        const fs::path out =
            fs::temp_directory_path() / ("tare_gbshard_" + std::to_string(::getpid()) + ".json");
        auto r = run_process({tare_cmd, "run", test::suite(TARE_GBENCH_ALLOC_COUNTS),
                              std::string("--shard=") + shard, "--min-time=0.01", "--json=" + out.string()});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        std::ifstream in(out);
        const json doc = json::parse(in);
        fs::remove(out);
        std::set<std::string> run_names;
        for (const auto& b : doc.at("benchmarks")) {
            EXPECT_TRUE(seen.insert(b.at("name").get<std::string>()).second)
                << b.at("name") << " in two shards";
            run_names.insert(b.at("name").get<std::string>());
        }
        auto c = compare_suite(test::suite(TARE_GBENCH_ALLOC_COUNTS),
                               {"--rounds=2", "--min-time=0.05", std::string("--shard=") + shard});
        ASSERT_EQ(c.run.exit_code, 0) << c.run.err;
        std::set<std::string> compared;
        for (const auto& row : c.doc.at("rows"))
            compared.insert(row.at("name").get<std::string>());
        EXPECT_EQ(compared, run_names);  // one rule for both commands
    }
    EXPECT_EQ(seen, (std::set<std::string>{"BM_allocs/0", "BM_allocs/1", "BM_allocs/3", "BM_retains"}));
}

// `tare run SUITE --filter=^NAME$` at `min_time`: the row of tare/1.
json run_row(const std::string& suite, const std::string& name, const std::string& min_time) {
    const fs::path out = fs::temp_directory_path() / ("tare_gbw_run_" + std::to_string(::getpid()) + ".json");
    auto run = run_process({tare_cmd, "run", suite, "--filter=^" + name + "$", "--min-time=" + min_time,
                            "--json=" + out.string()});
    EXPECT_EQ(run.exit_code, 0) << run.err << run.out;
    std::ifstream in(out);
    json doc = in ? json::parse(in) : json();
    fs::remove(out);
    return doc.is_null() ? json() : doc.at("benchmarks").at(0);
}

// A slow row's samples are warm iterations, as Google Benchmark's own run's are: every run's
// first iteration faults in the 4096 pages its setup mapped, and a sample that was one run had
// that first iteration in it, about 4096 faults an iteration and a fresh_memory warning for a
// loop that allocates nothing. The calibration is warm too, so a sample holds many iterations
// (some 1,000 of 41 us in the optimised build). Where the run had a processor for only part of
// its time, one warm iteration has taken as long as a sample: 3 samples of 1 under ThreadSanitizer,
// and 10 samples of 1 in an optimised build beside other tests, on a processor 7 % of the time,
// which the row's `contended` warning said. So that count is checked without a sanitizer and when
// the row ran uncontended; the faults and the warning are checked in every build.
TEST(gbench_worker, a_slow_rows_samples_are_warm_iterations) {
    const json row = run_row(test::suite(TARE_GBENCH_WARM), "BM_fresh_pages", "0.1");
    ASSERT_TRUE(row.is_object());
    ASSERT_TRUE(row.at("error").is_null()) << row.dump();
    const auto samples = row.at("samples_ns").size();
    ASSERT_GT(samples, 0U);
    bool contended = false;
    for (const json& w : row.at("warnings")) {
        contended = contended || w.at("kind") == "contended";
    }
    if (TARE_SANITIZED == 0 && !contended) {
        EXPECT_GT(row.at("iterations").get<double>() / static_cast<double>(samples), 1.0) << row.dump();
    }
    if (row.at("page_faults_per_iter").is_number()) {
        EXPECT_LT(row.at("page_faults_per_iter").get<double>(), 4096 * 0.05) << row.dump();
    }
    for (const json& w : row.at("warnings")) {
        EXPECT_NE(w.at("kind"), "fresh_memory") << row.dump();
    }
}

// A body whose setup takes 20 ms around a loop of some 50 us: every sample costs two runs of
// setup, so tare budgets each sample's wall time, not its loop's, and stops at its minimum of
// samples (10) rather than take a hundred 1 ms samples at 40 ms apiece (docs/compare.md,
// "Budget"). Counted, not timed: a loaded machine only makes the samples costlier, and fewer.
TEST(gbench_worker, a_slow_setup_is_budgeted_by_wall_time) {
    const json row = run_row(test::suite(TARE_GBENCH_WARM), "BM_slow_setup", "0.1");
    ASSERT_TRUE(row.is_object());
    EXPECT_LE(row.at("samples_ns").size(), 12U) << row.dump();
    auto c = compare_suite(test::suite(TARE_GBENCH_WARM),
                           {"--rounds=2", "--min-time=0.1", "--filter=^BM_slow_setup$"});
    ASSERT_EQ(c.run.exit_code, 0) << c.run.err << c.run.out;
    const json& side = row_named(c.doc, "BM_slow_setup").at("base");
    EXPECT_LE(side.at("samples").get<int>(), 2 * 2) << side.dump();  // one block a round: 2 samples
}

// The same body through tare compare: only the first round calibrates and judges retained growth
// (two runs more, with accounting on), and a later round's worker pays one warm-up run and one
// block of two samples, two runs each: 5 calls of the function, setup and all (docs/compare.md,
// "Budget"); 7 when every round judged retained growth. Counted, not timed: the body logs each call with its
// process and the iterations Google Benchmark runs. The median over the later rounds'
// processes, because a pair whose run of 1 was preempted past the longer run is run again (two
// more calls), rarely; a calibration every round costs two calls more in every process.
TEST(gbench_worker, a_slow_setup_is_calibrated_in_the_first_round_only) {
    const fs::path calls = fs::temp_directory_path() / ("tare_gbw_calls_" + std::to_string(::getpid()));
    fs::remove(calls);
    const int rounds = 5;
    auto c =
        compare_suite(test::suite(TARE_GBENCH_WARM),
                      {"--rounds=" + std::to_string(rounds), "--min-time=0.1", "--filter=^BM_slow_setup$"},
                      {"TARE_TEST_CALLS=" + calls.string()});
    ASSERT_EQ(c.run.exit_code, 0) << c.run.err << c.run.out;
    std::vector<long> pids;                 // in the order of their first call
    std::vector<std::vector<long>> counts;  // per process, the iterations of each call
    std::ifstream in(calls);
    for (long pid = 0, n = 0; in >> pid >> n;) {
        auto it = std::find(pids.begin(), pids.end(), pid);
        if (it == pids.end()) {
            pids.push_back(pid);
            counts.emplace_back();
            it = pids.end() - 1;
        }
        counts[static_cast<std::size_t>(it - pids.begin())].push_back(n);
    }
    fs::remove(calls);
    // Two processes a round (each side's fresh worker), the first round's two first.
    ASSERT_EQ(pids.size(), static_cast<std::size_t>(2 * rounds));
    std::vector<std::size_t> later;
    for (std::size_t p = 2; p < counts.size(); ++p) {
        later.push_back(counts[p].size());
    }
    std::sort(later.begin(), later.end());
    std::ostringstream seen;
    for (const auto& process : counts) {
        seen << "[";
        for (long n : process) {
            seen << " " << n;
        }
        seen << " ]";
    }
    const std::size_t bound = 5;
    EXPECT_LE(later[later.size() / 2], bound) << "calls per process, by round: " << seen.str();
    EXPECT_EQ(row_named(c.doc, "BM_slow_setup").at("base").at("round_ns").size(),
              static_cast<std::size_t>(rounds));  // every round ran: none was dropped to save setups
}

// Retained growth is judged in the first round only, each side's: a round after it (run_sized)
// skips the two runs that judge it. Through tare compare a loop that keeps 64 bytes an iteration
// is still warned on both sides, and state each run refills (a reused buffer, a bounded cache)
// still is not: a later round that judged from its samples alone would call those growth.
TEST(gbench_worker, retained_growth_is_judged_once_a_side_and_still_found) {
    if (!exact_counts) {
        GTEST_SKIP() << "no exact allocation counts in this build";
    }
    auto c = compare_suite(test::suite(TARE_GBENCH_RETAINED), {"--rounds=3", "--min-time=0.2"});
    ASSERT_EQ(c.run.exit_code, 0) << c.run.err << c.run.out;
    const auto warned = [&](const std::string& name, const char* side) {
        for (const json& w : row_named(c.doc, name).at(side).at("warnings")) {
            if (w.at("kind") == "retained_growth") {
                return true;
            }
        }
        return false;
    };
    for (const char* side : {"base", "head"}) {
        EXPECT_TRUE(warned("BM_never_cleared", side)) << row_named(c.doc, "BM_never_cleared").dump();
        EXPECT_FALSE(warned("BM_reused_buffer", side)) << row_named(c.doc, "BM_reused_buffer").dump();
        EXPECT_FALSE(warned("BM_bounded_cache", side)) << row_named(c.doc, "BM_bounded_cache").dump();
    }
}

}  // namespace
}  // namespace tare
