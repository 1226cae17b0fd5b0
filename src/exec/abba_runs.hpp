#pragma once
// The engine of `tare exec`: whole-process timing of a command (wall, user, system, peak RSS,
// page faults per run, from wait4()'s rusage of that child alone) and, with a base, the paired
// change of the head against it. The flags that fill `options` and the exit statuses are
// docs/cli.md; the statistics are docs/statistics.md, "Paired change".
//
// Order: with a base the two alternate in ABBA blocks (ABBA, then BAAB, ...). Within a block a
// linear drift of the machine adds the same to both sides' sums (t0 + t3 = t1 + t2), so the
// block's ratio of sums is free of it; the block is the unit of replication, and its log-ratio
// goes into the t interval of src/stats/difference.hpp. Every run is a fresh process, so the
// variance between processes is in the interval.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/exec.hpp"

namespace tare::exec {

/// What to run, and how: the plain form of `tare exec`'s flags.
struct options {
    /// The head: argv[0] is a path, or a bare name looked up in PATH.
    std::vector<std::string> head;
    /// The base to compare against (the `--vs` command, already split), looked up as the head.
    std::optional<std::vector<std::string>> base;
    std::size_t runs = 10;                  // per command; with a base rounded up to whole ABBA blocks
    std::size_t warmup = 1;                 // untimed runs of each command first
    double threshold_pct = 0;               // practical-significance band of the verdict
    std::optional<double> timeout_seconds;  // per run; a run that exceeds it is an error
    bool show_output = false;               // else the commands' stdout and stderr go to /dev/null
};

/// Why there are no results: the message (naming the command) and the exit status of the
/// `tare` command (docs/cli.md): 3 when a command is not found, cannot be executed, fails or
/// times out; 2 for options that cannot be run (no command, no runs).
struct failure {
    int status = 3;
    std::string message;
};

/// Runs the commands (warm-up runs of each, then the timed runs, in ABBA blocks with a base)
/// and returns their runs with each side's summaries and, with a base, the comparison; the
/// first run that does not succeed ends it all as a failure. Processes are started through
/// os::run_child.
std::variant<exec_results, failure> run(const options& opts);

/// Which command a timed run is of.
enum class side { base, head };

/// The order of the timed runs: `runs` of the head alone, or with a base ceil(runs / 2) blocks
/// of four, ABBA in even blocks and BAAB in odd ones (A the base), so that neither side is
/// always the first run of a block.
std::vector<side> run_order(std::size_t runs, bool with_base);

/// Fills side.summaries from side.runs: per metric the mean and its 95 % Student t interval
/// (stats::student_mean_interval; empty below 2 runs); every summary empty when there are no
/// runs.
void summarize_side(exec_side& side);

/// The value of `metric` per ABBA block of `side`: for block k the sum of its runs 2k and
/// 2k + 1 (the side's two runs in that block); an odd last run is in no block.
std::vector<double> block_sums(const exec_side& side, exec_metric metric);

/// The paired change of every metric, one pair per ABBA block (block_sums of each side), and
/// the verdict on wall time at `threshold_pct`.
exec_comparison compare_sides(const exec_side& base, const exec_side& head, double threshold_pct);

/// Splits a command line into words without a shell: blanks separate words, '...' and "..."
/// group (backslash escapes inside "..." and outside quotes); no variables, globs or
/// redirections. The words, or an error message (unterminated quote, empty command).
std::variant<std::vector<std::string>, std::string> split_command_line(const std::string& line);

}  // namespace tare::exec
