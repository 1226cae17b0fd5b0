// The allocation sites of a Google Benchmark suite linked with tare::gbench (docs/profiles.md,
// "The allocation profile"): site_lines_bench.cpp's sites are known, by function, line and count.
// `tare run --alloc-sites` lists them, `tare run --profile` writes them as folded stacks, and a
// counted `tare compare --profile` writes each side's, the counts exact per iteration of the pass.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "command.hpp"
#include "gbench/suites.hpp"
#include "integration/run_process.hpp"
#include "integration/scratch.hpp"
#include "sites/marked_lines.hpp"

namespace tare {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::run_process;

// The sites pass captures stacks inside the allocation hook: not in a sanitizer's build, whose
// runtime intercepts both; and nothing to locate without the interposer.
bool skipped() {
    return TARE_SANITIZED != 0 || TARE_ACCOUNTING_EXPECTED == 0;
}

std::string read_file(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The line of each "// site: NAME" marker in the suite's source.
std::map<std::string, int> marked_lines() {
    return test::marked_lines(TARE_GBENCH_SITES_SOURCE);
}

json rows_of(const fs::path& path) {
    std::ifstream in(path);
    const json doc = json::parse(in);
    json by_name = json::object();
    for (const json& b : doc["benchmarks"])
        by_name[b["name"].get<std::string>()] = b;
    return by_name;
}

// `tare run --alloc-sites` on the suite's BM_two_sites rows (the plain one and the one of three
// repetitions), the fixture's, the fixed count's and the loop without allocations, once for the
// tests below.
const json& two_sites_rows() {
    static const json rows = [] {
        const fs::path path = test::scratch("gbench-sites") / "two_sites.json";
        fs::create_directories(path.parent_path());
        auto r = run_process({tare_cmd, "run", "--alloc-sites", "--min-time=0.05",
                              "--filter=^(BM_two_sites|with_setup|BM_fixed_count|BM_no_allocation)",
                              test::suite(TARE_GBENCH_SITES), "--json=" + path.string()});
        EXPECT_EQ(r.exit_code, 0) << r.err;
        // The console lists the sites under the table, as for tare's own benchmarks.
        EXPECT_NE(r.out.find("three_blocks"), std::string::npos) << r.out;
        return rows_of(path);
    }();
    return rows;
}

void expect_two_sites(const json& b) {
    const auto lines = marked_lines();
    ASSERT_TRUE(b.contains("alloc_sites")) << b.dump(1);
    const json& sites = b["alloc_sites"];
    ASSERT_EQ(sites.size(), 2U) << sites.dump(1);
    // Most allocations first; setup's 1,000 blocks and the paused one are at neither.
    const json& three = sites[0];
    EXPECT_EQ(three["function"], "(anonymous namespace)::three_blocks");
    EXPECT_EQ(three["line"], lines.at("three_blocks"));
    EXPECT_NE(three["file"].get<std::string>().find("site_lines_bench.cpp"), std::string::npos);
    EXPECT_EQ(three["allocs_per_iter"], 3.0);
    EXPECT_EQ(three["bytes_per_iter"], 48.0);
    EXPECT_EQ(three["share"], 0.75);
    const json& one = sites[1];
    EXPECT_EQ(one["function"], "(anonymous namespace)::one_block");
    EXPECT_EQ(one["line"], lines.at("one_block"));
    EXPECT_EQ(one["allocs_per_iter"], 1.0);
    EXPECT_EQ(one["bytes_per_iter"], 48.0);
    // The stack ends at the body: no frame of Google Benchmark's runner, nor of tare.
    const json& stack = one["stack"];
    ASSERT_EQ(stack.size(), 2U) << stack.dump(1);
    EXPECT_EQ(stack[0]["function"], "(anonymous namespace)::one_block");
    EXPECT_EQ(stack[1]["function"], "(anonymous namespace)::BM_two_sites");
    EXPECT_EQ(b["retained_sites"], json::array());
    const json& pass = b["alloc_sites_pass"];
    EXPECT_GT(pass["iterations"].get<int>(), 0);
    EXPECT_EQ(pass["dropped"], 0);
    EXPECT_EQ(pass["allocations"].get<int>(), 4 * pass["iterations"].get<int>());
    EXPECT_TRUE(pass["source_lines"].get<bool>());
    // The measured figures are the samples', which the pass leaves alone.
    EXPECT_EQ(b["allocs_per_iter"], 4.0);
}

TEST(gbench_sites, alloc_sites_lists_a_suites_sites_at_their_lines_with_exact_counts) {
    if (skipped())
        GTEST_SKIP() << "no allocation sites in a sanitizer build or without the interposer";
    expect_two_sites(two_sites_rows()["BM_two_sites"]);
}

// A fixture's body is its BenchmarkCase, called by Fixture::Run: the stack ends there.
TEST(gbench_sites, a_fixtures_stack_ends_at_its_benchmark_case) {
    if (skipped())
        GTEST_SKIP() << "no allocation sites in a sanitizer build or without the interposer";
    const json& b = two_sites_rows()["with_setup/BM_fixture_site"];
    ASSERT_EQ(b["alloc_sites"].size(), 1U) << b.dump(1);
    const json& site = b["alloc_sites"][0];
    EXPECT_EQ(site["line"], marked_lines().at("one_block"));
    EXPECT_EQ(site["allocs_per_iter"], 1.0);
    const json& stack = site["stack"];
    ASSERT_EQ(stack.size(), 2U) << stack.dump(1);
    EXPECT_EQ(stack[0]["function"], "(anonymous namespace)::one_block");
    // Whatever Fixture::Run became (the compiler may inline the case into the suite's own copy of
    // it), the stack ends at the case. Its name may come unqualified ("BenchmarkCase"): inlined,
    // a member of a class of internal linkage has no linkage name in DWARF to qualify it by.
    EXPECT_TRUE(stack[1]["function"].get<std::string>().ends_with("BenchmarkCase")) << stack.dump(1);
}

// A family of three repetitions runs its loop three times a run: the pass records the first loop
// alone and counts per iteration of it, so the figures are a single run's.
TEST(gbench_sites, repetitions_give_the_same_sites) {
    if (skipped())
        GTEST_SKIP() << "no allocation sites in a sanitizer build or without the interposer";
    expect_two_sites(two_sites_rows()["BM_two_sites/repeats:3"]);
}

// ->Iterations(20000) of one block each: the pass cannot shorten the loop, and its buffer holds
// 16,384 allocations. The figures are per iteration of the part it recorded.
TEST(gbench_sites, a_fixed_count_past_the_record_buffer_counts_per_recorded_iteration) {
    if (skipped())
        GTEST_SKIP() << "no allocation sites in a sanitizer build or without the interposer";
    const json& b = two_sites_rows()["BM_fixed_count/iterations:20000"];
    ASSERT_EQ(b["alloc_sites"].size(), 1U) << b.dump(1);
    EXPECT_EQ(b["alloc_sites"][0]["allocs_per_iter"], 1.0);
    EXPECT_EQ(b["alloc_sites"][0]["bytes_per_iter"], 48.0);
    const json& pass = b["alloc_sites_pass"];
    EXPECT_GT(pass["dropped"].get<int>(), 0) << pass.dump(1);
    EXPECT_EQ(pass["allocations"], 20000);
}

// A loop that allocates nothing has a pass that found nothing, as a tare executable's: a
// comparison can then tell a side whose allocations all went from one it did not look at.
TEST(gbench_sites, a_loop_that_allocates_nothing_has_an_empty_pass) {
    if (skipped())
        GTEST_SKIP() << "no allocation sites in a sanitizer build or without the interposer";
    const json& b = two_sites_rows()["BM_no_allocation"];
    EXPECT_EQ(b["allocs_per_iter"], 0.0);
    ASSERT_TRUE(b.contains("alloc_sites_pass")) << b.dump(1);
    EXPECT_EQ(b["alloc_sites_pass"]["allocations"], 0);
    EXPECT_EQ(b["alloc_sites"], json::array());
}

TEST(gbench_sites, profile_writes_a_suites_allocation_stacks) {
    if (skipped())
        GTEST_SKIP() << "no allocation sites in a sanitizer build or without the interposer";
    const fs::path dir = test::scratch("gbench-sites-profile");
    const fs::path path = test::scratch("gbench-sites-profile.json");
    auto r = run_process({tare_cmd, "run", "--profile=" + dir.string(), "--min-time=0.05",
                          "--filter=^BM_keeps$", test::suite(TARE_GBENCH_SITES), "--json=" + path.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json b = rows_of(path)["BM_keeps"];
    ASSERT_TRUE(b.contains("alloc_sites_pass")) << b.dump(1);
    const auto n = b["alloc_sites_pass"]["iterations"].get<std::uint64_t>();
    ASSERT_GT(n, 0U);
    // Whole counts over the pass: one 32-byte node an iteration, every one kept.
    // A folded stack runs from the body in.
    const std::string stack = "(anonymous namespace)::BM_keeps;(anonymous namespace)::keep_block ";
    EXPECT_EQ(read_file(dir / "BM_keeps.allocations.folded"), stack + std::to_string(n) + "\n");
    EXPECT_EQ(read_file(dir / "BM_keeps.bytes.folded"), stack + std::to_string(32 * n) + "\n");
    EXPECT_EQ(read_file(dir / "BM_keeps.retained.folded"), stack + std::to_string(32 * n) + "\n");
    ASSERT_EQ(b["retained_sites"].size(), 1U) << b.dump(1);
    EXPECT_EQ(b["retained_sites"][0]["line"], marked_lines().at("keep_block"));
    EXPECT_EQ(b["retained_sites"][0]["bytes_per_iter"], 32.0);
    const json speedscope = json::parse(read_file(dir / "BM_keeps.speedscope.json"));
    ASSERT_EQ(speedscope["profiles"].size(), 3U);  // allocations, bytes, retained: a timed run's
}

// Without tare::gbench a suite has no hooks to open the pass's region: refused, with the reason.
TEST(gbench_sites, a_suite_without_tare_gbench_is_refused_with_the_reason) {
    auto r = run_process({tare_cmd, "run", "--alloc-sites", test::suite(TARE_GBENCH_ALLOC_COUNTS_PLAIN)});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("this one does not link tare::gbench"), std::string::npos) << r.err;
}

// A counted comparison with --profile: each side's allocation stacks beside its instruction
// profile, from a sites pass after the count of a length the count fixes.
TEST(gbench_sites, a_counted_comparison_profiles_each_sides_allocations) {
    if (skipped())
        GTEST_SKIP()
            << "no allocation sites, nor Valgrind, in a sanitizer build; none without the interposer";
    const fs::path dir = test::scratch("gbench-sites-compare");
    const std::string suite = test::suite(TARE_GBENCH_SITES);
    auto r = run_process({tare_cmd, "compare", "--instrument=instructions", "--profile=" + dir.string(),
                          "--filter=^BM_two_sites$", suite, suite, "--json=-"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json doc = json::parse(r.out);
    for (const char* side : {"base", "head"}) {
        // The pass runs as many iterations as 16,384 recorded allocations allow (4 an iteration),
        // and no more than were counted.
        const auto counted = doc["rows"][0][side]["instrument_iterations"].get<std::uint64_t>();
        const std::uint64_t pass = std::min<std::uint64_t>(counted, 16384 / 4);
        const fs::path allocations = dir / side / "BM_two_sites.allocations.folded";
        ASSERT_TRUE(fs::exists(allocations)) << side << ": " << r.err;
        // Two stacks, three allocations to one an iteration, over the same pass on both sides.
        std::istringstream lines(read_file(allocations));
        std::map<std::string, std::uint64_t> counts;
        for (std::string line; std::getline(lines, line);) {
            const auto space = line.rfind(' ');
            counts[line.substr(0, space)] = std::stoull(line.substr(space + 1));
        }
        ASSERT_EQ(counts.size(), 2U) << read_file(allocations);
        const std::uint64_t one =
            counts["(anonymous namespace)::BM_two_sites;(anonymous namespace)::one_block"];
        EXPECT_EQ(one, pass);
        EXPECT_EQ(counts["(anonymous namespace)::BM_two_sites;(anonymous namespace)::three_blocks"], 3 * one);
        EXPECT_TRUE(fs::exists(dir / side / "BM_two_sites.instructions.folded"));
        EXPECT_TRUE(fs::exists(dir / side / "BM_two_sites.bytes.folded"));
    }
}

}  // namespace
}  // namespace tare
