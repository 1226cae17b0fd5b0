// `tare history check`'s engine (history/check.hpp) and what a history keeps of a run
// (history/measures.hpp, history/provenance.hpp): histories whose changes are known.
#include "history/check.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "history/head.hpp"
#include "history/measures.hpp"
#include "history/provenance.hpp"
#include "stats/random.hpp"

namespace tare::history {
namespace {

std::vector<history_run> runs_of(std::size_t n) {
    std::vector<history_run> runs;
    for (std::size_t i = 0; i < n; ++i)
        runs.push_back({static_cast<std::int64_t>(i + 1), "c" + std::to_string(i), "main",
                        "2026-11-" + std::to_string(10 + i) + "T00:00:00Z", "r.json", "tare/1", 2});
    return runs;
}

// A noise of +-1 % that repeats every 7 runs: deterministic, and no step of its own.
double wobble(std::size_t i) {
    return 1 + 0.01 * std::sin(static_cast<double>(i) * 2.4);
}

TEST(history_check, a_slower_build_and_an_extra_allocation_are_found_at_their_commits) {
    const std::size_t n = 16;
    std::vector<std::vector<history_figure>> figures(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double time = 100 * wobble(i) * (i >= 8 ? 1.10 : 1.0);
        figures[i].push_back({"parse", "time_ns", time, {}, {}});
        figures[i].push_back({"parse", "allocs_per_iter", i >= 8 ? 5.0 : 4.0, {}, {}});
        figures[i].push_back({"steady", "time_ns", 50 * wobble(i + 3), {}, {}});
        figures[i].push_back({"steady", "bytes_per_second", 1e9 * (i >= 13 ? 1.2 : 1.0) * wobble(i), {}, {}});
    }
    const history_check r = check_history(runs_of(n), figures, {});
    EXPECT_EQ(r.series, 4U);
    ASSERT_EQ(r.changes.size(), 2U);
    // Newest first: steady's throughput rose at run 13: an improvement, at the head, not a regression.
    EXPECT_EQ(r.changes[0].benchmark, "steady");
    EXPECT_FALSE(r.changes[0].at_head);
    ASSERT_EQ(r.changes[0].measures.size(), 1U);
    EXPECT_EQ(r.changes[0].measures[0].direction, history_direction::improvement);
    // parse's time and allocations moved together, at c8.
    const history_change& c = r.changes[1];
    EXPECT_EQ(c.benchmark, "parse");
    EXPECT_EQ(c.before.commit, "c7");
    EXPECT_EQ(c.after.commit, "c8");
    ASSERT_EQ(c.measures.size(), 2U);
    EXPECT_EQ(c.measures[0].measure, "time_ns");
    EXPECT_FALSE(c.measures[0].exact);
    ASSERT_TRUE(c.measures[0].change_pct);
    EXPECT_NEAR(*c.measures[0].change_pct, 10, 1.5);
    ASSERT_TRUE(c.measures[0].interval_pct);
    EXPECT_LT(c.measures[0].interval_pct->low, 10);
    EXPECT_GT(c.measures[0].interval_pct->high, 10);
    EXPECT_EQ(c.measures[0].direction, history_direction::regression);
    EXPECT_EQ(c.measures[1].measure, "allocs_per_iter");
    EXPECT_TRUE(c.measures[1].exact);
    EXPECT_EQ(c.measures[1].before, 4);
    EXPECT_EQ(c.measures[1].after, 5);
    EXPECT_DOUBLE_EQ(*c.measures[1].change_pct, 25);
    EXPECT_FALSE(c.at_head);  // 8 runs ago: older than the newest 5
}

TEST(history_check, a_count_regression_at_the_newest_run_is_at_the_head) {
    std::vector<std::vector<history_figure>> figures(6);
    for (std::size_t i = 0; i < 6; ++i)
        figures[i].push_back({"b", "allocs_per_iter", i == 5 ? 3.0 : 2.0, {}, {}});
    const history_check r = check_history(runs_of(6), figures, {});
    ASSERT_EQ(r.changes.size(), 1U);
    EXPECT_TRUE(r.changes[0].at_head);
    EXPECT_EQ(r.changes[0].after.commit, "c5");
}

TEST(history_check, a_regression_undone_is_not_at_the_head) {
    std::vector<std::vector<history_figure>> figures(8);
    for (std::size_t i = 0; i < 8; ++i)
        figures[i].push_back({"b", "allocs_per_iter", i == 5 || i == 6 ? 3.0 : 2.0, {}, {}});
    const history_check r = check_history(runs_of(8), figures, {});
    ASSERT_EQ(r.changes.size(), 2U);
    EXPECT_FALSE(r.changes[0].at_head);  // the fix
    EXPECT_FALSE(r.changes[1].at_head);  // the regression, since undone
    EXPECT_EQ(r.changes[0].measures[0].direction, history_direction::improvement);
}

TEST(history_check, runs_without_a_benchmark_leave_gaps_not_zeros) {
    std::vector<std::vector<history_figure>> figures(6);
    for (std::size_t i = 0; i < 6; ++i) {
        if (i != 3)  // run 3 did not measure it (a filter, a failure)
            figures[i].push_back({"b", "allocs_per_iter", i >= 4 ? 3.0 : 2.0, {}, {}});
    }
    const history_check r = check_history(runs_of(6), figures, {});
    ASSERT_EQ(r.changes.size(), 1U);
    EXPECT_EQ(r.changes[0].before.commit, "c2");  // the last run that had it
    EXPECT_EQ(r.changes[0].after.commit, "c4");
}

// The peak heap is counted in the allocator's usable bytes, and the same requests can get blocks
// 16 bytes apart from one process to the next (glibc's chunks): within the slack `tare compare`
// allows a peak (model/change.hpp, peaks_differ) that is one level, not a change point at every
// run that drew the other block; a step past it is found at its run.
TEST(history_check, a_peak_moves_by_the_allocators_slack_without_a_change_and_steps_past_it) {
    const std::size_t n = 16;
    std::vector<std::vector<history_figure>> figures(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double drawn = i == 5 ? 16 : 0;  // one run drew the larger block
        figures[i].push_back({"b", "peak_live_bytes", (i >= 12 ? 4224 : 3200) + drawn, {}, {}});
    }
    const history_check r = check_history(runs_of(n), figures, {});
    ASSERT_EQ(r.changes.size(), 1U);
    EXPECT_EQ(r.changes[0].before.commit, "c11");
    EXPECT_EQ(r.changes[0].after.commit, "c12");
    ASSERT_EQ(r.changes[0].measures.size(), 1U);
    EXPECT_TRUE(r.changes[0].measures[0].exact);
    EXPECT_EQ(r.changes[0].measures[0].after, 4224);
}

// A peak that creeps up 50 bytes a run is never past the slack in one step, but is from where
// its level began: found at the run that takes it past, not lost.
TEST(history_check, a_peak_creeping_past_the_slack_is_a_change) {
    const std::vector<double> peaks{3200, 3200, 3200, 3200, 3200, 3200, 3250, 3300, 3350, 3350, 3350, 3350};
    std::vector<std::vector<history_figure>> figures(peaks.size());
    for (std::size_t i = 0; i < peaks.size(); ++i)
        figures[i].push_back({"b", "peak_live_bytes", peaks[i], {}, {}});
    const history_check r = check_history(runs_of(peaks.size()), figures, {});
    ASSERT_EQ(r.changes.size(), 1U);
    EXPECT_EQ(r.changes[0].after.commit, "c7");
    EXPECT_EQ(r.changes[0].measures[0].before, 3200);  // the level, where it began
    EXPECT_EQ(r.changes[0].measures[0].after, 3300);
}

head_segment segment(const std::string& measure, std::vector<double> values, bool exact = false) {
    return {"b", measure, exact, std::move(values), "c0"};
}

TEST(history_head, a_peak_within_the_allocators_slack_is_its_level) {
    const std::vector<head_segment> segments{segment("peak_live_bytes", {3200, 3216, 3200}, true),
                                             segment("allocs_per_iter", {2, 2, 2}, true)};
    const history_head quiet = compare_head(
        segments, {{"b", "peak_live_bytes", 3216, {}, {}}, {"b", "allocs_per_iter", 2, {}, {}}}, 0.01, 3);
    EXPECT_TRUE(quiet.changes.empty());
    const history_head grown = compare_head(
        segments, {{"b", "peak_live_bytes", 4224, {}, {}}, {"b", "allocs_per_iter", 2, {}, {}}}, 0.01, 3);
    ASSERT_EQ(grown.changes.size(), 1U);
    EXPECT_EQ(grown.changes[0].measure, "peak_live_bytes");
    EXPECT_TRUE(grown.changes[0].exact);
    // Judged from where the level began (3200), not its last run (3250): 90 bytes, past the slack.
    const history_head crept = compare_head({segment("peak_live_bytes", {3200, 3250}, true)},
                                            {{"b", "peak_live_bytes", 3290, {}, {}}}, 0.01, 3);
    ASSERT_EQ(crept.changes.size(), 1U);
    EXPECT_EQ(crept.changes[0].level, 3200);
}

TEST(history_head, an_exact_count_changes_by_any_difference_and_a_noisy_one_beyond_its_noise) {
    const std::vector<head_segment> segments{
        segment("allocs_per_iter", {2, 2, 2, 2}, true), segment("time_ns", {100, 101, 99, 100.5, 99.5, 100}),
        segment("bytes_per_second", {5e9, 5.1e9, 4.9e9, 5e9}),
        segment("page_faults_per_iter", {0.5, 0.6}),  // under 3 runs: not tested
    };
    const std::vector<history_figure> same{{"b", "allocs_per_iter", 2, {}, {}},
                                           {"b", "time_ns", 100.8, {}, {}},
                                           {"b", "bytes_per_second", 5.05e9, {}, {}},
                                           {"b", "page_faults_per_iter", 9, {}, {}},
                                           {"new", "time_ns", 1, {}, {}}};
    const history_head quiet = compare_head(segments, same, 0.01, 3);
    EXPECT_TRUE(quiet.changes.empty());
    EXPECT_EQ(quiet.compared, 3U);
    EXPECT_EQ(quiet.too_few, 1U);
    EXPECT_EQ(quiet.not_in_history, 1U);

    const std::vector<history_figure> worse{{"b", "allocs_per_iter", 3, {}, {}},
                                            {"b", "time_ns", 110, {}, {}},
                                            {"b", "bytes_per_second", 4e9, {}, {}}};
    const history_head h = compare_head(segments, worse, 0.01, 3);
    ASSERT_EQ(h.changes.size(), 3U);
    EXPECT_EQ(h.changes[0].measure, "time_ns");
    EXPECT_EQ(h.changes[0].direction, history_direction::regression);
    EXPECT_NEAR(*h.changes[0].change_pct, 10, 0.01);
    ASSERT_TRUE(h.changes[0].interval_pct);
    EXPECT_LT(h.changes[0].interval_pct->low, 10);
    EXPECT_GT(h.changes[0].interval_pct->low, 5);
    EXPECT_EQ(h.changes[1].measure, "allocs_per_iter");  // time, memory, throughput
    EXPECT_TRUE(h.changes[1].exact);
    EXPECT_EQ(h.changes[1].p_value, 0);
    EXPECT_DOUBLE_EQ(*h.changes[1].change_pct, 50);
    EXPECT_EQ(h.changes[1].runs, 4U);
    EXPECT_EQ(h.changes[1].since, "c0");
    EXPECT_EQ(h.changes[2].measure, "bytes_per_second");
    EXPECT_EQ(h.changes[2].direction, history_direction::regression);  // throughput down
}

// The level of a noisy measure is the centre of its test (the geometric mean): the direction and
// the change's sign agree even when one run of the level is far out.
TEST(history_head, the_direction_and_the_change_agree) {
    std::vector<double> runs(19, 1.0);
    runs.push_back(1e6);
    const history_head h = compare_head({segment("time_ns", runs)}, {{"b", "time_ns", 4e4, {}, {}}}, 1.0, 3);
    ASSERT_EQ(h.changes.size(), 1U);
    EXPECT_GT(*h.changes[0].change_pct, 0);
    EXPECT_EQ(h.changes[0].direction, history_direction::regression);
    EXPECT_GT(h.changes[0].head, h.changes[0].level);
}

// The verdict's false-alarm rate and the interval's coverage, simulated: a head drawn from the
// same lognormal runs as the branch's level (2 % noise, 8 runs) is called changed in about
// alpha of the trials, and the 95 % interval holds the true change (none) in about 95 %.
TEST(history_head, an_unchanged_head_is_called_changed_at_the_stated_rate) {
    stats::xoshiro256ss rng(7);
    const auto normal = [&] {
        // Box-Muller from two uniforms in (0, 1].
        const double u1 = (static_cast<double>(rng() >> 11) + 1) / 9007199254740992.0;
        const double u2 = (static_cast<double>(rng() >> 11) + 1) / 9007199254740992.0;
        return std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
    };
    const int trials = 4000;
    int alarms = 0;
    int covered = 0;
    for (int t = 0; t < trials; ++t) {
        std::vector<double> runs;
        for (int i = 0; i < 8; ++i)
            runs.push_back(100 * std::exp(0.02 * normal()));
        const double head = 100 * std::exp(0.02 * normal());
        const history_head h =
            compare_head({segment("time_ns", runs)}, {{"b", "time_ns", head, {}, {}}}, 0.05, 3);
        alarms += h.changes.empty() ? 0 : 1;
        // The interval of a change not called is not kept: test it with alpha = 1, which keeps all.
        const history_head all =
            compare_head({segment("time_ns", runs)}, {{"b", "time_ns", head, {}, {}}}, 1.0, 3);
        ASSERT_EQ(all.changes.size(), 1U);
        covered += all.changes[0].interval_pct->low <= 0 && all.changes[0].interval_pct->high >= 0 ? 1 : 0;
    }
    // Binomial(4000, 0.05): standard deviation 14 alarms; 5 of them either side.
    EXPECT_NEAR(alarms, 200, 70);
    EXPECT_NEAR(covered, 3800, 70);
}

// Holm's adjustment keeps the whole report's false-alarm rate at alpha: twenty unchanged series
// at alpha 5 % give a false alarm in about 5 % of reports, not 64 %.
TEST(history_head, holm_holds_the_reports_rate_over_many_measures) {
    stats::xoshiro256ss rng(11);
    const auto normal = [&] {
        const double u1 = (static_cast<double>(rng() >> 11) + 1) / 9007199254740992.0;
        const double u2 = (static_cast<double>(rng() >> 11) + 1) / 9007199254740992.0;
        return std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
    };
    int reports_with_alarm = 0;
    for (int t = 0; t < 1000; ++t) {
        std::vector<head_segment> segments;
        std::vector<history_figure> head;
        for (int m = 0; m < 20; ++m) {
            std::vector<double> runs;
            for (int i = 0; i < 8; ++i)
                runs.push_back(100 * std::exp(0.02 * normal()));
            segments.push_back({"b" + std::to_string(m), "time_ns", false, runs, "c0"});
            head.push_back({"b" + std::to_string(m), "time_ns", 100 * std::exp(0.02 * normal()), {}, {}});
        }
        reports_with_alarm += compare_head(segments, head, 0.05, 3).changes.empty() ? 0 : 1;
    }
    EXPECT_LE(reports_with_alarm, 50 + 25);  // at most alpha (Holm is conservative), with room
    EXPECT_GE(reports_with_alarm, 15);
}

TEST(history_measures, a_run_keeps_every_figure_it_measured_and_none_it_did_not) {
    run_results r;
    benchmark_result b;
    b.name = "b";
    b.samples_ns = {10, 11};
    b.time.mean = 10.5;
    b.time.ci = interval{10, 11};
    b.allocs_per_iter = 2;
    b.peak_live_bytes = 4096;
    b.items_per_second = 1e6;
    b.counters = {{"rows", 7}};
    r.benchmarks.push_back(b);
    benchmark_result failed;
    failed.name = "f";
    failed.error = error_info{"signal", "SIGSEGV"};
    r.benchmarks.push_back(failed);
    const auto f = figures_of(r);
    std::vector<std::string> measures;
    for (const auto& x : f)
        measures.push_back(x.measure);
    EXPECT_EQ(measures, (std::vector<std::string>{"time_ns", "allocs_per_iter", "peak_live_bytes",
                                                  "items_per_second", "counter:rows"}));
    EXPECT_EQ(f[0].low, 10);
    EXPECT_TRUE(exact_measure("allocs_per_iter"));
    EXPECT_FALSE(exact_measure("time_ns"));
    EXPECT_EQ(higher_is_better("items_per_second"), true);
    EXPECT_EQ(higher_is_better("time_ns"), false);
    EXPECT_FALSE(higher_is_better("counter:rows"));
}

TEST(history_provenance, dates_are_read_in_iso_8601_and_kept_in_utc) {
    EXPECT_EQ(normalize_date("2026-12-04"), "2026-12-04T00:00:00Z");
    EXPECT_EQ(normalize_date("2026-12-04T10:30:00Z"), "2026-12-04T10:30:00Z");
    EXPECT_EQ(normalize_date("2026-12-04T10:30"), "2026-12-04T10:30:00Z");
    EXPECT_EQ(normalize_date("2026-12-04 10:30:00+01:00"), "2026-12-04T09:30:00Z");
    EXPECT_EQ(normalize_date("2026-12-04T23:30:00.123-0130"), "2026-12-05T01:00:00Z");
    for (const char* bad : {"", "yesterday", "2026-13-01", "2026-02-30", "2026-12-04T10", "2026-12-04Z",
                            "2026-12-04T10:30:00+1"})
        EXPECT_FALSE(normalize_date(bad)) << bad;
    // Only what is written back in the same form: from 1970 (a date before it was written "330-…",
    // which no reader took again) to 9999.
    EXPECT_EQ(normalize_date("1970-01-01T00:00:00Z"), "1970-01-01T00:00:00Z");
    EXPECT_EQ(normalize_date("9999-12-31T23:59:59Z"), "9999-12-31T23:59:59Z");
    for (const char* out_of_range : {"0330-11-03T00:00:00Z", "1969-12-31T23:59:59Z",
                                     "1970-01-01T00:30:00+01:00", "9999-12-31T23:59:59-01:00"})
        EXPECT_FALSE(normalize_date(out_of_range)) << out_of_range;
}

TEST(history_provenance, what_is_given_is_kept_and_a_given_date_checked) {
    const auto p = complete_provenance({"abc", "main", "2026-12-04"}, "");
    ASSERT_TRUE(std::holds_alternative<provenance>(p));
    EXPECT_EQ(std::get<provenance>(p).commit, "abc");
    EXPECT_EQ(std::get<provenance>(p).date, "2026-12-04T00:00:00Z");
    const auto bad = complete_provenance({"abc", "main", "last week"}, "");
    ASSERT_TRUE(std::holds_alternative<std::string>(bad));
    EXPECT_NE(std::get<std::string>(bad).find("--date"), std::string::npos);
}

// Without flags, a run is placed by git: the commit checked out, its branch, its commit date.
TEST(history_provenance, what_is_not_given_comes_from_git) {
    namespace fs = std::filesystem;
    const fs::path repo = fs::temp_directory_path() / ("tare-provenance-test-" + std::to_string(::getpid()));
    fs::create_directories(repo);
    const std::string init =
        "cd '" + repo.string() +
        "' && git init -q -b trunk && GIT_COMMITTER_DATE=2026-11-05T10:00:00+02:00 git -c "
        "user.name=t -c user.email=t@example.com commit -q --allow-empty -m first";
    ASSERT_EQ(std::system(init.c_str()), 0);
    const fs::path here = fs::current_path();
    fs::current_path(repo);
    const auto p = complete_provenance({}, "2026-12-01T00:00:00Z");
    fs::current_path(here);
    fs::remove_all(repo);
    ASSERT_TRUE(std::holds_alternative<provenance>(p)) << std::get<std::string>(p);
    EXPECT_EQ(std::get<provenance>(p).commit.size(), 40U);
    EXPECT_EQ(std::get<provenance>(p).branch, "trunk");
    EXPECT_EQ(std::get<provenance>(p).date, "2026-11-05T08:00:00Z");
}

}  // namespace
}  // namespace tare::history
