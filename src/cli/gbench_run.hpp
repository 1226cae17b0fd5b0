#pragma once
// `tare run` on a Google Benchmark executable (dispatched from run_command.cpp).

#include <string>
#include <variant>

#include "cli/commands.hpp"
#include "model/run.hpp"

namespace tare::cli {

/// True when `path` is a Google Benchmark executable: its bytes name GB's own flag
/// (`benchmark_list_tests`, in a static libbenchmark) or the shared libbenchmark it needs.
/// Decided without running it: an unknown program given GB's flags could do anything.
bool is_gbench_executable(const std::string& path);

/// Runs the GB executable `target` with JSON output to a temporary file and reads it back
/// (filter and time budget from `args`).
std::variant<run_results, run_failure> gbench_collect(const std::string& target, const run_args& args);

/// The line printed under a GB suite's table: what its memory figures include.
const char* gbench_note(bool accounting);

}  // namespace tare::cli
