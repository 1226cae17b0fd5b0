#pragma once
// The `tare` command's subcommands, one file each: add_X_command() declares X's flags (filling
// an X_args when parsed) and X_command() runs it and returns the process exit status. The flags
// and the exit statuses are docs/cli.md.

#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/comparison.hpp"
#include "model/run.hpp"
#include "report/export/exports.hpp"

namespace CLI {
class App;
}

namespace tare::cli {

/// Exit statuses of the `tare` command (docs/cli.md).
enum exit_status : int {
    exit_ok = 0,
    exit_regression = 1,  // also: benchmarks of a run failed
    exit_usage = 2,       // bad arguments or unreadable input
    exit_not_run = 3,     // a benchmark executable could not be run to the end
};

struct run_args {
    std::vector<std::string> targets;  // benchmark executables or results files, one or more
    std::string filter;
    std::optional<std::string> json_path;
    std::optional<std::string> html_path;  // --html=PATH: the run's HTML page
    std::optional<double> min_time;
    bool markdown = false;
    std::string color = "auto";              // --color: auto, always, never
    unsigned processes = 1;                  // fresh processes of each executable, pooled into one result
    bool isolate = false;                    // each benchmark in a process of its own
    std::optional<double> timeout;           // with isolate: a benchmark's process is stopped past it
    std::vector<std::string> exports;        // --export=FORMAT:PATH, each checked by parse_export_request
    std::optional<std::string> shard;        // --shard=K/N (core/shard.hpp), checked up front
    std::size_t alloc_sites_top = 0;         // --alloc-sites[=N]: N sites per list; 0: not asked
    std::optional<std::string> instrument;   // --instrument=KIND, passed to tare executables
    std::vector<std::string> pass_env;       // --pass-env=NAME: given to the counted processes
    std::optional<std::string> profile_dir;  // --profile=DIR: each benchmark's profile files
};

/// Why one target of `tare run` produced no results: the exit status and the message.
struct run_failure {
    int status = exit_not_run;
    std::string message;
};

CLI::App* add_run_command(CLI::App& app, run_args& args);
int run_command(const run_args& args);

/// Runs the tare executable `target` once with `args`' filter, shard, min-time, isolate, timeout,
/// alloc-sites and instrument, its JSON written to a temporary file and read back.
std::variant<run_results, run_failure> run_tare_target(const std::string& target, const run_args& args);

/// `tare run`'s collection of one target of any kind (a tare or Google Benchmark executable, or a
/// results file), with `args`' flags and refusals.
std::variant<run_results, run_failure> run_any_target(const std::string& target, const run_args& args);

/// True when `path` is a Google Benchmark executable: its bytes name GB's own flag
/// (`benchmark_list_tests`, in a static libbenchmark) or the shared libbenchmark it needs.
/// Decided without running it: an unknown program given GB's flags could do anything.
bool is_gbench_executable(const std::string& path);
/// A Google Benchmark executable with tare::gbench's worker mode linked in (its binary holds
/// protocol::gbench_worker_marker): `tare compare` drives it sample by sample.
bool gbench_worker_capable(const std::string& path);
/// A Google Benchmark worker that answers `run_sized` (its binary holds
/// protocol::gbench_sized_marker): `tare compare` calibrates its benchmarks in the first round only.
bool gbench_sized_capable(const std::string& path);

/// What a target of `tare run` or a side of `tare compare` is (docs/cli.md).
enum class target_kind {
    results_file,       // named *.json, or its text begins like JSON (`{` or `[`, after a BOM)
    unknown_file,       // not executable and not like JSON: read as a results file all the same
    tare_executable,    // executable, and not a Google Benchmark one
    gbench_executable,  // is_gbench_executable()
};

/// The kind of the file at `path`, or why it is none (a path that does not exist, a directory:
/// exit_usage). Decided without running it. A file that is not executable can only be a results
/// file, so it is read as one and its errors are the JSON reader's: unreadable input, not an
/// executable that failed.
std::variant<target_kind, run_failure> classify_target(const std::string& path);

/// True for the kinds that are read rather than run.
inline bool is_file_kind(target_kind k) {
    return k == target_kind::results_file || k == target_kind::unknown_file;
}

/// Appended to the read error of a target_kind::unknown_file, so that a user who meant an
/// executable sees why it was read: " (not executable, so read as a results file)"; else "".
const char* unknown_file_note(target_kind k);

/// The line printed under a GB suite's table: what its memory figures include.
std::string gbench_note(const run_context& context);
/// The note under a comparison of Google Benchmark suites: gbench_note of the side(s) with memory
/// figures, and which side has none when only one has them.
std::string gbench_compare_note(const compare_results& results,
                                const std::optional<std::string>& gbench_memory);

/// `tare compare BASE HEAD` (docs/cli.md, docs/compare.md).
struct compare_args {
    std::string base;  // executables or results files
    std::string head;
    std::size_t rounds = 20;  // rounds of fresh processes (executables); bench/README.md, "A/B study"
    double min_time = 1.0;    // measured seconds per benchmark and side, all rounds
    /// Samples per side per round; default: 40 for tare executables (short samples in adjacent
    /// pairs), 4 for Google Benchmark ones (repetitions of one process).
    std::optional<std::size_t> samples;
    /// Where the workers run: "auto" (one CPU, the last this process may use), "none" (not
    /// pinned) or a list such as "3" or "0-3,6" (every worker of both sides on that set).
    std::string cpu = "auto";
    /// "matched": both sides of each round start in one random address-space layout, every
    /// round another (src/os/layout.hpp); "kernel": each process in the kernel's own.
    std::string layout = "matched";
    double timeout = 60;         // seconds a worker may take to answer once
    bool timeout_given = false;  // --timeout on the command line (under --instrument: per benchmark)
    std::string filter;
    std::optional<std::string> shard;  // --shard=K/N: both sides alike (core/shard.hpp)
    /// --rename=REGEX=REPLACEMENT, repeatable: head's names as base calls them, rules in turn.
    std::vector<std::string> renames;
    double threshold_pct = 0;
    /// How the table's verdicts share their 5 %: "fdr" (Benjamini-Hochberg, default) or "fwer"
    /// (Bonferroni); docs/statistics.md, "Many rows".
    std::string family = "fdr";
    std::optional<double> fail_on_regression;  // PCT
    /// --allow-mixed-instrumentation: judge time although the sides are instrumented differently.
    bool allow_mixed_instrumentation = false;
    std::optional<std::string> json_path;
    std::optional<std::string> html_path;  // --html=PATH: the comparison's HTML page
    bool markdown = false;
    std::string color = "auto";  // --color: auto, always, never
    /// --instrument=KIND: count both sides once instead of timing them in rounds.
    std::optional<std::string> instrument;
    std::vector<std::string> pass_env;  // --pass-env=NAME: given to the counted processes
    /// --profile=DIR with --instrument=instructions: each side's profile files under DIR/base and
    /// DIR/head, and the functions that changed under each changed row.
    std::optional<std::string> profile_dir;
};

CLI::App* add_compare_command(CLI::App& app, compare_args& args);
int compare_command(const compare_args& args);

/// `tare exec`: whole-process timing of `command`, with `vs` the paired change against it.
struct exec_args {
    std::vector<std::string> command;  // after `--`; argv[0] is looked up in PATH
    std::optional<std::string> vs;     // the base, one string split by exec::split_command_line()
    std::size_t runs = 10;             // per command; with `vs` rounded up to whole ABBA blocks
    std::size_t warmup = 1;            // untimed runs of each command first
    double threshold_pct = 0;          // practical-significance band of the verdict
    std::optional<double> timeout;     // seconds per run; a run that exceeds it is an error
    std::optional<std::string> json_path;
    bool markdown = false;
    std::string color = "auto";  // --color: auto, always, never
    bool show_output = false;    // else the commands' stdout and stderr go to /dev/null
};

CLI::App* add_exec_command(CLI::App& app, exec_args& args);
int exec_command(const exec_args& args);

/// `tare report RESULTS --html=PATH`: a results file as one self-contained HTML page.
struct report_args {
    std::string results;                   // tare/1 or Google Benchmark JSON
    std::optional<std::string> html_path;  // required; optional so its absence is a clear error
};

CLI::App* add_report_command(CLI::App& app, report_args& args);
int report_command(const report_args& args);

/// `tare merge FILE... --json=PATH`: a suite's shard files joined into one (docs/cli.md).
struct merge_args {
    std::vector<std::string> files;
    std::optional<std::string> json_path;  // required; optional so its absence is a clear error
    bool markdown = false;
    std::string color = "auto";                // --color: auto, always, never
    std::optional<double> fail_on_regression;  // PCT; comparisons only
};

CLI::App* add_merge_command(CLI::App& app, merge_args& args);
int merge_command(const merge_args& args);

/// `tare export RESULTS --format=FORMAT [--output=PATH]` (docs/exports.md).
struct export_args {
    std::string results;
    std::string format;
    std::optional<std::string> side;    // "head" or "base": a comparison's side (default head)
    std::optional<std::string> output;  // standard output without it
};

CLI::App* add_export_command(CLI::App& app, export_args& args);
int export_command(const export_args& args);

/// `tare history add|check|list` (docs/history.md).
struct history_args {
    std::string db = "tare-history.db";
    std::vector<std::string> files;  // add: results files, one run each
    std::string commit;              // add: empty: from git
    std::string branch;
    std::string date;
    std::string side = "head";             // add, check --head: a comparison's side to keep
    std::string check_branch;              // check, list: empty: main, or the store's only branch
    std::size_t last = 200;                // check: the newest runs
    std::size_t recent = 5;                // check: where a regression is "at the head"
    bool fail_on_regression = false;       // check
    bool markdown = false;                 // check
    double alpha = 0.01;                   // check: false alarms per series (--head: in all)
    std::optional<std::string> head_file;  // check: a run to compare with the branch's levels
    std::optional<std::string> json_path;  // check: --json=PATH (tare-history-check/1)
    std::string color = "auto";            // check
    CLI::App* add_cmd = nullptr;           // which subcommand was parsed
    CLI::App* check_cmd = nullptr;
    CLI::App* list_cmd = nullptr;
    CLI::App* report_cmd = nullptr;
    CLI::App* export_cmd = nullptr;
    CLI::App* import_cmd = nullptr;
    std::optional<std::string> html_path;  // report: --html=PATH
    std::string format;                    // export: bmf or gab-data
    std::optional<std::string> output;     // export: --output=PATH (standard output without it)
};

CLI::App* add_history_command(CLI::App& app, history_args& args);
int history_command(const history_args& args);

/// One `--export=FORMAT:PATH` of `tare run`.
struct export_request {
    report::export_format format;
    std::string path;
};

/// `spec` ("bmf:results.bmf.json") as a request, or why not.
std::variant<export_request, std::string> parse_export_request(const std::string& spec);

/// Renders `results` in `f` to `path` (atomically) or to standard output, with a note on standard
/// error for each row the format leaves out; the error of writing, if any.
std::optional<std::string> write_export(const run_results& results, report::export_format f,
                                        const std::optional<std::string>& path);

/// Prints "error: MESSAGE" to standard error and returns `status`.
int fail(int status, const std::string& message);

}  // namespace tare::cli
