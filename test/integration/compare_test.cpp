// `tare compare` end to end on real executables and files: the verdict table, tare-compare/1,
// only-on-one-side lists, --fail-on-regression, and every error case of docs/cli.md (missing
// file 2, unreadable input 2 with line and column, an executable that is not a tare worker 3, a
// worker that crashes or hangs 3 with the others still compared).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "compare/worker_process.hpp"
#include "executables.hpp"
#include "os/layout.hpp"
#include "run_process.hpp"
#include "scratch.hpp"

namespace tare {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::run_process;

using test::scratch;

const json* compare_row_named(const json& doc, const std::string& name) {
    for (const auto& r : doc["rows"]) {
        if (r["name"] == name) {
            return &r;
        }
    }
    return nullptr;
}

TEST(compare, two_executables_give_verdicts_memory_and_one_side_lists) {
    fs::path out = scratch("cmp.json");
    // Six rounds of eight samples: a round's figure is the median of its sample pairs, so a
    // preempted pair or three on a loaded machine (ctest -j2, a sanitizer build beside it) cannot
    // turn a round; with three rounds of four, one round whose base ran 2.5x slow left the
    // threefold slowdown inside the interval (t on 2 degrees of freedom at the family's level).
    auto r = run_process({tare_cmd, "compare", compare_base, compare_head, "--rounds=6", "--min-time=0.15",
                          "--samples=8", "--json=" + out.string(), "--filter=spin|allocate|only_in_head"});
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
    // Standard error is not a terminal here, as in CI: a line per finished round shows life.
    EXPECT_NE(r.err.find("[1/6] round 1 (2 benchmarks) done in "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("[6/6] round 6 (2 benchmarks) done in "), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("\033["), std::string::npos) << "no terminal codes in a log";
    // Pinned by default: every worker of both sides on one CPU, and the header says which.
    EXPECT_NE(r.out.find("6 rounds of fresh processes on CPU "), std::string::npos) << r.out;
    json doc = read_json(out);
    EXPECT_EQ(doc["schema"], "tare-compare/1");
    EXPECT_EQ(doc["context"]["mode"], "rounds");
    EXPECT_EQ(doc["context"]["rounds"], 6);
    ASSERT_EQ(doc["context"]["cpus"].size(), 1U) << doc["context"].dump();
    ASSERT_EQ(doc["rows"].size(), 2U) << doc.dump(2);
    EXPECT_EQ(doc["only_in_head"], json::array({"only_in_head"}));
    EXPECT_EQ(doc["only_in_base"], json::array());
    EXPECT_EQ(doc["context"]["comparisons"], 2);

    // Three times the work: slower, by far more than this machine's noise.
    const json* spin = compare_row_named(doc, "spin");
    ASSERT_NE(spin, nullptr);
    EXPECT_EQ((*spin)["verdict"], "slower") << spin->dump(2);
    EXPECT_GT((*spin)["change_pct"]["ci_low"].get<double>(), 0);
    EXPECT_GT((*spin)["change_pct"]["mean"].get<double>(), 80);
    EXPECT_EQ((*spin)["base"]["round_ns"].size(), 6U);
    // At most 8 per round (--samples), in whole ABBA blocks, both sides alike. Fewer when a
    // round's time ran out: the workers share one CPU with whatever else runs there (a parallel
    // test), which can stretch a sample past its plan.
    const int samples = (*spin)["base"]["samples"].get<int>();
    EXPECT_LE(samples, 48);
    EXPECT_GE(samples, 12);
    EXPECT_EQ(samples % 2, 0);
    EXPECT_EQ((*spin)["head"]["samples"], samples);
    // Same iterations per sample on both sides, so the same total.
    EXPECT_EQ((*spin)["base"]["iterations"], (*spin)["head"]["iterations"]);

#if TARE_ACCOUNTING_EXPECTED
    const json* alloc = compare_row_named(doc, "allocate");
    ASSERT_NE(alloc, nullptr);
    EXPECT_EQ((*alloc)["base"]["allocs_per_iter"], 1.0);
    EXPECT_EQ((*alloc)["base"]["bytes_per_iter"], 64.0);
    EXPECT_EQ((*alloc)["head"]["allocs_per_iter"], 0.0);
    EXPECT_EQ((*alloc)["head"]["bytes_per_iter"], 0.0);
#endif
}

// `tare compare ... > log 2>&1`, as CI keeps it: a whole line per round, all of them before the
// table, none among its rows.
TEST(compare, a_joined_log_keeps_progress_out_of_the_table) {
    auto r = test::run_logged({tare_cmd, "compare", compare_base, compare_head, "--rounds=3", "--samples=4",
                               "--min-time=0.05", "--filter=spin|allocate"},
                              "compare.log");
    ASSERT_EQ(r.exit_code, 0) << r.out;
    EXPECT_EQ(test::joined_log_faults(r.out), std::vector<std::string>{}) << r.out;
    const auto last_round = r.out.find("[3/3] round 3 (2 benchmarks) done in ");
    const auto table = r.out.find("\nbenchmark ");
    ASSERT_NE(last_round, std::string::npos) << r.out;
    ASSERT_NE(table, std::string::npos) << r.out;
    EXPECT_LT(last_round, table) << r.out;
    // The check sees what it looks for: a round among the rows, a round run into a row.
    EXPECT_EQ(test::joined_log_faults("benchmark  x\n─────────  ─\n[1/2] round 1 done\nspin  1\n\n").size(),
              1U);
    EXPECT_EQ(test::joined_log_faults("spin  1[2/2] round 2 done\n").size(), 1U);
    EXPECT_TRUE(
        test::joined_log_faults("[1/2] round 1 done\n\nbenchmark  x\n─────────  ─\nspin  1\n").empty());
}

// A suite compared in shards on two runners, merged and judged as one family, then exported.
// Eight rounds of eight samples: with two, one slow round under a loaded machine (t on 1 degree
// of freedom, its quantile 25 at the family's level) can leave a 3x slowdown inside the
// interval, and with four rounds of four a round whose samples were preempted still did.
TEST(compare, shards_of_a_comparison_merge_into_one_judged_table) {
    std::vector<std::string> files;
    std::size_t rows = 0;
    for (const char* shard : {"1/2", "2/2"}) {
        const fs::path out = scratch(std::string("cshard") + shard[0] + ".json");
        auto r = run_process({tare_cmd, "compare", compare_base, compare_head,
                              std::string("--shard=") + shard, "--rounds=8", "--min-time=0.08", "--samples=8",
                              "--filter=spin|allocate", "--json=" + out.string()});
        ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
        rows += read_json(out)["rows"].size();
        files.push_back(out.string());
    }
    ASSERT_EQ(rows, 2U);
    const fs::path merged = scratch("cmerged.json");
    auto m = run_process({tare_cmd, "merge", files[0], files[1], "--json=" + merged.string(), "--md",
                          "--fail-on-regression=50"});
    EXPECT_EQ(m.exit_code, 1) << m.err << m.out;  // spin is three times slower
    EXPECT_NE(m.out.find("| `spin`"), std::string::npos) << m.out;
    const json doc = read_json(merged);
    EXPECT_EQ(doc["schema"], "tare-compare/1");
    ASSERT_EQ(doc["rows"].size(), 2U);
    EXPECT_EQ(doc["context"]["comparisons"], 2);
    const json* spin = compare_row_named(doc, "spin");
    ASSERT_NE(spin, nullptr);
    EXPECT_EQ((*spin)["verdict"], "slower");
    EXPECT_GT((*spin)["change_pct"]["log_se"].get<double>(), 0);

    auto bmf = run_process({tare_cmd, "export", merged.string(), "--format=bmf"});
    ASSERT_EQ(bmf.exit_code, 0) << bmf.err;
    const json exported = json::parse(bmf.out);
    EXPECT_EQ(exported["spin"]["latency"]["value"], (*spin)["head"]["time_ns"]["mean"]);
    EXPECT_EQ(exported["spin"]["latency-change"]["value"], (*spin)["change_pct"]["mean"]);
    auto based = run_process({tare_cmd, "export", merged.string(), "--format=gab", "--side=base"});
    ASSERT_EQ(based.exit_code, 0) << based.err;
    EXPECT_NE(based.out.find("spin (latency)"), std::string::npos) << based.out;

    // A results file among comparisons is refused before anything is written.
    const fs::path results = scratch("cresults.json");
    auto run = run_process(
        {tare_cmd, "run", compare_base, "--filter=^spin$", "--min-time=0.01", "--json=" + results.string()});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const fs::path none = scratch("cnone.json");
    auto mixed = run_process({tare_cmd, "merge", files[0], results.string(), "--json=" + none.string()});
    EXPECT_EQ(mixed.exit_code, 2);
    EXPECT_NE(mixed.err.find("is not a comparison"), std::string::npos) << mixed.err;
    EXPECT_FALSE(fs::exists(none));
    auto runs_only = run_process({tare_cmd, "merge", results.string(), results.string(),
                                  "--fail-on-regression", "--json=" + none.string()});
    EXPECT_EQ(runs_only.exit_code, 2);
    EXPECT_NE(runs_only.err.find("applies to comparisons"), std::string::npos) << runs_only.err;
}

TEST(compare, default_samples_come_in_equal_pairs_within_the_round_budget) {
    fs::path out = scratch("pairs.json");
    auto r = run_process({tare_cmd, "compare", compare_base, compare_head, "--rounds=2", "--min-time=0.1",
                          "--filter=^spin$", "--json=" + out.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
    const json doc = read_json(out);
    const json* spin = compare_row_named(doc, "spin");
    ASSERT_NE(spin, nullptr);
    // Up to 40 a side a round (the default), in whole A B B A blocks; the blocks stop once a
    // side has spent its share of --min-time, and every base sample has a head partner.
    const auto samples = (*spin)["base"]["samples"].get<std::size_t>();
    EXPECT_EQ((*spin)["head"]["samples"], samples);
    EXPECT_GE(samples, 4U);
    EXPECT_LE(samples, 80U);
    EXPECT_EQ(samples % 2, 0U);
    EXPECT_EQ((*spin)["change_pct"]["pairs"], 2);
}

TEST(compare, cpu_option_pins_or_not_and_rejects_what_it_cannot_use) {
    fs::path out = scratch("cpu.json");
    auto none = run_process({tare_cmd, "compare", compare_base, compare_head, "--rounds=2", "--min-time=0.05",
                             "--samples=2", "--filter=^spin$", "--cpu=none", "--json=" + out.string()});
    ASSERT_EQ(none.exit_code, 0) << none.err << none.out;
    EXPECT_NE(
        none.out.find("2 rounds of fresh processes, both sides of a round in one random address layout, "
                      "samples"),
        std::string::npos)
        << none.out;
    EXPECT_TRUE(read_json(out)["context"]["cpus"].is_null());

    auto bad = run_process({tare_cmd, "compare", compare_base, compare_head, "--cpu=banana"});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("--cpu=banana: expected auto, none or a list of CPUs"), std::string::npos)
        << bad.err;
    auto absent = run_process({tare_cmd, "compare", compare_base, compare_head, "--cpu=4000-4001"});
    EXPECT_EQ(absent.exit_code, 2);
    EXPECT_NE(absent.err.find("CPU 4000 is not one this process may use"), std::string::npos) << absent.err;
}

TEST(compare, layouts_are_matched_by_default_or_the_kernels_own) {
    fs::path out = scratch("layout.json");
    auto matched =
        run_process({tare_cmd, "compare", compare_base, compare_head, "--rounds=2", "--min-time=0.05",
                     "--samples=2", "--filter=^spin$", "--json=" + out.string()});
    ASSERT_EQ(matched.exit_code, 0) << matched.err << matched.out;
    EXPECT_NE(matched.out.find(", both sides of a round in one random address layout,"), std::string::npos)
        << matched.out;
    EXPECT_EQ(read_json(out)["context"]["layout"], "matched");

    auto kernel =
        run_process({tare_cmd, "compare", compare_base, compare_head, "--rounds=2", "--min-time=0.05",
                     "--samples=2", "--filter=^spin$", "--layout=kernel", "--json=" + out.string()});
    ASSERT_EQ(kernel.exit_code, 0) << kernel.err << kernel.out;
    EXPECT_EQ(kernel.out.find("address layout"), std::string::npos) << kernel.out;
    EXPECT_EQ(read_json(out)["context"]["layout"], "kernel");

    auto bad = run_process({tare_cmd, "compare", compare_base, compare_head, "--layout=fixed"});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("--layout"), std::string::npos) << bad.err;
}

// A line of /proc/PID/limits, e.g. "Max stack size  8388608  unlimited  bytes": the soft value.
std::string soft_limit(int pid, const std::string& what) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/limits");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(what, 0) == 0) {
            std::istringstream fields(line.substr(what.size()));
            std::string soft;
            fields >> soft;
            return soft;
        }
    }
    return "";
}

