#pragma once
// `tare run` on a Google Benchmark executable (dispatched from run_command.cpp).

#include <string>

#include "cli/commands.hpp"

namespace tare::cli {

/// True when `path` is a Google Benchmark executable: its bytes name GB's own flag
/// (`benchmark_list_tests`, in a static libbenchmark) or the shared libbenchmark it needs.
/// Decided without running it: an unknown program given GB's flags could do anything.
bool is_gbench_executable(const std::string& path);

/// Runs the GB executable `args.target` with JSON output to a temporary file, and prints
/// tare's table of it (and writes tare/1 with --json).
int gbench_run(const run_args& args);

}  // namespace tare::cli
