// compare/merge.hpp: shard files joined into one, and the files it refuses; comparisons of
// shards judged again as one family, exactly as one comparison of all their rows.
#include "compare/merge.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "alloc/accounting.hpp"
#include "compare/aggregate.hpp"
#include "compare/instrumentation.hpp"
#include "io/compare_mapping.hpp"
#include "io/run_mapping.hpp"
#include "stats/random.hpp"

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

// Rows of a rounds comparison with their per-round log-ratios: true changes from -6 % to +6 %,
// some 0, round noise of 1.5 % (seeded), so some rows are judged and others not.
struct rounds_rows {
    std::vector<compare_row> rows;
    std::vector<std::vector<double>> logs;
};

rounds_rows make_rows(std::size_t n, std::uint64_t seed) {
    stats::xoshiro256ss random(seed);
    rounds_rows out;
    for (std::size_t i = 0; i < n; ++i) {
        compare_row row;
        row.name = "bench/" + std::to_string(i);
        row.base.time_ns = 1000;
        row.head.time_ns = 1000;
        row.base.samples = row.head.samples = 40;
        const double truth = i % 3 == 0 ? 0.0 : 0.01 * static_cast<double>(static_cast<int>(i % 13) - 6);
        std::vector<double> l;
        for (int r = 0; r < 8; ++r) {
            l.push_back(std::log1p(truth) + 0.015 * stats::standard_normal_pair(random)[0]);
        }
        out.rows.push_back(std::move(row));
        out.logs.push_back(std::move(l));
    }
    return out;
}

compare_results judged(const rounds_rows& rows, std::size_t from, std::size_t to, const verdict_options& o) {
    compare_results r;
    r.tare_version = "0.1.0";
    r.rounds = 8;
    r.rows.assign(rows.rows.begin() + static_cast<std::ptrdiff_t>(from),
                  rows.rows.begin() + static_cast<std::ptrdiff_t>(to));
    r.threshold_pct = o.threshold_pct;
    judge_rounds(r,
                 {rows.logs.begin() + static_cast<std::ptrdiff_t>(from),
                  rows.logs.begin() + static_cast<std::ptrdiff_t>(to)},
                 o);
    return r;
}

// Through the file and back, as `tare merge` reads each shard's.
compare_results through_json(const compare_results& r) {
    auto back = io::parse_compare_json(io::write_compare_json(r), "shard.json");
    EXPECT_TRUE(std::holds_alternative<compare_results>(back));
    return std::get<compare_results>(back);
}

// The ground truth: one comparison of all rows. Three shards judged on their own, written and
// read back, merged: the same family, the same level, the same intervals and verdicts.
TEST(compare_merge, shards_of_a_comparison_are_judged_as_one_family) {
    for (const auto family : {family_control::fdr, family_control::fwer}) {
        for (const double threshold : {0.0, 1.0}) {
            SCOPED_TRACE(std::to_string(static_cast<int>(family)) + " threshold " +
                         std::to_string(threshold));
            verdict_options o;
            o.family = family;
            o.threshold_pct = threshold;
            const rounds_rows rows = make_rows(24, 11);
            const compare_results whole = judged(rows, 0, 24, o);
            ASSERT_GT(whole.selected, 0U);
            ASSERT_LT(whole.selected, 24U);
            auto merged = merge_comparisons({{"c1.json", through_json(judged(rows, 0, 5, o))},
                                             {"c2.json", through_json(judged(rows, 5, 17, o))},
                                             {"c3.json", through_json(judged(rows, 17, 24, o))}});
            ASSERT_TRUE(std::holds_alternative<compare_results>(merged)) << std::get<std::string>(merged);
            const compare_results& m = std::get<compare_results>(merged);
            EXPECT_EQ(m.comparisons, whole.comparisons);
            EXPECT_EQ(m.selected, whole.selected);
            EXPECT_DOUBLE_EQ(interval_level(m), interval_level(whole));
            ASSERT_EQ(m.rows.size(), whole.rows.size());
            for (std::size_t i = 0; i < m.rows.size(); ++i) {
                SCOPED_TRACE(m.rows[i].name);
                EXPECT_EQ(m.rows[i].name, whole.rows[i].name);
                EXPECT_EQ(m.rows[i].verdict, whole.rows[i].verdict);
                ASSERT_TRUE(m.rows[i].change && m.rows[i].change->interval_pct);
                EXPECT_NEAR(m.rows[i].change->interval_pct->low, whole.rows[i].change->interval_pct->low,
                            1e-9);
                EXPECT_NEAR(m.rows[i].change->interval_pct->high, whole.rows[i].change->interval_pct->high,
                            1e-9);
                EXPECT_DOUBLE_EQ(m.rows[i].change->confidence, whole.rows[i].change->confidence);
            }
        }
    }
}

// One shard whose sides were instrumented differently makes the whole comparison mixed: the
// record survives the JSON and the merge, and the other shards' rows are judged as before.
TEST(compare_merge, a_shard_of_mixed_instrumentation_marks_the_merge) {
    const rounds_rows rows = make_rows(10, 3);
    const verdict_options o;
    compare_results mixed = judged(rows, 0, 5, o);
    side_instrumentation base;
    side_instrumentation head;
    head.copies = true;
    judge_instrumentation(mixed, base, head, false);
    auto merged = merge_comparisons(
        {{"c1.json", through_json(mixed)}, {"c2.json", through_json(judged(rows, 5, 10, o))}});
    ASSERT_TRUE(std::holds_alternative<compare_results>(merged)) << std::get<std::string>(merged);
    const compare_results& m = std::get<compare_results>(merged);
    ASSERT_EQ(m.mixed_instrumentation.size(), 1U);
    EXPECT_EQ(m.mixed_instrumentation[0].kind, "copies");
    EXPECT_TRUE(refuses_mixed_instrumentation(m));
    for (std::size_t i = 0; i < 5; ++i) {
        EXPECT_TRUE(m.rows[i].unjudged) << m.rows[i].name;
        EXPECT_EQ(m.rows[i].verdict, verdict::no_change) << m.rows[i].name;
    }
    EXPECT_FALSE(m.rows[5].unjudged);
}

