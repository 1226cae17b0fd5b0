#pragma once
// `tare compare` on two Google Benchmark executables: the same rounds_data as tare workers
// produce, so the statistics, verdicts and reports are the same.

#include <string>
#include <variant>

#include "compare/rounds.hpp"

namespace tare::compare {

/// Rounds of Google Benchmark processes. A GB executable cannot be driven sample by sample,
/// so the process is the unit: in each round, for each benchmark, one fresh process of each
/// side runs it alone (`--benchmark_filter=^NAME$`) with `samples_per_round` repetitions (the
/// samples), base first in even rounds and head first in odd ones (ABBA across rounds). Each
/// process calibrates its own iteration count (GB 1.7.1 has no flag to fix it), so the
/// "same iterations on both sides" of tare workers does not hold here; the per-iteration
/// times are still comparable. Memory figures, when tare::gbench is linked, are GB's own memory
/// run's (see io/gbench_reader.hpp) and travel in each round's result.
std::variant<rounds_data, rounds_failure> run_gbench_rounds(const rounds_options& options);

/// `name` as a regular expression matching exactly it, in the POSIX extended grammar Google
/// Benchmark's --benchmark_filter uses (its special characters escaped, ']' and '}' left alone).
std::string exact_regex(const std::string& name);

/// The benchmark names of Google Benchmark executable `exe` (`--benchmark_list_tests`, with
/// `--benchmark_filter=filter` unless it is empty), or why not (status 3).
std::variant<std::vector<std::string>, rounds_failure> list_gbench_names(const std::string& exe,
                                                                         double timeout,
                                                                         const std::string& filter = "");

}  // namespace tare::compare
