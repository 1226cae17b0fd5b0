#pragma once
// What changed between two builds' profiles, by function and by allocation stack
// (docs/profiles.md, "The change by function"): for the `tare` command's comparisons.

#include <cstddef>
#include <vector>

#include "model/comparison.hpp"
#include "model/run.hpp"

namespace tare::counted {

/// The `top` functions whose own instructions per iteration differ most between `base` and
/// `head`, by the size of the difference; a function a side does not list counts 0 there. Counts
/// are exact: an unchanged program gives none.
std::vector<function_change> changed_functions(const instruction_profile& base,
                                               const instruction_profile& head, std::size_t top = 10);

/// The `top` allocation stacks whose allocations (or bytes) per iteration differ most between the
/// sites passes of `base` and `head`, by the change in allocations. A stack a side does not list
/// counts 0 there only when that side listed all of its stacks (else the stack is left out: it may
/// be below that side's top). Nothing unless both sides have a sites pass.
std::vector<allocation_change> changed_allocations(const benchmark_result& base, const benchmark_result& head,
                                                   std::size_t top = 10);

}  // namespace tare::counted
