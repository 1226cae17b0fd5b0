#pragma once
// Hand-built `tare compare` results: the fixed inputs of the compare reporter golden tests.
// Rounds-mode changes are computed by the engine's own family step (compare::judge_rounds) from
// the fixtures' round times, so every printed interval and verdict is one the engine could give.

#include <string>
#include <vector>

#include "model/comparison.hpp"

namespace tare::golden {

/// Rounds mode, 6 rounds, 4 rows: one slower, one faster with memory gone (allocs 1 → 0), one
/// no_change, one whose peak heap shrinks with a retained_growth warning on base.
compare_results compare_rounds_run();

/// Two results files of one process each: changes without interval, no time verdict, and why.
compare_results compare_unpaired_run();

/// Two results files of 5 processes each, recorded on two hosts and days (each side's context):
/// one row faster, one no_change, Benjamini-Hochberg.
compare_results compare_processes_run();

/// Benchmarks on one side only (one with "|" in its name), an error on head (multi-line
/// message), a base time of 0 so no change is computable, one pair without an interval, and a
/// noisy warning.
compare_results compare_edges_run();

/// A ±5 % threshold band (an interval above 0 but inside the band is no_change) and accounting
/// off on both sides: no memory columns.
compare_results compare_threshold_run();

struct named_compare_fixture {
    std::string name;  // file stem of the approved outputs: compare_<name>.{console.txt,md,json}
    compare_results (*make)();
};

/// Every fixture, for tests that loop over all of them.
/// --instrument (pairing::counted): exact instruction counts, an unchanged row, a row with fewer
/// and one with more instructions, a change inside the floor, and a side that crashed.
compare_results compare_counted_run();

/// compare_rounds_run with a base that had no allocation accounting (no memory figures) against a
/// head that had it: mixed instrumentation, so the rows carry no time verdict and say why.
compare_results compare_mixed_run();

/// compare_mixed_run judged anyway (--allow-mixed-instrumentation): verdicts, and the header
/// still says the sides differ.
compare_results compare_mixed_allowed_run();

std::vector<named_compare_fixture> all_compare_fixtures();

}  // namespace tare::golden
