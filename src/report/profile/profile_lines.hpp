#pragma once
// Private to src/report: the lines a run's and a comparison's console and Markdown reports print
// of profiles (docs/profiles.md): where a benchmark's instructions went, and which functions and
// allocation stacks a change moved.

#include "model/comparison.hpp"
#include "model/run.hpp"
#include "report/table/document.hpp"

namespace tare::report::detail {

/// Per profiled benchmark, a "profile" item: its three functions of most instructions of their
/// own, with their share of the region.
table::item_list profile_items(const run_results& results);

/// Under each changed row of a profiled counted comparison, a "functions" item: the three
/// functions whose own instructions changed most.
table::item_list changed_function_items(const compare_results& r);

/// Under each row whose allocation stacks changed, an "allocations" item: the three that changed
/// most.
table::item_list changed_allocation_items(const compare_results& r);

}  // namespace tare::report::detail
