// Declared allocations (include/tare/report.hpp): a pool's blocks, counted as the hook counts
// malloc's, with the size the program declares standing for the usable size the allocator
// would report (a pool has none to ask).
//
// Marked as the hook is (TARE_ALLOC_HOOK): GCC inlines the counting only into functions with
// the same sanitizer attributes.
//
// PERF: one call, the region's flags and the owner's counters, as the hook's counting path
// without the allocator underneath; bench/README.md, "Declared allocations", has the figure.

#include "alloc/counting.hpp"
#include "tare/report.hpp"

namespace tare {

TARE_ALLOC_HOOK void report_alloc(const void* p, std::size_t bytes) noexcept {
    const std::uint32_t epoch = alloc::detail::count_alloc(p, bytes, bytes);
    if ((epoch & alloc::detail::sites_tag) != 0) [[unlikely]]
        alloc::detail::record_site(const_cast<void*>(p), bytes, epoch);
}

TARE_ALLOC_HOOK void report_free(const void* p, std::size_t bytes) noexcept {
    const std::uint32_t region = alloc::detail::open_region_epoch();
    if (region == 0) [[likely]]
        return;
    if (alloc::detail::count_free(p, region, bytes) && (region & alloc::detail::sites_tag) != 0) [[unlikely]]
        alloc::detail::record_free(p, region);
}

}  // namespace tare
