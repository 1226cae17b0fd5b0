#pragma once
// The result model of `tare exec`: whole-process runs of one or two commands and, with a base,
// the change of each figure. Plain data (as model/run.hpp); the statistics are computed in
// src/exec, the text in src/report.

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/change.hpp"

namespace tare {

/// One run of a command, from wait4()'s rusage of that child alone.
struct exec_run {
    std::size_t position = 0;  // 0-based place in the whole sequence of timed runs (shows the order)
    double wall_seconds = 0;
    double user_seconds = 0;
    double system_seconds = 0;
    double max_rss_kib = 0;
    double minor_faults = 0;
    double major_faults = 0;
};

/// The figures reported per command, in table order.
enum class exec_metric : std::size_t { wall, user, system, peak_rss, page_faults };
inline constexpr std::size_t exec_metric_count = 5;
inline constexpr std::array<exec_metric, exec_metric_count> all_exec_metrics{
    exec_metric::wall, exec_metric::user, exec_metric::system, exec_metric::peak_rss,
    exec_metric::page_faults};

/// The JSON key of a metric: "wall_seconds", "user_seconds", "system_seconds", "max_rss_kib",
/// "page_faults" (minor + major).
constexpr std::string_view exec_metric_key(exec_metric m) noexcept {
    switch (m) {
    case exec_metric::wall:
        return "wall_seconds";
    case exec_metric::user:
        return "user_seconds";
    case exec_metric::system:
        return "system_seconds";
    case exec_metric::peak_rss:
        return "max_rss_kib";
    case exec_metric::page_faults:
        break;
    }
    return "page_faults";
}

/// The value of `m` in one run.
constexpr double exec_metric_value(const exec_run& run, exec_metric m) noexcept {
    switch (m) {
    case exec_metric::wall:
        return run.wall_seconds;
    case exec_metric::user:
        return run.user_seconds;
    case exec_metric::system:
        return run.system_seconds;
    case exec_metric::peak_rss:
        return run.max_rss_kib;
    case exec_metric::page_faults:
        break;
    }
    return run.minor_faults + run.major_faults;
}

/// One metric of one command over its runs: the mean and its 95 % Student t interval (empty for
/// fewer than 2 runs).
struct exec_summary {
    double mean = 0;
    std::optional<interval> ci;
};

struct exec_side {
    std::vector<std::string> argv;
    std::vector<exec_run> runs;
    /// Per metric, over `runs` (empty when there are no runs).
    std::array<std::optional<exec_summary>, exec_metric_count> summaries{};
};

/// The comparison of head against the `--vs` base, ABBA block by ABBA block.
struct exec_comparison {
    std::size_t pairs = 0;  // ABBA blocks: the unit of replication
    double threshold_pct = 0;
    /// Per metric; empty when it cannot be computed (a zero figure, e.g. 0 s of system time).
    std::array<std::optional<paired_change>, exec_metric_count> changes{};
    /// The verdict on wall time, the one comparison that is judged (docs/statistics.md).
    tare::verdict verdict = tare::verdict::no_change;
};

struct exec_results {
    std::string tare_version;
    std::string host;
    std::string date;
    std::size_t warmup_runs = 0;
    exec_side head;                 // the command after `--`
    std::optional<exec_side> base;  // the `--vs` command
    std::optional<exec_comparison> comparison;
};

}  // namespace tare
