// A history moved in and out (history/interchange.hpp, report/export/history_exports.hpp): what
// is exported reads back as the same figures, and other services' files read as runs.
#include "history/interchange.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include "history/measures.hpp"
#include "report/export/history_exports.hpp"

namespace tare::history {
namespace {

std::vector<history_figure> sample_figures() {
    return {{"parse/64", "time_ns", 812.5, 800.0, 825.0},    {"parse/64", "allocs_per_iter", 4, {}, {}},
            {"parse/64", "bytes_per_iter", 2048, {}, {}},    {"parse/64", "peak_live_bytes", 65536, {}, {}},
            {"parse/64", "items_per_second", 1.2e6, {}, {}}, {"parse/64", "counter:rows", 7, {}, {}},
            {"count", "instructions", 5788952, {}, {}},      {"count", "allocs_per_iter", 1, {}, {}}};
}

std::vector<imported_run> imported(const std::string& text, const std::string& branch = "main") {
    auto r = parse_import(text, "in.json", branch);
    if (auto* e = std::get_if<io::read_error>(&r))
        ADD_FAILURE() << e->message;
    return std::get_if<std::vector<imported_run>>(&r) != nullptr ? std::get<std::vector<imported_run>>(r)
                                                                 : std::vector<imported_run>{};
}

TEST(history_interchange, a_runs_figures_come_back_from_its_results) {
    const auto figures = sample_figures();
    const auto back = figures_of(results_of(figures));
    ASSERT_EQ(back.size(), figures.size());
    for (const history_figure& f : figures) {
        const auto it = std::find_if(back.begin(), back.end(), [&](const history_figure& b) {
            return b.benchmark == f.benchmark && b.measure == f.measure;
        });
        ASSERT_NE(it, back.end()) << f.benchmark << " " << f.measure;
        EXPECT_EQ(it->value, f.value) << f.measure;
        EXPECT_EQ(it->low, f.low) << f.measure;
    }
}

TEST(history_interchange, the_bmf_dump_reads_back_as_the_runs_it_holds) {
    const std::vector<history_run> runs{{1, "abc", "main", "2026-11-01T09:00:00Z", "r.json", "tare/1", 2},
                                        {2, "def", "main", "2026-11-02T09:00:00Z", "r.json", "tare/1", 2}};
    const std::vector<std::vector<history_figure>> figures{sample_figures(), sample_figures()};
    const auto runs_back = imported(report::render_history_bmf(runs, figures));
    ASSERT_EQ(runs_back.size(), 2U);
    EXPECT_EQ(runs_back[1].run.commit, "def");
    EXPECT_EQ(runs_back[1].run.date, "2026-11-02T09:00:00Z");
    EXPECT_NE(runs_back[0].digest, runs_back[1].digest);
    std::vector<std::string> measures;
    for (const auto& f : runs_back[0].figures)
        measures.push_back(f.benchmark + " " + f.measure);
    // What the BMF export carries: time with its interval, memory, throughput and counts (not a
    // user's counter, which BMF has no place for).
    for (const char* m : {"parse/64 time_ns", "parse/64 allocs_per_iter", "parse/64 peak_live_bytes",
                          "parse/64 items_per_second", "count instructions"})
        EXPECT_NE(std::find(measures.begin(), measures.end(), m), measures.end()) << m;
}

TEST(history_interchange, github_action_benchmark_data_reads_as_runs) {
    const std::vector<history_run> runs{{1, "abc", "main", "2026-11-01T09:00:00Z", "r.json", "tare/1", 2}};
    const std::string data = report::render_history_gab_data(runs, {sample_figures()});
    ASSERT_EQ(data.rfind("window.BENCHMARK_DATA = {", 0), 0U);
    const auto back = imported(data);
    ASSERT_EQ(back.size(), 1U);  // its two suites' entries of one commit are one run
    EXPECT_EQ(back[0].run.commit, "abc");
    bool time = false;
    bool throughput = false;
    for (const auto& f : back[0].figures) {
        if (f.benchmark == "parse/64" && f.measure == "time_ns") {
            time = true;
            EXPECT_DOUBLE_EQ(*f.low, 800);  // from the entry's "± 12.5"
        }
        throughput = throughput || (f.benchmark == "parse/64" && f.measure == "items_per_second");
    }
    EXPECT_TRUE(time);
    EXPECT_TRUE(throughput);
    // Another tool's entries (Google Benchmark's, in µs): a time in ns, and a counter by its unit.
    const auto other = imported(R"({"entries": {"Benchmark": [{"commit": {"id": "x1", "timestamp":
        "2026-11-03T10:00:00+02:00"}, "date": 1, "tool": "googlecpp", "benches": [
        {"name": "BM_parse", "value": 1.5, "unit": "us/iter"}, {"name": "BM_rows", "value": 3, "unit": "rows"}]}]}})",
                                "topic");
    ASSERT_EQ(other.size(), 1U);
    EXPECT_EQ(other[0].run.branch, "topic");
    EXPECT_EQ(other[0].run.date, "2026-11-03T08:00:00Z");
    ASSERT_EQ(other[0].figures.size(), 2U);
    EXPECT_EQ(other[0].figures[0].measure, "time_ns");
    EXPECT_DOUBLE_EQ(other[0].figures[0].value, 1500);
    EXPECT_EQ(other[0].figures[1].measure, "counter:rows");
}

TEST(history_interchange, a_malformed_file_is_named_with_line_and_column) {
    auto r = parse_import("window.BENCHMARK_DATA = {\n  \"entries\": {,}\n}", "data.js", "main");
    ASSERT_TRUE(std::holds_alternative<io::read_error>(r));
    EXPECT_EQ(std::get<io::read_error>(r).message.rfind("data.js:2:", 0), 0U)
        << std::get<io::read_error>(r).message;
    auto no_commit = parse_import(R"([{"date": "2026-11-01", "results": {}}])", "dump.json", "main");
    ASSERT_TRUE(std::holds_alternative<io::read_error>(no_commit));
    EXPECT_NE(std::get<io::read_error>(no_commit).message.find("dump.json: [0]: a run needs a \"commit\""),
              std::string::npos);
    EXPECT_TRUE(std::holds_alternative<io::read_error>(parse_import("42", "x.json", "main")));
}

}  // namespace
}  // namespace tare::history
