#pragma once
// From measured rounds (or two results files) to a compare_results: per-side figures, the
// change with its family-adjusted interval, and the verdict. Pure functions: unit-tested with
// hand-made rounds, and the same for every way of running the sides.

#include "compare/compare_result.hpp"
#include "compare/rounds.hpp"

namespace tare::compare {

struct verdict_options {
    double alpha = 0.05;       // family-wise error rate over all verdicts of the comparison
    double threshold_pct = 0;  // practical-significance band (criterion's noise threshold)
};

/// Paired comparison over rounds. Each round gives one value per side: the median of that
/// side's per-iteration sample times in the round (the median so that one interrupted sample
/// cannot move a round). The change is the Student t interval of the mean log-ratio over the
/// rounds where both sides measured (stats::paired_log_change): fresh processes per round make
/// rounds independent replicates that carry process-to-process variation, which a test on the
/// samples inside one pair of processes would leave out (it made compare.py call 64 % of A/A
/// rows significant on these machines). Rejected: a two-level model pooling samples across
/// rounds with a random process effect — with 5-20 rounds its variance estimate is the same
/// information, with more assumptions. Memory figures are exact sums over every measured
/// sample: allocations and bytes over iterations, page faults likewise, peak the highest of any
/// round. Labels, host and date are the caller's.
compare_results aggregate_rounds(const rounds_data& data, const verdict_options& options);

/// Unpaired comparison of two results files (pairing::unpaired): each side's figures as its
/// file has them; the change by stats::welch_log_change on the per-iteration sample times,
/// with Bonferroni over the rows that have one.
compare_results compare_files(const run_results& base, const run_results& head,
                              const verdict_options& options);

/// The exit status asked for by --fail-on-regression=PCT: true when some row is "slower" with
/// a change above `pct`.
bool has_regression(const compare_results& results, double pct);

}  // namespace tare::compare
