#pragma once
// The `tare` command's subcommands, one file each. Each returns the process exit status.

#include <optional>
#include <string>

namespace tare::cli {

/// Exit statuses of the `tare` command (CONTRACT section 6).
enum exit_status : int {
    exit_ok = 0,
    exit_regression = 1,  // also: benchmarks of a run failed
    exit_usage = 2,       // bad arguments or unreadable input
    exit_not_run = 3,     // a benchmark executable could not be run to the end
};

struct run_args {
    std::string target;  // a benchmark executable or a results file
    std::string filter;
    std::optional<std::string> json_path;
    std::optional<double> min_time;
    bool markdown = false;
};

int run_command(const run_args& args);

/// Prints "error: MESSAGE" to standard error and returns `status`.
int fail(int status, const std::string& message);

}  // namespace tare::cli
