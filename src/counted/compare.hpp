#pragma once
// Two counted runs compared by the `tare` command (docs/instructions.md, "Verdicts"): row by row,
// each change exact and judged by instrument::count_verdict.

#include <optional>
#include <string>

#include "model/comparison.hpp"
#include "model/run.hpp"

namespace tare::counted {

/// Two counted runs (of executables run with --instrument, or their results files) compared
/// benchmark by benchmark (pairing::counted): each side's counts and memory figures, the change of
/// the instructions and its verdict (instrument::count_verdict at `threshold_pct`); a row a side of which
/// failed has verdict error. Labels, host and date are the caller's; each side's context is kept.
compare_results compare_counted(const run_results& base, const run_results& head, double threshold_pct);

/// Why `base` and `head` cannot be compared as counts, or empty when they can: both must be
/// counted, by the same instrument.
std::optional<std::string> counted_mismatch(const run_results& base, const run_results& head);

/// Whether `results` holds counted rows (a run with --instrument).
bool is_counted(const run_results& results);

}  // namespace tare::counted
