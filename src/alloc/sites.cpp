// The recording side of a sites region (accounting.hpp, "Allocation sites"): the hook calls
// record_site() for every allocation a sites region counts, and record_free() for every free
// it counts (a recorded block's or another's: the summary matches them by address). Records go
// into caller-owned buffers through one atomic index each, so threads record side by side
// without a lock.
//
// SAFETY: nothing here allocates, locks or throws. The stack is captured with glibc's
// backtrace(), which walks the unwind tables through libgcc's unwinder; its first call loads
// libgcc_s (dlopen, which allocates), which is why prepare_site_capture() makes that call
// before a sites region opens. A thread-local flag turns recording off while this thread is
// inside the capture, so an allocation the unwinder might make is counted but never recorded
// (no recursion). Rejected: frame-pointer walking, which allocates nothing and costs
// nanoseconds, but stops at the first frame built without frame pointers, i.e. at most of an
// optimized program; and libunwind, a link dependency for every benchmark executable where
// glibc's is already there.
//
// PERF: nothing on the counting path: the hook tests a bit of the epoch it already holds
// (sites_tag). A recorded allocation costs the unwinding, a few microseconds, which is
// why recording runs in a diagnostic pass after the timed samples.

#include <execinfo.h>
#include <pthread.h>

#include "alloc/tally.hpp"

