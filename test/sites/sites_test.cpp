// --alloc-sites end to end on sites_bench.cpp, whose allocation sites are known: the functions,
// files and lines, the counts and bytes per iteration, the other thread's site, the site of the
// heap's growth; and that the timed figures are the same with the pass as without it.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "heap.hpp"
#include "marked_lines.hpp"
#include "run_process.hpp"

namespace tare {
namespace {

using nlohmann::json;
using test::run_process;

const std::string bench = TARE_SITES_BENCH;

#if TARE_ACCOUNTING_EXPECTED
const std::string source = TARE_SITES_SOURCE;
const std::string tare_cmd = TARE_COMMAND;

// The line of each "// site: NAME" marker in the bench's source.
std::map<std::string, int> marked_lines() {
    return test::marked_lines(source);
}

json run(const std::vector<std::string>& extra) {
    std::vector<std::string> argv{bench, "--min-time=0.05", "--json=-"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    auto r = run_process(argv);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out);
}

const json& row(const json& doc, const std::string& name) {
    for (const auto& b : doc["benchmarks"])
        if (b["name"] == name)
            return b;
    static const json none;
    ADD_FAILURE() << "no row " << name;
    return none;
}

const json& with_sites() {
    static const json doc = run({"--alloc-sites"});
    return doc;
}

TEST(alloc_sites, two_sites_are_found_at_their_lines_with_exact_counts) {
    const auto lines = marked_lines();
    const json& b = row(with_sites(), "two_sites");
    ASSERT_TRUE(b.contains("alloc_sites")) << b.dump(1);
    const json& sites = b["alloc_sites"];
    ASSERT_EQ(sites.size(), 2U) << sites.dump(1);
    // Most allocations first: three_blocks, then one_block; setup's 1,000 blocks are in neither.
    const json& three = sites[0];
    EXPECT_EQ(three["function"], "(anonymous namespace)::three_blocks");
    EXPECT_EQ(three["line"], lines.at("three_blocks"));
    EXPECT_NE(three["file"].get<std::string>().find("sites_bench.cpp"), std::string::npos);
    EXPECT_EQ(three["allocs_per_iter"], 3.0);
    EXPECT_EQ(three["bytes_per_iter"], 48.0);
    EXPECT_EQ(three["share"], 0.75);
    EXPECT_EQ(three["thread"], 0);
    const json& one = sites[1];
    EXPECT_EQ(one["function"], "(anonymous namespace)::one_block");
    EXPECT_EQ(one["line"], lines.at("one_block"));
    EXPECT_EQ(one["allocs_per_iter"], 1.0);
    EXPECT_EQ(one["bytes_per_iter"], 48.0);
    EXPECT_EQ(one["share"], 0.25);
    // The stack runs from the allocating function out to the body, and stops there.
    const json& stack = one["stack"];
    ASSERT_EQ(stack.size(), 2U) << stack.dump(1);
    EXPECT_EQ(stack[0]["function"], "(anonymous namespace)::one_block");
    EXPECT_EQ(stack[1]["function"], "(anonymous namespace)::two_sites");
    EXPECT_EQ(b["retained_sites"], json::array());
    EXPECT_GT(b["alloc_sites_pass"]["iterations"].get<int>(), 0);
    EXPECT_EQ(b["alloc_sites_pass"]["dropped"], 0);
    EXPECT_EQ(b["alloc_sites_pass"]["allocations"].get<int>(),
              4 * b["alloc_sites_pass"]["iterations"].get<int>());
    EXPECT_TRUE(b["alloc_sites_pass"]["source_lines"].get<bool>());
}

TEST(alloc_sites, another_threads_site_is_reported_with_its_thread) {
    const auto lines = marked_lines();
    const json& sites = row(with_sites(), "other_thread")["alloc_sites"];
    ASSERT_EQ(sites.size(), 1U) << sites.dump(1);
    EXPECT_EQ(sites[0]["function"], "(anonymous namespace)::worker_block");
    EXPECT_EQ(sites[0]["line"], lines.at("worker_block"));
    EXPECT_EQ(sites[0]["thread"], 1);
    EXPECT_EQ(sites[0]["allocs_per_iter"], 1.0);
    EXPECT_EQ(sites[0]["bytes_per_iter"], 100.0);
}

// A pool's two workers running the same line are one site with each worker's part.
TEST(alloc_sites, one_line_run_by_two_threads_is_one_site) {
    const json& sites = row(with_sites(), "two_workers")["alloc_sites"];
    ASSERT_EQ(sites.size(), 1U) << sites.dump(1);
    EXPECT_EQ(sites[0]["function"], "(anonymous namespace)::worker_block");
    EXPECT_EQ(sites[0]["allocs_per_iter"], 2.0);
    ASSERT_EQ(sites[0]["threads"].size(), 2U) << sites.dump(1);
    EXPECT_EQ(sites[0]["threads"][0]["allocs_per_iter"], 1.0);
    EXPECT_EQ(sites[0]["threads"][1]["allocs_per_iter"], 1.0);
}

TEST(alloc_sites, the_growing_heap_names_its_site) {
    const auto lines = marked_lines();
    const json& b = row(with_sites(), "grows");
    bool grows = false;
    for (const auto& w : b["warnings"])
        grows = grows || w["kind"] == "retained_growth";
    EXPECT_TRUE(grows) << b["warnings"].dump(1);
    const json& retained = b["retained_sites"];
    ASSERT_EQ(retained.size(), 1U) << retained.dump(1);
    EXPECT_EQ(retained[0]["function"], "(anonymous namespace)::keep_block");
    EXPECT_EQ(retained[0]["line"], lines.at("keep_block"));
    EXPECT_EQ(retained[0]["bytes_per_iter"], 64.0);
    EXPECT_EQ(retained[0]["allocs_per_iter"], 1.0);
    EXPECT_EQ(retained[0]["share"], 1.0);
}

TEST(alloc_sites, a_vector_grown_in_a_fast_loop_is_the_retained_site) {
    const json& b = row(with_sites(), "grows_fast");
    const json& retained = b["retained_sites"];
    ASSERT_FALSE(retained.empty()) << b.dump(1);
    bool named = false;
    for (const auto& f : retained[0]["stack"])
        named = named || f["function"] == "(anonymous namespace)::append";
    EXPECT_TRUE(named) << retained.dump(1);
    EXPECT_GT(retained[0]["share"].get<double>(), 0.99) << retained.dump(1);
    // The temporaries are the allocation sites, three an iteration, every one located.
    double allocs = 0;
    for (const auto& s : b["alloc_sites"])
        allocs += s["allocs_per_iter"].get<double>();
    EXPECT_NEAR(allocs, 3.0, 0.01) << b["alloc_sites"].dump(1);
    EXPECT_EQ(b["alloc_sites_pass"]["dropped"], 0) << b["alloc_sites_pass"].dump();
}

TEST(alloc_sites, a_loop_without_allocations_has_no_sites) {
    const json& b = row(with_sites(), "none");
    EXPECT_EQ(b["alloc_sites"], json::array());
    EXPECT_EQ(b["alloc_sites_pass"]["iterations"], 0);
}

// The pass comes after the measured samples: the figures are those of a run without it.
TEST(alloc_sites, the_timed_figures_are_untouched) {
    const json plain = run({"--filter=two_sites|grows"});
    for (const char* name : {"two_sites", "grows"}) {
        const json& a = row(plain, name);
        const json& b = row(with_sites(), name);
        EXPECT_EQ(a["allocs_per_iter"], b["allocs_per_iter"]) << name;
        EXPECT_EQ(a["bytes_per_iter"], b["bytes_per_iter"]) << name;
        EXPECT_FALSE(a.contains("alloc_sites")) << name;
    }
    test::expect_blocks_of(row(with_sites(), "grows")["retained_bytes_per_iter"].get<double>(), 1, 64);
}

TEST(alloc_sites, the_table_and_tare_run_show_the_sites) {
    const auto lines = marked_lines();
    auto r = run_process({bench, "--filter=two_sites|grows", "--min-time=0.02", "--alloc-sites=1"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("site: two_sites: 3 allocs/iter, 48 B/iter (75.0%): two_sites → three_blocks at "
                         "sites_bench.cpp:" +
                         std::to_string(lines.at("three_blocks"))),
              std::string::npos)
        << r.out;
    // =1: the top site by allocations and the top by bytes, here the same one.
    EXPECT_EQ(r.out.find("one_block at"), std::string::npos) << r.out;
    EXPECT_NE(
        r.out.find("retained: grows: 64 B/iter still live (100%): grows → keep_block at sites_bench.cpp:" +
                   std::to_string(lines.at("keep_block"))),
        std::string::npos)
        << r.out;
    auto through =
        run_process({tare_cmd, "run", bench, "--filter=^two_sites$", "--min-time=0.02", "--alloc-sites"});
    ASSERT_EQ(through.exit_code, 0) << through.err;
    EXPECT_NE(through.out.find("site: two_sites: 1 allocs/iter"), std::string::npos) << through.out;
}
#endif

TEST(alloc_sites, bad_values_exit_2) {
    for (const char* bad : {"--alloc-sites=0", "--alloc-sites=x", "--alloc-sites=1001"}) {
        auto r = run_process({bench, bad, "--list"});
        EXPECT_EQ(r.exit_code, 2) << bad << r.err;
    }
}

}  // namespace
}  // namespace tare
