// Golden tests of the `tare exec` reporters: a fixed single-command run and a fixed A/B,
// through the console table, the Markdown table and JSON "tare-exec/1". The summaries and the
// comparison are the engine's own (src/exec), from fixed runs.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <vector>

#include "exec/abba_runs.hpp"
#include "golden/golden.hpp"
#include "report/reporter.hpp"

namespace tare::golden {
namespace {

exec_side side(std::vector<std::string> argv, double wall_base, const std::vector<std::size_t>& positions) {
    exec_side s;
    s.argv = std::move(argv);
    for (std::size_t i = 0; i < positions.size(); ++i) {
        exec_run r;
        r.position = positions[i];
        r.wall_seconds = wall_base * (1.0 + 0.01 * static_cast<double>(i));
        r.user_seconds = wall_base * 0.8;
        r.system_seconds = wall_base * 0.1;
        r.max_rss_kib = 4096 + 16 * static_cast<double>(i);
        r.minor_faults = 300 + static_cast<double>(i);
        r.major_faults = 0;
        s.runs.push_back(r);
    }
    exec::summarize_side(s);
    return s;
}

exec_results single_run() {
    exec_results r;
    r.tare_version = "0.1.0";
    r.host = "ci-runner-7";
    r.date = "2024-05-01T12:00:00Z";
    r.warmup_runs = 1;
    r.head = side({"./build/mytool", "input.txt"}, 0.120, {0, 1, 2, 3});
    return r;
}

exec_results ab_run() {
    exec_results r = single_run();
    // ABBA, BAAB: base runs at 0, 3, 5, 6 and head runs at 1, 2, 4, 7.
    r.base = side({"./old/mytool", "input.txt"}, 0.150, {0, 3, 5, 6});
    r.head = side({"./new/mytool", "input.txt"}, 0.120, {1, 2, 4, 7});
    r.comparison = exec::compare_sides(*r.base, r.head, 0);
    return r;
}

TEST(exec_golden, single_command) {
    expect_matches_approved(
        "exec_single.console.txt",
        report::make_reporter<exec_results>(report::format::console)->render(single_run()));
    expect_matches_approved(
        "exec_single.md",
        report::make_reporter<exec_results>(report::format::markdown)->render(single_run()));
    expect_matches_approved("exec_single.json",
                            report::make_json_reporter<exec_results>()->render(single_run()));
}

TEST(exec_golden, a_b_comparison) {
    expect_matches_approved("exec_ab.console.txt",
                            report::make_reporter<exec_results>(report::format::console)->render(ab_run()));
    expect_matches_approved("exec_ab.md",
                            report::make_reporter<exec_results>(report::format::markdown)->render(ab_run()));
    expect_matches_approved("exec_ab.json", report::make_json_reporter<exec_results>()->render(ab_run()));
}

// The widest a row gets (an interval of three signed percentages, a wide spread, "no_change")
// fits 80 columns: before, the table was 83 wide and wrapped on an 80-column terminal.
TEST(exec_golden, the_widest_comparison_fits_80_columns) {
    exec_results r = single_run();
    r.base = side({"./old/mytool", "input.txt"}, 0.150, {0, 3, 5, 6});
    r.head = side({"./new/mytool", "input.txt"}, 0.150, {1, 2, 4, 7});
    const double spread[] = {0.2, 3.0, 0.5, 2.4};
    for (std::size_t i = 0; i < 4; ++i) {
        r.base->runs[i].wall_seconds *= spread[i];
        r.head.runs[i].wall_seconds *= spread[3 - i] * 1.3;
        r.head.runs[i].system_seconds *= spread[i] * 11;
    }
    exec::summarize_side(*r.base);
    exec::summarize_side(r.head);
    r.comparison = exec::compare_sides(*r.base, r.head, 0);
    const std::string text = report::make_reporter<exec_results>(report::format::console)->render(r);
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        const std::string line = text.substr(start, end - start);
        std::size_t columns = 0;  // code points: "±" is one column of two bytes
        for (const char c : line) {
            columns += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U ? 1 : 0;
        }
        if (line.rfind("change: ", 0) != 0) {  // the note is prose, wrapped by the terminal's width
            EXPECT_LE(columns, 80U) << line << "\n" << text;
        }
        start = end == std::string::npos ? text.size() : end + 1;
    }
    EXPECT_NE(text.find("no_change"), std::string::npos) << text;
}

TEST(exec_golden, json_stays_strict_with_non_finite_figures) {
    exec_results r = single_run();
    r.head.runs[0].wall_seconds = std::numeric_limits<double>::quiet_NaN();
    r.head.runs[1].max_rss_kib = std::numeric_limits<double>::infinity();
    exec::summarize_side(r.head);
    const std::string text = report::make_json_reporter<exec_results>()->render(r);
    nlohmann::json doc;
    ASSERT_NO_THROW(doc = nlohmann::json::parse(text)) << text;
    EXPECT_EQ(doc["schema"], "tare-exec/1");
}

}  // namespace
}  // namespace tare::golden
