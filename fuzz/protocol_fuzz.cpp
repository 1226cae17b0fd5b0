// The worker protocol's replies, as `tare compare` parses a worker's lines: a reply is read or
// refused, and a sample read is written back to the same line.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "compare/protocol.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string line(reinterpret_cast<const char*>(data), size);
    namespace p = tare::compare::protocol;
    (void)p::parse_count(line, "calibrated ");
    (void)p::parse_count(line, "names ");
    if (auto s = p::parse_sample(line)) {
        const std::string again = p::format_sample(s->sample, s->peak_live_bytes);
        auto back = p::parse_sample(again.substr(0, again.size() - 1));  // without its '\n'
        if (!back || back->sample.iterations != s->sample.iterations ||
            back->peak_live_bytes != s->peak_live_bytes)
            std::abort();
    }
    return 0;
}
