// `tare history` end to end: a benchmark executable's real results, made into a history of a
// slower build and an extra allocation at known commits, added run by run and checked
// (docs/history.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "executables.hpp"
#include "run_process.hpp"
#include "scratch.hpp"
#include "text_helpers.hpp"

namespace tare {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::run_process;
using test::scratch;

void scale_time(json& b, double factor) {
    for (auto& [key, value] : b["time_ns"].items()) {
        if (value.is_number())
            value = value.get<double>() * factor;
    }
    for (auto& v : b["samples_ns"])
        v = v.get<double>() * factor;
}

std::string commit_of(std::size_t i) {
    return "c0ffee" + std::to_string(10 + i) + "00000000000000000000000000000000";
}

// Twelve runs made from one real one: every time wobbles by about 1 %; round_trip/1000 is 15 %
// slower from run 6 on; round_trip/1 allocates once more from run 9 on.
class history_cli : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        const fs::path base = scratch("base.json");
        auto r = run_process(
            {contract_bench, "--filter=^round_trip/", "--min-time=0.02", "--json=" + base.string()});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const json original = json::parse(slurp(base));
        for (std::size_t i = 0; i < 12; ++i) {
            json run = original;
            for (json& b : run["benchmarks"]) {
                scale_time(b, 1 + 0.01 * std::sin(static_cast<double>(i) * 2.4));
                if (b["name"] == "round_trip/1000" && i >= 6)
                    scale_time(b, 1.15);
                if (b["name"] == "round_trip/1")
                    b["allocs_per_iter"] = i >= 9 ? 3 : 2;
            }
            std::ofstream(scratch("run" + std::to_string(i) + ".json")) << run.dump(1);
        }
    }

    static std::string db() { return scratch("h.db").string(); }

    static void add_all() {
        for (std::size_t i = 0; i < 12; ++i) {
            const std::string day = (i < 9 ? "0" : "") + std::to_string(i + 1);
            auto r = run_process({tare_cmd, "history", "add",
                                  scratch("run" + std::to_string(i) + ".json").string(), "--db=" + db(),
                                  "--commit=" + commit_of(i), "--branch=main",
                                  "--date=2026-11-" + day + "T09:00:00Z"});
            ASSERT_EQ(r.exit_code, 0) << r.err;
            EXPECT_NE(r.out.find("as run " + std::to_string(i + 1)), std::string::npos) << r.out;
        }
    }
};

