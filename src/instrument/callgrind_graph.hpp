#pragma once
// Reading the call graph of one Callgrind dump: each function's own cost and each caller's
// inclusive cost of calling each callee, for one event ("Ir"). The format is Valgrind's
// "Callgrind Format Specification": name compression ("fn=(7) name", then "fn=(7)"), position
// columns before the costs (absolute, "+N"/"-N" relative, or "*"), "calls=" lines whose next
// cost line is the inclusive cost of those calls, and trailing zero costs left out.
//
// A dump made while calls are still active (the harness that called the region is on the stack
// when the dump is taken) lists those calls with the cost collected so far, so the graph reaches
// from the program's entry down to the region's innermost functions.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "io/results_reader.hpp"

namespace tare::instrument {

/// All calls from `caller` to `callee` in the dump, merged: how many, and the inclusive cost of
/// the event over them (the callee's own cost and everything it called in turn).
struct callgrind_call {
    std::uint32_t caller = 0;
    std::uint32_t callee = 0;
    std::uint64_t calls = 0;
    std::uint64_t cost = 0;
};

/// The call graph of one event. Functions are keyed by their name as Callgrind writes it
/// (demangled, with parameters); the same name in two objects is one function here.
struct callgrind_graph {
    std::vector<std::string> functions;
    std::vector<std::uint64_t> self;    // by function: its own cost, callees excluded
    std::vector<callgrind_call> calls;  // one per (caller, callee), in the order first seen
    std::uint64_t total = 0;            // the dump's summary of the event
};

/// Parses a dump's text (`origin` names it in messages: "ORIGIN:LINE:COLUMN: ..."). A dump
/// without `event` is an error, as is a cost past 2^64 when summed.
std::variant<callgrind_graph, io::read_error> parse_callgrind_graph(const std::string& text,
                                                                    const std::string& origin,
                                                                    const std::string& event = "Ir");

}  // namespace tare::instrument
