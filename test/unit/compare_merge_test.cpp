// compare/merge.hpp: shard files joined into one, and the files it refuses.
#include "compare/merge.hpp"

#include <gtest/gtest.h>

#include "io/run_mapping.hpp"

namespace tare::compare {
namespace {

run_results shard_file(const std::string& host, std::vector<std::string> names, bool accounting = true) {
    run_results r;
    r.context.tare_version = "0.1.0";
    r.context.executable = "/runner-" + host + "/build/codec_bench";
    r.context.host = host;
    r.context.accounting = accounting;
    for (auto& n : names) {
        benchmark_result b;
        b.name = std::move(n);
        b.samples_ns = {1.0, 2.0};
        b.iterations = 2;
        r.benchmarks.push_back(std::move(b));
    }
    return r;
}

TEST(compare_merge, joins_shards_in_order_and_keeps_every_context) {
    auto m = merge_results({{"a.json", shard_file("a", {"x", "y"})},
                            {"b.json", shard_file("b", {"z"}, false)},
                            {"c.json", shard_file("c", {})}});
    ASSERT_TRUE(std::holds_alternative<run_results>(m)) << std::get<std::string>(m);
    const run_results& r = std::get<run_results>(m);
    ASSERT_EQ(r.benchmarks.size(), 3U);
    EXPECT_EQ(r.benchmarks[0].name, "x");
    EXPECT_EQ(r.benchmarks[2].name, "z");
    ASSERT_EQ(r.context.merged_from.size(), 3U);
    EXPECT_EQ(r.context.merged_from[1].host, "b");
    EXPECT_FALSE(r.context.accounting);  // one shard had none: the file does not claim it
    EXPECT_EQ(r.context.host, "a");

    // Through tare/1 and back: merged_from is part of the file.
    const std::string text = io::write_run_json(r);
    auto back = io::parse_run_json(text, "merged.json");
    ASSERT_TRUE(std::holds_alternative<run_results>(back));
    ASSERT_EQ(std::get<run_results>(back).context.merged_from.size(), 3U);
    EXPECT_EQ(std::get<run_results>(back).context.merged_from[2].host, "c");
    EXPECT_EQ(io::write_run_json(std::get<run_results>(back)), text);
}

TEST(compare_merge, merging_a_merged_file_keeps_every_shards_context) {
    auto ab = merge_results({{"a.json", shard_file("a", {"x"})}, {"b.json", shard_file("b", {"y"})}});
    ASSERT_TRUE(std::holds_alternative<run_results>(ab));
    auto abc = merge_results({{"ab.json", std::get<run_results>(ab)}, {"c.json", shard_file("c", {"z"})}});
    ASSERT_TRUE(std::holds_alternative<run_results>(abc));
    const auto& from = std::get<run_results>(abc).context.merged_from;
    ASSERT_EQ(from.size(), 3U);
    EXPECT_EQ(from[0].host, "a");
    EXPECT_EQ(from[1].host, "b");
    EXPECT_EQ(from[2].host, "c");
    EXPECT_TRUE(from[0].merged_from.empty());
}

TEST(compare_merge, refuses_overlaps_other_suites_and_other_versions) {
    auto dup = merge_results({{"a.json", shard_file("a", {"x"})}, {"b.json", shard_file("b", {"x"})}});
    ASSERT_TRUE(std::holds_alternative<std::string>(dup));
    EXPECT_NE(std::get<std::string>(dup).find("benchmark x is in a.json and in b.json"), std::string::npos);

    auto other = shard_file("b", {"y"});
    other.context.executable = "/build/other_bench";
    auto suites = merge_results({{"a.json", shard_file("a", {"x"})}, {"b.json", other}});
    ASSERT_TRUE(std::holds_alternative<std::string>(suites));
    EXPECT_NE(std::get<std::string>(suites).find("other_bench"), std::string::npos);

    auto older = shard_file("b", {"y"});
    older.context.tare_version = "0.0.9";
    auto versions = merge_results({{"a.json", shard_file("a", {"x"})}, {"b.json", older}});
    ASSERT_TRUE(std::holds_alternative<std::string>(versions));
    EXPECT_NE(std::get<std::string>(versions).find("tare 0.0.9"), std::string::npos);

    EXPECT_TRUE(std::holds_alternative<std::string>(merge_results({{"a.json", shard_file("a", {"x"})}})));
}

}  // namespace
}  // namespace tare::compare
