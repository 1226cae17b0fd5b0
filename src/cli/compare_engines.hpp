#pragma once
// Private to src/cli: the engines `tare compare` chooses among (docs/compare.md), each run from
// the checked flags. compare_command.cpp checks the flags, picks one and reports what it made.

#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "cli/commands.hpp"
#include "compare/aggregate.hpp"
#include "compare/instrumentation.hpp"
#include "compare/pairing.hpp"
#include "core/runner.hpp"
#include "core/shard.hpp"
#include "model/comparison.hpp"

namespace tare::cli {

/// What the flags chose, checked: each side's kind, the benchmarks selected, head's renames and
/// how the verdicts share their error rate.
struct compare_inputs {
    target_kind base_kind = target_kind::tare_executable;
    target_kind head_kind = target_kind::tare_executable;
    core::name_filter filter;
    std::optional<core::shard> shard;
    compare::head_renames renames;
    compare::verdict_options verdicts;

    /// Two results files (else two executables: the kinds agree once checked).
    bool files() const { return is_file_kind(base_kind); }

    bool selected(const std::string& name) const {
        return filter.matches(name) && (!shard || core::in_shard(name, *shard));
    }
};

/// A comparison made, and what its report needs beside it.
struct compared {
    compare_results results;
    /// How each side was instrumented, from its results or its processes (base, head).
    std::pair<compare::side_instrumentation, compare::side_instrumentation> instrumented;
    /// What measured a Google Benchmark suite's memory, when one was compared in rounds.
    std::optional<std::string> gbench_memory;
};

/// --instrument: each side's executable counted (tare's, or a Google Benchmark suite through
/// tare::gbench's hooks), then compared count by count.
std::variant<compared, run_failure> compare_counted_executables(const compare_args& args,
                                                                const compare_inputs& in);

/// Two results files: counted ones count by count, timed ones as stored baselines.
std::variant<compared, run_failure> compare_stored_files(const compare_args& args, const compare_inputs& in);

/// Two executables in rounds of fresh worker processes (or of Google Benchmark processes, for
/// suites without tare::gbench's hooks), with progress on standard error.
std::variant<compared, run_failure> compare_in_rounds(const compare_args& args, const compare_inputs& in);

/// A results file read as one side, or the reader's error with a note on what the path was taken
/// for.
std::variant<run_results, run_failure> read_side(const std::string& path, target_kind k);

/// A worker failure that means the executable could not be run to the end.
bool is_process_failure(const boxed<error_info>& e);

}  // namespace tare::cli
