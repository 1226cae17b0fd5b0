// The region API: opens, pauses and closes the window in which the allocation hook counts.
// The hook itself is in interpose_glibc.cpp, the counting it does in tally.hpp.
//
// Memory ordering. Every counter is a single atomic, and every update of another thread is
// one read-modify-write on it, so all updates of a counter are in one modification order.
// "Counts by other threads are visible to snapshot() once those calls have returned" can only
// mean: once something (a join, a mutex, an atomic flag) makes those calls happen before the
// snapshot. Then write-read coherence already gives the snapshot's relaxed loads every
// earlier update; release on the updates or acquire on the loads would add nothing. The one
// place ordering matters is the other direction: region_begin() resets the counters and then
// publishes the epoch with release; the hook loads the epoch with acquire, so a thread that
// counts into the new region does so after the reset, never before it (where the reset would
// erase it). On x86-64 that acquire load is the same plain mov as a relaxed one.

#include "alloc/accounting.hpp"

#include <algorithm>

#include "alloc/tally.hpp"

namespace tare::alloc {
namespace detail {

constinit region_state state{};
constinit thread_local std::uint32_t owned_epoch TARE_ALLOC_TLS = 0;

}  // namespace detail

namespace {

constexpr auto relaxed = std::memory_order_relaxed;

std::uint32_t next_epoch() noexcept {
    detail::region_state& s = detail::state;
    std::uint32_t epoch = s.flags.last_epoch + 1;
    if (epoch == 0)
        epoch = 1;  // 0 means "untagged"; wraps after 2^32 regions
    s.flags.last_epoch = epoch;
    return epoch;
}

void reset_counters() noexcept {
    detail::region_state& s = detail::state;
    s.owner.allocs.store(0, relaxed);
    s.owner.bytes.store(0, relaxed);
    s.owner.freed.store(0, relaxed);
    s.others.allocs.store(0, relaxed);
    s.others.bytes.store(0, relaxed);
    s.others.live.store(0, relaxed);
    s.peak.value.store(0, relaxed);
}

}  // namespace

bool detail::hook_counts(void* (*allocate)(std::size_t), void (*release)(void*)) noexcept {
    region_state& s = state;
    if (s.flags.region_epoch.load(relaxed) != 0)
        return true;
    const std::uint64_t allocs = s.owner.allocs.load(relaxed);
    const std::uint64_t bytes = s.owner.bytes.load(relaxed);
    const std::uint64_t freed = s.owner.freed.load(relaxed);
    const std::int64_t peak = s.peak.value.load(relaxed);
    const std::uint32_t owned = owned_epoch;
    // A private epoch that region_epoch never holds: the block it tags is ignored when freed.
    const std::uint32_t probe = next_epoch();
    owned_epoch = probe;
    s.flags.counting_epoch.store(probe, std::memory_order_release);
    void* p = allocate(1);
    asm volatile("" : : "g"(p) : "memory");  // not a pair the optimizer may elide (LTO)
    s.flags.counting_epoch.store(0, relaxed);
    const bool counted = s.owner.allocs.load(relaxed) != allocs;
    release(p);
    s.owner.allocs.store(allocs, relaxed);
    s.owner.bytes.store(bytes, relaxed);
    s.owner.freed.store(freed, relaxed);
    s.peak.value.store(peak, relaxed);
    owned_epoch = owned;
    return counted;
}

availability availability_status() noexcept {
    // Resolved once: the answer cannot change while the process runs, and the check may
    // allocate (dlsym), which it must not do between samples.
    static const availability cached = detail::check_interposer();
    return cached;
}

bool available() noexcept {
    return availability_status() == availability::active;
}

void region_begin() noexcept {
    detail::region_state& s = detail::state;
    // Stop the previous region first, so no block is tagged with it from here on.
    s.flags.counting_epoch.store(0, relaxed);
    s.flags.region_epoch.store(0, relaxed);
    const std::uint32_t epoch = next_epoch();
    reset_counters();
    detail::owned_epoch = epoch;
    // region_epoch before counting_epoch: a block tagged `epoch` can only exist after
    // counting_epoch says so, and whoever frees it then finds region_epoch already set.
    s.flags.region_epoch.store(epoch, std::memory_order_release);
    s.flags.counting_epoch.store(epoch, std::memory_order_release);
}

void pause() noexcept {
    detail::state.flags.counting_epoch.store(0, relaxed);
}

void resume() noexcept {
    detail::region_state& s = detail::state;
    // Release for the same reason as in region_begin(): a thread that sees counting resume
    // also sees everything the runner did before, the reset included.
    s.flags.counting_epoch.store(s.flags.region_epoch.load(relaxed), std::memory_order_release);
}

counters snapshot() noexcept {
    const detail::region_state& s = detail::state;
    counters c;
    c.allocs = s.owner.allocs.load(relaxed) + s.others.allocs.load(relaxed);
    c.bytes = s.owner.bytes.load(relaxed) + s.others.bytes.load(relaxed);
    c.live = s.owner.live() + s.others.live.load(relaxed);
    // The hook raises the peak at every counted allocation, so live <= peak except while
    // another thread is between its two updates; the max keeps the pair consistent anyway.
    c.peak = std::max(s.peak.value.load(relaxed), c.live);
    return c;
}

void region_end() noexcept {
    detail::region_state& s = detail::state;
    s.flags.counting_epoch.store(0, relaxed);
    s.flags.region_epoch.store(0, relaxed);
}

}  // namespace tare::alloc
