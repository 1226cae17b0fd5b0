#pragma once
// From the call graph of a counted pass to the region's instruction profile (docs/profiles.md):
// each function's own instructions, exact, and the flame graph's stacks from the benchmark's
// body down.
//
// A call graph does not fix the stacks: Callgrind records what each caller spent calling each
// callee, not what the callee's callees cost under each of its callers. The stacks therefore
// divide a function's cost among its own callees in the proportions it had over all its calls
// (gprof's assumption). The first level below each caller is exact; deeper levels are exact when
// a function's calls cost alike wherever it was called from. Rejected: Callgrind's
// --separate-callers=N, which names each function by its N callers and makes N levels exact,
// because it multiplies the dump's size and Callgrind's own time by the contexts, and still
// leaves deeper levels to the same assumption.
//
// Recursion is folded: Callgrind names a recursive call's levels "f'2" and the graph holds the
// cost of every level, so a callee already on the stack is not expanded again and its share is
// left out of the proportions. Stacks below a 1/2000 share of the region are gathered into one
// "(smaller callees)" frame of their caller, which keeps the total exact and the file small.

#include <cstdint>

#include "instrument/callgrind_graph.hpp"
#include "model/run.hpp"

namespace tare::instrument {

struct profile_limits {
    double min_share = 1.0 / 2000;    // a stack's share of the region below which it is gathered
    std::size_t max_depth = 128;      // frames below the body; deeper ones are gathered likewise
    std::size_t max_functions = 200;  // functions listed by self instructions
};

/// The frame that gathers the stacks below the limits.
inline constexpr const char* smaller_callees = "(smaller callees)";

/// The profile of a pass of `iterations` iterations (at least 1 is used) whose call graph is `g`:
/// per iteration; the frames above the benchmark's body (the program's entry, tare's harness,
/// std::function's and Google Benchmark's) cut off.
instruction_profile region_profile(const callgrind_graph& g, std::uint64_t iterations,
                                   const profile_limits& limits = {});

/// A function as the profile names it: Callgrind's recursion level ("'2") taken off.
std::string profile_function_name(const std::string& callgrind_name);

}  // namespace tare::instrument
