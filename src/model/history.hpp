#pragma once
// The history model: runs kept in a store (`tare history add`) and the change points found in
// them (`tare history check`). Plain data, as every model: the store, the check and the reporters
// share it, and tests build it by hand.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/change.hpp"

namespace tare {

/// One run kept: a results file as added, and where it came from.
struct history_run {
    std::int64_t id = 0;  // the store's own, in the order runs were added
    std::string commit;   // as given or as git named it (a full SHA from git)
    std::string branch;
    std::string date;    // ISO 8601, UTC: the commit's date, the order of the series
    std::string source;  // the file's name as it was given
    std::string kind;    // "tare/1", "gbench", "tare-compare/1"
    std::size_t benchmarks = 0;
};

/// One figure of one benchmark in one run: `measure` names it as the results' JSON does
/// ("time_ns", "allocs_per_iter", ..., "counter:NAME"); `low` and `high` its 95 % interval
/// where the run had one (time).
struct history_figure {
    std::string benchmark;
    std::string measure;
    double value = 0;
    std::optional<double> low;
    std::optional<double> high;
};

/// What a change of a measure is: worse (time, memory or instructions up, throughput down),
/// better, or neither known (a user's counter, whose better side tare cannot tell).
enum class history_direction { regression, improvement, changed };

/// One measure's change at a change point: the segment before against the segment after.
struct history_measure_change {
    std::string measure;
    bool exact = false;           // an exact count's step (no test, no interval)
    double before = 0;            // mean of the segment before (an exact series: its level)
    double after = 0;             // mean of the segment after
    std::size_t runs_before = 0;  // runs in each segment
    std::size_t runs_after = 0;
    /// After against before, in percent, with its 95 % interval (Welch's, on the logs, as two
    /// stored files are compared: docs/statistics.md); empty where a value is not positive.
    std::optional<double> change_pct;
    std::optional<interval> interval_pct;
    double p_value = 0;  // the permutation test's; 0 for an exact step
    history_direction direction = history_direction::changed;
};

/// The changes of one benchmark between two adjacent runs: the measures that moved together.
struct history_change {
    std::string benchmark;
    history_run before;              // the last run before the change
    history_run after;               // the first run after it
    std::size_t after_position = 0;  // 0-based position of `after` among the runs checked
    std::vector<history_measure_change> measures;
    /// A regression among the newest runs checked (`--recent`): what --fail-on-regression fails on.
    bool at_head = false;
};

/// One measure of a run given beside the history (a pull request's head, `--head`) against the
/// branch's level since that series' last change point.
struct history_head_change {
    std::string benchmark;
    std::string measure;
    bool exact = false;    // an exact count: any difference is a change
    double level = 0;      // the branch's level since its last change point: the geometric mean of
                           // those runs (their mean where one is not positive); exact: its value
    double head = 0;       // the run's figure
    std::size_t runs = 0;  // the branch's runs since that change point
    std::string since;     // the commit of the first of them
    /// The head against the level, in percent, with its 95 % interval (a noisy measure's, on the
    /// logs); empty where a value is not positive.
    std::optional<double> change_pct;
    std::optional<interval> interval_pct;
    double p_value = 0;  // Holm-adjusted over the noisy measures compared; 0 for an exact count
    history_direction direction = history_direction::changed;
};

/// `--head`: the run against the branch, the changed measures only.
struct history_head {
    std::string source;              // the file, as given
    std::size_t compared = 0;        // measures compared with the branch's level
    std::size_t too_few = 0;         // noisy ones with under 3 runs since their change point
    std::size_t not_in_history = 0;  // the run's figures with no series on the branch
    std::vector<history_head_change> changes;
};

struct history_check {
    std::string store;              // the store's path, as given
    std::string branch;             // the branch checked
    std::vector<history_run> runs;  // the runs checked, oldest first
    std::size_t series = 0;         // benchmark and measure pairs with two runs or more
    double alpha = 0.01;            // false-alarm rate of each noisy series' first test
    std::size_t permutations = 0;
    std::size_t recent = 0;               // the newest runs --fail-on-regression looks at
    std::vector<history_change> changes;  // newest first
    std::optional<history_head> head;     // with --head
};

/// One run's figure in a series: where the run is among those checked, and its value (with its
/// interval where the run had one).
struct history_point {
    std::size_t position = 0;
    double value = 0;
    std::optional<double> low;
    std::optional<double> high;
};

/// One benchmark's measure over the runs that have it, oldest first.
struct history_series {
    std::string benchmark;
    std::string measure;
    std::vector<history_point> points;
};

/// What `tare history report` draws: the check, and every series it was made from.
struct history_trends {
    history_check check;
    std::vector<history_series>
        series;  // by benchmark, then measure (history::measure_rank, history/measures.hpp)
};

}  // namespace tare
