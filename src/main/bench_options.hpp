#pragma once
// Private to the benchmark executable's main (src/main/bench_driver.cpp and bench_counted.cpp):
// its options, how a run ends (the table, then --json and --profile), and the counted paths
// (--instrument: the parent that starts a child per instance, and that child).

#include <optional>
#include <string>
#include <vector>

#include "core/runner.hpp"
#include "core/variant_groups.hpp"
#include "model/run.hpp"

namespace tare::driver {

struct bench_options {
    bool list = false;
    std::string filter;
    std::optional<std::string> json_path;
    double min_time = 0.5;
    bool isolate = false;
    std::optional<double> timeout;
    bool markdown = false;
    std::string color = "auto";              // --color: auto, always, never
    std::optional<std::string> exact;        // internal: the child of --isolate runs this instance
    std::optional<std::string> worker;       // internal: serve `tare compare` (src/main/bench_worker.hpp)
    std::optional<std::string> shard;        // --shard=K/N (core/shard.hpp)
    std::optional<std::size_t> alloc_sites;  // --alloc-sites[=N]: the top N sites (default 5)
    std::optional<std::string> instrument;   // --instrument: instructions, hw-instructions
    std::vector<std::string> pass_env;       // --pass-env=NAME: what the counted children get
    std::optional<std::string> counted;      // internal: the counting child (instrument/launch.hpp)
    std::optional<std::string> member;       // internal: which member of a group it counts
    std::optional<std::string> profile_dir;  // --profile=DIR (docs/profiles.md)
    bool profiled = false;                   // internal: the counting child of --profile
    bool profile_results = false;            // internal: profiles in the results, no files (tare run)
};

/// A usage error: "error: MESSAGE" on standard error; status 2.
int fail_usage(const std::string& message);

/// The table, then --json and --profile: what every run ends with, a normal one or one a body cut
/// short. Status 1 when a benchmark failed or a file could not be written, else 0.
int write_results(const run_results& results, const bench_options& opt, bool any_failed);

/// The end of a run's loop, timed or counted: the live progress line cleared, then the results
/// written; after an interrupt, marked so and said, with the signal's status.
int finish_run(run_results& results, const bench_options& opt, bool any_failed, bool live);

/// The counting child (instrument/launch.hpp): counts the one instance named and writes its row.
int run_counted_child(const std::vector<core::run_unit>& units, const bench_options& opt);

/// --instrument: every instance counted in a fresh child of its own, one after the other.
int run_instrumented(const std::vector<core::run_unit>& units, const bench_options& opt);

}  // namespace tare::driver
