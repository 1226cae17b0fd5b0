// `--filter=REGEX`: any string is a filter or a message, never a crash in std::regex (whose
// compiler and matcher recurse), and a filter matches short names in bounded time.
#include <cstdint>
#include <string>
#include <variant>

#include "core/runner.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string pattern(reinterpret_cast<const char*>(data), size);
    auto parsed = tare::core::name_filter::parse(pattern);
    if (const auto* filter = std::get_if<tare::core::name_filter>(&parsed)) {
        // The matcher is the breadth-first one (core/runner.cpp): polynomial in the name and the
        // pattern, so no pattern it accepts can hang a run, and libFuzzer's timeout says so.
        for (const char* name : {"", "a", "ab/1", "sort<int>/64"})
            (void)filter->matches(name);
    }
    return 0;
}
