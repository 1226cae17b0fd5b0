// Comparison groups end to end (docs/variants.md): a real executable declaring groups
// (variants_bench.cpp), its --list and --filter, its JSON "comparisons", and the start-up error
// of a malformed group (variants_bad_bench.cpp). Timing is asserted only where the effect is
// large (3x the work); a group of identical bodies is checked for its structure, not its
// verdict, which is allowed to be wrong 5 % of the time by design.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "heap.hpp"
#include "run_process.hpp"

namespace tare {
namespace {

using nlohmann::json;

const std::string variants_bench = TARE_VARIANTS_BENCH;

TEST(variants_executable, list_prints_members_as_ordinary_benchmarks) {
    auto r = test::run_process({variants_bench, "--list"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "no_allocs/3\nk_allocs/3\nwork_1x\nwork_3x\nlone\nsame_a\nsame_b\n");
}

TEST(variants_executable, filter_matching_one_member_selects_its_whole_group) {
    auto r = test::run_process({variants_bench, "--list", "--filter=work_3x"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "work_1x\nwork_3x\n");
    auto by_group = test::run_process({variants_bench, "--list", "--filter=^allocs"});
    EXPECT_EQ(by_group.out, "no_allocs/3\nk_allocs/3\n");
}

TEST(variants_executable, a_malformed_group_is_a_start_up_error) {
    for (const char* flag : {"--list", "--min-time=0.01"}) {
        auto r = test::run_process({TARE_VARIANTS_BAD_BENCH, flag});
        EXPECT_EQ(r.exit_code, 2) << flag;
        EXPECT_EQ(r.out, "") << flag;
        EXPECT_NE(r.err.find("error: comparison group 'broken': no benchmark named 'absent'"),
                  std::string::npos)
            << r.err;
    }
}

// Under --isolate a group runs in a child of its own (docs/variants.md), as every benchmark
// outside groups does; both kinds of rows and the comparison come back.
TEST(variants_executable, isolate_keeps_the_comparison) {
    auto r =
        test::run_process({variants_bench, "--isolate", "--filter=work|lone", "--min-time=0.05", "--json=-"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json doc = json::parse(r.out);
    ASSERT_EQ(doc["benchmarks"].size(), 3U);
    EXPECT_EQ(doc["benchmarks"][2]["name"], "lone");
    ASSERT_EQ(doc["comparisons"].size(), 1U);
    EXPECT_EQ(doc["comparisons"][0]["member"], "work_3x");
    EXPECT_GE(doc["comparisons"][0]["blocks"].get<int>(), 8);
}

// --isolate --timeout stops a group whose member never ends: both members are named with the
// timeout, the rest of the suite still runs. Under a sanitizer the timeout is 10 s: there a child
// starts and ends slowly (isolate_test.cpp says why), and `lone` must finish within it.
TEST(variants_executable, isolate_and_timeout_stop_a_stuck_group) {
    const std::string timeout = TARE_SANITIZED ? "--timeout=10" : "--timeout=2";
    auto r = test::run_process({"/usr/bin/env", "TARE_TEST_STUCK_GROUP=1", variants_bench, "--isolate",
                                timeout, "--filter=^(stuck|lone)$", "--min-time=0.05", "--json=-"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const json doc = json::parse(r.out);
    ASSERT_EQ(doc["benchmarks"].size(), 3U) << r.out;
    for (const char* member : {"quick", "stuck"}) {
        const auto row = std::find_if(doc["benchmarks"].begin(), doc["benchmarks"].end(),
                                      [&](const json& b) { return b["name"] == member; });
        ASSERT_NE(row, doc["benchmarks"].end()) << member;
        ASSERT_TRUE((*row)["error"].is_object()) << member;
        EXPECT_EQ((*row)["error"]["kind"], "timeout") << member;
        EXPECT_NE((*row)["error"]["message"].get<std::string>().find("stuck_group"), std::string::npos);
    }
    const auto lone = std::find_if(doc["benchmarks"].begin(), doc["benchmarks"].end(),
                                   [](const json& b) { return b["name"] == "lone"; });
    ASSERT_NE(lone, doc["benchmarks"].end());
    EXPECT_TRUE((*lone)["error"].is_null()) << lone->dump();
}

class variants_run : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        auto r = test::run_process({variants_bench, "--json=-", "--min-time=0.2"});
        exit_code_ = r.exit_code;
        table_ = r.err;
        doc_ = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
    }

    static const json& comparison(const std::string& member) {
        static const json missing;
        for (const json& c : doc_["comparisons"]) {
            if (c["member"] == member) {
                return c;
            }
        }
        ADD_FAILURE() << "no comparison for " << member;
        return missing;
    }

    static inline int exit_code_ = -1;
    static inline std::string table_;
    static inline json doc_;
};

TEST_F(variants_run, every_member_has_its_ordinary_row) {
    ASSERT_EQ(exit_code_, 0) << table_;
    ASSERT_FALSE(doc_.is_discarded());
    std::vector<std::string> names;
    for (const json& b : doc_["benchmarks"]) {
        names.push_back(b["name"]);
        EXPECT_TRUE(b["error"].is_null()) << b.dump();
    }
    EXPECT_EQ(names, (std::vector<std::string>{"no_allocs/3", "k_allocs/3", "work_1x", "work_3x", "lone",
                                               "same_a", "same_b"}));
    // The table prints the comparison section after the main table.
    EXPECT_NE(table_.find("comparison"), std::string::npos) << table_;
    EXPECT_NE(table_.find("work_3x"), std::string::npos) << table_;
}

TEST_F(variants_run, comparisons_pair_instances_with_equal_blocks_and_iterations) {
    ASSERT_TRUE(doc_.contains("comparisons")) << doc_.dump();
    ASSERT_EQ(doc_["comparisons"].size(), 3U);
    const json& allocs = comparison("k_allocs/3");
    EXPECT_EQ(allocs["group"], "allocs");
    EXPECT_EQ(allocs["name"], "allocs/3");
    EXPECT_EQ(allocs["baseline"], "no_allocs/3");
    for (const json& c : doc_["comparisons"]) {
        SCOPED_TRACE(c["name"].get<std::string>());
        const auto blocks = c["blocks"].get<std::size_t>();
        EXPECT_GE(blocks, 8U);
        EXPECT_EQ(blocks % 2, 0U);
        EXPECT_EQ(c["baseline_block_ns"].size(), blocks);
        EXPECT_EQ(c["member_block_ns"].size(), blocks);
        ASSERT_TRUE(c["change_pct"].is_object()) << c.dump();
        EXPECT_LE(c["change_pct"]["ci_low"].get<double>(), c["change_pct"]["mean"].get<double>());
        EXPECT_GE(c["change_pct"]["ci_high"].get<double>(), c["change_pct"]["mean"].get<double>());
        // Bonferroni over the run's three comparisons.
        EXPECT_NEAR(c["confidence"].get<double>(), 1 - 0.05 / 3, 1e-12);
        const std::string verdict = c["verdict"];
        EXPECT_TRUE(verdict == "faster" || verdict == "slower" || verdict == "no_change") << verdict;
        // Every sample of both members has the same size.
        const auto iterations = c["iterations_per_sample"].get<std::uint64_t>();
        for (const char* side : {"baseline", "member"}) {
            for (const json& b : doc_["benchmarks"]) {
                if (b["name"] != c[side]) {
                    continue;
                }
                EXPECT_EQ(b["samples_ns"].size(), blocks * c["samples_per_block"].get<std::size_t>());
                for (const json& n : b["sample_iterations"]) {
                    EXPECT_EQ(n.get<std::uint64_t>(), iterations) << b["name"];
                }
            }
        }
    }
}

TEST_F(variants_run, three_times_the_work_is_slower) {
    const json& work = comparison("work_3x");
    EXPECT_EQ(work["verdict"], "slower") << work.dump();
    EXPECT_GT(work["change_pct"]["ci_low"].get<double>(), 50.0) << work.dump();  // about +200 %
}

TEST_F(variants_run, allocations_differ_exactly) {
    const json& allocs = comparison("k_allocs/3");
    const json& memory = allocs["memory"];
    if (!TARE_ACCOUNTING_EXPECTED) {
        EXPECT_TRUE(memory["allocs_per_iter"]["member"].is_null());
        return;
    }
    EXPECT_EQ(memory["allocs_per_iter"]["baseline"].get<double>(), 0.0);
    EXPECT_EQ(memory["allocs_per_iter"]["member"].get<double>(), 3.0);
    EXPECT_EQ(memory["allocs_per_iter"]["change"].get<double>(), 3.0);
    EXPECT_EQ(memory["bytes_per_iter"]["member"].get<double>(), 3.0 * 64);
    test::expect_blocks_of(memory["peak_live_bytes"]["member"].get<double>(), 1, 64);
    EXPECT_EQ(memory["peak_live_bytes"]["baseline"].get<std::int64_t>(), 0);
}

// --shard=K/N: the shards' lists are disjoint and together the whole list, and a comparison group
// is in one shard, whole (its name decides).
TEST(variants, a_shard_keeps_a_group_whole_and_the_shards_cover_the_suite) {
    const auto list = [](const std::vector<std::string>& extra) {
        std::vector<std::string> argv = {variants_bench, "--list"};
        argv.insert(argv.end(), extra.begin(), extra.end());
        auto r = test::run_process(argv);
        EXPECT_EQ(r.exit_code, 0) << r.err;
        std::vector<std::string> names;
        std::istringstream in(r.out);
        for (std::string line; std::getline(in, line);)
            names.push_back(line);
        return names;
    };
    const auto all = list({});
    for (const int n : {1, 2, 3, 5}) {
        std::map<std::string, int> shard_of;
        for (int k = 1; k <= n; ++k) {
            for (const auto& name : list({"--shard=" + std::to_string(k) + "/" + std::to_string(n)})) {
                EXPECT_EQ(shard_of.count(name), 0U) << name << " in two shards of " << n;
                shard_of[name] = k;
            }
        }
        EXPECT_EQ(shard_of.size(), all.size()) << n;
        for (const auto& [a, b] : {std::pair<std::string, std::string>{"no_allocs/3", "k_allocs/3"},
                                   {"work_1x", "work_3x"},
                                   {"same_a", "same_b"}}) {
            EXPECT_EQ(shard_of[a], shard_of[b]) << a << " and " << b << " of one group, " << n << " shards";
        }
    }
    auto bad = test::run_process({variants_bench, "--list", "--shard=3/2"});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("--shard=3/2"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace tare
