// Copied and set bytes (tare::copies) on bodies whose truth is known (copies_bench.cpp): exact
// per iteration, setup excluded, another thread's copies included; absent, never 0, without
// tare::copies linked. docs/accounting.md, "Bytes copied".
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "run_process.hpp"
#include "scratch.hpp"
#include "text_helpers.hpp"

namespace tare {
namespace {

using nlohmann::json;

std::map<std::string, json> run(const char* exe) {
    auto r = test::run_process({exe, "--json=-"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::map<std::string, json> out;
    json doc = json::parse(r.out, nullptr, false);
    if (doc.is_discarded()) {
        ADD_FAILURE() << r.out;
        return out;
    }
    for (const json& b : doc["benchmarks"])
        out[b["name"].get<std::string>()] = b;
    return out;
}

TEST(copies, the_bytes_of_each_call_are_counted_exactly) {
    if (!TARE_ACCOUNTING_EXPECTED || TARE_SANITIZED) {
        // Sanitizers intercept memcpy themselves: the figures are absent, never invented.
        for (const auto& [name, b] : run(TARE_COPIES_BENCH))
            EXPECT_FALSE(b.contains("copied_bytes_per_iter")) << name;
        GTEST_SKIP() << "no copy counting in this build";
    }
    auto r = run(TARE_COPIES_BENCH);
    ASSERT_EQ(r.size(), 5U);
    // 1 MiB memcpy + 4 KiB memmove; setup's 8 MiB copy is outside the region.
    EXPECT_EQ(r["copy_and_move"]["copied_bytes_per_iter"], 1052672.0) << r["copy_and_move"].dump();
    EXPECT_EQ(r["copy_and_move"]["set_bytes_per_iter"], 0.0);
    // A vector<int> of 1,000 copied: 4,000 bytes.
    EXPECT_EQ(r["vector_copy"]["copied_bytes_per_iter"], 4000.0) << r["vector_copy"].dump();
    EXPECT_EQ(r["vector_copy"]["allocs_per_iter"], 1.0);
    // A copy made inside a shared library is counted too.
    EXPECT_EQ(r["library_copy"]["copied_bytes_per_iter"], 4096.0) << r["library_copy"].dump();
    // memset is its own figure.
    EXPECT_EQ(r["set_64k"]["set_bytes_per_iter"], 65536.0);
    EXPECT_EQ(r["set_64k"]["copied_bytes_per_iter"], 0.0);
    // Another thread's copy in the region counts too (its start-up may copy a little more).
    EXPECT_GE(r["copy_in_a_thread"]["copied_bytes_per_iter"].get<double>(), 65536.0);
    EXPECT_LT(r["copy_in_a_thread"]["copied_bytes_per_iter"].get<double>(), 65536.0 + 4096);
}

TEST(copies, without_tare_copies_the_figures_are_absent) {
    for (const auto& [name, b] : run(TARE_COPIES_BENCH_PLAIN)) {
        EXPECT_FALSE(b.contains("copied_bytes_per_iter")) << name;
        EXPECT_FALSE(b.contains("set_bytes_per_iter")) << name;
    }
}

TEST(copies, the_table_shows_them_only_when_counted) {
    auto with = test::run_process({TARE_COPIES_BENCH, "--filter=^vector_copy$"});
    auto without = test::run_process({TARE_COPIES_BENCH_PLAIN, "--filter=^vector_copy$"});
    EXPECT_EQ(without.out.find("copied/iter"), std::string::npos);
    if (TARE_ACCOUNTING_EXPECTED && !TARE_SANITIZED) {
        EXPECT_NE(with.out.find("copied/iter"), std::string::npos) << with.out;
        EXPECT_NE(with.out.find("3.91 KiB"), std::string::npos) << with.out;
        // Read back from the JSON, `tare run FILE` shows the same figures.
        const std::string file = test::scratch("copies.json").string();
        ASSERT_EQ(
            test::run_process({TARE_COPIES_BENCH, "--filter=^vector_copy$", "--json=" + file}).exit_code, 0);
        auto again = test::run_process({TARE_COMMAND, "run", file});
        EXPECT_EQ(again.exit_code, 0) << again.err;
        EXPECT_NE(again.out.find("copied/iter"), std::string::npos) << again.out;
        EXPECT_NE(again.out.find("3.91 KiB"), std::string::npos) << again.out;
    }
}

// tare compare carries them for both sides: of executables (from each round's own result, over
// the samples it timed) and of results files; absent where a side does not count them.
TEST(copies, a_comparison_shows_both_sides_copies) {
    const std::string out = test::scratch("copies_compare.json").string();
    auto r = test::run_process({TARE_COMMAND, "compare", TARE_COPIES_BENCH, TARE_COPIES_BENCH, "--rounds=2",
                                "--min-time=0.05", "--filter=^copy_and_move$", "--json=" + out});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json doc = json::parse(slurp(out), nullptr, false);
    ASSERT_FALSE(doc.is_discarded());
    ASSERT_EQ(doc["rows"].size(), 1U);
    const json& row = doc["rows"][0];
    if (!TARE_ACCOUNTING_EXPECTED || TARE_SANITIZED) {
        EXPECT_FALSE(row["base"].contains("copied_bytes_per_iter")) << row.dump();
        return;
    }
    EXPECT_EQ(row["base"]["copied_bytes_per_iter"], 1052672.0) << row.dump();
    EXPECT_EQ(row["head"]["copied_bytes_per_iter"], 1052672.0);
    EXPECT_NE(r.out.find("copied/iter"), std::string::npos) << r.out;
    // Against a side without tare::copies: that side has none, and the table says "—" there.
    auto mixed =
        test::run_process({TARE_COMMAND, "compare", TARE_COPIES_BENCH, TARE_COPIES_BENCH_PLAIN, "--rounds=2",
                           "--min-time=0.05", "--filter=^copy_and_move$", "--json=" + out});
    ASSERT_EQ(mixed.exit_code, 0) << mixed.err;
    doc = json::parse(slurp(out), nullptr, false);
    EXPECT_EQ(doc["rows"][0]["base"]["copied_bytes_per_iter"], 1052672.0);
    EXPECT_FALSE(doc["rows"][0]["head"].contains("copied_bytes_per_iter"));
    // Only base pays for counting its copies, so its time is not the head's to compare with
    // (docs/compare.md, "Mixed instrumentation").
    ASSERT_EQ(doc["context"]["mixed_instrumentation"].size(), 1U) << doc["context"].dump();
    EXPECT_EQ(doc["context"]["mixed_instrumentation"][0]["kind"], "copies");
    EXPECT_TRUE(doc["rows"][0]["not_judged"].is_string()) << doc["rows"][0].dump();
    EXPECT_NE(mixed.out.find("MIXED INSTRUMENTATION: base counts copied bytes"), std::string::npos)
        << mixed.out;
}

}  // namespace
}  // namespace tare
