// The worker protocol's lines, as both sides parse them (src/protocol/worker_protocol.hpp): a
// line is read or refused, and what is read is written back to a line that reads the same.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "protocol/worker_protocol.hpp"

namespace {

// When `parse` reads `line`, `format` writes what it read to a line (ending in '\n') that
// `parse` reads back as `same` to it; anything else is a fault.
template <class Parse, class Format, class Same>
void round_trip(const std::string& line, Parse parse, Format format, Same same) {
    if (auto read = parse(line)) {
        const std::string again = format(*read);
        auto back = parse(again.substr(0, again.size() - 1));  // without its '\n'
        if (!back || !same(*read, *back))
            std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string line(reinterpret_cast<const char*>(data), size);
    namespace p = tare::protocol;
    (void)p::parse_hello(line);
    (void)p::parse_names(line);
    (void)p::parse_calibrated(line);
    (void)p::parse_result(line);
    round_trip(
        line, [](const std::string& l) { return p::parse_sample_request(l); },
        [](auto n) { return p::sample_request(n); }, [](auto a, auto b) { return a == b; });
    round_trip(
        line, [](const std::string& l) { return p::parse_sample(l); },
        [](const auto& s) { return p::format_sample(s.sample, s.peak_live_bytes); },
        [](const auto& a, const auto& b) {
            return a.sample.iterations == b.sample.iterations && a.peak_live_bytes == b.peak_live_bytes;
        });
    round_trip(
        line, [](const std::string& l) { return p::parse_run(l); }, [](const auto& r) { return p::run(r); },
        [](const auto& a, const auto& b) {
            return a.name == b.name && a.sample_ns == b.sample_ns && a.warmup_ns == b.warmup_ns;
        });
    round_trip(
        line, [](const std::string& l) { return p::parse_run_sized(l); },
        [](const auto& r) { return p::run_sized(r); },
        [](const auto& a, const auto& b) {
            return a.name == b.name && a.iterations == b.iterations && a.warmup_ns == b.warmup_ns;
        });
    return 0;
}
