#pragma once
// Private to tare::gbench: one run of one instance at a fixed iteration count, and the suite's
// list (runs.cpp), which the worker mode of tare run and tare compare (worker.cpp) and the counted
// mode of --instrument (counted.cpp) share.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/run.hpp"

namespace benchmark::internal {
class Benchmark;
}

namespace tare::gbench {

/// One run of an instance: a sample, or why there is none.
struct run_outcome {
    tare::sample sample;  // all threads' and repetitions' iterations
    std::int64_t peak = 0;
    bool fixed_by_suite = false;  // the suite's ->Iterations(K), not the requested count, ran
    double cpu_seconds = 0;       // the loop's CPU time, as Google Benchmark measured it
    int threads = 1;              // the run's ->Threads(n)
    /// The suite's own counters (State::counters, SetBytesProcessed's bytes_per_second...) as
    /// Google Benchmark finished them, the mean over the run's repetitions; not tare's.
    std::vector<std::pair<std::string, double>> counters;
    std::string label;  // State::SetLabel's, the first repetition's; empty: none
    std::optional<error_info> error;
    double shorter_ns = 0;  // a warm sample's (run_warm): its shorter run's loop time; else 0
};

/// Google Benchmark's own bound on a run's iterations (kMaxIterations in its runner).
inline constexpr std::uint64_t max_iterations = 1000000000;

/// The Google Benchmark releases tare::gbench is tested with (docs/gbench.md, test/gbench).
inline constexpr const char* tested_versions = "1.7.1 and 1.9.1";

/// The suite's library defines the RunSpecifiedBenchmarks overload run_one() calls.
bool run_spec_linked() noexcept;

/// Every family the suite registered, in order: the wrapped RegisterBenchmarkInternal
/// (worker.cpp) adds each. A function's static, as a registration may run in any file's static
/// initialiser before this file's.
std::vector<::benchmark::internal::Benchmark*>& families();

/// The suite's instances, as --benchmark_list_tests prints them.
std::vector<std::string> instance_names();

/// Runs the instance `name` for `iterations` (the family's own count when it fixes one,
/// ->Iterations(K)): its time, and the region hooks' memory figures of its loop.
run_outcome run_one(const std::string& name, std::uint64_t iterations);

/// One warm sample of `iterations`: the difference of a run of `iterations` + warm_iterations and
/// one of warm_iterations, so what every run pays once (the first iteration's cold caches and
/// page faults, what setup left for it to touch) cancels (runs.cpp). A run the suite fixes
/// (->Iterations(K)) cannot be lengthened and is run_one()'s. With `shared`, the shorter run is
/// the one it holds (measured into it when empty, and again when it outlasts a longer run): for
/// the calibration's steps, which only estimate; without, every sample measures its own.
run_outcome run_warm(const std::string& name, std::uint64_t iterations,
                     std::optional<run_outcome>* shared = nullptr);

/// The iterations a warm sample's shorter run has, and its longer run has beyond the sample's.
inline constexpr std::uint64_t warm_iterations = 1;

/// A worker's samples of one benchmark, as judge_retained() reads them.
struct retained_samples {
    const std::string& name;
    const std::vector<tare::sample>& samples;  // each run's live heap added to the earlier ones'
    std::uint64_t requested = 0;               // the count the last sample asked for
    bool fixed = false;                        // the suite fixes the count (->Iterations(K))
    std::uint64_t total_iterations = 0;        // over the samples
};

/// Sets `result`'s retained_bytes_per_iter and its retained_growth warning from two more runs
/// of the benchmark, untimed, of two lengths (retained.cpp); from one run's own growth where
/// the suite fixes the count or those runs would take over a second. Nothing without samples
/// or without a retained figure (accounting off).
void judge_retained(benchmark_result& result, const retained_samples& in);

/// What a sites pass is asked for: the top N sites, and the measured run's iterations and
/// allocations per iteration, which bound its length.
struct sites_request {
    std::size_t top = 5;
    std::uint64_t ran = 0;  // the iterations the measured samples (or the count) ran
    double allocs_per_iteration = 0;
    /// The measured time per iteration: the pass's loop is held to about a second of it. 0: no
    /// bound by time (a counted run, whose pass is fixed by counts so that it repeats exactly).
    double ns_per_iteration = 0;
};

/// The sites pass (sites_pass.cpp): `name` run once more, unmeasured, its loop a sites region;
/// the sites into `row` (sites, alloc_sites, retained_sites) as tare's own benchmarks have them.
/// A loop that allocates nothing gets an empty pass, as a tare executable's does. Nothing when
/// the run fails or runs ->Threads(n).
void add_sites_pass(const std::string& name, const sites_request& request, benchmark_result& row);

/// Counted mode (counted.cpp): when tare started this suite to count one instance, counts it,
/// writes its row and returns 0 (the benchmarks RunSpecifiedBenchmarks ran: none of the suite's);
/// empty otherwise.
std::optional<std::size_t> count_if_wanted();

}  // namespace tare::gbench
