#pragma once
// Counting one instance's timed region in place of timing it (docs/instructions.md), inside the
// process that runs it: under Callgrind (the process was started by tare under Valgrind) or with
// the CPU's instruction counter.
//
// The region is counted exactly where tare times it: the counting is switched on as the probe
// resumes the region's memory window and off as it pauses it, so setup, teardown, with_inputs'
// generation and tare's own bookkeeping between chunks are outside. The iterations are fixed by
// counts, never by time: a first pass of one iteration is counted, and the measured pass gets
// enough iterations for about counted_budget instructions, so the same program counts the same
// iterations in every run. Rejected: sizing by time as a timed run does (a run under a simulator
// is tens of times slower and its speed varies, so the iteration count and with it every per-
// iteration figure that has a per-chunk or first-iteration part would vary from run to run).

#include <cstdint>
#include <string>

#include <variant>

#include "core/runner.hpp"
#include "instrument/callgrind_format.hpp"
#include "model/run.hpp"

namespace tare::instrument {

/// The instructions the measured pass aims for: 10^7, a few seconds under Callgrind at most.
inline constexpr double counted_budget = 1e7;
/// The measured pass is this many samples of equal iterations, so retained growth is seen.
inline constexpr std::uint64_t counted_samples = 5;

/// Where this process's Callgrind writes its dumps: the --callgrind-out-file it was started with;
/// dump n goes to "<out_file>.<n>".
struct callgrind_session {
    std::string out_file;
    int dumps = 0;  // made so far
    /// --profile: Callgrind simulates from before the body is called, not from the region's
    /// start, so that it knows the stack the region runs in (docs/profiles.md, "Cost").
    bool profile = false;
};

enum class counter { callgrind, hw_instructions };

/// tare::gbench's counted mode is entered through the environment (Google Benchmark's main refuses
/// flags it does not know): Callgrind's out file, the instance to count, and where its tare/1 row
/// goes (docs/instructions.md, "Google Benchmark suites").
inline constexpr const char* gbench_counted_env = "TARE_GBENCH_COUNTED";
inline constexpr const char* gbench_counted_name_env = "TARE_GBENCH_COUNTED_NAME";
inline constexpr const char* gbench_counted_json_env = "TARE_GBENCH_COUNTED_JSON";
/// Set (to 1) under --profile: after the count, the suite runs its sites pass for the allocation
/// profile (docs/profiles.md), as a tare executable's counted child does.
inline constexpr const char* gbench_counted_sites_env = "TARE_GBENCH_COUNTED_SITES";

/// The context of a counted run: host, CPU, date and version, and no clock or loop overhead (nothing
/// was timed).
run_context counted_context(bool accounting);

/// Dumps the counts Callgrind gathered since the last dump (then 0 again) and reads them back, or
/// why they cannot be read. Also what tare::gbench's counted mode reads its counts with.
std::variant<callgrind_totals, std::string> take_dump(callgrind_session& session, const char* reason);

/// Runs `inst` with its region counted by `how` and returns its result: the counts, and the
/// memory figures of the counted pass (allocation accounting keeps working: Callgrind does not
/// replace malloc). `session` is needed for callgrind. An error row says when counting could not
/// be done (not under Callgrind, no hardware counter, an unreadable dump).
benchmark_result run_counted(const core::instance& inst, counter how, callgrind_session* session,
                             core::region_probe& probe, detail::sample_plan plan);

/// --profile: the allocation stacks of `inst`'s timed region into `row` (its sites pass, lists
/// and `sites`), from a short timed run with the sites pass after the count, which Callgrind does
/// not simulate; the row's counts and memory figures stay the counted pass's. Nothing when the
/// row failed or accounting is off.
void add_allocation_stacks(const core::instance& inst, core::region_probe& probe, benchmark_result& row);

/// The iterations of the measured pass for a first iteration of `first` instructions: enough for
/// counted_budget, a multiple of counted_samples unless fewer than that are needed.
std::uint64_t counted_iterations(double first);

}  // namespace tare::instrument
