// `tare compare --rename`: head's benchmarks paired under base's names, live (each side runs its
// own benchmark) and from files; the note that names the closest match of a name one side alone
// has; and rules that would pair two of head's benchmarks as one, refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "executables.hpp"
#include "run_process.hpp"
#include "scratch.hpp"

namespace tare {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::run_process;
using test::scratch;

// Head's `only_in_head` is compared as base's `spin`, and head's own `spin` moves out of the way;
// the filter picks by the names rows are paired by.
TEST(compare_rename, two_executables_pair_a_renamed_benchmark_and_each_side_runs_its_own) {
    const fs::path out = scratch("renamed.json");
    auto r = run_process({tare_cmd, "compare", compare_base, compare_head, "--rounds=2", "--min-time=0.05",
                          "--samples=4", "--rename=^spin$=spin_before", "--rename=^only_in_head$=spin",
                          "--filter=^spin", "--json=" + out.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("paired by --rename: head's only_in_head as spin"), std::string::npos) << r.out;
    const json doc = read_json(out);
    ASSERT_EQ(doc["rows"].size(), 1U) << doc.dump(2);
    const json& row = doc["rows"][0];
    EXPECT_EQ(row["name"], "spin");
    EXPECT_EQ(row["head_name"], "only_in_head");
    EXPECT_GT(row["head"]["samples"].get<int>(), 0) << row.dump(2);  // head ran its own benchmark
    EXPECT_TRUE(row["head"]["error"].is_null()) << row.dump(2);
    EXPECT_EQ(doc["only_in_head"], json::array({"spin"})) << doc.dump(2);  // head's own name
    EXPECT_EQ(doc["only_in_base"], json::array());
}

TEST(compare_rename, rules_that_make_two_of_heads_benchmarks_one_are_refused) {
    // The flag before BASE and HEAD: one rule a flag, the paths after it are not rules.
    auto r = run_process({tare_cmd, "compare", "--rename=^only_in_head$=spin", compare_base, compare_head,
                          "--rounds=1", "--min-time=0.02"});
    EXPECT_EQ(r.exit_code, 2) << r.err << r.out;
    EXPECT_NE(r.err.find("'spin' and 'only_in_head' both become 'spin'"), std::string::npos) << r.err;
    auto bad = run_process({tare_cmd, "compare", compare_base, compare_head, "--rename=spin"});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("expected REGEX=REPLACEMENT"), std::string::npos) << bad.err;
}

// A release that renamed a benchmark: the table names the closest match and the flag that pairs
// it; with the flag, the files pair.
TEST(compare_rename, two_files_name_the_closest_match_and_pair_with_the_flag) {
    const fs::path a = scratch("a.json");
    const fs::path b = scratch("b.json");
    ASSERT_EQ(
        run_process({compare_base, "--filter=^spin$|^allocate$", "--min-time=0.02", "--json=" + a.string()})
            .exit_code,
        0);
    json renamed = read_json(a);
    for (json& row : renamed["benchmarks"]) {
        if (row["name"] == "spin") {
            row["name"] = "spin/0";  // the release added an argument
        }
    }
    std::ofstream(b) << renamed.dump();
    auto plain = run_process({tare_cmd, "compare", a.string(), b.string()});
    ASSERT_EQ(plain.exit_code, 0) << plain.err << plain.out;
    EXPECT_NE(plain.out.find("only in base: spin (closest in head: spin/0)"), std::string::npos) << plain.out;
    EXPECT_NE(plain.out.find("--rename='REGEX=REPLACEMENT'"), std::string::npos) << plain.out;

    const fs::path out = scratch("paired.json");
    auto paired =
        run_process({tare_cmd, "compare", a.string(), b.string(), "--rename=/0$=", "--json=" + out.string()});
    ASSERT_EQ(paired.exit_code, 0) << paired.err << paired.out;
    const json doc = read_json(out);
    EXPECT_EQ(doc["rows"].size(), 2U) << doc.dump(2);
    EXPECT_EQ(doc["only_in_base"], json::array());
    EXPECT_EQ(doc["only_in_head"], json::array());
    EXPECT_EQ(doc["rows"][0]["name"], "spin");
    EXPECT_EQ(doc["rows"][0]["head_name"], "spin/0");
    EXPECT_FALSE(doc["rows"][1].contains("head_name")) << doc["rows"][1].dump();
}

}  // namespace
}  // namespace tare
