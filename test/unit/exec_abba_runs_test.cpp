// The engine of `tare exec` (src/exec/abba_runs.hpp): each side's summaries from hand-made runs, the
// ABBA order and its pairing into block sums, the command-line splitter and PATH lookup, and
// the engine itself on tiny real commands (its runs, their positions, and its failures).

#include "exec/abba_runs.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "os/process.hpp"
#include "stats/difference.hpp"

namespace tare::exec {
namespace {

exec_run make_run(double wall, double system = 0.001, double faults = 100) {
    exec_run r;
    r.wall_seconds = wall;
    r.user_seconds = wall / 2;
    r.system_seconds = system;
    r.max_rss_kib = 2048;
    r.minor_faults = faults;
    r.major_faults = 1;
    return r;
}

exec_side side_of(const std::vector<double>& walls) {
    exec_side s;
    s.argv = {"/bin/true"};
    for (double w : walls) {
        s.runs.push_back(make_run(w));
    }
    return s;
}

const exec_summary& summary_of(const exec_side& s, exec_metric m) {
    const auto& summary = s.summaries[static_cast<std::size_t>(m)];
    EXPECT_TRUE(summary.has_value()) << exec_metric_key(m);
    return *summary;
}

TEST(exec_summarize_side, mean_and_student_interval_of_each_metric) {
    exec_side s = side_of({1, 2, 3, 4});
    summarize_side(s);
    const exec_summary& wall = summary_of(s, exec_metric::wall);
    EXPECT_DOUBLE_EQ(wall.mean, 2.5);
    ASSERT_TRUE(wall.ci);
    // s = sqrt(5/3), t(0.975, 3) = 3.1824463: 2.5 -+ 3.1824463 sqrt(5/3) / 2.
    const double half = 3.1824463 * std::sqrt(5.0 / 3.0) / 2;
    EXPECT_NEAR(wall.ci->low, 2.5 - half, 1e-6);
    EXPECT_NEAR(wall.ci->high, 2.5 + half, 1e-6);
    EXPECT_DOUBLE_EQ(summary_of(s, exec_metric::user).mean, 1.25);
    // Equal values: a point interval.
    const exec_summary& rss = summary_of(s, exec_metric::peak_rss);
    EXPECT_DOUBLE_EQ(rss.mean, 2048);
    ASSERT_TRUE(rss.ci);
    EXPECT_DOUBLE_EQ(rss.ci->low, 2048);
    EXPECT_DOUBLE_EQ(rss.ci->high, 2048);
    // Page faults are minor + major.
    EXPECT_DOUBLE_EQ(summary_of(s, exec_metric::page_faults).mean, 101);
    EXPECT_DOUBLE_EQ(summary_of(s, exec_metric::system).mean, 0.001);
}

TEST(exec_summarize_side, one_run_has_a_mean_and_no_interval) {
    exec_side s = side_of({0.5});
    summarize_side(s);
    for (const exec_metric m : all_exec_metrics) {
        EXPECT_FALSE(summary_of(s, m).ci) << exec_metric_key(m);
    }
    EXPECT_DOUBLE_EQ(summary_of(s, exec_metric::wall).mean, 0.5);
}

TEST(exec_summarize_side, no_runs_no_summaries_and_old_ones_are_cleared) {
    exec_side s = side_of({1, 2});
    summarize_side(s);
    s.runs.clear();
    summarize_side(s);
    for (const exec_metric m : all_exec_metrics) {
        EXPECT_FALSE(s.summaries[static_cast<std::size_t>(m)]) << exec_metric_key(m);
    }
}

TEST(exec_run_order, abba_then_baab_with_the_base_first) {
    const side a = side::base;
    const side b = side::head;
    EXPECT_EQ(run_order(4, true), (std::vector<side>{a, b, b, a, b, a, a, b}));
    EXPECT_EQ(run_order(6, true), (std::vector<side>{a, b, b, a, b, a, a, b, a, b, b, a}));
    // Runs per side are rounded up to whole blocks.
    EXPECT_EQ(run_order(1, true), (std::vector<side>{a, b, b, a}));
    EXPECT_EQ(run_order(3, true), run_order(4, true));
    EXPECT_EQ(run_order(3, false), (std::vector<side>{b, b, b}));
}

TEST(exec_block_sums, a_sides_two_runs_of_each_block) {
    const exec_side s = side_of({1, 3, 2, 2, 7});
    EXPECT_EQ(block_sums(s, exec_metric::wall), (std::vector<double>{4, 4}));  // run 5: no block
    EXPECT_EQ(block_sums(s, exec_metric::page_faults), (std::vector<double>{202, 202}));
    EXPECT_TRUE(block_sums(side_of({1}), exec_metric::wall).empty());
}

TEST(exec_compare_sides, one_pair_per_block_from_the_sums) {
    // Base blocks sum to 4 and 4, head blocks to 4 and 8: log-ratios 0 and log 2.
    const exec_side base = side_of({1, 3, 2, 2});
    const exec_side head = side_of({2, 2, 4, 4});
    const exec_comparison c = compare_sides(base, head, 0);
    EXPECT_EQ(c.pairs, 2U);
    const auto& wall = c.changes[static_cast<std::size_t>(exec_metric::wall)];
    ASSERT_TRUE(wall);
    EXPECT_EQ(wall->pairs, 2U);
    EXPECT_NEAR(wall->change_pct, 100 * (std::sqrt(2.0) - 1), 1e-9);
    const std::vector<double> b{4, 4};
    const std::vector<double> h{4, 8};
    const auto expected = stats::paired_log_change(b, h);
    ASSERT_TRUE(expected && expected->interval_pct && wall->interval_pct);
    EXPECT_DOUBLE_EQ(wall->interval_pct->low, expected->interval_pct->low);
    EXPECT_DOUBLE_EQ(wall->interval_pct->high, expected->interval_pct->high);
    EXPECT_EQ(c.verdict, stats::judge(*expected));
}

TEST(exec_compare_sides, the_verdict_is_on_wall_time_with_the_threshold) {
    // Head twice the base in every block: a point interval at +100 %.
    const exec_side base = side_of({1, 1, 2, 2, 3, 3});
    const exec_side head = side_of({2, 2, 4, 4, 6, 6});
    const exec_comparison slower = compare_sides(base, head, 50);
    EXPECT_EQ(slower.pairs, 3U);
    EXPECT_DOUBLE_EQ(slower.threshold_pct, 50);
    EXPECT_EQ(slower.verdict, verdict::slower);
    EXPECT_EQ(compare_sides(base, head, 150).verdict, verdict::no_change);
    EXPECT_EQ(compare_sides(head, base, 0).verdict, verdict::faster);
}

TEST(exec_compare_sides, a_zero_figure_has_no_change) {
    exec_side base = side_of({1, 1});
    exec_side head = side_of({1, 1});
    for (exec_run& r : base.runs) {
        r.system_seconds = 0;
    }
    const exec_comparison c = compare_sides(base, head, 0);
    EXPECT_FALSE(c.changes[static_cast<std::size_t>(exec_metric::system)]);
    EXPECT_TRUE(c.changes[static_cast<std::size_t>(exec_metric::wall)]);
    // One pair: a change but no interval, so no verdict.
    EXPECT_FALSE(c.changes[static_cast<std::size_t>(exec_metric::wall)]->interval_pct);
    EXPECT_EQ(c.verdict, verdict::no_change);
}

std::vector<std::string> words(const std::string& line) {
    auto r = split_command_line(line);
    if (auto* e = std::get_if<std::string>(&r)) {
        ADD_FAILURE() << line << ": " << *e;
        return {};
    }
    return std::get<std::vector<std::string>>(r);
}

std::string split_error(const std::string& line) {
    auto r = split_command_line(line);
    auto* e = std::get_if<std::string>(&r);
    return e != nullptr ? *e : "(split)";
}

using strings = std::vector<std::string>;

TEST(exec_split_command_line, blanks_separate_and_quotes_group) {
    EXPECT_EQ(words("/bin/true"), strings{"/bin/true"});
    EXPECT_EQ(words("  sleep\t0.1 \n"), (strings{"sleep", "0.1"}));
    EXPECT_EQ(words("/bin/sh -c 'sleep 0.05'"), (strings{"/bin/sh", "-c", "sleep 0.05"}));
    EXPECT_EQ(words(R"(echo "a b" c'd e'f)"), (strings{"echo", "a b", "cd ef"}));
    EXPECT_EQ(words("echo '' x"), (strings{"echo", "", "x"}));
    // No expansion: variables, globs and redirections are plain words.
    EXPECT_EQ(words("echo $HOME * >out"), (strings{"echo", "$HOME", "*", ">out"}));
}

TEST(exec_split_command_line, backslash_escapes_outside_quotes_and_inside_double_ones) {
    EXPECT_EQ(words(R"(echo a\ b)"), (strings{"echo", "a b"}));
    EXPECT_EQ(words(R"(echo "say \"hi\"")"), (strings{"echo", "say \"hi\""}));
    EXPECT_EQ(words(R"(echo 'a\b')"), (strings{"echo", R"(a\b)"}));  // literal inside '...'
    EXPECT_EQ(words(R"(echo \')"), (strings{"echo", "'"}));
}

