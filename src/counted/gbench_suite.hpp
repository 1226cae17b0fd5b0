#pragma once
// A Google Benchmark suite counted by the `tare` command: each of its benchmarks in a child of
// its own under Callgrind, entered through the suite's tare::gbench counted mode.

#include <functional>
#include <string>
#include <vector>

#include "instrument/launch.hpp"
#include "model/run.hpp"

namespace tare::counted {

/// Counts the instance `name` of the Google Benchmark executable `executable` (linked with
/// tare::gbench) in a child under Callgrind: its counted mode, entered through the environment.
benchmark_result run_gbench_in_child(const instrument::launcher& l, const std::string& executable,
                                     const std::string& name);

/// Told before each benchmark of a counted suite starts: its index, how many there are, its name.
using count_progress = std::function<void(std::size_t, std::size_t, const std::string&)>;

/// The benchmarks `names` of the Google Benchmark executable `executable` (given as `label`)
/// counted one child each, as one run; an interrupt ends it after the benchmark running.
run_results count_gbench_suite(const instrument::launcher& l, const std::string& executable,
                               const std::string& label, const std::vector<std::string>& names,
                               const count_progress& progress = {});

}  // namespace tare::counted
