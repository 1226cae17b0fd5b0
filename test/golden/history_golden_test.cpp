// Golden tests of `tare history check`'s reporters: a fixed history through the engine
// (history/check.hpp), then the console table (plain and at 80 columns) and Markdown.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "golden/golden.hpp"
#include "history/check.hpp"
#include "io/history_mapping.hpp"
#include "report/reporter.hpp"

namespace tare::golden {
namespace {

// Sixteen runs of two benchmarks: parse's time rose 10 % and it gained an allocation at the
// ninth; encode's bytes grew at the last (a regression at the head); steady never moved.
std::vector<history_run> fixed_runs() {
    std::vector<history_run> runs;
    for (std::size_t i = 0; i < 16; ++i) {
        const std::string day = (i < 9 ? "0" : "") + std::to_string(i + 1);
        runs.push_back({static_cast<std::int64_t>(i + 1), std::to_string(10 + i) + "e4be1c0f2a9d7e3", "main",
                        "2026-11-" + day + "T09:00:00Z", "results.json", "tare/1", 3});
    }
    return runs;
}

std::vector<std::vector<history_figure>> fixed_figures() {
    const std::size_t n = 16;
    std::vector<std::vector<history_figure>> figures(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double wobble = 1 + 0.01 * std::sin(static_cast<double>(i) * 2.4);
        figures[i] = {
            {"parse/64", "time_ns", 812 * wobble * (i >= 8 ? 1.1 : 1.0), 800 * wobble, 825 * wobble},
            {"parse/64", "allocs_per_iter", i >= 8 ? 5.0 : 4.0, {}, {}},
            {"parse/64", "bytes_per_iter", i >= 8 ? 2112.0 : 2048.0, {}, {}},
            {"encode", "time_ns", 15300 * wobble, {}, {}},
            {"encode", "bytes_per_iter", i == n - 1 ? 65536.0 : 32768.0, {}, {}},
            {"steady", "time_ns", 48.2 / wobble, {}, {}},
        };
    }
    return figures;
}

history_check fixed_check() {
    history_check r = history::check_history(fixed_runs(), fixed_figures(), {});
    r.store = "tare-history.db";
    r.branch = "main";
    return r;
}

TEST(history_golden, check) {
    const history_check r = fixed_check();
    expect_matches_approved("history_check.console.txt",
                            report::make_console_reporter<history_check>()->render(r));
    report::table::console_style narrow;
    narrow.width = 80;
    expect_matches_approved("history_check.console80.txt",
                            report::make_console_reporter<history_check>(narrow)->render(r));
    expect_matches_approved("history_check.md", report::make_markdown_reporter<history_check>()->render(r));
    const std::string json = report::make_json_reporter<history_check>()->render(r);
    expect_matches_approved("history_check.json", json);
    // What is written reads back to the same document.
    auto back = io::parse_history_check_json(json, "history_check.json");
    ASSERT_TRUE(std::holds_alternative<history_check>(back)) << std::get<io::read_error>(back).message;
    EXPECT_EQ(report::make_json_reporter<history_check>()->render(std::get<history_check>(back)), json);
}

// The page: the check's table, the changes that moved most, and per benchmark its trends with the
// change points marked at their commits.
TEST(history_golden, report_page) {
    const history_check r = fixed_check();
    history_trends t{r, {}};
    t.series = history::series_of(r.runs, fixed_figures());
    const std::string page = report::make_html_reporter<history_trends>()->render(t);
    expect_matches_approved("history_report.html", page);
    EXPECT_NE(page.find("<g class=\"change regression\">"), std::string::npos);
    EXPECT_NE(page.find("<section class=\"benchmark\" id=\"b1-parse-64\">"), std::string::npos);
}

// --head: a pull request's run against main's level since each series' last change point. parse
// is 8 % slower again and allocates once more; encode is back to 32 KiB (an improvement on the
// level its last run set, of one run: its series is exact); steady is within its noise.
TEST(history_golden, head) {
    const std::vector<history_figure> head{{"parse/64", "time_ns", 893 * 1.08, {}, {}},
                                           {"parse/64", "allocs_per_iter", 6, {}, {}},
                                           {"parse/64", "bytes_per_iter", 2112, {}, {}},
                                           {"encode", "time_ns", 15310, {}, {}},
                                           {"encode", "bytes_per_iter", 32768, {}, {}},
                                           {"steady", "time_ns", 48.3, {}, {}},
                                           {"fresh", "time_ns", 10, {}, {}}};
    history::check_options o;
    o.head = &head;
    history_check r = history::check_history(fixed_runs(), fixed_figures(), o);
    r.store = "tare-history.db";
    r.branch = "main";
    r.head->source = "pr.json";
    expect_matches_approved("history_head.console.txt",
                            report::make_console_reporter<history_check>()->render(r));
    report::table::console_style narrow;
    narrow.width = 80;
    expect_matches_approved("history_head.console80.txt",
                            report::make_console_reporter<history_check>(narrow)->render(r));
    expect_matches_approved("history_head.md", report::make_markdown_reporter<history_check>()->render(r));
    const std::string json = report::make_json_reporter<history_check>()->render(r);
    expect_matches_approved("history_head.json", json);
    auto back = io::parse_history_check_json(json, "history_head.json");
    ASSERT_TRUE(std::holds_alternative<history_check>(back)) << std::get<io::read_error>(back).message;
    EXPECT_EQ(report::make_json_reporter<history_check>()->render(std::get<history_check>(back)), json);
}

TEST(history_golden, nothing_changed) {
    history_check r = fixed_check();
    r.changes.clear();
    expect_matches_approved("history_none.console.txt",
                            report::make_console_reporter<history_check>()->render(r));
}

}  // namespace
}  // namespace tare::golden