TEST(compare, a_worker_started_in_a_layout_gives_back_what_the_launch_changed) {
    compare::worker_process w(compare_base, 30, {}, 12345);
    ASSERT_FALSE(w.start().has_value());
    ASSERT_GT(w.pid(), 0);
    const std::string proc = "/proc/" + std::to_string(w.pid());
    // It did start through the loader, in the layout (the launch is not vacuous here)...
    EXPECT_EQ(fs::read_symlink(proc + "/exe"), fs::canonical(*os::program_interpreter(compare_base)));
    // ...and after its greeting it has this process's stack limit, not the launch's 128 MiB + k
    // pages, and starts its own children with the kernel's randomisation again.
    rlimit mine{};
    ASSERT_EQ(getrlimit(RLIMIT_STACK, &mine), 0);
    EXPECT_EQ(soft_limit(w.pid(), "Max stack size"),
              mine.rlim_cur == RLIM_INFINITY ? std::string("unlimited") : std::to_string(mine.rlim_cur));
    std::ifstream personality(proc + "/personality");
    std::string flags;
    personality >> flags;
    EXPECT_EQ(std::stoul(flags, nullptr, 16) & 0x0040000UL, 0UL) << flags;  // ADDR_NO_RANDOMIZE
    w.quit();
}

TEST(compare, fail_on_regression_exits_1_only_above_the_threshold) {
    // Enough rounds and samples that a loaded machine's preempted round cannot hide the slowdown
    // (see shards_of_a_comparison_merge_into_one_judged_table).
    auto strict = run_process({tare_cmd, "compare", compare_base, compare_head, "--rounds=6", "--samples=8",
                               "--min-time=0.05", "--filter=^spin$", "--fail-on-regression"});
    EXPECT_EQ(strict.exit_code, 1) << strict.err << strict.out;
    // The flag without a value before the positionals does not swallow one of them.
    auto first = run_process({tare_cmd, "compare", "--fail-on-regression", compare_base, compare_head,
                              "--rounds=6", "--samples=8", "--min-time=0.1", "--filter=^spin$"});
    EXPECT_EQ(first.exit_code, 1) << first.err << first.out;
    auto lenient = run_process({tare_cmd, "compare", compare_base, compare_head, "--rounds=2",
                                "--min-time=0.05", "--filter=^spin$", "--fail-on-regression=100000"});
    EXPECT_EQ(lenient.exit_code, 0) << lenient.err << lenient.out;
}

