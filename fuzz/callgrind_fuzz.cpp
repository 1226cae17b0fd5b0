// Callgrind's dump files, as --instrument's child reads them back and --profile reads their call
// graph: any bytes are totals, or a graph, or a message naming the line and column, never a crash
// or a hang; totals give finite figures, and a graph a profile whose stacks index its frames and
// whose costs are finite and not negative.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <variant>

#include "counted/profile_changes.hpp"
#include "instrument/callgrind_format.hpp"
#include "instrument/callgrind_graph.hpp"
#include "instrument/profile.hpp"

namespace {

void check_profile(const tare::instruction_profile& p) {
    for (const tare::profile_stack& s : p.stacks) {
        if (s.frames.empty() || !std::isfinite(s.self) || s.self < 0)
            std::abort();
        for (std::uint32_t f : s.frames)
            if (f >= p.frames.size())
                std::abort();
    }
    for (const tare::function_cost& f : p.functions)
        if (!std::isfinite(f.self) || f.self < 0)
            std::abort();
    if (!tare::counted::changed_functions(p, p).empty())
        std::abort();  // a profile against itself changed nothing
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto parsed = tare::instrument::parse_callgrind_dump(text, "fuzz.out");
    if (const auto* totals = std::get_if<tare::instrument::callgrind_totals>(&parsed)) {
        for (const std::uint64_t iterations : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{7}}) {
            const auto f = tare::instrument::per_iteration(*totals, iterations);
            if (!std::isfinite(f.instructions) || !std::isfinite(f.estimated_cycles))
                std::abort();
        }
    } else if (std::get<tare::io::read_error>(parsed).message.rfind("fuzz.out", 0) != 0) {
        std::abort();  // every message names the file
    }
    auto graph = tare::instrument::parse_callgrind_graph(text, "fuzz.out");
    if (const auto* g = std::get_if<tare::instrument::callgrind_graph>(&graph)) {
        if (g->self.size() != g->functions.size())
            std::abort();
        for (const auto& c : g->calls)
            if (c.caller >= g->functions.size() || c.callee >= g->functions.size())
                std::abort();
        check_profile(tare::instrument::region_profile(*g, 3));
    } else if (std::get<tare::io::read_error>(graph).message.rfind("fuzz.out", 0) != 0) {
        std::abort();
    }
    return 0;
}