TEST_F(history_cli, a_slower_build_and_an_extra_allocation_are_found_at_their_commits) {
    add_all();
    auto r = run_process({tare_cmd, "history", "check", "--db=" + db()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("branch main · 12 runs"), std::string::npos) << r.out;
    // round_trip/1000's time, between the sixth run's commit and the seventh's.
    const std::string slower = "round_trip/1000  time";
    const auto row = r.out.find(slower);
    ASSERT_NE(row, std::string::npos) << r.out;
    const std::string line = r.out.substr(row, r.out.find('\n', row) - row);
    EXPECT_NE(line.find(commit_of(5).substr(0, 7) + " → " + commit_of(6).substr(0, 7)), std::string::npos)
        << line;
    EXPECT_NE(line.find("regression"), std::string::npos) << line;
    // round_trip/1's allocations, exactly, and among the newest five runs: at the head.
    EXPECT_NE(r.out.find("+50.00%"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("regressed among the newest 5 runs: round_trip/1 at " + commit_of(9).substr(0, 7)),
              std::string::npos)
        << r.out;
    // Nothing else moved.
    EXPECT_NE(r.out.find("2 changes"), std::string::npos) << r.out;

    auto gate = run_process({tare_cmd, "history", "check", "--db=" + db(), "--fail-on-regression"});
    EXPECT_EQ(gate.exit_code, 1) << gate.out << gate.err;
    auto older =
        run_process({tare_cmd, "history", "check", "--db=" + db(), "--fail-on-regression", "--recent=2"});
    EXPECT_EQ(older.exit_code, 0) << older.out;
    auto js = run_process({tare_cmd, "history", "check", "--db=" + db(), "--json=-"});
    EXPECT_EQ(js.exit_code, 0) << js.err;
    const json doc = json::parse(js.out);  // standard output holds the JSON alone
    EXPECT_EQ(doc["schema"], "tare-history-check/1");
    EXPECT_EQ(doc["changes"].size(), 2U);
    EXPECT_EQ(doc["changes"][0]["measures"][0]["measure"], "allocs_per_iter");
    EXPECT_EQ(doc["changes"][0]["after"]["commit"], commit_of(9));
    EXPECT_NE(js.err.find("round_trip/1000"), std::string::npos);  // the table, on standard error
    const std::string page = scratch("history.html").string();
    auto html = run_process({tare_cmd, "history", "report", "--db=" + db(), "--html=" + page});
    EXPECT_EQ(html.exit_code, 0) << html.err;
    const std::string text = slurp(page);
    EXPECT_NE(text.find("<g class=\"change regression\">"), std::string::npos);
    EXPECT_NE(text.find(commit_of(6).substr(0, 7)), std::string::npos);
    auto no_page = run_process({tare_cmd, "history", "report", "--db=" + db()});
    EXPECT_EQ(no_page.exit_code, 2);
    EXPECT_NE(no_page.err.find("--html=PATH is required"), std::string::npos) << no_page.err;
    // Out to github-action-benchmark's data.js and back into a new store: the same change points.
    const std::string data = scratch("data.js").string();
    auto out =
        run_process({tare_cmd, "history", "export", "--db=" + db(), "--format=gab-data", "--output=" + data});
    ASSERT_EQ(out.exit_code, 0) << out.err;
    const std::string moved = scratch("moved.db").string();
    auto in = run_process({tare_cmd, "history", "import", data, "--db=" + moved});
    EXPECT_EQ(in.exit_code, 0) << in.err;
    EXPECT_EQ(in.out, "imported 12 runs from " + data + "\n");
    auto again = run_process({tare_cmd, "history", "check", "--db=" + moved});
    EXPECT_NE(again.out.find(line), std::string::npos) << again.out;
    EXPECT_NE(again.out.find("2 changes"), std::string::npos) << again.out;
    auto md = run_process({tare_cmd, "history", "check", "--db=" + db(), "--md"});
    EXPECT_NE(md.out.find("| `round_trip/1000` | time"), std::string::npos) << md.out;
}

// A pull request's run against main's level since each series' last change point: a run within
// main's noise is no change; a slower time and an extra allocation are, and fail the gate.
TEST_F(history_cli, a_head_run_is_compared_with_the_level_since_the_last_change_point) {
    add_all();
    const json original = json::parse(slurp(scratch("run11.json")));
    json same = original;
    json worse = original;
    for (json& b : same["benchmarks"])
        scale_time(b, 1 + 0.01 * std::sin(12 * 2.4) / (1 + 0.01 * std::sin(11 * 2.4)));
    // Each against its own level: round_trip/1000's time since it rose at the seventh run (six
    // runs), round_trip/1's allocations since their step at the tenth (three). Set here, not taken
    // from the real run, so that a build without the interposer has them too.
    for (json& b : worse["benchmarks"]) {
        if (b["name"] == "round_trip/1000")
            scale_time(b, 1.3);
        if (b["name"] == "round_trip/1")
            b["allocs_per_iter"] = 4;
    }
    std::ofstream(scratch("same.json")) << same.dump(1);
    std::ofstream(scratch("worse.json")) << worse.dump(1);

    auto quiet = run_process({tare_cmd, "history", "check", "--db=" + db(),
                              "--head=" + scratch("same.json").string(), "--fail-on-regression"});
    EXPECT_EQ(quiet.exit_code, 0) << quiet.out << quiet.err;
    EXPECT_NE(quiet.out.find("head: " + scratch("same.json").string() + " against main"), std::string::npos)
        << quiet.out;
    EXPECT_NE(quiet.out.find("No change: the head is at main's level in every measure compared."),
              std::string::npos)
        << quiet.out;

    auto md = run_process({tare_cmd, "history", "check", "--db=" + db(),
                           "--head=" + scratch("worse.json").string(), "--fail-on-regression", "--md"});
    EXPECT_EQ(md.exit_code, 1) << md.out << md.err;
    // A row of the head's table, below the branch's own change points.
    const auto row_of = [&](const std::string& benchmark, const std::string& measure) {
        std::istringstream lines(md.out.substr(std::min(md.out.find("head: "), md.out.size())));
        for (std::string line; std::getline(lines, line);) {
            if (line.rfind("| `" + benchmark + "` ", 0) == 0 &&
                line.find("| " + measure + " ") != std::string::npos)
                return line;
        }
        return std::string();
    };
    const std::string time_row = row_of("round_trip/1000", "time");
    EXPECT_NE(time_row.find("| regression "), std::string::npos) << md.out;
    EXPECT_NE(time_row.find("| " + commit_of(6).substr(0, 7) + " · 6 runs |"), std::string::npos) << md.out;
    const std::string allocs_row = row_of("round_trip/1", "allocs/iter");
    EXPECT_NE(allocs_row.find("3 → 4"), std::string::npos) << md.out;
    EXPECT_NE(allocs_row.find("+33.33% exact"), std::string::npos) << md.out;
    EXPECT_NE(allocs_row.find(" · 3 runs |"), std::string::npos) << md.out;
    EXPECT_NE(md.out.find("regressed against main: round_trip/1 allocs/iter, round_trip/1000 time"),
              std::string::npos)
        << md.out;
    auto js = run_process({tare_cmd, "history", "check", "--db=" + db(),
                           "--head=" + scratch("worse.json").string(), "--json=-"});
    const json doc = json::parse(js.out);
    ASSERT_EQ(doc["head"]["changes"].size(), 2U) << js.out;
    EXPECT_EQ(doc["head"]["changes"][0]["exact"], true);
    EXPECT_EQ(doc["head"]["changes"][0]["runs"], 3);
    EXPECT_EQ(doc["head"]["changes"][0]["since"], commit_of(9));
    EXPECT_EQ(doc["head"]["changes"][1]["direction"], "regression");
    EXPECT_EQ(doc["head"]["changes"][1]["runs"], 6);
    EXPECT_LE(doc["head"]["changes"][1]["p_value"].get<double>(), 0.01);

    auto bad = run_process({tare_cmd, "history", "check", "--db=" + db(), "--alpha=2"});
    EXPECT_EQ(bad.exit_code, 2) << bad.out;
    // Below 1/200 the permutation test could never reject: refused, not silently blind.
    auto blind = run_process({tare_cmd, "history", "check", "--db=" + db(), "--alpha=0.001"});
    EXPECT_EQ(blind.exit_code, 2) << blind.out;
    // --side chooses a side of --head's file; alone it would be ignored.
    auto side = run_process({tare_cmd, "history", "check", "--db=" + db(), "--side=base"});
    EXPECT_EQ(side.exit_code, 2) << side.out;
    EXPECT_NE(side.err.find("--side requires --head"), std::string::npos) << side.err;
    auto missing = run_process(
        {tare_cmd, "history", "check", "--db=" + db(), "--head=" + scratch("nope.json").string()});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("nope.json: no such file"), std::string::npos) << missing.err;
}

TEST_F(history_cli, a_file_added_twice_is_kept_once_and_a_bad_one_changes_nothing) {
    const std::string file = scratch("run0.json").string();
    const std::string once = scratch("once.db").string();
    auto first =
        run_process({tare_cmd, "history", "add", file, "--db=" + once, "--commit=abc", "--branch=main"});
    ASSERT_EQ(first.exit_code, 0) << first.err;
    auto again =
        run_process({tare_cmd, "history", "add", file, "--db=" + once, "--commit=abc", "--branch=main"});
    EXPECT_EQ(again.exit_code, 0) << again.err;
    EXPECT_NE(again.err.find("already in the history as run 1"), std::string::npos) << again.err;

    std::ofstream(scratch("bad.json")) << "{\"schema\": \"tare/1\",\n  \"benchmarks\": [}\n";
    auto bad = run_process({tare_cmd, "history", "add", file, scratch("bad.json").string(), "--db=" + once,
                            "--commit=def", "--branch=main"});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find(scratch("bad.json").string() + ":2:"), std::string::npos) << bad.err;
    auto list = run_process({tare_cmd, "history", "list", "--db=" + once});
    EXPECT_EQ(list.out, "main: 1 run\n");  // the good file of the failed add was not added either

    auto missing = run_process({tare_cmd, "history", "check", "--db=" + scratch("none.db").string()});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("none.db: no such file"), std::string::npos) << missing.err;
    auto date = run_process({tare_cmd, "history", "add", file, "--db=" + once, "--commit=x", "--branch=main",
                             "--date=last tuesday"});
    EXPECT_EQ(date.exit_code, 2);
    EXPECT_NE(date.err.find("--date: 'last tuesday' is not an ISO 8601 date"), std::string::npos) << date.err;
}