namespace tare::alloc::detail {
namespace {

struct site_state {
    site_record* allocs = nullptr;
    std::size_t alloc_capacity = 0;
    free_record* frees = nullptr;
    std::size_t free_capacity = 0;
    site_record* growth = nullptr;
    std::size_t growth_capacity = 0;
    std::size_t alloc_count = 0;  // records claimed, dropped ones included
    std::size_t free_count = 0;
    std::size_t growth_count = 0;  // growth records claimed, dropped ones included
    std::uint64_t seq = 0;
    std::uint64_t largest = 0;  // the biggest allocation recorded so far, in bytes requested
    bool growth_only = false;   // sites_growth_only() was called
};

constinit site_state sites{};
constinit thread_local bool capturing TARE_ALLOC_TLS = false;

// In growth-only mode, the addresses whose frees are recorded, hashed to a bit: the recorded
// blocks live when the mode began, and every growth record's. The body's temporaries, recorded
// and freed before, are not among them: their frees would fill the free buffer as the pass runs
// on, and a recorded block's free dropped would leave it looking kept. A stray set bit (another block at a
// recorded address, or a hash collision) records a free the summary ignores: it matches no live record.
// Rejected: a set of addresses, which the recording would have to keep lock-free for every thread, for no
// gain over a filter whose false positives cost nothing.
constexpr unsigned recorded_bits = 18;
constinit std::uint64_t recorded[(std::size_t{1} << recorded_bits) / 64] = {};

TARE_ALLOC_HOOK std::size_t recorded_bit(const void* block) noexcept {
    const auto a = reinterpret_cast<std::uintptr_t>(block) >> 4;
    return static_cast<std::size_t>((a * 0x9E3779B97F4A7C15ULL) >> (64 - recorded_bits));
}

TARE_ALLOC_HOOK void mark_address(const void* block) noexcept {
    const std::size_t bit = recorded_bit(block);
    __atomic_fetch_or(&recorded[bit / 64], std::uint64_t{1} << (bit % 64), order_relaxed);
}

TARE_ALLOC_HOOK void mark_recorded(const void* block, std::uint64_t size, bool growth) noexcept {
    if (growth)
        mark_address(block);
    std::uint64_t seen = __atomic_load_n(&sites.largest, order_relaxed);
    while (size > seen &&
           !__atomic_compare_exchange_n(&sites.largest, &seen, size, true, order_relaxed, order_relaxed)) {
    }
}

TARE_ALLOC_HOOK bool maybe_recorded(const void* block) noexcept {
    const std::size_t bit = recorded_bit(block);
    return (__atomic_load_n(&recorded[bit / 64], order_relaxed) >> (bit % 64) & 1U) != 0;
}

TARE_ALLOC_HOOK void capture(site_record& r, void* block, std::size_t n, std::uint32_t epoch,
                             std::uint64_t seq, bool growth) noexcept {
    r.block = block;
    r.size = n;
    r.thread = owned_epoch == epoch ? 0 : static_cast<std::uint64_t>(pthread_self());
    r.seq = seq;
    r.depth = static_cast<std::uint32_t>(backtrace(r.frames, static_cast<int>(max_site_frames)));
    mark_recorded(block, n, growth);
}

}  // namespace

void set_site_buffers(site_buffers buffers) noexcept {
    sites.allocs = buffers.allocs.data();
    sites.alloc_capacity = buffers.allocs.size();
    sites.frees = buffers.frees.data();
    sites.free_capacity = buffers.frees.size();
    sites.growth = buffers.growth.data();
    sites.growth_capacity = buffers.growth.size();
    __atomic_store_n(&sites.alloc_count, 0, order_relaxed);
    __atomic_store_n(&sites.free_count, 0, order_relaxed);
    __atomic_store_n(&sites.growth_count, 0, order_relaxed);
    __atomic_store_n(&sites.seq, 0, order_relaxed);
    __atomic_store_n(&sites.largest, 0, order_relaxed);
    __atomic_store_n(&sites.growth_only, false, order_relaxed);
}

TARE_ALLOC_HOOK void* record_site(void* block, std::size_t n, std::uint32_t epoch) noexcept {
    if (capturing)
        return block;  // the unwinder's own allocation, inside a capture of this thread
    const bool growth_only = __atomic_load_n(&sites.growth_only, order_relaxed);
    if (growth_only && n <= __atomic_load_n(&sites.largest, order_relaxed))
        return block;  // no bigger than one recorded before: a size the pass has seen
    capturing = true;
    const std::uint64_t seq = __atomic_fetch_add(&sites.seq, 1, order_relaxed);
    if (growth_only) {
        const std::size_t i = __atomic_fetch_add(&sites.growth_count, 1, order_relaxed);
        if (i < sites.growth_capacity)
            capture(sites.growth[i], block, n, epoch, seq, true);
    } else {
        const std::size_t i = __atomic_fetch_add(&sites.alloc_count, 1, order_relaxed);
        if (i < sites.alloc_capacity)
            capture(sites.allocs[i], block, n, epoch, seq, false);
    }
    capturing = false;
    return block;
}

TARE_ALLOC_HOOK void record_free(const void* block, std::uint32_t region) noexcept {
    // Only while the block's region is open: once it has ended, its buffers may be gone (a
    // block the pass kept is freed at teardown, or in a later benchmark).
    if (__atomic_load_n(&state.flags.region_epoch, order_relaxed) != region)
        return;
    if (__atomic_load_n(&sites.growth_only, order_relaxed) && !maybe_recorded(block))
        return;
    const std::uint64_t seq = __atomic_fetch_add(&sites.seq, 1, order_relaxed);
    const std::size_t i = __atomic_fetch_add(&sites.free_count, 1, order_relaxed);
    if (i < sites.free_capacity) {
        sites.frees[i] = free_record{block, seq};
    }
}

}  // namespace tare::alloc::detail

namespace tare::alloc {

void sites_growth_only(std::span<const void* const> live) noexcept {
    __builtin_memset(detail::recorded, 0, sizeof detail::recorded);
    for (const void* block : live)
        detail::mark_address(block);
    __atomic_store_n(&detail::sites.growth_only, true, detail::order_relaxed);
}

void prepare_site_capture() noexcept {
    void* frames[4];
    backtrace(frames, 4);
}

site_totals sites_recorded() noexcept {
    using detail::sites;
    site_totals t;
    const std::size_t allocs = __atomic_load_n(&sites.alloc_count, detail::order_relaxed);
    const std::size_t frees = __atomic_load_n(&sites.free_count, detail::order_relaxed);
    t.allocs = allocs < sites.alloc_capacity ? allocs : sites.alloc_capacity;
    t.frees = frees < sites.free_capacity ? frees : sites.free_capacity;
    t.dropped_allocs = allocs - t.allocs;
    t.dropped_frees = frees - t.frees;
    const std::size_t growth = __atomic_load_n(&sites.growth_count, detail::order_relaxed);
    t.growth = growth < sites.growth_capacity ? growth : sites.growth_capacity;
    return t;
}

}  // namespace tare::alloc
