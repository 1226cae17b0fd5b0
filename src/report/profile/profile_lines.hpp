#pragma once
// Private to src/report: the lines a run's console and Markdown reports print of profiles
// (docs/profiles.md): where a benchmark's instructions went. A comparison's are in
// compare_profile_lines.hpp, the `tare` command's.

#include "model/run.hpp"
#include "report/table/document.hpp"

namespace tare::report::detail {

/// Per profiled benchmark, a "profile" item: its three functions of most instructions of their
/// own, with their share of the region.
table::item_list profile_items(const run_results& results);

}  // namespace tare::report::detail
