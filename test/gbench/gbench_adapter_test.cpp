// tare::gbench end to end: real Google Benchmark executables built against the system's
// libbenchmark, their own JSON, and `tare run` on them.
//
// The constant Google Benchmark 1.7.1 adds, measured by these tests: its memory run of
// min(16, iterations) iterations holds one allocation of its own (the run's ThreadManager) and,
// for an instance with arguments, one more (State's copy of the argument vector, 8 B each).
// So BM_allocs/k reads exactly k + 2/16 allocs_per_iter, and a no-argument benchmark k + 1/16.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "command.hpp"
#include "gbench/suites.hpp"
#include "integration/heap.hpp"
#include "integration/run_process.hpp"
#include "integration/scratch.hpp"

namespace tare {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::run_process;

constexpr bool sanitized = TARE_SANITIZED != 0;

const std::string alloc_bench = test::suite(TARE_GBENCH_ALLOC_COUNTS);

using test::scratch;

std::map<std::string, json> rows_by_name(const std::string& gb_json) {
    std::map<std::string, json> rows;
    const json doc = json::parse(gb_json);  // named: a range-for over a temporary's member dangles
    for (const json& row : doc.at("benchmarks")) {
        rows[row.at("name").get<std::string>()] = row;
    }
    return rows;
}

TEST(gbench_adapter, own_json_has_k_plus_the_harness_constant) {
    // The region hooks make the memory run redundant; TARE_GBENCH_MEMORY_RUN=1 keeps it.
    auto run = run_process({"/usr/bin/env", "TARE_GBENCH_MEMORY_RUN=1", alloc_bench,
                            "--benchmark_format=json", "--benchmark_min_time=0.02"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    auto rows = rows_by_name(run.out);
    ASSERT_EQ(rows.count("BM_allocs/0") + rows.count("BM_allocs/1") + rows.count("BM_allocs/3"), 3U);
    if (!accounting_expected) {
        // No interposer (ASan builds): the adapter registers nothing rather than report zeros.
        EXPECT_FALSE(rows["BM_allocs/1"].contains("allocs_per_iter"));
        return;
    }
    ASSERT_TRUE(rows["BM_allocs/1"].contains("allocs_per_iter")) << "tare::gbench did not register";
    if (!exact_counts) {
        GTEST_SKIP() << "sanitizer build: allocation counts are not exact";
    }
    const std::int64_t harness_bytes = rows["BM_allocs/0"].at("total_allocated_bytes").get<std::int64_t>();
    // The peak is in usable bytes (integration/heap.hpp): the harness's blocks as they hold, and
    // the body's one 64-byte block on top.
    const double harness_held = rows["BM_allocs/0"].at("max_bytes_used").get<double>();
    EXPECT_GE(harness_held, static_cast<double>(harness_bytes));
    for (int k : {0, 1, 3}) {
        const json& row = rows["BM_allocs/" + std::to_string(k)];
        ASSERT_GE(row.at("iterations").get<std::int64_t>(), 16);
        SCOPED_TRACE("k = " + std::to_string(k));
        // Two harness allocations per 16-iteration memory run: exact in binary floating point.
        EXPECT_EQ(row.at("allocs_per_iter").get<double>(), k + 2.0 / 16.0);
        EXPECT_EQ(row.at("total_allocated_bytes").get<std::int64_t>(), 16 * 64 * k + harness_bytes);
        test::expect_blocks_of(row.at("max_bytes_used").get<double>() - harness_held, k > 0 ? 1 : 0, 64);
        EXPECT_EQ(row.at("net_heap_growth").get<std::int64_t>(), 0);
    }
    // Measured on Debian's 1.7.1 (amd64): a 400-byte ThreadManager and the 8-byte argument
    // vector. Another GB build may differ in size; the count above is what the docs promise.
    RecordProperty("gb_harness_bytes", std::to_string(harness_bytes));
    // No arguments: one harness allocation, and the 8 MiB reserve before the loop is in GB's
    // window too (the whole function runs again for the memory run).
    const json& retains = rows["BM_retains"];
    EXPECT_EQ(retains.at("allocs_per_iter").get<double>(), (16.0 + 1.0 + 1.0) / 16.0);
    EXPECT_EQ(retains.at("total_allocated_bytes").get<std::int64_t>(),
              (std::int64_t{8} << 20) + 16 * 64 + (harness_bytes - 8));
}

// The region hooks measure the timed region alone, in GB's own output: setup, pauses and the
// fixture excluded, the same at 1, 4 and thousands of iterations (the memory run's window read
// 63.6 and 1.0625 allocs/iter for a body like BM_setup_and_pause).
TEST(gbench_adapter, the_region_hooks_count_the_timed_region_exactly) {
    // 0.1 s a benchmark runs the cheap bodies through millions of iterations, the paused and the
    // threaded ones through about a hundred thousand: as many as a per-iteration error needs.
    for (const char* min_time : {"0.01", "0.1"}) {
        SCOPED_TRACE(min_time);
        auto run = run_process({test::suite(TARE_GBENCH_REGION), "--benchmark_format=json",
                                std::string("--benchmark_min_time=") + min_time});
        ASSERT_EQ(run.exit_code, 0) << run.err;
        auto rows = rows_by_name(run.out);
        if (!accounting_expected) {
            // Without the interposer the hooks stand aside rather than report zeros.
            EXPECT_FALSE(rows["BM_setup_and_pause"].contains("tare_allocs_per_iter"));
            return;
        }
        ASSERT_TRUE(rows["BM_setup_and_pause"].contains("tare_allocs_per_iter")) << "no region hooks";
        if (!exact_counts) {
            GTEST_SKIP() << "sanitizer build: allocation counts are not exact";
        }
        // The live heap is in the allocator's usable bytes (integration/heap.hpp): the peak is
        // `peak_blocks` blocks of `peak_size` bytes, what is retained `retained` such blocks.
        const auto expect = [&](const std::string& name, double allocs, double bytes, double retained,
                                double peak_blocks, std::size_t peak_size) {
            ASSERT_TRUE(rows.count(name)) << name;
            const json& row = rows[name];
            ASSERT_TRUE(row.contains("tare_allocs_per_iter")) << name << ": " << row.dump();
            EXPECT_EQ(row.at("tare_allocs_per_iter").get<double>(), allocs) << name;
            EXPECT_EQ(row.at("tare_bytes_per_iter").get<double>(), bytes) << name;
            test::expect_blocks_of(row.at("tare_retained_per_iter").get<double>(), retained, peak_size, name);
            test::expect_blocks_of(row.at("tare_peak_live_bytes").get<double>(), peak_blocks, peak_size,
                                   name);
        };
        expect("BM_setup_and_pause", 1, 48, 0, 1, 48);
        expect("BM_setup_and_pause/iterations:1", 1, 48, 0, 1, 48);
        expect("BM_setup_and_pause/iterations:4", 1, 48, 0, 1, 48);
        expect("with_buffers/BM_fixture_loop", 0, 0, 0, 0, 0);
        expect("BM_keep_running", 1, 16, 0, 1, 16);
        expect("BM_keep_running_batch", 1, 16, 0, 1, 16);
        expect("BM_keeps/iterations:1000", 1, 32, 1, 1000, 32);
        // A pool's declared blocks are exactly what it declares: no allocator's usable size.
        ASSERT_TRUE(rows.count("BM_declared_pool"));
        const json& pool = rows["BM_declared_pool"];
        EXPECT_EQ(pool.at("tare_allocs_per_iter").get<double>(), 1);
        EXPECT_EQ(pool.at("tare_bytes_per_iter").get<double>(), 64);
        EXPECT_EQ(pool.at("tare_retained_per_iter").get<double>(), 0);
        EXPECT_EQ(pool.at("tare_peak_live_bytes").get<double>(), 64);
        const auto expect_threads = [&](const std::string& name) {
            ASSERT_TRUE(rows.count(name)) << name;
            const json& row = rows[name];
            ASSERT_TRUE(row.contains("tare_allocs_per_iter")) << name << ": " << row.dump();
            EXPECT_EQ(row.at("tare_allocs_per_iter").get<double>(), 10) << name;
            EXPECT_EQ(row.at("tare_bytes_per_iter").get<double>(), 160) << name;
            // Flat, to within a one-off block the C library made before the run and frees in it
            // (a thread's cached TLS): a few bytes over the whole run.
            EXPECT_LT(std::abs(row.at("tare_retained_per_iter").get<double>()), 1.0) << name;
            // One 16-byte block live per thread at most, and at least one of them at a time.
            EXPECT_GE(row.at("tare_peak_live_bytes").get<double>(), test::usable_of(16)) << name;
            EXPECT_LE(row.at("tare_peak_live_bytes").get<double>(),
                      (test::usable_of(16) + test::block_slack) * row.at("threads").get<double>())
                << name;
        };
        expect_threads("BM_threads/threads:4");
        expect_threads("BM_threads/iterations:7/threads:2");
        EXPECT_EQ(rows["BM_threads/iterations:7/threads:2"].at("iterations").get<double>(), 14);
        EXPECT_TRUE(rows["BM_thread_skips/threads:2"].at("error_occurred").get<bool>());
        EXPECT_TRUE(rows["BM_thread_breaks/threads:2"].at("error_occurred").get<bool>());
        const json& message = rows["BM_message_breaks/threads:2"];  // skipped from 1.8 on
        EXPECT_TRUE(message.value("skipped", false) || message.value("error_occurred", false)) << message;
        expect_threads("BM_threads/threads:3");  // after the runs a thread broke out of
        // With the hooks linked there is no memory run: no second run of each benchmark.
        for (const auto& [name, row] : rows)
            EXPECT_FALSE(row.contains("allocs_per_iter")) << name;
        EXPECT_TRUE(rows["BM_skipped"].at("error_occurred").get<bool>());
    }
}

// A benchmark that skips is the row Google Benchmark makes of it when tare samples the suite
// itself: from 1.8 on SkipWithMessage's row is kind `skipped` (SkipWithError's `gbench_error`),
// as the reader words Google Benchmark's own JSON; before 1.8 the suite's fallback is an error.
TEST(gbench_run, a_skipped_benchmark_is_the_row_google_benchmark_makes_of_it) {
    auto own = run_process({test::suite(TARE_GBENCH_REGION),
                            "--benchmark_filter=^BM_message_breaks/threads:2$", "--benchmark_format=json"});
    ASSERT_EQ(own.exit_code, 0) << own.err;
    const json gb_row = rows_by_name(own.out)["BM_message_breaks/threads:2"];
    const bool skipped = gb_row.value("skipped", false);
    EXPECT_TRUE(skipped || gb_row.value("error_occurred", false)) << gb_row;
    const fs::path out = scratch("skipped.json");
    auto run =
        run_process({tare_cmd, "run", test::suite(TARE_GBENCH_REGION),
                     "--filter=^BM_message_breaks/threads:2$", "--min-time=0.01", "--json=" + out.string()});
    std::ifstream in(out);
    const json doc = json::parse(in);
    ASSERT_EQ(doc.at("benchmarks").size(), 1U) << run.out << run.err;
    const json& row = doc.at("benchmarks").at(0);
    ASSERT_TRUE(row.contains("error")) << row;
    EXPECT_EQ(row.at("error").at("kind"), skipped ? "skipped" : "gbench_error") << row;
    EXPECT_EQ(row.at("error").at("message"), "thread 1 is done") << row;
}

// tare run reads the hooks' figures in preference to the memory run's, and says which measured.
TEST(gbench_run, reads_the_region_figures_and_says_which_measured) {
    const fs::path out = scratch("region.json");
    auto run = run_process(
        {tare_cmd, "run", test::suite(TARE_GBENCH_REGION), "--min-time=0.01", "--json=" + out.string()});
    ASSERT_EQ(run.exit_code, 1) << run.err << run.out;  // BM_skipped's error
    std::ifstream in(out);
    const json doc = json::parse(in);
    if (!exact_counts)
        return;
    EXPECT_EQ(doc.at("context").at("gbench_memory"), "region");
    EXPECT_NE(run.out.find("note: memory figures are the timed region's alone"), std::string::npos)
        << run.out;
    std::map<std::string, json> rows;
    for (const json& b : doc.at("benchmarks"))
        rows[b.at("name").get<std::string>()] = b;
    EXPECT_EQ(rows["BM_setup_and_pause/iterations:1"].at("allocs_per_iter").get<double>(), 1.0);
    EXPECT_EQ(rows["BM_setup_and_pause/iterations:1"].at("bytes_per_iter").get<double>(), 48.0);
    EXPECT_EQ(rows["with_buffers/BM_fixture_loop"].at("allocs_per_iter").get<double>(), 0.0);
    test::expect_blocks_of(rows["BM_keeps/iterations:1000"].at("retained_bytes_per_iter").get<double>(), 1,
                           32);
    test::expect_blocks_of(rows["BM_keeps/iterations:1000"].at("peak_live_bytes").get<double>(), 1000, 32);
    EXPECT_EQ(rows["BM_threads/threads:4"].at("allocs_per_iter").get<double>(), 10.0);
    // tare's memory warnings fire for Google Benchmark rows too, and only where they should.
    const auto kinds_of = [](const json& row) {
        std::set<std::string> kinds;
        for (const json& w : row.at("warnings"))
            kinds.insert(w.at("kind").get<std::string>());
        return kinds;
    };
    for (const auto& [name, row] : rows) {
        EXPECT_FALSE(row.at("counters").contains("tare_allocs_per_iter")) << name;
        const std::set<std::string> kinds = kinds_of(row);
        EXPECT_EQ(kinds.count("retained_growth"), name == "BM_keeps/iterations:1000" ? 1U : 0U) << name;
        EXPECT_EQ(kinds.count("fresh_memory"), name == "BM_fresh_pages/iterations:50" ? 1U : 0U) << name;
        EXPECT_EQ(kinds.count("gbench_memory_run"), 0U) << name;
    }
    EXPECT_NE(run.out.find("live heap grows by " + std::to_string(static_cast<int>(test::usable_of(32))) +
                           " B per iteration"),
              std::string::npos)
        << run.out;
}

// A suite linked with the tare_gbench archive by hand, without the target's link options, has
// no region hooks: the memory run measures, and tare says so.
TEST(gbench_adapter, a_suite_without_the_link_options_keeps_the_memory_run) {
    auto run = run_process(
        {test::suite(TARE_GBENCH_UNWRAPPED), "--benchmark_format=json", "--benchmark_min_time=0.01"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    auto rows = rows_by_name(run.out);
    if (!accounting_expected) {
        EXPECT_FALSE(rows["BM_allocs/1"].contains("allocs_per_iter"));
        return;
    }
    EXPECT_FALSE(rows["BM_allocs/1"].contains("tare_allocs_per_iter"));
    ASSERT_TRUE(rows["BM_allocs/1"].contains("allocs_per_iter")) << "no memory run";
    if (exact_counts) {
        EXPECT_EQ(rows["BM_allocs/1"].at("allocs_per_iter").get<double>(), 1 + 2.0 / 16.0);
    }
    const fs::path out = scratch("unwrapped.json");
    auto tare_run = run_process(
        {tare_cmd, "run", test::suite(TARE_GBENCH_UNWRAPPED), "--min-time=0.01", "--json=" + out.string()});
    ASSERT_EQ(tare_run.exit_code, 0) << tare_run.err << tare_run.out;
    std::ifstream in(out);
    EXPECT_EQ(json::parse(in).at("context").at("gbench_memory"), "memory_run");
}

// A Google Benchmark whose library lacks a member of State that the adapter wraps (a release it
// was not tested with; here the wrap of PauseTiming is left out, which the check cannot tell
// apart) stops the suite before it runs anything, with the reason, rather than give figures that
// the missing hook would make wrong.
TEST(gbench_adapter, a_missing_wrapped_member_stops_the_suite_at_start) {
    auto run = run_process(
        {test::suite(TARE_GBENCH_MISSING_MEMBER), "--benchmark_format=json", "--benchmark_min_time=0.01"});
    EXPECT_EQ(run.exit_code, 2) << run.err;
    EXPECT_NE(run.err.find("lacks what tare::gbench wraps: benchmark::State::PauseTiming()"),
              std::string::npos)
        << run.err;
    EXPECT_NE(run.err.find("tested with Google Benchmark 1.7.1 and 1.9.1"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("Google Benchmark (1."), std::string::npos) << run.err;  // its release
    EXPECT_EQ(run.out.find("BM_allocs"), std::string::npos) << run.out;
}

// The suites these tests run are linked as they say: with the shared libbenchmark when built
// beside the tests, with a static one when TARE_GBENCH_SUITES names the static build.
TEST(gbench_adapter, the_suites_link_the_libbenchmark_of_their_build) {
    const bool static_build = test::static_suites_dir() != nullptr;
    for (const std::string& suite :
         {test::suite(TARE_GBENCH_REGION), test::suite(TARE_GBENCH_WORKER_SUITE)}) {
        auto ldd = run_process({"/usr/bin/ldd", suite});
        ASSERT_EQ(ldd.exit_code, 0) << ldd.err;
        EXPECT_EQ(ldd.out.find("libbenchmark") == std::string::npos, static_build) << suite << ":\n"
                                                                                   << ldd.out;
    }
}

TEST(gbench_adapter, without_the_adapter_gb_writes_no_memory_fields) {
    auto run = run_process({test::suite(TARE_GBENCH_ALLOC_COUNTS_PLAIN), "--benchmark_format=json",
                            "--benchmark_min_time=0.01"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out.find("allocs_per_iter"), std::string::npos);
}

// A suite on Google Benchmark's own main (benchmark::benchmark_main) links tare::gbench_main in
// its place, and gets the timed region's figures as a suite with BENCHMARK_MAIN() does.
TEST(gbench_adapter, a_suite_on_google_benchmarks_main_links_tare_gbench_main) {
    auto run = run_process(
        {test::suite(TARE_GBENCH_MAIN_LINKED), "--benchmark_format=json", "--benchmark_min_time=0.01"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    auto rows = rows_by_name(run.out);
    ASSERT_EQ(rows.count("BM_nothing") + rows.count("BM_one_block"), 2U) << run.out;
    if (!accounting_expected) {
        EXPECT_FALSE(rows["BM_one_block"].contains("tare_allocs_per_iter"));
        return;
    }
    ASSERT_TRUE(rows["BM_one_block"].contains("tare_allocs_per_iter")) << "no region hooks";
    if (!exact_counts) {
        GTEST_SKIP() << "sanitizer build: allocation counts are not exact";
    }
    EXPECT_EQ(rows["BM_one_block"].at("tare_allocs_per_iter").get<double>(), 1.0);
    EXPECT_EQ(rows["BM_one_block"].at("tare_bytes_per_iter").get<double>(), 64.0);
    EXPECT_EQ(rows["BM_nothing"].at("tare_allocs_per_iter").get<double>(), 0.0);
}

// Parses `text` with Python's json module refusing NaN and Infinity (its default accepts them),
// and with Node's JSON.parse where Node is installed: the parsers CI services ingest files with.
void expect_strict_json(const std::string& text, const std::string& what) {
    const fs::path file = scratch("strict.json");
    std::ofstream(file) << text;
    const std::string python =
        "import json, sys\n"
        "def refuse(c): raise ValueError('not JSON: ' + c)\n"
        "json.load(open(sys.argv[1]), parse_constant=refuse)\n";
    auto py = run_process({"/usr/bin/env", "python3", "-c", python, file.string()});
    EXPECT_EQ(py.exit_code, 0) << what << ": Python's strict parser: " << py.err;
    if (run_process({"/bin/sh", "-c", "command -v node"}).exit_code == 0) {
        auto node =
            run_process({"/usr/bin/env", "node", "-e",
                         "JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'))", file.string()});
        EXPECT_EQ(node.exit_code, 0) << what << ": Node's JSON.parse: " << node.err;
    }
}

// Repetitions add aggregate rows; the `_cv` row of a counter that is 0 in every repetition was a
// bare NaN (0 / 0) in Google Benchmark's JSON, which strict parsers refuse. With tare::gbench it
// is 0, and the aggregates keep the exact figures.
TEST(gbench_adapter, repetitions_keep_the_json_valid_and_exact) {
    for (const char* aggregates_only : {"false", "true"}) {
        SCOPED_TRACE(std::string("aggregates only: ") + aggregates_only);
        for (const std::string& suite : {alloc_bench, test::suite(TARE_GBENCH_MAIN_LINKED)}) {
            auto run = run_process({suite, "--benchmark_format=json", "--benchmark_min_time=0.01",
                                    "--benchmark_repetitions=3",
                                    std::string("--benchmark_report_aggregates_only=") + aggregates_only});
            ASSERT_EQ(run.exit_code, 0) << run.err;
            expect_strict_json(run.out, suite);
            std::map<std::string, json> rows;
            ASSERT_NO_THROW(rows = rows_by_name(run.out)) << run.out;
            if (!exact_counts) {
                continue;
            }
            if (suite == alloc_bench) {
                EXPECT_EQ(rows["BM_allocs/0_cv"].at("tare_allocs_per_iter").get<double>(), 0.0);
                EXPECT_EQ(rows["BM_allocs/3_mean"].at("tare_allocs_per_iter").get<double>(), 3.0);
                EXPECT_EQ(rows["BM_allocs/3_cv"].at("tare_allocs_per_iter").get<double>(), 0.0);
            } else {
                EXPECT_EQ(rows["BM_nothing_cv"].at("tare_bytes_per_iter").get<double>(), 0.0);
                EXPECT_EQ(rows["BM_one_block_mean"].at("tare_bytes_per_iter").get<double>(), 64.0);
            }
        }
    }
}

TEST(gbench_adapter, tare_and_gbench_macros_coexist_in_one_translation_unit) {
    auto run = run_process({test::suite(TARE_GBENCH_COEXIST), "--benchmark_list_tests=true"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, "BM_gbench_side\n");
}

// `tare run` of two Google Benchmark suites `> log 2>&1`, as CI keeps it: each suite's progress
// lines come whole, the second suite's after the first suite's table, none among a table's rows.
TEST(gbench_run, a_joined_log_keeps_progress_out_of_the_tables) {
    const std::string fixture = test::suite(TARE_GBENCH_FIXTURE);
    auto run = test::run_logged(
        {tare_cmd, "run", alloc_bench, fixture, "--filter=BM_allocs|BM_linear", "--min-time=0.01"},
        "gbench_run.log");
    ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.out;
    EXPECT_EQ(test::joined_log_faults(run.out), std::vector<std::string>{}) << run.out;
    const auto first_table = run.out.find("\nBM_allocs/3 ");
    const auto second_progress = run.out.find("BM_linear/64 done in ");
    const auto second_table = run.out.find("\nBM_linear/64 ");
    ASSERT_NE(first_table, std::string::npos) << run.out;
    ASSERT_NE(second_table, std::string::npos) << run.out;
    EXPECT_LT(run.out.find("BM_allocs/3 done in "), first_table) << run.out;
    EXPECT_LT(first_table, second_progress) << run.out;
    EXPECT_LT(second_progress, second_table) << run.out;
}

TEST(gbench_run, prints_the_figures_and_what_they_include) {
    const fs::path out = scratch("alloc.json");
    auto run = run_process(
        {tare_cmd, "run", alloc_bench, "--filter=BM_allocs", "--min-time=0.02", "--json=" + out.string()});
    ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
    EXPECT_NE(run.out.find("BM_allocs/3"), std::string::npos) << run.out;
    EXPECT_EQ(run.out.find("BM_retains"), std::string::npos) << "--filter was not passed on";
    std::ifstream in(out);
    const json doc = json::parse(in);
    EXPECT_EQ(doc.at("schema"), "tare/1");
    ASSERT_EQ(doc.at("benchmarks").size(), 3U);
    if (!accounting_expected) {
        EXPECT_NE(run.out.find("note: no memory figures"), std::string::npos) << run.out;
        return;
    }
    EXPECT_NE(run.out.find("allocs/iter"), std::string::npos);
    if (exact_counts) {
        // The region hooks: the loop's own k, not the memory run's k + 2/16.
        EXPECT_NE(run.out.find("note: memory figures are the timed region's alone"), std::string::npos)
            << run.out;
        for (const json& b : doc.at("benchmarks")) {
            const std::string name = b.at("name");
            const double k = std::stod(name.substr(name.find('/') + 1));
            EXPECT_EQ(b.at("allocs_per_iter").get<double>(), k) << name;
            EXPECT_EQ(b.at("retained_bytes_per_iter").get<double>(), 0.0) << name;
        }
    }
}

TEST(gbench_run, a_suite_without_the_adapter_says_so) {
    auto run = run_process({tare_cmd, "run", test::suite(TARE_GBENCH_ALLOC_COUNTS_PLAIN),
                            "--filter=BM_allocs/1$", "--min-time=0.01"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.out.find("BM_allocs/1"), std::string::npos);
    EXPECT_NE(run.out.find("note: no memory figures: link tare::gbench"), std::string::npos) << run.out;
}

// tare run samples a suite linked with tare::gbench through its worker mode, as it samples its
// own benchmarks: many samples, an interval, progress in a log. Before, one Google Benchmark run
// was one sample, with no interval and no noise rule.
TEST(gbench_run, a_suite_with_the_adapter_is_sampled_by_tare) {
    const fs::path json_path = scratch("sampled.json");
    auto run = run_process({tare_cmd, "run", test::suite(TARE_GBENCH_RETAINED), "--filter=^BM_reused_buffer$",
                            "--min-time=0.1", "--json=" + json_path.string()});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.err.find("[1/1] BM_reused_buffer done in"), std::string::npos) << run.err;
    EXPECT_EQ(run.out.find("the samples are Google Benchmark's repetitions"), std::string::npos) << run.out;
    const json doc = json::parse(std::ifstream(json_path));
    const json& row = doc.at("benchmarks").at(0);
    EXPECT_GE(row.at("samples_ns").size(), 10U) << row.dump();
    EXPECT_TRUE(row.at("time_ns").at("ci_low").is_number()) << row.dump();
    EXPECT_TRUE(doc.at("context").at("clock_overhead_ns").is_null());
}

// The label a benchmark sets (State::SetLabel) survives the worker's samples into tare/1 and
// the table, where Google Benchmark shows it too.
TEST(gbench_run, a_sampled_rows_label_is_kept_and_shown) {
    const fs::path json_path = scratch("labelled.json");
    auto run = run_process({tare_cmd, "run", test::suite(TARE_GBENCH_FIXTURE), "--filter=^BM_microseconds$",
                            "--min-time=0.05", "--json=" + json_path.string()});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.out.find("label"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("sum of 256"), std::string::npos) << run.out;
    const json doc = json::parse(std::ifstream(json_path));
    EXPECT_EQ(doc.at("benchmarks").at(0).at("label"), "sum of 256") << doc.dump();
}

// A suite without the worker mode keeps Google Benchmark's own run, and says so.
TEST(gbench_run, a_suite_without_the_adapter_keeps_its_repetitions_and_says_so) {
    auto run = run_process({tare_cmd, "run", test::suite(TARE_GBENCH_ALLOC_COUNTS_PLAIN),
                            "--filter=BM_allocs/1$", "--min-time=0.01"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.out.find("note: the samples are Google Benchmark's repetitions"), std::string::npos)
        << run.out;
}

// Each sample is a run of its own, which starts from the body's setup again. Before, what every
// run kept was added up, so a buffer the first iteration fills (and a bounded cache) read as
// memory the loop keeps; now runs of two lengths tell state a run refills from growth in every
// iteration, which is still found (the buffer cleared outside the loop).
TEST(gbench_run, memory_each_run_refills_is_not_growth_and_growth_in_every_iteration_is) {
    if (!exact_counts) {
        GTEST_SKIP() << "no exact allocation counts in this build";
    }
    const fs::path json_path = scratch("retained.json");
    auto run = run_process({tare_cmd, "run", test::suite(TARE_GBENCH_RETAINED), "--min-time=0.5",
                            "--json=" + json_path.string()});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const json doc = json::parse(std::ifstream(json_path));
    std::map<std::string, json> rows;
    for (const json& b : doc.at("benchmarks"))
        rows[b.at("name").get<std::string>()] = b;
    const auto warned = [&](const std::string& name) {
        for (const json& w : rows.at(name).at("warnings"))
            if (w.at("kind") == "retained_growth")
                return true;
        return false;
    };
    EXPECT_FALSE(warned("BM_reused_buffer")) << rows["BM_reused_buffer"].dump();
    EXPECT_LT(std::fabs(rows["BM_reused_buffer"].at("retained_bytes_per_iter").get<double>()), 1.0);
    EXPECT_FALSE(warned("BM_bounded_cache")) << rows["BM_bounded_cache"].dump();
    EXPECT_LT(std::fabs(rows["BM_bounded_cache"].at("retained_bytes_per_iter").get<double>()), 1.0);
    EXPECT_TRUE(warned("BM_never_cleared")) << rows["BM_never_cleared"].dump();
    // 64 bytes an iteration, in a vector whose capacity doubles: between 32 and 256 per iteration.
    EXPECT_GT(rows["BM_never_cleared"].at("retained_bytes_per_iter").get<double>(), 32.0);
    EXPECT_LT(rows["BM_never_cleared"].at("retained_bytes_per_iter").get<double>(), 256.0);
}

// A suite with tare::gbench whose selected rows all fail. Sampled through its worker, whose
// greeting says whether accounting is on: "accounting: off" with "link tare::gbench" was wrong for
// a suite that links it. Read from Google Benchmark's own file, which cannot say whether
// accounting was on: "unknown".
TEST(gbench_run, an_all_error_run_says_nothing_was_measured) {
    auto run = run_process({tare_cmd, "run", test::suite(TARE_GBENCH_REGION), "--filter=^BM_skipped$"});
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_NE(run.out.find("BM_skipped"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find(accounting_expected ? "accounting: on" : "accounting: off"), std::string::npos)
        << run.out;
    EXPECT_EQ(run.out.find("link tare::gbench"), std::string::npos) << run.out;

    auto file = run_process(
        {test::suite(TARE_GBENCH_REGION), "--benchmark_filter=^BM_skipped$", "--benchmark_format=json"});
    ASSERT_EQ(file.exit_code, 0) << file.err;
    const fs::path path = scratch("all_error_gb.json");
    std::ofstream(path) << file.out;
    auto read = run_process({tare_cmd, "run", path.string()});
    EXPECT_EQ(read.exit_code, 1) << read.err;
    EXPECT_NE(read.out.find("accounting: unknown (no benchmark ran to its end)"), std::string::npos)
        << read.out;
    EXPECT_EQ(read.out.find("accounting: off"), std::string::npos) << read.out;
}

TEST(gbench_run, an_error_row_exits_1_and_the_others_are_reported) {
    auto run = run_process({tare_cmd, "run", test::suite(TARE_GBENCH_FIXTURE),
                            "--filter=BM_error|BM_non_finite", "--min-time=0.01"});
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_NE(run.out.find("BM_non_finite"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("input \"missing\""), std::string::npos) << run.out;
}

TEST(gbench_run, reads_a_gbench_json_file) {
    auto run = run_process({tare_cmd, "run", std::string(TARE_GBENCH_DATA) + "/aggregates_only.json"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.out.find("BM_microseconds"), std::string::npos) << run.out;
}

TEST(gbench_run, malformed_gbench_json_names_line_and_column) {
    const fs::path bad = scratch("bad.json");
    {
        std::ofstream out(bad);
        out << "{\n  \"context\": {},\n  \"benchmarks\": [ { \"x\": NaN, \"y\": -Infinity, } ]\n}\n";
    }
    auto run = run_process({tare_cmd, "run", bad.string()});
    EXPECT_EQ(run.exit_code, 2);
    // The stray '}' after the trailing comma: line 3, column 47 of the original text.
    EXPECT_NE(run.err.find(bad.string() + ":3:47: malformed JSON"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace tare
