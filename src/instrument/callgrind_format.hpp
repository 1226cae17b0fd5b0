#pragma once
// Reading the totals of one Callgrind dump (its "events:" and "summary:" lines; the format is
// Valgrind's "Callgrind Format Specification"), and what tare reports from them.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "io/results_reader.hpp"

namespace tare::instrument {

/// What separates the words of a Callgrind line.
inline bool callgrind_blank(char c) {
    return c == ' ' || c == '\t' || c == '\r';
}

/// One dump's totals, by event name ("Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr",
/// "DLmw"), in the file's order.
struct callgrind_totals {
    std::vector<std::pair<std::string, std::uint64_t>> events;

    /// The total of `event`; empty when the dump does not have it.
    std::optional<std::uint64_t> get(const std::string& event) const;
};

/// Parses the text of a dump (`origin` names it in messages: "ORIGIN:LINE:COLUMN: ..."). The
/// summary may list fewer numbers than there are events (Callgrind leaves trailing zeros out),
/// never more.
std::variant<callgrind_totals, io::read_error> parse_callgrind_dump(const std::string& text,
                                                                    const std::string& origin);

/// What one counted pass of `iterations` reports per iteration. Instructions and data accesses are
/// Callgrind's Ir, Dr and Dw; L1 misses are I1mr + D1mr + D1mw and last-level misses ILmr + DLmr +
/// DLmw, of its cache simulation.
struct callgrind_figures {
    double instructions = 0;
    double data_reads = 0;
    double data_writes = 0;
    double l1_misses = 0;
    double ll_misses = 0;
    /// L1 hits + 5 LL hits + 35 RAM accesses: Itamar Turner-Trauring's weighting ("Consistent
    /// benchmarking in CI", pythonspeed.com), as Rust's iai and iai-callgrind use it; docs/
    /// instructions.md, "Estimated cycles".
    double estimated_cycles = 0;
};

/// `totals` over `iterations` (at least 1); the estimated cycles by the formula above, where an
/// access is an instruction fetch or a data read or write, an L1 hit one that missed nothing,
/// an LL hit one that missed L1 only, a RAM access one that missed LL.
callgrind_figures per_iteration(const callgrind_totals& totals, std::uint64_t iterations);

}  // namespace tare::instrument
