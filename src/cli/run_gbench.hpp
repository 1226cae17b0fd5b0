#pragma once
// Private to `tare run`: the ways it runs a Google Benchmark executable (run_gbench.cpp), and the
// reading of what a child wrote, which both kinds of executable share (run_command.cpp).

#include <filesystem>
#include <string>
#include <variant>

#include "cli/commands.hpp"
#include "os/process.hpp"

namespace tare::cli {

/// The results `target` wrote to `tmp` (removed here) after it ended as `child`, with messages in
/// the user's terms: `tmp` is tare's own file, so it is never named. `gbench`: a Google
/// Benchmark file is accepted too.
std::variant<run_results, run_failure> read_child_results(const std::string& target,
                                                          const std::filesystem::path& tmp,
                                                          const os::child_result& child, bool gbench);

/// One run of the suite, its JSON read back: Google Benchmark's own repetitions are the samples.
std::variant<run_results, run_failure> gbench_collect(const std::string& target, const run_args& args);

/// --isolate without the worker mode: each benchmark in a process of its own.
std::variant<run_results, run_failure> gbench_isolated_collect(const std::string& target,
                                                               const run_args& args);

/// --instrument: each benchmark counted in a child of its own (tare::gbench linked).
std::variant<run_results, run_failure> gbench_counted_collect(const std::string& target,
                                                              const run_args& args);

/// A suite with tare::gbench linked, sampled by tare through its worker mode as tare samples its
/// own benchmarks (with --isolate, one worker process a benchmark); progress on standard error.
std::variant<run_results, run_failure> gbench_sampled_collect(const std::string& target,
                                                              const run_args& args);

}  // namespace tare::cli
