#pragma once
// Private to src/report: flame graphs of a profile's stacks as inline SVG (docs/profiles.md), the
// body at the top and its callees below, each frame as wide as what it and its callees cost. A
// click on a frame zooms the graph to it (one small inline script, flame_script); with no script
// the graph reads whole. A differential graph is head's, each frame coloured by how its cost
// changed against base: red more, blue less, the deeper the larger the change (Brendan Gregg's
// differential flame graphs). Pure, like every reporter.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/run.hpp"

namespace tare::report::detail {

/// One stack, frames from the body in, and its innermost frame's own cost; `base` that cost in
/// the base build, for a differential graph (empty: the graph is not differential).
struct flame_stack {
    std::vector<std::string> frames;
    double value = 0;
    std::optional<double> base;
};

/// The stacks of an instruction profile, per iteration.
std::vector<flame_stack> instruction_stacks(const instruction_profile& p);

/// The stacks of allocation sites (innermost first there), by bytes per iteration.
std::vector<flame_stack> allocation_stacks(const std::vector<alloc_site>& sites);

/// The stacks of a differential graph: head's stacks, each with base's cost of the same stack
/// (0 where base has none); stacks only base has are left out (they have no width in head).
std::vector<flame_stack> differential_stacks(const instruction_profile& base,
                                             const instruction_profile& head);

/// A figure holding the flame graph of `stacks`, with `caption` above it; `unit` names what a
/// frame's figure counts in its tooltip ("instructions/iter", "B/iter"). Empty when there is
/// nothing to draw.
std::string flame_graph(const std::vector<flame_stack>& stacks, std::string_view caption,
                        std::string_view unit, bool bytes);

/// The script that zooms a flame graph to a clicked frame; once per page that has one.
extern const std::string_view flame_script;
/// The flame graphs' style rules; once per page that has one.
extern const std::string_view flame_style;

}  // namespace tare::report::detail