TEST(compare, markdown_table_is_ready_to_paste) {
    auto r = run_process({tare_cmd, "compare", compare_base, compare_base, "--rounds=2", "--min-time=0.05",
                          "--filter=^allocate$", "--md"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("| `allocate`"), std::string::npos) << r.out;
}

// Files of one process each: the head is three times slower, yet one process a side cannot
// show how much a fresh process differs, so time has no verdict (the row says why) and
// --fail-on-regression does not fail on it; memory is still compared.
TEST(compare, two_results_files_of_one_process_are_not_judged_on_time_and_say_so) {
    fs::path a = scratch("a.json");
    fs::path b = scratch("b.json");
    ASSERT_EQ(
        run_process({compare_base, "--filter=spin", "--min-time=0.05", "--json=" + a.string()}).exit_code, 0);
    ASSERT_EQ(
        run_process({compare_head, "--filter=spin|only_in_head", "--min-time=0.05", "--json=" + b.string()})
            .exit_code,
        0);
    fs::path out = scratch("files.json");
    auto r = run_process(
        {tare_cmd, "compare", a.string(), b.string(), "--json=" + out.string(), "--fail-on-regression"});
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("TIME NOT JUDGED"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("not judged"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--processes"), std::string::npos) << r.out;
    json doc = read_json(out);
    EXPECT_EQ(doc["context"]["mode"], "unpaired");
    ASSERT_EQ(doc["rows"].size(), 1U);
    const json& row = doc["rows"][0];
    EXPECT_EQ(row["verdict"], "no_change");
    // The change is reported, not judged; its size is not asserted: one process a side on a
    // loaded machine (a sanitizer leg) can hide even the head's threefold work.
    EXPECT_TRUE(row["change_pct"]["mean"].is_number()) << row.dump();
    EXPECT_TRUE(row["change_pct"]["ci_low"].is_null()) << row.dump();
    ASSERT_TRUE(row["not_judged"].is_string()) << row.dump();
    EXPECT_NE(row["not_judged"].get<std::string>().find("each hold one process"), std::string::npos);
#if TARE_ACCOUNTING_EXPECTED
    EXPECT_TRUE(row["base"]["allocs_per_iter"].is_number()) << row.dump();  // memory is still compared
#endif
    EXPECT_EQ(doc["only_in_head"], json::array({"only_in_head"}));
}

// `tare run --processes=N` records every process; two such files compare with the process as
// the unit: a verdict, and --fail-on-regression fails on the three times slower head.
TEST(compare, files_recorded_in_several_processes_are_judged_on_them) {
    fs::path a = scratch("a3.json");
    fs::path b = scratch("b3.json");
    for (const auto& [exe, path] : {std::pair{compare_base, a}, std::pair{compare_head, b}}) {
        auto rec = run_process({tare_cmd, "run", exe, "--filter=^spin$", "--min-time=0.05", "--processes=3",
                                "--json=" + path.string()});
        ASSERT_EQ(rec.exit_code, 0) << rec.err << rec.out;
        EXPECT_NE(rec.out.find("3 fresh processes"), std::string::npos) << rec.out;
    }
    json recorded = read_json(a);
    EXPECT_EQ(recorded["context"]["processes"], 3);
    ASSERT_EQ(recorded["benchmarks"].size(), 1U);
    const json& processes = recorded["benchmarks"][0]["processes"];
    ASSERT_EQ(processes.size(), 3U);
    std::size_t samples = 0;
    for (const json& p : processes) {
        samples += p["samples"].get<std::size_t>();
        EXPECT_GT(p["median_ns"].get<double>(), 0);
    }
    EXPECT_EQ(samples, recorded["benchmarks"][0]["samples_ns"].size());

    fs::path out = scratch("files3.json");
    auto r = run_process(
        {tare_cmd, "compare", a.string(), b.string(), "--json=" + out.string(), "--fail-on-regression=10"});
    EXPECT_EQ(r.exit_code, 1) << r.err << r.out;
    EXPECT_NE(r.out.find("3 and 3 fresh processes"), std::string::npos) << r.out;
    json doc = read_json(out);
    EXPECT_EQ(doc["context"]["mode"], "processes");
    EXPECT_EQ(doc["context"]["base_processes"], 3);
    ASSERT_EQ(doc["rows"].size(), 1U);
    EXPECT_EQ(doc["rows"][0]["verdict"], "slower") << doc["rows"][0].dump();
    EXPECT_TRUE(doc["rows"][0]["not_judged"].is_null());
    EXPECT_EQ(doc["rows"][0]["base"]["round_ns"].size(), 3U);
}

// Two recordings of one executable, one as a build without the allocation interposer would
// write it: their contexts differ in accounting, so the time is not judged and a gate exits 2
// (docs/compare.md, "Mixed instrumentation").
TEST(compare, files_whose_accounting_differs_are_mixed_instrumentation) {
    fs::path a = scratch("acc.json");
    fs::path b = scratch("noacc.json");
    auto rec = run_process({tare_cmd, "run", compare_base, "--filter=^spin$", "--min-time=0.03",
                            "--processes=2", "--json=" + a.string()});
    ASSERT_EQ(rec.exit_code, 0) << rec.err << rec.out;
    json other = read_json(a);
    const bool accounting = other["context"]["accounting"];
    other["context"]["accounting"] = !accounting;
    if (accounting) {  // as the other build writes it: no accounting, no figures
        other["context"]["allocator"] = nullptr;
        for (json& bench : other["benchmarks"]) {
            for (const char* f :
                 {"allocs_per_iter", "bytes_per_iter", "peak_live_bytes", "retained_bytes_per_iter"})
                bench[f] = nullptr;
        }
    }
    std::ofstream(b) << other.dump();
    fs::path out = scratch("mixed.json");
    auto r = run_process(
        {tare_cmd, "compare", a.string(), b.string(), "--json=" + out.string(), "--fail-on-regression"});
    EXPECT_EQ(r.exit_code, 2) << r.err << r.out;
    EXPECT_NE(r.out.find("MIXED INSTRUMENTATION"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("--allow-mixed-instrumentation"), std::string::npos) << r.err;
    json doc = read_json(out);
    ASSERT_EQ(doc["context"]["mixed_instrumentation"].size(), 1U) << doc["context"].dump();
    EXPECT_EQ(doc["context"]["mixed_instrumentation"][0]["kind"], "accounting");
    ASSERT_EQ(doc["rows"].size(), 1U);
    EXPECT_EQ(doc["rows"][0]["verdict"], "no_change");
    EXPECT_TRUE(doc["rows"][0]["not_judged"].is_string()) << doc["rows"][0].dump();

    // The same recording on both sides is alike: judged as usual, nothing said.
    r = run_process({tare_cmd, "compare", a.string(), a.string(), "--fail-on-regression=100000"});
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_EQ(r.out.find("MIXED INSTRUMENTATION"), std::string::npos) << r.out;
}

// --processes is for executables: a results file cannot be run again.
TEST(compare, processes_of_a_results_file_are_refused) {
    fs::path a = scratch("one.json");
    ASSERT_EQ(
        run_process({compare_base, "--filter=^spin$", "--min-time=0.02", "--json=" + a.string()}).exit_code,
        0);
    auto r = run_process({tare_cmd, "run", a.string(), "--processes=2"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("--processes runs executables"), std::string::npos) << r.err;
}

TEST(compare, a_crashing_benchmark_is_reported_by_name_and_the_others_still_compare) {
    fs::path out = scratch("crash.json");
    auto r = run_process({"/usr/bin/env", "TARE_TEST_CRASH=spin", tare_cmd, "compare", compare_base,
                          compare_head, "--rounds=2", "--min-time=0.05", "--filter=^spin$|^allocate$",
                          "--json=" + out.string()});
    EXPECT_EQ(r.exit_code, 3) << r.err << r.out;
    EXPECT_NE(r.err.find("spin"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("SIGABRT"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("crashing on purpose"), std::string::npos) << r.err;  // its last words
    json doc = read_json(out);  // the results are still written
    const json* alloc = compare_row_named(doc, "allocate");
    ASSERT_NE(alloc, nullptr);
    EXPECT_TRUE((*alloc)["base"]["error"].is_null());
    EXPECT_EQ((*alloc)["base"]["round_ns"].size(), 2U);
    const json* spin = compare_row_named(doc, "spin");
    ASSERT_NE(spin, nullptr);
    EXPECT_EQ((*spin)["verdict"], "error");
    EXPECT_TRUE((*spin)["change_pct"].is_null());
}

TEST(compare, a_hanging_worker_is_stopped_at_the_timeout) {
    const auto start = std::chrono::steady_clock::now();
    auto r =
        run_process({"/usr/bin/env", "TARE_TEST_HANG=spin", tare_cmd, "compare", compare_base, compare_head,
                     "--rounds=2", "--min-time=0.05", "--filter=^spin$|^allocate$", "--timeout=1"});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.exit_code, 3) << r.err << r.out;
    EXPECT_NE(r.err.find("timeout"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("allocate"), std::string::npos) << r.out;
    EXPECT_LT(seconds, 30);  // one timeout, not one per round: a failed benchmark is not retried
}

TEST(compare, a_throwing_benchmark_is_an_error_row_not_a_failed_run) {
    auto r =
        run_process({"/usr/bin/env", "TARE_TEST_THROW=1", tare_cmd, "compare", compare_base, compare_head,
                     "--rounds=2", "--min-time=0.05", "--filter=^throws_in_setup$|^allocate$"});
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("setup failed on purpose"), std::string::npos) << r.out;
}

TEST(compare, missing_files_and_bad_input_exit_2) {
    auto missing = run_process({tare_cmd, "compare", "/nonexistent/base", compare_head});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("/nonexistent/base: no such file"), std::string::npos) << missing.err;

    fs::path bad = scratch("bad.json");
    std::ofstream(bad) << "{\n  \"schema\": \"tare/1\",\n  \"benchmarks\": [}\n";
    auto malformed = run_process({tare_cmd, "compare", bad.string(), bad.string()});
    EXPECT_EQ(malformed.exit_code, 2);
    EXPECT_NE(malformed.err.find(bad.string() + ":3:"), std::string::npos) << malformed.err;

    fs::path good = scratch("good.json");
    ASSERT_EQ(run_process({compare_base, "--filter=^spin$", "--min-time=0.02", "--json=" + good.string()})
                  .exit_code,
              0);
    auto mixed = run_process({tare_cmd, "compare", good.string(), compare_head});
    EXPECT_EQ(mixed.exit_code, 2);
    EXPECT_NE(mixed.err.find("two executables or two results files"), std::string::npos) << mixed.err;

    auto nothing =
        run_process({tare_cmd, "compare", compare_base, compare_head, "--filter=^no_such_benchmark$"});
    EXPECT_EQ(nothing.exit_code, 2);
    EXPECT_NE(nothing.err.find("no benchmark is on both sides"), std::string::npos) << nothing.err;

    auto bad_regex = run_process({tare_cmd, "compare", compare_base, compare_head, "--filter=("});
    EXPECT_EQ(bad_regex.exit_code, 2);
}

// A side is a results file by its content (or its name, or because it is not executable):
// whatever is wrong with one is unreadable input (2) with the reader's message.
TEST(compare, a_file_is_read_by_its_content_and_its_errors_exit_2) {
    fs::path good = scratch("good.json");
    ASSERT_EQ(run_process({compare_base, "--filter=^spin$", "--min-time=0.02", "--json=" + good.string()})
                  .exit_code,
              0);
    std::stringstream text;
    text << std::ifstream(good).rdbuf();
    fs::path bom = scratch("with_bom.out");
    std::ofstream(bom) << "\xEF\xBB\xBF" << text.str();
    auto read = run_process({tare_cmd, "compare", bom.string(), bom.string()});
    EXPECT_EQ(read.exit_code, 0) << read.err;
    EXPECT_NE(read.out.find("spin"), std::string::npos) << read.out;

    const struct {
        const char* name;
        std::string text;
        std::string message;  // after "error: FILE"
    } cases[] = {
        {"empty", "", ": empty file"},
        {"bom_then_junk", "\xEF\xBB\xBF{\n  \"schema\": ,\n}", ":2:13: malformed JSON: "},
        {"array", "[1,2]", ": not a results file (a JSON array"},
        {"not_a_program.txt", "hello\n", ":1:1: malformed JSON: "},
        {"nested", std::string(100000, '['), ":1:257: nested too deeply"},
    };
    for (const auto& c : cases) {
        const fs::path file = scratch(c.name);
        std::ofstream(file) << c.text;
        for (const auto& [b, h] :
             {std::pair{file.string(), good.string()}, std::pair{file.string(), compare_head}}) {
            auto r = run_process({tare_cmd, "compare", b, h});
            EXPECT_EQ(r.exit_code, 2) << c.name << " against " << h << ": " << r.err;
            EXPECT_EQ(r.err.find("error: " + file.string() + c.message), 0U) << c.name << ": " << r.err;
        }
    }
}

void write_script(const fs::path& path, const std::string& text) {
    std::ofstream(path) << text;
    fs::permissions(path, fs::perms::owner_all);
}

// What a worker says is bounded: a greeting without a line break was buffered whole and scanned
// again at every read (quadratic), and an announced result of 10^17 bytes was waited for and
// buffered. Each is a crash naming the bound, at once.
TEST(compare, a_worker_that_sends_too_much_is_stopped_and_named) {
    const fs::path endless = scratch("endless_greeting");
    write_script(endless, "#!/bin/sh\nhead -c 3000000 /dev/zero | tr '\\0' a >&4\nsleep 60\n");
    compare::worker_process greeting(endless.string(), 30);
    const auto started = std::chrono::steady_clock::now();
    auto failed = greeting.start();
    ASSERT_TRUE(failed);
    EXPECT_EQ(failed->kind, "crash");
    EXPECT_NE(
        failed->message.find("sent more than 1 MiB without a line break while tare waited for its greeting"),
        std::string::npos)
        << failed->message;
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 20);

    const fs::path huge = scratch("huge_result");
    write_script(huge,
                 "#!/bin/sh\necho 'tare-worker 1 accounting=0' >&4\nread cmd <&3\n"
                 "printf 'names 1\\nx\\n' >&4\nread cmd <&3\n"
                 "echo 'result 100000000000000000' >&4\nsleep 60\n");
    compare::worker_process result(huge.string(), 30);
    ASSERT_FALSE(result.start());
    auto names = result.list();
    ASSERT_TRUE(std::holds_alternative<std::vector<std::string>>(names));
    auto ran = result.run("x", 1e6, 1e6);
    ASSERT_TRUE(std::holds_alternative<compare::worker_failure>(ran));
    EXPECT_NE(std::get<compare::worker_failure>(ran).message.find(
                  "announced a result of 100000000000000000 bytes, more than the 64 MiB a result may have"),
              std::string::npos)
        << std::get<compare::worker_failure>(ran).message;

    const fs::path many = scratch("many_names");
    write_script(many,
                 "#!/bin/sh\necho 'tare-worker 1 accounting=0' >&4\nread cmd <&3\n"
                 "echo 'names 100000000000000000' >&4\nwhile :; do echo x; done >&4\n");
    compare::worker_process list(many.string(), 30);
    ASSERT_FALSE(list.start());
    auto listed = list.list();
    ASSERT_TRUE(std::holds_alternative<compare::worker_failure>(listed));
    EXPECT_NE(
        std::get<compare::worker_failure>(listed).message.find("announced 100000000000000000 benchmarks"),
        std::string::npos);

    // Within the count, names of nearly 1 MiB each: the list is bounded in bytes too (before, all
    // were kept, up to a terabyte for a million).
    const fs::path long_names = scratch("long_names");
    write_script(long_names,
                 "#!/bin/sh\necho 'tare-worker 1 accounting=0' >&4\nread cmd <&3\n"
                 "echo 'names 1000' >&4\n"
                 "while :; do head -c 1000000 /dev/zero | tr '\\0' a; echo; done >&4\n");
    compare::worker_process lengthy(long_names.string(), 30);
    ASSERT_FALSE(lengthy.start());
    auto bounded = lengthy.list();
    ASSERT_TRUE(std::holds_alternative<compare::worker_failure>(bounded));
    EXPECT_NE(std::get<compare::worker_failure>(bounded).message.find(
                  "sent benchmark names of more than 64 MiB in all, more than a list may have"),
              std::string::npos)
        << std::get<compare::worker_failure>(bounded).message;
}

TEST(compare, an_executable_that_is_not_a_tare_worker_exits_3) {
    auto t = run_process({tare_cmd, "compare", "/bin/true", compare_head});
    EXPECT_EQ(t.exit_code, 3);
    EXPECT_NE(t.err.find("/bin/true"), std::string::npos) << t.err;
}

}  // namespace
}  // namespace tare
