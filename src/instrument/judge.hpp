#pragma once
// Judging counts (docs/instructions.md, "Verdicts"): a count of the same program is the same in
// every run, so a change needs no interval and no replicates; any change beyond a small floor is
// real. What it means for time is another question, which the docs answer.

#include <vector>

#include "core/variant_groups.hpp"
#include "model/change.hpp"
#include "model/run.hpp"

namespace tare::instrument {

/// Head against base as a change: the exact ratio, its interval the point itself (a count has no
/// sampling error), p-value 0 for a change and 1 for none. Both counts must be above 0.
paired_change count_change(double base, double head);

/// "faster" (fewer) or "slower" (more) when the change is beyond count_floor_pct and `threshold_pct`;
/// no_change otherwise.
verdict count_verdict(const paired_change& change, double threshold_pct = 0);

/// The members of `group` against its baseline, from their counted rows (in the group's order):
/// one comparison per member whose count and the baseline's are known.
std::vector<variant_comparison> compare_members(const core::group_instance& group,
                                                const std::vector<benchmark_result>& rows);

}  // namespace tare::instrument
