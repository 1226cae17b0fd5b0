// Callgrind's dump files, as --instrument's child reads them back: any bytes are totals or a
// message naming the line and column, never a crash; totals give finite figures.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <variant>

#include "instrument/callgrind_format.hpp"

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
    return 0;
}
