#pragma once
// Hand-built run results: the fixed inputs of the reporter golden tests. Each mirrors a
// situation the reporters must render well (see /work/shared/cases); all are deterministic,
// so their approved outputs need no scrubbing.

#include <string>
#include <vector>

#include "model/run.hpp"

namespace tare::golden {

/// Three benchmarks at ns, µs and ms scale, memory figures present, one with byte throughput,
/// one with item throughput and a counter, one with two counters.
run_results typical_run();

/// Every kind of finding: retained_growth, fresh_memory and noisy warnings, samples of unequal
/// length, and an error row (kind "exception", with a multi-line message).
run_results findings_run();

/// Allocation accounting off: every memory optional is empty.
run_results accounting_off_run();

/// Figures that are NaN, infinite, negative, zero or tiny, in stats, samples, memory, throughput
/// and counters; the JSON must stay strict (null), the tables must stay legible.
run_results non_finite_run();

/// Comparison groups (docs/variants.md): two groups, one with three members; verdicts slower,
/// faster and no_change, memory that differs and memory that does not, and a comparison with no
/// change because its member failed.
run_results variants_run();

/// A run that matched no benchmarks.
run_results empty_run();

/// --alloc-sites: a growing heap with its sites and retained site (debug information), another
/// thread's site without debug information, and a benchmark whose loop allocated nothing.
run_results sites_run();

/// --instrument: counted rows (instructions, cache misses, estimated cycles) with their memory
/// figures and a retained_growth warning, an error row, and a counted comparison group.
run_results counted_run();

struct named_fixture {
    std::string name;  // file stem of the approved outputs
    run_results (*make)();
};

/// Every fixture, for tests that loop over all of them.
std::vector<named_fixture> all_fixtures();

}  // namespace tare::golden
