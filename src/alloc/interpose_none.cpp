// The accounting layer without an interposer, for builds in which something else owns malloc
// (AddressSanitizer, MemorySanitizer, ThreadSanitizer: their runtimes define the malloc
// family themselves, and two definitions cannot both win). It defines only the symbol that
// accounting.cpp needs, so the regions still open and close, every count stays 0 and
// available() is false: the runner then reports the memory figures as unmeasured (null), not
// as zero.

#include "alloc/tally.hpp"
#include "tare/report.hpp"

namespace tare::alloc::detail {

availability check_interposer() noexcept {
    return availability::not_built;
}

thread_counters allocator_thread_counters() noexcept {
    return {};
}

}  // namespace tare::alloc::detail

namespace tare::alloc {

const std::string& allocator_in_use() {
    static const std::string none;
    return none;  // accounting is off: nothing to say of what it counts
}

}  // namespace tare::alloc

namespace tare {

// Nothing is counted in these builds: a declared allocation is not either.
void report_alloc(const void* /*p*/, std::size_t /*bytes*/) noexcept {}
void report_free(const void* /*p*/, std::size_t /*bytes*/) noexcept {}

}  // namespace tare
