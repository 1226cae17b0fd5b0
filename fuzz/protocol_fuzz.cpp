// The worker protocol's lines, as both sides parse them (src/protocol/worker_protocol.hpp): a
// line is read or refused, and what is read is written back to a line that reads the same.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "protocol/worker_protocol.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string line(reinterpret_cast<const char*>(data), size);
    namespace p = tare::protocol;
    (void)p::parse_hello(line);
    (void)p::parse_names(line);
    (void)p::parse_calibrated(line);
    (void)p::parse_result(line);
    if (auto n = p::parse_sample_request(line)) {
        const std::string again = p::sample_request(*n);
        if (p::parse_sample_request(again.substr(0, again.size() - 1)) != n)
            std::abort();
    }
    if (auto s = p::parse_sample(line)) {
        const std::string again = p::format_sample(s->sample, s->peak_live_bytes);
        auto back = p::parse_sample(again.substr(0, again.size() - 1));  // without its '\n'
        if (!back || back->sample.iterations != s->sample.iterations ||
            back->peak_live_bytes != s->peak_live_bytes)
            std::abort();
    }
    if (auto r = p::parse_run(line)) {
        const std::string again = p::run(*r);
        auto back = p::parse_run(again.substr(0, again.size() - 1));
        if (!back || back->name != r->name || back->sample_ns != r->sample_ns ||
            back->warmup_ns != r->warmup_ns)
            std::abort();
    }
    if (auto r = p::parse_run_sized(line)) {
        const std::string again = p::run_sized(*r);
        auto back = p::parse_run_sized(again.substr(0, again.size() - 1));
        if (!back || back->name != r->name || back->iterations != r->iterations ||
            back->warmup_ns != r->warmup_ns)
            std::abort();
    }
    return 0;
}
