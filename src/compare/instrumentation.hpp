#pragma once
// Whether the two sides of a comparison were instrumented alike. Accounting, copy counting and
// Google Benchmark's region hooks all run code inside or around the timed loop, so two sides that
// differ in them differ in time for that reason alone: the change then measures the
// instrumentation as well as the code, and a verdict would blame the code (docs/compare.md,
// "Mixed instrumentation").

#include <optional>
#include <utility>
#include <vector>

#include "compare/rounds.hpp"
#include "model/comparison.hpp"

namespace tare::compare {

/// How one side was instrumented, from what its results or its processes said.
struct side_instrumentation {
    bool accounting = false;  // tare's allocation interposer counted the timed region
    bool copies = false;      // tare::copies counted memcpy, memmove and memset
    /// Google Benchmark: tare::gbench's region hooks measured the timed loop; empty for a side
    /// that is not Google Benchmark's (or whose memory figures say nothing: every row failed).
    std::optional<bool> region_hooks;
    bool counted = false;  // --instrument counted it instead of timing it
};

/// A results file's side (or the results of a counted run): from its context and its rows.
side_instrumentation instrumentation_of(const run_results& r);

/// Both sides of measured rounds, base first. `gbench`: the sides are Google Benchmark
/// executables (as workers, or one process a benchmark).
std::pair<side_instrumentation, side_instrumentation> instrumentation_of(const rounds_data& data,
                                                                         bool gbench);

/// What differs between the sides: kind "accounting", "copies", "region_hooks" or "counted", and
/// a message naming the side that has it; empty when they are alike.
std::vector<warning> instrumentation_differences(const side_instrumentation& base,
                                                 const side_instrumentation& head);

/// Records the differences in `r.mixed_instrumentation` and, when there are any, marks every row
/// both sides measured: a `mixed_instrumentation` warning on its head side and, unless `allow`
/// (--allow-mixed-instrumentation), no time verdict (compare_row::unjudged says why; the change
/// and its interval stay).
void judge_instrumentation(compare_results& r, const side_instrumentation& base,
                           const side_instrumentation& head, bool allow);

/// --fail-on-regression refuses a comparison whose sides differ and were not allowed to.
bool refuses_mixed_instrumentation(const compare_results& r);

}  // namespace tare::compare
