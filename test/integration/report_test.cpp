// `tare report RESULTS.json --html=PATH` end to end: a real run's results become one
// self-contained page; unreadable input and a missing --html exit 2 (docs/cli.md). And `tare
// export` / `tare run --export`, which render a run's results for the services (docs/exports.md).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "executables.hpp"
#include "run_process.hpp"
#include "scratch.hpp"
#include "text_helpers.hpp"

namespace tare {
namespace {

namespace fs = std::filesystem;
using test::run_process;

using test::scratch;

TEST(tare_report, a_real_run_becomes_one_self_contained_page) {
    const fs::path results = scratch("run.json");
    // The throwing benchmark makes the run exit 1; its error row must reach the page too.
    auto made = run_process(
        {contract_bench, "--filter=round_trip|throws", "--min-time=0.01", "--json=" + results.string()});
    ASSERT_TRUE(made.exit_code == 0 || made.exit_code == 1) << made.err;
    ASSERT_TRUE(fs::exists(results)) << made.err;

    const fs::path page = scratch("out.html");
    auto r = run_process({tare_cmd, "report", results.string(), "--html=" + page.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const std::string html = slurp(page);
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0U) << html.substr(0, 200);
    EXPECT_NE(html.find("round_trip/1"), std::string::npos);
    EXPECT_NE(html.find("round_trip/1000"), std::string::npos);
    EXPECT_NE(html.find("<svg"), std::string::npos);
    EXPECT_NE(html.find("fixture exploded"), std::string::npos);
    EXPECT_EQ(html.find("http"), std::string::npos) << "no outside reference";
    EXPECT_EQ(html.substr(html.size() - 8), "</html>\n");
    // Written atomically: no temporary file left beside it.
    std::size_t files = 0;
    for (const auto& entry : fs::directory_iterator(page.parent_path())) {
        if (entry.path().filename().string().find("out.html") != std::string::npos)
            ++files;
    }
    EXPECT_EQ(files, 1U);

    // `tare run FILE --html=PATH` writes the same page directly.
    const fs::path direct = scratch("direct.html");
    auto again = run_process({tare_cmd, "run", results.string(), "--html=" + direct.string()});
    EXPECT_TRUE(again.exit_code == 0 || again.exit_code == 1) << again.err;
    EXPECT_EQ(slurp(direct), html);
}

// The outlier counts of the file are the ones the page states beside the plot that rings them.
TEST(tare_report, the_outliers_of_the_file_are_on_the_page) {
    const fs::path results = scratch("outliers.json");
    write_text(results, R"({"schema": "tare/1", "context": {"accounting": false}, "benchmarks": [
        {"name": "spiky", "iterations": 60,
         "time_ns": {"mean": 20, "median": 10, "stddev": 16, "min": 10, "max": 50, "ci_low": 12, "ci_high": 30},
         "samples_ns": [10, 10, 11, 10, 50, 40], "sample_iterations": [10, 10, 10, 10, 10, 10],
         "outliers": {"low_severe": 0, "low_mild": 0, "high_mild": 1, "high_severe": 1}}]})");
    const fs::path page = scratch("outliers.html");
    auto r = run_process({tare_cmd, "report", results.string(), "--html=" + page.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(slurp(page).find("1 high mild, 1 high severe"), std::string::npos);
}

// A comparison is what a pull request needs to show: `tare compare --json` and `tare exec --json`
// files become pages of their tables and findings.
TEST(tare_report, a_comparison_and_an_exec_run_become_pages_too) {
    const fs::path base = scratch("cmp_base.json");
    const fs::path head = scratch("cmp_head.json");
    for (const fs::path& p : {base, head}) {
        auto made =
            run_process({contract_bench, "--filter=round_trip", "--min-time=0.01", "--json=" + p.string()});
        ASSERT_EQ(made.exit_code, 0) << made.err;
    }
    const fs::path compared = scratch("compared.json");
    const fs::path direct = scratch("compared_direct.html");
    auto cmp = run_process({tare_cmd, "compare", base.string(), head.string(), "--json=" + compared.string(),
                            "--html=" + direct.string()});
    ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
    const fs::path page = scratch("compared.html");
    auto r = run_process({tare_cmd, "report", compared.string(), "--html=" + page.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string html = slurp(page);
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0U);
    EXPECT_NE(html.find("<h1>tare comparison</h1>"), std::string::npos);
    EXPECT_NE(html.find("<strong>TIME NOT JUDGED</strong>"), std::string::npos);
    EXPECT_NE(html.find(">verdict</th>"), std::string::npos) << html;
    EXPECT_NE(html.find("<code>round_trip"), std::string::npos);
    EXPECT_NE(html.find("<svg class=\"plot forest\""), std::string::npos);
    // `tare compare --html=PATH` writes the same page as `tare report` of its JSON.
    EXPECT_EQ(slurp(direct), html);
    // Two files: each side's own context is kept, in the JSON and on the page.
    const std::string compared_json = slurp(compared);
    EXPECT_NE(compared_json.find("\"base_context\": {"), std::string::npos) << compared_json.substr(0, 400);
    EXPECT_NE(compared_json.find("\"head_context\": {"), std::string::npos);
    EXPECT_NE(html.find("<h2>The two sides</h2>"), std::string::npos);
    EXPECT_NE(html.find("base recorded "), std::string::npos);

    const fs::path exec_json = scratch("exec.json");
    auto ex = run_process({tare_cmd, "exec", "--runs=2", "--json=" + exec_json.string(), "--", "/bin/true"});
    ASSERT_EQ(ex.exit_code, 0) << ex.err;
    const fs::path exec_page = scratch("exec.html");
    auto er = run_process({tare_cmd, "report", exec_json.string(), "--html=" + exec_page.string()});
    ASSERT_EQ(er.exit_code, 0) << er.err;
    const std::string exec_html = slurp(exec_page);
    EXPECT_NE(exec_html.find("<h1>tare exec</h1>"), std::string::npos);
    EXPECT_NE(exec_html.find("wall time"), std::string::npos);
}

TEST(tare_report, malformed_json_exits_2_naming_file_line_and_column) {
    const fs::path bad = scratch("bad.json");
    write_text(bad, "{\n  \"schema\": \"tare/1\",\n  \"benchmarks\": [1, 2,, 3]\n}\n");
    const fs::path page = scratch("bad.html");
    auto r = run_process({tare_cmd, "report", bad.string(), "--html=" + page.string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(bad.string() + ":3:"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(page));
}

TEST(tare_report, a_missing_file_exits_2) {
    const fs::path page = scratch("missing.html");
    auto r = run_process({tare_cmd, "report", "/no/such/results.json", "--html=" + page.string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("/no/such/results.json"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(page));
}

TEST(tare_report, without_html_it_exits_2_and_says_why) {
    const fs::path results = scratch("plain.json");
    write_text(results, R"({"schema": "tare/1", "context": {}, "benchmarks": []})");
    auto r = run_process({tare_cmd, "report", results.string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--html"), std::string::npos) << r.err;
}

// A run written as BMF and CSV beside its tare/1 file: every measured benchmark is in the BMF with
// its latency interval and, with accounting, its memory; the error row is left out and named.
TEST(tare_export, a_run_is_exported_with_every_memory_figure) {
    const fs::path results = scratch("exp.json");
    const fs::path bmf = scratch("exp.bmf.json");
    const fs::path csv = scratch("exp.csv");
    // The requests before the executable: one a flag, the executable after them is not one.
    auto r = run_process({tare_cmd, "run", "--export=bmf:" + bmf.string(), "--export=csv:" + csv.string(),
                          contract_bench, "--filter=round_trip|throws", "--min-time=0.01",
                          "--json=" + results.string()});
    ASSERT_EQ(r.exit_code, 1) << r.err;  // the throwing benchmark
    EXPECT_NE(r.err.find("is not in the export"), std::string::npos) << r.err;
    const auto run = nlohmann::json::parse(slurp(results));
    const auto doc = nlohmann::json::parse(slurp(bmf));
    std::size_t measured = 0;
    for (const auto& b : run.at("benchmarks")) {
        const std::string name = b.at("name");
        if (!b.at("error").is_null()) {
            EXPECT_FALSE(doc.contains(name)) << name;
            EXPECT_NE(slurp(csv).find(name), std::string::npos) << name;
            continue;
        }
        ++measured;
        ASSERT_TRUE(doc.contains(name)) << name;
        const auto& m = doc.at(name);
        EXPECT_EQ(m.at("latency").at("value").get<double>(), b.at("time_ns").at("mean").get<double>());
        EXPECT_EQ(m.at("latency").at("lower_value").get<double>(),
                  b.at("time_ns").at("ci_low").get<double>());
        if (run.at("context").at("accounting").get<bool>()) {
            EXPECT_EQ(m.at("allocs-per-iter").at("value").get<double>(),
                      b.at("allocs_per_iter").get<double>());
            EXPECT_TRUE(m.contains("peak-live-bytes"));
            EXPECT_TRUE(m.contains("retained-bytes-per-iter"));
        }
        EXPECT_TRUE(m.contains("page-faults-per-iter"));
    }
    EXPECT_EQ(doc.size(), measured);

    // tare export of the stored file writes the same bytes as the run did.
    auto again = run_process({tare_cmd, "export", results.string(), "--format=bmf"});
    EXPECT_EQ(again.exit_code, 0) << again.err;
    EXPECT_EQ(again.out, slurp(bmf));
}

// What the services refuse whole: github-action-benchmark fails a step on an empty list (it was
// written, exit 0), and Bencher a file with one name over 1,024 bytes (written as it was).
TEST(tare_export, nothing_a_service_would_refuse_whole) {
    const std::string long_name(1500, 'x');
    const fs::path in = scratch("mini.json");
    write_text(in, R"({"schema": "tare/1", "context": {}, "benchmarks": [
        {"name": "short", "iterations": 10, "time_ns": {"mean": 5, "median": 5, "stddev": 0, "min": 5, "max": 5},
         "samples_ns": [5]},
        {"name": ")" + long_name +
                       R"(", "iterations": 10,
         "time_ns": {"mean": 6, "median": 6, "stddev": 0, "min": 6, "max": 6}, "samples_ns": [6]}]})");
    // No throughput anywhere: the bigger-is-better export has nothing, and no file is written.
    const fs::path gab = scratch("bigger.json");
    auto bigger =
        run_process({tare_cmd, "export", in.string(), "--format=gab-bigger", "--output=" + gab.string()});
    EXPECT_EQ(bigger.exit_code, 0) << bigger.err;
    EXPECT_FALSE(fs::exists(gab));
    EXPECT_EQ(bigger.err,
              "note: nothing to export as github-action-benchmark's customBiggerIsBetter: no row has such "
              "a figure, so " +
                  gab.string() + " was not written (the action fails a step on an empty list)\n");
    // To standard output: nothing is written there, and the note says so.
    auto to_stdout = run_process({tare_cmd, "export", in.string(), "--format=gab-bigger"});
    EXPECT_EQ(to_stdout.exit_code, 0) << to_stdout.err;
    EXPECT_EQ(to_stdout.out, "");
    EXPECT_EQ(to_stdout.err,
              "note: nothing to export as github-action-benchmark's customBiggerIsBetter: no row has such "
              "a figure, so nothing was written (the action fails a step on an empty list)\n");
    // The long name is shortened within Bencher's limit, the same way every time, and named.
    std::string keys[2];
    for (std::string& key : keys) {
        auto bmf = run_process({tare_cmd, "export", in.string(), "--format=bmf"});
        ASSERT_EQ(bmf.exit_code, 0) << bmf.err;
        EXPECT_NE(bmf.err.find("a benchmark name of 1500 bytes is longer than Bencher takes (1024)"),
                  std::string::npos)
            << bmf.err;
        const auto doc = nlohmann::json::parse(bmf.out);
        ASSERT_EQ(doc.size(), 2U);
        EXPECT_TRUE(doc.contains("short"));
        for (const auto& [name, figures] : doc.items()) {
            EXPECT_LE(name.size(), 1024U);
            if (name != "short")
                key = name;
        }
    }
    EXPECT_EQ(keys[0], keys[1]);
    EXPECT_EQ(keys[0].size(), 1024U);
    EXPECT_EQ(keys[0].rfind(std::string(1007, 'x'), 0), 0U) << keys[0];
    EXPECT_EQ(keys[0][1007], '~');
}

TEST(tare_export, bad_requests_exit_2_before_anything_runs) {
    const fs::path out = scratch("never.bmf.json");
    auto r = run_process({tare_cmd, "run", contract_bench, "--export=xml:" + out.string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("unknown format 'xml'"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << "nothing ran";
    EXPECT_FALSE(fs::exists(out));

    auto no_path = run_process({tare_cmd, "run", contract_bench, "--export=bmf"});
    EXPECT_EQ(no_path.exit_code, 2);
    EXPECT_NE(no_path.err.find("expected FORMAT:PATH"), std::string::npos) << no_path.err;

    const fs::path exec = scratch("a.exec.json");
    write_text(exec, R"({"schema": "tare-exec/1", "commands": []})");
    auto c = run_process({tare_cmd, "export", exec.string(), "--format=csv"});
    EXPECT_EQ(c.exit_code, 2);
    EXPECT_NE(c.err.find("a tare-exec/1 file"), std::string::npos) << c.err;

    // --side is a comparison's; CSV has both sides.
    const fs::path results = scratch("side.json");
    write_text(results, R"({"schema": "tare/1", "context": {}, "benchmarks": []})");
    auto side = run_process({tare_cmd, "export", results.string(), "--format=bmf", "--side=base"});
    EXPECT_EQ(side.exit_code, 2);
    EXPECT_NE(side.err.find("--side applies to a comparison"), std::string::npos) << side.err;
    auto csv_side = run_process({tare_cmd, "export", results.string(), "--format=csv", "--side=base"});
    EXPECT_EQ(csv_side.exit_code, 2);
    EXPECT_NE(csv_side.err.find("csv has both"), std::string::npos) << csv_side.err;

    const fs::path bad = scratch("bad.json");
    write_text(bad, "{\"schema\": \"tare/1\",\n  \"benchmarks\": [}");
    auto b = run_process({tare_cmd, "export", bad.string(), "--format=bmf"});
    EXPECT_EQ(b.exit_code, 2);
    EXPECT_NE(b.err.find("bad.json:2:"), std::string::npos) << b.err;  // line and column
}

}  // namespace
}  // namespace tare

namespace tare {
namespace {

// A pipe has no second reading: every command that takes a results file reads it once, so a
// pipe, a FIFO, /dev/stdin or `-` works as a regular file does (before, the file was read twice:
// a false "empty file", a malformed JSON at 1:8, or a hang on a FIFO with no second writer).
TEST(tare_pipes, a_results_file_on_a_pipe_is_read_once) {
    const fs::path results = scratch("piped.json");
    const fs::path other = scratch("piped_other.json");  // another shard of the suite, for merge
    for (const auto& [filter, path] : {std::pair{"round_trip", results}, {"sum", other}}) {
        auto run = run_process({tare_cmd, "run", contract_bench, std::string("--filter=") + filter,
                                "--min-time=0.01", "--json=" + path.string()});
        ASSERT_EQ(run.exit_code, 0) << run.err;
    }
    const fs::path page = scratch("piped.html");
    const fs::path merged = scratch("piped_merged.json");
    const std::string cat = "cat '" + results.string() + "' | '" + tare_cmd + "' ";
    const struct {
        std::string command;
        std::string expect;
    } cases[] = {
        {cat + "export - --format=csv", "round_trip"},
        {cat + "export /dev/stdin --format=bmf", "round_trip"},
        {cat + "report /dev/stdin --html='" + page.string() + "'", ""},
        {cat + "compare - '" + results.string() + "'", "round_trip"},
        {cat + "merge - '" + other.string() + "' --json='" + merged.string() + "'", ""},
    };
    for (const auto& c : cases) {
        const auto r = run_process({"/bin/sh", "-c", c.command});
        EXPECT_EQ(r.exit_code, 0) << c.command << "\n" << r.err;
        EXPECT_NE(r.out.find(c.expect), std::string::npos) << c.command << "\n" << r.out;
    }
    EXPECT_NE(slurp(page).find("round_trip"), std::string::npos);
    EXPECT_NE(slurp(merged).find("round_trip"), std::string::npos);
}

}  // namespace
}  // namespace tare
