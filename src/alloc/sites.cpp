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
    std::size_t alloc_count = 0;  // records claimed, dropped ones included
    std::size_t free_count = 0;
    std::uint64_t seq = 0;
};

constinit site_state sites{};
constinit thread_local bool capturing TARE_ALLOC_TLS = false;

}  // namespace

void set_site_buffers(site_buffers buffers) noexcept {
    sites.allocs = buffers.allocs.data();
    sites.alloc_capacity = buffers.allocs.size();
    sites.frees = buffers.frees.data();
    sites.free_capacity = buffers.frees.size();
    __atomic_store_n(&sites.alloc_count, 0, order_relaxed);
    __atomic_store_n(&sites.free_count, 0, order_relaxed);
    __atomic_store_n(&sites.seq, 0, order_relaxed);
}

TARE_ALLOC_HOOK void* record_site(void* block, std::size_t n, std::uint32_t epoch) noexcept {
    if (capturing)
        return block;  // the unwinder's own allocation, inside a capture of this thread
    capturing = true;
    const std::uint64_t seq = __atomic_fetch_add(&sites.seq, 1, order_relaxed);
    const std::size_t i = __atomic_fetch_add(&sites.alloc_count, 1, order_relaxed);
    if (i < sites.alloc_capacity) {
        site_record& r = sites.allocs[i];
        r.block = block;
        r.size = n;
        r.thread = owned_epoch == epoch ? 0 : static_cast<std::uint64_t>(pthread_self());
        r.seq = seq;
        r.depth = static_cast<std::uint32_t>(backtrace(r.frames, static_cast<int>(max_site_frames)));
    }
    capturing = false;
    return block;
}

TARE_ALLOC_HOOK void record_free(const void* block, std::uint32_t region) noexcept {
    // Only while the block's region is open: once it has ended, its buffers may be gone (a
    // block the pass kept is freed at teardown, or in a later benchmark).
    if (__atomic_load_n(&state.flags.region_epoch, order_relaxed) != region)
        return;
    const std::uint64_t seq = __atomic_fetch_add(&sites.seq, 1, order_relaxed);
    const std::size_t i = __atomic_fetch_add(&sites.free_count, 1, order_relaxed);
    if (i < sites.free_capacity) {
        sites.frees[i] = free_record{block, seq};
    }
}

}  // namespace tare::alloc::detail

namespace tare::alloc {

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
    return t;
}

}  // namespace tare::alloc
