// Golden tests of the `tare exec` reporters: a fixed single-command run and a fixed A/B,
// through the console table, the Markdown table and JSON "tare-exec/1".
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <vector>

#include "golden/golden.hpp"
#include "report/exec_report.hpp"
#include "stats/change.hpp"

namespace tare::golden {
namespace {

// What the exec engine fills in: per metric, the mean over the runs and its 95 % Student t
// interval (none without runs).
void summarize(exec_side& s) {
    for (const exec_metric m : all_exec_metrics) {
        std::vector<double> values;
        double sum = 0;
        for (const exec_run& r : s.runs) {
            values.push_back(exec_metric_value(r, m));
            sum += values.back();
        }
        auto& summary = s.summaries[static_cast<std::size_t>(m)];
        summary.reset();
        if (!values.empty())
            summary =
                exec_summary{sum / static_cast<double>(values.size()), stats::student_mean_interval(values)};
    }
}

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
    summarize(s);
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
    exec_comparison c;
    c.pairs = 2;
    for (std::size_t m = 0; m < exec_metric_count; ++m) {
        std::vector<double> base;
        std::vector<double> head;
        const auto metric = static_cast<exec_metric>(m);
        for (std::size_t block = 0; block < 2; ++block) {  // one pair per block: the sum of its two runs
            base.push_back(exec_metric_value(r.base->runs[2 * block], metric) +
                           exec_metric_value(r.base->runs[2 * block + 1], metric));
            head.push_back(exec_metric_value(r.head.runs[2 * block], metric) +
                           exec_metric_value(r.head.runs[2 * block + 1], metric));
        }
        c.changes[m] = stats::paired_log_change(base, head);
    }
    c.verdict = stats::judge(*c.changes[0], 0);
    r.comparison = c;
    return r;
}

TEST(exec_golden, single_command) {
    expect_matches_approved("exec_single.console.txt", report::render_exec_table(single_run(), false));
    expect_matches_approved("exec_single.md", report::render_exec_table(single_run(), true));
    expect_matches_approved("exec_single.json", report::render_exec_json(single_run()));
}

TEST(exec_golden, a_b_comparison) {
    expect_matches_approved("exec_ab.console.txt", report::render_exec_table(ab_run(), false));
    expect_matches_approved("exec_ab.md", report::render_exec_table(ab_run(), true));
    expect_matches_approved("exec_ab.json", report::render_exec_json(ab_run()));
}

TEST(exec_golden, json_stays_strict_with_non_finite_figures) {
    exec_results r = single_run();
    r.head.runs[0].wall_seconds = std::numeric_limits<double>::quiet_NaN();
    r.head.runs[1].max_rss_kib = std::numeric_limits<double>::infinity();
    summarize(r.head);
    const std::string text = report::render_exec_json(r);
    nlohmann::json doc;
    ASSERT_NO_THROW(doc = nlohmann::json::parse(text)) << text;
    EXPECT_EQ(doc["schema"], "tare-exec/1");
}

}  // namespace
}  // namespace tare::golden
