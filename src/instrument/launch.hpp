#pragma once
// The benchmark executable's --instrument, on the side that starts the counting: each instance in
// a fresh child of this executable, under Valgrind's Callgrind (or natively, for the hardware
// counter), in a fixed environment (docs/instructions.md, "Determinism").

#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "instrument/counted_run.hpp"
#include "model/run.hpp"

namespace tare::instrument {

/// The hidden flag of the counting child: "callgrind:<out file>" or "hw".
inline constexpr const char* counted_flag = "--tare-counted";
/// The hidden flag naming which member of a comparison group the child counts.
inline constexpr const char* member_flag = "--tare-member";
/// The hidden flag that has the counting child simulate its body whole (--profile).
inline constexpr const char* profiled_flag = "--tare-profiled";
/// The hidden flag with which `tare run` asks an executable for its instruction profiles in its
/// results, its files being written by tare from them.
inline constexpr const char* profile_results_flag = "--tare-profile-results";

/// `--instrument=` values: "instructions" (Callgrind) and "hw-instructions".
std::optional<counter> parse_instrument(const std::string& value);

/// Everything the children share: where Valgrind is and what it is.
struct launcher {
    counter how = counter::callgrind;
    std::string valgrind;     // its path (callgrind)
    std::string description;  // run_context::instrument
    std::optional<double> timeout_seconds;
    /// --pass-env: the variables, by name, a counted child gets from this process beside the
    /// pinned few (what a suite needs to find its data); recorded in run_context::instrument_env.
    std::vector<std::string> pass_env;
    /// --profile: the call graph of each child's measured pass is read into its row's instruction
    /// profile (Callgrind only), here, after the child ended.
    bool profile = false;
};

/// The launcher for `how`, or why counting cannot be done here (no Valgrind on PATH, a build
/// without the client requests, a sanitizer build, no hardware counter).
std::variant<launcher, std::string> make_launcher(counter how, std::optional<double> timeout_seconds);

/// Puts the instruction profile of the session's last dump into `row` (its iterations set), or a
/// `no_profile` warning that says why there is none.
void add_profile(const callgrind_session& session, benchmark_result& row);

/// Counts the instance `member` of step `step` (a comparison group's name, or the instance's
/// own) in a child; an error row names how the child ended when it gave no result.
benchmark_result run_in_child(const launcher& l, const std::string& step, const std::string& member);

/// What a counted child is started with: the program's arguments after its path, and the
/// variables added to its pinned environment.
struct child_plan {
    std::vector<std::string> arguments;
    std::vector<std::string> environment;
};

/// Plans a counted child from where its files go: its JSON row, Callgrind's out file.
using plan_child = std::function<child_plan(const std::string& json, const std::string& out)>;

/// Counts `member` in a child of `executable` planned by `plan`, under the launcher's instrument
/// and timeout, and returns its row, or an error row naming how the child ended with what it and
/// Valgrind last said. run_in_child plans this executable's own children; the `tare` command
/// plans a Google Benchmark suite's.
benchmark_result run_counted_child(const launcher& l, const std::string& executable,
                                   const std::string& member, const plan_child& plan);

/// The child's environment: `extra`, then PATH, HOME, TMPDIR, LD_LIBRARY_PATH and VALGRIND_LIB as
/// this process has them, nothing else, and a pad that brings the environment and `argv` (the program's own
/// arguments, its path first) to a size that depends on neither, so that the stack starts at the
/// same place for any executable path and any parent environment.
std::vector<std::string> counted_environment(const std::vector<std::string>& argv,
                                             const std::vector<std::string>& extra = {});

}  // namespace tare::instrument