TEST(exec_split_command_line, unterminated_quotes_and_empty_commands_are_errors) {
    EXPECT_EQ(split_error("'unterminated"), "unterminated ' quote in ''unterminated'");
    EXPECT_EQ(split_error(R"(echo "a)"), R"(unterminated " quote in 'echo "a')");
    EXPECT_EQ(split_error(""), "empty command");
    EXPECT_EQ(split_error(" \t "), "empty command");
}

TEST(os_find_in_path, a_path_is_kept_and_a_name_is_looked_up) {
    EXPECT_EQ(os::find_in_path("./build/x", "/bin"), "./build/x");
    EXPECT_EQ(os::find_in_path("/nonexistent/cmd", "/bin"), "/nonexistent/cmd");
    EXPECT_EQ(os::find_in_path("sh", "/nonexistent:/bin"), "/bin/sh");
    EXPECT_FALSE(os::find_in_path("no_such_command_for_tare_exec", "/nonexistent:/bin:/usr/bin"));
    EXPECT_FALSE(os::find_in_path("sh", ""));  // only the current directory
}

options quick(std::vector<std::string> head) {
    options o;
    o.head = std::move(head);
    o.runs = 3;
    o.warmup = 1;
    return o;
}

const exec_results& results_of(const std::variant<exec_results, failure>& r) {
    static const exec_results none;
    if (const auto* f = std::get_if<failure>(&r)) {
        ADD_FAILURE() << "exit " << f->status << ": " << f->message;
        return none;
    }
    return std::get<exec_results>(r);
}

std::vector<std::size_t> positions(const exec_side& s) {
    std::vector<std::size_t> out;
    for (const exec_run& r : s.runs) {
        out.push_back(r.position);
    }
    return out;
}

TEST(exec_run, times_one_command_and_summarizes_it) {
    const auto outcome = run(quick({"/bin/true"}));
    const exec_results& r = results_of(outcome);
    EXPECT_FALSE(r.base);
    EXPECT_FALSE(r.comparison);
    EXPECT_EQ(r.warmup_runs, 1U);
    EXPECT_FALSE(r.tare_version.empty());
    EXPECT_EQ(positions(r.head), (std::vector<std::size_t>{0, 1, 2}));
    for (const exec_run& run : r.head.runs) {
        EXPECT_GT(run.wall_seconds, 0);
        EXPECT_GT(run.max_rss_kib, 0);
    }
    for (const exec_metric m : all_exec_metrics) {
        const auto& s = r.head.summaries[static_cast<std::size_t>(m)];
        ASSERT_TRUE(s) << exec_metric_key(m);
        EXPECT_TRUE(s->ci) << exec_metric_key(m);
    }
}

TEST(exec_run, a_base_runs_in_abba_blocks_and_is_compared) {
    options o = quick({"/bin/true"});
    o.runs = 4;
    o.base = std::vector<std::string>{"sleep", "0.01"};  // a bare name: looked up in PATH
    o.threshold_pct = 5;
    const auto outcome = run(o);
    const exec_results& r = results_of(outcome);
    ASSERT_TRUE(r.base);
    EXPECT_EQ(r.base->argv[0].substr(r.base->argv[0].size() - 6), "/sleep");
    EXPECT_EQ(r.base->argv[1], "0.01");
    EXPECT_EQ(positions(*r.base), (std::vector<std::size_t>{0, 3, 5, 6}));
    EXPECT_EQ(positions(r.head), (std::vector<std::size_t>{1, 2, 4, 7}));
    EXPECT_TRUE(r.base->summaries[0]);
    EXPECT_TRUE(r.head.summaries[0]);
    ASSERT_TRUE(r.comparison);
    EXPECT_EQ(r.comparison->pairs, 2U);
    EXPECT_DOUBLE_EQ(r.comparison->threshold_pct, 5);
    EXPECT_TRUE(r.comparison->changes[static_cast<std::size_t>(exec_metric::wall)]);
}

TEST(exec_run, a_failing_command_is_a_failure_naming_it) {
    const auto outcome = run(quick({"/bin/false"}));
    const auto* f = std::get_if<failure>(&outcome);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->status, 3);
    EXPECT_NE(f->message.find("/bin/false: exited with 1 (warm-up run)"), std::string::npos) << f->message;
    EXPECT_NE(f->message.find("--show-output"), std::string::npos) << f->message;

    options timed = quick({"/bin/sh", "-c", "exit 4"});
    timed.warmup = 0;
    timed.show_output = true;
    const auto second = run(timed);
    const auto* g = std::get_if<failure>(&second);
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(g->status, 3);
    EXPECT_EQ(g->message, "/bin/sh: exited with 4; tare exec times commands that succeed");
}

TEST(exec_run, a_command_not_found_exits_3_naming_it) {
    const auto outcome = run(quick({"no_such_command_for_tare_exec"}));
    const auto* f = std::get_if<failure>(&outcome);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->status, 3);
    EXPECT_EQ(f->message, "no_such_command_for_tare_exec: command not found in PATH");

    options o = quick({"/bin/true"});
    o.base = std::vector<std::string>{"/nonexistent/base"};
    const auto second = run(o);
    const auto* g = std::get_if<failure>(&second);
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(g->status, 3);
    EXPECT_NE(g->message.find("/nonexistent/base"), std::string::npos) << g->message;
}

TEST(exec_run, options_that_cannot_be_run_exit_2) {
    const auto no_command = run(quick({}));
    ASSERT_TRUE(std::holds_alternative<failure>(no_command));
    EXPECT_EQ(std::get<failure>(no_command).status, 2);
    options no_runs = quick({"/bin/true"});
    no_runs.runs = 0;
    const auto none = run(no_runs);
    ASSERT_TRUE(std::holds_alternative<failure>(none));
    EXPECT_EQ(std::get<failure>(none).status, 2);
}

}  // namespace
}  // namespace tare::exec