// Why the merge judges again: a shard's own family is smaller, so its intervals are narrower
// than the suite's; kept as they were, their verdicts would share 5 % per shard, not per suite.
TEST(compare_merge, a_shards_own_intervals_are_narrower_than_the_suites) {
    verdict_options o;
    o.family = family_control::fwer;
    const rounds_rows rows = make_rows(24, 11);
    const compare_results shard = judged(rows, 0, 5, o);
    const compare_results whole = judged(rows, 0, 24, o);
    EXPECT_LT(interval_level(shard), interval_level(whole));
    const auto width = [](const compare_row& r) {
        return r.change->interval_pct->high - r.change->interval_pct->low;
    };
    EXPECT_LT(width(shard.rows[1]), width(whole.rows[1]));
}

TEST(compare_merge, comparisons_that_cannot_be_one_family_are_refused) {
    verdict_options o;
    const rounds_rows rows = make_rows(6, 3);
    const auto a = judged(rows, 0, 3, o);
    const auto b = judged(rows, 3, 6, o);
    auto refused = [](std::vector<compare_merge_input> in, const std::string& words) {
        auto m = merge_comparisons(std::move(in));
        ASSERT_TRUE(std::holds_alternative<std::string>(m)) << words;
        EXPECT_NE(std::get<std::string>(m).find(words), std::string::npos) << std::get<std::string>(m);
    };
    refused({{"a.json", a}}, "at least two");
    refused({{"a.json", a}, {"a2.json", a}}, "bench/0 is in a.json and in a2.json");
    auto other_version = b;
    other_version.tare_version = "0.2.0";
    refused({{"a.json", a}, {"b.json", other_version}}, "b.json was written by tare 0.2.0");
    auto files = b;
    files.mode = pairing::processes;
    refused({{"a.json", a}, {"b.json", files}}, "mode processes");
    auto banded = b;
    banded.threshold_pct = 2;
    refused({{"a.json", a}, {"b.json", banded}}, "the same --family and --threshold");
    auto bonferroni = b;
    bonferroni.family = family_control::fwer;
    refused({{"a.json", a}, {"b.json", bonferroni}}, "the same --family and --threshold");
    auto bare = b;
    bare.rows[0].change->log_se = 0;  // as a file without log_se and df reads
    bare.rows[0].change->df = 0;
    refused({{"a.json", a}, {"b.json", bare}}, "cannot be judged again");
}

// Rows that are not in the family stay as they were: an error on a side, a row of one process.
TEST(compare_merge, rows_outside_the_family_keep_their_state) {
    verdict_options o;
    const rounds_rows rows = make_rows(4, 5);
    auto a = judged(rows, 0, 2, o);
    auto b = judged(rows, 2, 4, o);
    b.rows[0].head.error = error_info{"signal", "SIGSEGV"};
    b.rows[0].change.reset();
    b.only_in_head = {"new/1"};
    auto merged = merge_comparisons({{"a.json", a}, {"b.json", b}});
    ASSERT_TRUE(std::holds_alternative<compare_results>(merged));
    const auto& m = std::get<compare_results>(merged);
    EXPECT_EQ(m.comparisons, 3U);
    EXPECT_EQ(m.rows[2].verdict, verdict::error);
    EXPECT_EQ(m.only_in_head, std::vector<std::string>{"new/1"});
}

// Shards of a large suite are moved into the merged run, which is reserved for all their rows,
// and each shard's storage goes once its rows are moved: measured by tare's own accounting, the
// merge never holds more than the merged rows and the names' index beside what it was given. A
// vector grown row by row held half as many rows again while it moved them, and a map of the
// names held each name once more.
TEST(compare_merge, merging_holds_the_rows_once) {
    if (!alloc::available())
        GTEST_SKIP() << "built without the interposer (the sanitizer owns malloc)";
    constexpr std::size_t per_shard = 3000;
    std::vector<merge_input> inputs;
    for (const char* host : {"a", "b"}) {
        std::vector<std::string> names;
        for (std::size_t i = 0; i < per_shard; ++i)
            names.push_back(std::string("shard_") + host + "/a_longer_benchmark_name/" + std::to_string(i));
        inputs.push_back({std::string(host) + ".json", shard_file(host, std::move(names))});
    }
    constexpr auto rows = static_cast<std::int64_t>(2 * per_shard);
    alloc::region_begin();
    auto merged = merge_results(std::move(inputs));
    const alloc::counters c = alloc::snapshot();
    alloc::region_end();
    ASSERT_TRUE(std::holds_alternative<run_results>(merged));
    ASSERT_EQ(std::get<run_results>(merged).benchmarks.size(), static_cast<std::size_t>(rows));
    const auto row_bytes = static_cast<std::int64_t>(sizeof(benchmark_result));
    EXPECT_LT(c.peak, rows * (row_bytes + 128))
        << c.peak / rows << " B a row at the peak, a row is " << row_bytes;
}

}  // namespace
}  // namespace tare::compare
