#pragma once
// What a history keeps of a run: every figure tare reports per benchmark, by the name the
// results' JSON gives it (docs/history.md, "What is kept"), and what each measure is: an exact
// count or a noisy one, and which way is better.

#include <optional>
#include <string_view>
#include <vector>

#include "model/comparison.hpp"
#include "model/history.hpp"
#include "model/run.hpp"
#include "stats/change_points.hpp"

namespace tare::history {

/// The figures of every benchmark of `r` that has figures (a failed row has none): time with its
/// interval, the memory figures, throughput, instruction counts and the user's counters
/// ("counter:NAME"). A figure a run did not measure is absent, never 0.
std::vector<history_figure> figures_of(const run_results& r);

/// The same of one side of a stored comparison (`head` or base): time, memory and counts.
std::vector<history_figure> figures_of(const compare_results& r, bool head);

/// True for the measures that count something exactly when the code does not change
/// (allocations, bytes, peak heap, copies, mappings, instructions and Callgrind's other counts):
/// any change of their level is a change (stats/change_points.hpp, exact_steps).
bool exact_measure(std::string_view measure);

/// How far apart two values of an exact measure may be and still be one level: a count's
/// rounding, and for the peak heap the allocator's choice of blocks, as `tare compare` allows
/// (model/change.hpp, peaks_differ).
stats::level_slack level_slack_of(std::string_view measure);

/// The order measures are shown in: time, memory, throughput, counts, then counters.
int measure_rank(std::string_view measure);

/// True when a rise of `measure` is better (throughput), false when worse (time, memory,
/// instructions), nothing for a user's counter, whose better side tare cannot know.
std::optional<bool> higher_is_better(std::string_view measure);

/// What a move of `measure` from `before` to `after` is: a regression, an improvement, or
/// "changed" when tare cannot tell better from worse (a user's counter) or nothing moved.
history_direction direction_of(std::string_view measure, double before, double after);

}  // namespace tare::history
