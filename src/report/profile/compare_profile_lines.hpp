#pragma once
// Private to src/report, the `tare` command's: the lines a comparison's console and Markdown
// reports print of profiles (docs/profiles.md): which functions and allocation stacks a change
// moved.

#include "model/comparison.hpp"
#include "report/table/document.hpp"

namespace tare::report::detail {

/// Under each changed row of a profiled counted comparison, a "functions" item: the three
/// functions whose own instructions changed most.
table::item_list changed_function_items(const compare_results& r);

/// Under each row whose allocation stacks changed, an "allocations" item: the three that changed
/// most.
table::item_list changed_allocation_items(const compare_results& r);

}  // namespace tare::report::detail