// Real runs of two builds, counted rather than timed (a loaded machine's timings of a few runs
// can hide even a threefold step; counts cannot): four of the base, then four of a head whose
// `spin` does three times the work and whose `allocate` allocates nothing. The history finds
// both, exactly, at the first head run.
TEST(history_builds, a_slower_build_is_found_at_its_first_run) {
    if (TARE_SANITIZED)
        GTEST_SKIP() << "Valgrind cannot run a sanitizer build";
    const std::string store = scratch("builds.db").string();
    for (std::size_t i = 0; i < 8; ++i) {
        const std::string json_path = scratch("build" + std::to_string(i) + ".json").string();
        auto r = run_process({i < 4 ? compare_base : compare_head, "--filter=^(spin|allocate)$",
                              "--instrument=instructions", "--json=" + json_path});
        if (r.exit_code == 2 && r.err.find("valgrind") != std::string::npos)
            GTEST_SKIP() << r.err;
        ASSERT_EQ(r.exit_code, 0) << r.err;
        auto added =
            run_process({tare_cmd, "history", "add", json_path, "--db=" + store, "--commit=" + commit_of(i),
                         "--branch=main", "--date=2026-11-" + std::to_string(10 + i) + "T09:00:00Z"});
        ASSERT_EQ(added.exit_code, 0) << added.err;
    }
    auto r = run_process({tare_cmd, "history", "check", "--db=" + store, "--json=-"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json doc = json::parse(r.out);
    std::map<std::string, std::string> found;  // benchmark and measure: direction
    for (const json& c : doc["changes"]) {
        EXPECT_EQ(c["after"]["commit"], commit_of(4)) << c.dump();
        for (const json& m : c["measures"])
            found[c["benchmark"].get<std::string>() + " " + m["measure"].get<std::string>()] = m["direction"];
    }
    EXPECT_EQ(found["spin instructions"], "regression") << r.out;
    if (TARE_ACCOUNTING_EXPECTED) {
        EXPECT_EQ(found["allocate allocs_per_iter"], "improvement") << r.out;
    }
}

// A command with commands of its own gets the same help with typos as the top level.
TEST(history_cli_words, a_misspelt_or_missing_command_is_named) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
        {{"history", "chek"}, "error: 'chek' is not a tare history command; did you mean 'check'?\n"},
        {{"history"},
         "error: tare history: a command is required (add, check, report, export, import or list)\n"},
        {{"history", "add"}, "error: tare history add: no results file given (tare history add FILE...)\n"},
        {{"history", "check", "--db"},
         "error: tare history check: --db needs a value: --db=PATH (tare history check --help says what it "
         "takes)\n"},
    };
    for (const auto& [args, err] : cases) {
        std::vector<std::string> argv{tare_cmd};
        argv.insert(argv.end(), args.begin(), args.end());
        auto r = run_process(argv);
        EXPECT_EQ(r.exit_code, 2) << args.back();
        EXPECT_EQ(r.err, err);
    }
}

}  // namespace
}  // namespace tare
