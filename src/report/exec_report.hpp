#pragma once
// What `tare exec` measured, and its reporters: pure functions from these results to text (the
// aligned console table, Markdown, and JSON "tare-exec/1", documented in docs/json-schema.md).

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stats/change.hpp"

namespace tare::report {

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

/// The JSON key of a metric: "wall_seconds", "user_seconds", "system_seconds", "max_rss_kib",
/// "page_faults" (minor + major).
std::string_view exec_metric_key(exec_metric m) noexcept;
/// The value of `m` in one run.
double exec_metric_value(const exec_run& run, exec_metric m) noexcept;

struct exec_side {
    std::vector<std::string> argv;
    std::vector<exec_run> runs;
};

/// The comparison of head against the `--vs` base, ABBA block by ABBA block.
struct exec_comparison {
    std::size_t pairs = 0;  // ABBA blocks: the unit of replication
    double threshold_pct = 0;
    /// Per metric; empty when it cannot be computed (a zero figure, e.g. 0 s of system time).
    std::array<std::optional<stats::paired_change>, exec_metric_count> changes{};
    /// The verdict on wall time, the one comparison that is judged (docs/statistics.md).
    stats::verdict verdict = stats::verdict::no_change;
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

/// The table: one row per metric; mean and the half-width of its 95 % Student t interval per
/// side, and with a base the change [95 % interval] and the verdict. `markdown` picks a
/// GitHub-flavoured Markdown table over aligned columns.
std::string render_exec_table(const exec_results& results, bool markdown);

/// JSON "tare-exec/1"; strict: every non-finite number becomes null.
std::string render_exec_json(const exec_results& results);

}  // namespace tare::report
