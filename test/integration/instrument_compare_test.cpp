// tare compare --instrument on the A/B study's builds (bench/ab: one program built twice, and with
// 0.1 %, 1 %, 2 % and 5 % more elements of data): no verdict between the identical builds, every
// injected change found with its sign and its size, from executables and from stored files; and
// comparison groups counted side by side. docs/instructions.md, "Verdicts".
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "run_process.hpp"
#include "scratch.hpp"

namespace tare {
namespace {

using nlohmann::json;

const std::string ab = TARE_AB_DIR;

struct compared {
    int status = -1;
    json doc;
    std::map<std::string, json> rows;
    std::string err;
};

compared compare(const std::vector<std::string>& args) {
    const auto path = test::scratch("compare.json").string();
    std::vector<std::string> argv{TARE_COMMAND, "compare"};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back("--json=" + path);
    auto r = test::run_process(argv);
    compared out;
    out.status = r.exit_code;
    out.err = r.err + r.out;
    auto read = test::run_process({"/bin/cat", path});
    out.doc = json::parse(read.out, nullptr, false);
    if (!out.doc.is_discarded() && out.doc.contains("rows"))
        for (const json& row : out.doc["rows"])
            out.rows[row["name"].get<std::string>()] = row;
    return out;
}

bool sanitized_skip() {
    if (!TARE_SANITIZED)
        return false;
    auto r = compare({"--instrument=instructions", ab + "/ab_a1", ab + "/ab_a2"});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("sanitizer build"), std::string::npos) << r.err;
    return true;
}

TEST(instrument_compare, identical_builds_give_no_verdict_in_any_row) {
    if (sanitized_skip())
        GTEST_SKIP() << "a sanitizer build";
    auto r = compare({"--instrument=instructions", "--fail-on-regression", ab + "/ab_a1", ab + "/ab_a2"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.doc["context"]["mode"], "counted");
    ASSERT_EQ(r.rows.size(), 4U) << r.err;
    for (const auto& [name, row] : r.rows) {
        EXPECT_EQ(row["verdict"], "no_change") << name;
        EXPECT_EQ(row["change_pct"]["mean"], 0.0) << name;  // not close: equal
        EXPECT_EQ(row["base"]["instructions_per_iter"], row["head"]["instructions_per_iter"]) << name;
        EXPECT_TRUE(row["base"]["time_ns"]["mean"].is_null()) << name;  // counted, not timed
    }
}

TEST(instrument_compare, every_injected_change_is_found_with_its_size) {
    if (sanitized_skip())
        GTEST_SKIP() << "a sanitizer build";
    // hash_64k's and parse_csv's work grows as their elements do, so their change is the
    // injected one. sort_2k and map_500 grow as n log n, and their random keys change with n: their
    // sign is checked, and that they grow by more than the elements. map_500's 500 elements gain
    // none at 0.1 % (500 x 1.001 rounds down to 500): no verdict is right there.
    for (const auto& [build, injected] : std::vector<std::pair<std::string, double>>{
             {"ab_slow1", 0.1}, {"ab_slow10", 1}, {"ab_slow20", 2}, {"ab_slow50", 5}}) {
        auto r =
            compare({"--instrument=instructions", "--fail-on-regression", ab + "/ab_a1", ab + "/" + build});
        EXPECT_EQ(r.status, 1) << build << r.err;  // a regression, as --fail-on-regression asks
        ASSERT_EQ(r.rows.size(), 4U) << r.err;
        for (const auto& [name, row] : r.rows) {
            if (name == "map_500" && injected < 1) {
                EXPECT_EQ(row["verdict"], "no_change") << build;
                continue;
            }
            EXPECT_EQ(row["verdict"], "slower") << build << " " << name << row.dump();
            const double change = row["change_pct"]["mean"].get<double>();
            if (name == "sort_2k" || name == "map_500") {
                EXPECT_GT(change, injected) << build << " " << name;
            } else {
                EXPECT_NEAR(change, injected, 0.1) << build << " " << name;
            }
        }
    }
}

#if defined(TARE_AB_GBENCH)
// The same bodies as Google Benchmark suites linked with tare::gbench, counted through its hooks:
// the identical pair gives exactly 0, the 2 % build its 2 %.
TEST(instrument_compare, google_benchmark_suites_are_counted_alike) {
    if (sanitized_skip())
        GTEST_SKIP() << "a sanitizer build";
    auto same = compare({"--instrument=instructions", ab + "/gbw_ab_a1", ab + "/gbw_ab_a2"});
    EXPECT_EQ(same.status, 0) << same.err;
    ASSERT_EQ(same.rows.size(), 4U) << same.err;
    for (const auto& [name, row] : same.rows) {
        EXPECT_EQ(row["verdict"], "no_change") << name;
        EXPECT_EQ(row["change_pct"]["mean"], 0.0) << name;
    }
    auto slow = compare({"--instrument=instructions", "--profile=" + test::scratch("gb_profiles").string(),
                         ab + "/gbw_ab_a1", ab + "/gbw_ab_slow20"});
    ASSERT_EQ(slow.rows.size(), 4U) << slow.err;
    for (const char* name : {"hash_64k", "parse_csv"}) {
        EXPECT_EQ(slow.rows[name]["verdict"], "slower") << name;
        EXPECT_NEAR(slow.rows[name]["change_pct"]["mean"].get<double>(), 2.0, 0.1) << name;
        // A suite's profile is its loop's too: the body the change slowed is named first.
        ASSERT_TRUE(slow.rows[name].contains("changed_functions")) << slow.rows[name].dump();
        EXPECT_NE(slow.rows[name]["changed_functions"][0]["function"].get<std::string>().find(
                      std::string(name) + "(benchmark::State&)"),
                  std::string::npos)
            << slow.rows[name].dump();
    }
}
#endif

TEST(instrument_compare, stored_counts_compare_as_the_executables_do) {
    if (sanitized_skip())
        GTEST_SKIP() << "a sanitizer build";
    const auto base = test::scratch("base.json").string();
    const auto head = test::scratch("head.json").string();
    const auto timed = test::scratch("timed.json").string();
    for (const auto& [exe, path] : {std::pair{ab + "/ab_a1", base}, std::pair{ab + "/ab_slow20", head}}) {
        auto run = test::run_process(
            {TARE_COMMAND, "run", exe, "--instrument=instructions", "--filter=^hash_64k$", "--json=" + path});
        ASSERT_EQ(run.exit_code, 0) << run.err;
    }
    auto r = compare({base, head});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.doc["context"]["mode"], "counted");
    ASSERT_EQ(r.rows.count("hash_64k"), 1U) << r.err;
    EXPECT_EQ(r.rows["hash_64k"]["verdict"], "slower");
    EXPECT_NEAR(r.rows["hash_64k"]["change_pct"]["mean"].get<double>(), 2.0, 0.1);
    EXPECT_EQ(r.doc["base_context"]["instrument"].get<std::string>().find("callgrind") != std::string::npos,
              true);
    // --instrument runs executables: with files it is refused, and the message says how files compare.
    auto flagged = compare({"--instrument=instructions", base, head});
    EXPECT_EQ(flagged.status, 2);
    EXPECT_NE(flagged.err.find("--instrument runs executables; these are results files"), std::string::npos)
        << flagged.err;
    // Counts against times is no comparison: refused, with both files named by what they hold.
    auto run = test::run_process(
        {TARE_COMMAND, "run", ab + "/ab_a1", "--filter=^hash_64k$", "--min-time=0.05", "--json=" + timed});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    auto mixed = compare({base, timed});
    EXPECT_EQ(mixed.status, 2);
    EXPECT_NE(mixed.err.find("base was counted (--instrument) and head was timed"), std::string::npos)
        << mixed.err;
}

// --profile: the function each injected change slowed is named first, with the change's size; an
// unchanged program names none; each side's profile files are written.
TEST(instrument_compare, profiles_name_the_function_a_change_slowed) {
    if (sanitized_skip())
        GTEST_SKIP() << "a sanitizer build";
    const auto dir = test::scratch("profiles");
    const std::string only = "--filter=^(hash_64k|parse_csv|map_500)$";
    auto slow = compare(
        {"--instrument=instructions", "--profile=" + dir.string(), only, ab + "/ab_a1", ab + "/ab_slow20"});
    EXPECT_EQ(slow.status, 0) << slow.err;
    ASSERT_EQ(slow.rows.size(), 3U) << slow.err;
    // The map's 2 % more elements are 2 % more allocations, at the one stack that makes them.
    const json& map = slow.rows["map_500"];
    ASSERT_TRUE(map.contains("changed_allocation_stacks")) << map.dump();
    ASSERT_EQ(map["changed_allocation_stacks"].size(), 1U) << map.dump();
    EXPECT_EQ(map["changed_allocation_stacks"][0]["base_allocs_per_iter"], 500.0);
    EXPECT_EQ(map["changed_allocation_stacks"][0]["head_allocs_per_iter"], 510.0);
    EXPECT_NE(slow.err.find("allocations: map_500: 500 → 510 allocs/iter"), std::string::npos) << slow.err;
    for (const auto& [name, row] : slow.rows) {
        if (name == "map_500")
            continue;
        EXPECT_FALSE(row.contains("changed_allocation_stacks")) << row.dump();  // they allocate nothing
        ASSERT_TRUE(row.contains("changed_functions")) << row.dump();
        const json& top = row["changed_functions"][0];
        EXPECT_NE(top["function"].get<std::string>().find(name + "(tare::State&)"), std::string::npos) << top;
        EXPECT_NEAR(top["head"].get<double>() / top["base"].get<double>(), 1.02, 0.003) << top;
        EXPECT_NE(
            slow.err.find("functions: " + name + ": own instructions/iter: " + name + "(tare::State&) "),
            std::string::npos)
            << slow.err;
        for (const char* side : {"base", "head"}) {
            EXPECT_TRUE(std::filesystem::exists(dir / side / (name + ".speedscope.json"))) << side;
            EXPECT_TRUE(std::filesystem::exists(dir / side / (name + ".instructions.folded"))) << side;
        }
    }
    auto same = compare(
        {"--instrument=instructions", "--profile=" + dir.string(), only, ab + "/ab_a1", ab + "/ab_a2"});
    EXPECT_EQ(same.status, 0) << same.err;
    ASSERT_EQ(same.rows.size(), 3U) << same.err;
    for (const auto& [name, row] : same.rows) {
        EXPECT_FALSE(row.contains("changed_functions")) << row.dump();
        EXPECT_FALSE(row.contains("changed_allocation_stacks")) << row.dump();
    }
    EXPECT_EQ(same.err.find("functions:"), std::string::npos) << same.err;
    EXPECT_EQ(same.err.find("allocations:"), std::string::npos) << same.err;
    // Timed comparisons have no profiles to compare: refused, with what to give.
    auto timed = compare({"--profile=" + dir.string(), ab + "/ab_a1", ab + "/ab_a2"});
    EXPECT_EQ(timed.status, 2);
    EXPECT_NE(timed.err.find("--profile compares the profiles of counted runs"), std::string::npos)
        << timed.err;
}

// Two files recorded with tare run --instrument=instructions --profile compare by function too.
TEST(instrument_compare, stored_profiles_compare_by_function) {
    if (sanitized_skip())
        GTEST_SKIP() << "a sanitizer build";
    const auto base = test::scratch("profiled_base.json").string();
    const auto head = test::scratch("profiled_head.json").string();
    for (const auto& [exe, path] : {std::pair{ab + "/ab_a1", base}, std::pair{ab + "/ab_slow20", head}}) {
        auto run =
            test::run_process({TARE_COMMAND, "run", exe, "--instrument=instructions", "--filter=^parse_csv$",
                               "--profile=" + test::scratch("run_profiles").string(), "--json=" + path});
        ASSERT_EQ(run.exit_code, 0) << run.err;
        EXPECT_NE(run.out.find("profile: parse_csv: own instructions/iter: parse_csv(tare::State&) "),
                  std::string::npos)
            << run.out;
    }
    EXPECT_TRUE(std::filesystem::exists(test::scratch("run_profiles") / "parse_csv.speedscope.json"));
    auto r = compare({base, head});
    EXPECT_EQ(r.status, 0) << r.err;
    ASSERT_TRUE(r.rows["parse_csv"].contains("changed_functions")) << r.rows["parse_csv"].dump();
    EXPECT_NE(r.rows["parse_csv"]["changed_functions"][0]["function"].get<std::string>().find("parse_csv"),
              std::string::npos);
}

TEST(instrument_compare, comparison_groups_are_counted_side_by_side) {
    if (sanitized_skip())
        GTEST_SKIP() << "a sanitizer build";
    auto r = test::run_process(
        {TARE_VARIANTS_BENCH, "--instrument=instructions", "--filter=^(work|same)", "--json=-"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json doc = json::parse(r.out);
    std::map<std::string, json> groups;
    for (const json& c : doc["comparisons"])
        groups[c["group"].get<std::string>()] = c;
    ASSERT_EQ(groups.size(), 2U) << doc.dump();
    for (const auto& [name, c] : groups)
        EXPECT_EQ(c["instrument"], "callgrind") << name;
    // Three times the rounds of the same mixing: about three times the instructions.
    EXPECT_EQ(groups["work"]["verdict"], "slower");
    EXPECT_NEAR(groups["work"]["change_pct"]["mean"].get<double>(), 200, 10);
    // Two identical bodies count the same, to the instruction.
    EXPECT_EQ(groups["same"]["verdict"], "no_change");
    EXPECT_EQ(groups["same"]["change_pct"]["mean"], 0.0);
}

}  // namespace
}  // namespace tare
