#pragma once
// Private to src/alloc: the region's state and the counting the allocation hook does.
//
// Who writes what (docs/accounting.md, "Threads"):
// - The runner thread (the region's owner) opens, pauses, resumes, snapshots and closes
//   regions, and counts its own allocations in `owner_tally` with a plain load and store
//   (one writer, so no read-modify-write). That tally is a global, not a thread_local, and
//   its fields are accessed as relaxed atomics (a plain mov on x86-64), because the other threads read
//   the owner's live bytes to compute the peak.
// - Every other thread counts with relaxed read-modify-writes on `shared_tally`.
// - live = (owner.bytes - owner.freed) + others.live; the peak is raised by compare-and-swap
//   only when a new maximum is reached, so the common case is a single relaxed load.
//
// Rejected alternative: every thread, owner included, on the shared atomics. It is simpler,
// but the lock-prefixed adds make a malloc+free pair ~25 ns dearer where the owner's plain
// stores add ~1.9 ns in all (PERF in interpose_glibc.cpp), and the owner is the thread that
// makes nearly every allocation of a single-threaded benchmark.
// Rejected alternative: per-thread tallies summed at snapshot (divan's shape). The peak of the
// combined live heap cannot be known without a shared running total, and summing would need a
// registry of threads, i.e. a lock or an allocation at thread start.

#include <cstddef>
#include <cstdint>

#include "alloc/accounting.hpp"

// Hidden: one definition in this module, reached without the GOT, never preempted.
#define TARE_ALLOC_HIDDEN __attribute__((visibility("hidden")))
// Initial-exec TLS: a fixed offset from the thread pointer, no __tls_get_addr (which may call
// malloc) and no lazy init guard, so it is usable from the first to the last instruction of
// every thread.
#define TARE_ALLOC_TLS __attribute__((tls_model("initial-exec"), visibility("hidden")))
// On every function the hook runs, down to the smallest helper (GCC will not inline across
// differing sanitizer attributes, so an unmarked helper stays an instrumented call):
// ThreadSanitizer must not instrument code that runs through malloc before its runtime has
// initialised itself (the dynamic linker's calls) or a new thread's state (glibc's calls in
// thread start-up), or the first instrumented function entry crashes. GCC ignores the
// attribute without -fsanitize.
#define TARE_ALLOC_HOOK __attribute__((no_sanitize("thread")))

namespace tare::alloc::detail {

// Every shared field below is a plain integer accessed only through GCC's __atomic builtins
// (which Clang has too), with the orders named here. Rejected: std::atomic. Its member
// functions are library functions; in a TSan build at -O0 they stay out-of-line, instrumented
// calls inside the hook, and one such call while a new thread is being set up (TSan calls
// pthread_getattr_np, which mallocs, before the thread's TSan state exists) crashes the
// runtime. A builtin is never a call. The generated code is the same as std::atomic's.
inline constexpr int order_relaxed = __ATOMIC_RELAXED;
inline constexpr int order_acquire = __ATOMIC_ACQUIRE;
inline constexpr int order_release = __ATOMIC_RELEASE;

inline constexpr std::size_t cache_line = 64;

/// Read by every allocation and free, written only at region boundaries.
struct alignas(cache_line) region_flags {
    /// The open region's epoch while it is counting, 0 when paused or when no region is open.
    std::uint32_t counting_epoch = 0;
    /// The open region's epoch, paused or not; 0 when none is open.
    std::uint32_t region_epoch = 0;
    /// The last epoch handed out (runner thread only).
    std::uint32_t last_epoch = 0;
};

/// The owner's counts: written by the owner alone, with load + store. Its live bytes are
/// bytes - freed, so that an allocation updates two counters, not three.
struct alignas(cache_line) owner_tally {
    std::uint64_t allocs = 0;
    std::uint64_t bytes = 0;
    std::uint64_t freed = 0;   // bytes the owner's frees took off the region's level
    std::uint64_t copied = 0;  // bytes through memcpy, memmove, mempcpy (tare::copies)
    std::uint64_t set = 0;     // bytes through memset (tare::copies)
};

/// Every other thread's counts: relaxed read-modify-writes.
struct alignas(cache_line) shared_tally {
    std::uint64_t allocs = 0;
    std::uint64_t bytes = 0;
    std::int64_t live = 0;  // may go below 0: the owner's blocks, or setup's, freed here
    std::uint64_t copied = 0;
    std::uint64_t set = 0;
};

struct alignas(cache_line) peak_cell {
    std::int64_t value = 0;
};

struct region_state {
    region_flags flags;
    owner_tally owner;
    shared_tally others;
    peak_cell peak;
};

/// Defined in accounting.cpp; constant-initialised, so valid before any constructor runs.
extern constinit region_state state TARE_ALLOC_HIDDEN;
/// The epoch of the region this thread owns (0: none). Compared with the block's or the
/// counting epoch, so a stale value from an earlier region never matches.
extern constinit thread_local std::uint32_t owned_epoch TARE_ALLOC_TLS;
/// The member region this thread has joined (0: none); compared like owned_epoch.
extern constinit thread_local std::uint32_t member_epoch TARE_ALLOC_TLS;

/// Defined by exactly one of interpose_glibc.cpp / interpose_none.cpp. accounting.cpp calls
/// it, which is what pulls the interposer's object out of the static archive.
availability check_interposer() noexcept;

/// Calls `allocate(1)` then `release` on its result with counting on, under an epoch of its
/// own, and says whether the hook counted the call: i.e. whether calling that function runs
/// this library's hook. Must be called by the runner thread with no region open (it returns
/// true without calling anything otherwise); leaves the closed region's figures as they were.
bool hook_counts(void* (*allocate)(std::size_t), void (*release)(void*)) noexcept;

/// The owner's live bytes (any thread may ask).
TARE_ALLOC_HOOK inline std::int64_t owner_live() noexcept {
    return static_cast<std::int64_t>(__atomic_load_n(&state.owner.bytes, order_relaxed) -
                                     __atomic_load_n(&state.owner.freed, order_relaxed));
}

TARE_ALLOC_HOOK inline void raise_peak(std::int64_t total) noexcept {
    std::int64_t seen = __atomic_load_n(&state.peak.value, order_relaxed);
    while (total > seen && !__atomic_compare_exchange_n(&state.peak.value, &seen, total, true, order_relaxed,
                                                        order_relaxed)) {
    }
}

/// The tag of a block allocated while its region was paused (the harness's work, inputs made
/// by with_inputs): epochs stay below this bit, so the tag names the region and the pause.
inline constexpr std::uint32_t paused_tag = 0x8000'0000U;
/// Set in the epoch of a member region (region_begin_members()). Epochs stay below it too, and
/// no thread owns a member region, so its allocations never take the owner's path: the one
/// test it adds is on the other threads' path, which already pays read-modify-writes.
inline constexpr std::uint32_t members_tag = 0x4000'0000U;

/// Set in the epoch of a sites region (region_begin_sites()): every block it tags is recorded.
/// Epochs stay below it as well; a tag with it and without paused_tag is a counted allocation
/// of a sites region, one test on a value the hook already holds.
inline constexpr std::uint32_t sites_tag = 0x2000'0000U;

/// True for the tag of a block a sites region counted (and so recorded).
TARE_ALLOC_HOOK constexpr bool recorded_tag(std::uint32_t tag) noexcept {
    return (tag & (sites_tag | paused_tag)) == sites_tag;
}

/// Records the allocation of `block` (n bytes requested, tagged `epoch`) with its call stack
/// (sites.cpp), and returns `block`, so that the hook reaches it by a tail call. Only for
/// recorded_tag(epoch).
[[gnu::cold]] void* record_site(void* block, std::size_t n, std::uint32_t epoch) noexcept;
/// Records the free of a block whose tag is recorded_tag(), while its region is open.
[[gnu::cold]] void record_free(const void* block, std::uint32_t tag) noexcept;
/// Points the recording at `buffers` and zeroes its counts (region_begin_sites()).
void set_site_buffers(site_buffers buffers) noexcept;

/// True when this thread's allocations are outside the counting member region `epoch`.
TARE_ALLOC_HOOK inline bool outside_members(std::uint32_t epoch) noexcept {
    return (epoch & members_tag) != 0 && member_epoch != epoch;
}

/// Counts an allocation of `n` requested bytes that has succeeded. Returns the tag of the
/// block: the counting region's epoch; the open region's epoch | paused_tag while it is
/// paused; 0 when no region is open.
TARE_ALLOC_HOOK inline std::uint32_t count_alloc(std::size_t n) noexcept {
    // Acquire pairs with the release store in region_begin()/resume(): a thread that sees the
    // new epoch also sees the counters it reset, so its increments land after the reset.
    const std::uint32_t epoch = __atomic_load_n(&state.flags.counting_epoch, order_acquire);
    if (epoch == 0) {
        const std::uint32_t region = __atomic_load_n(&state.flags.region_epoch, order_relaxed);
        return region == 0 ? 0 : region | paused_tag;
    }
    const auto sn = static_cast<std::int64_t>(n);
    std::int64_t total = 0;
    if (owned_epoch == epoch) [[likely]] {
        owner_tally& o = state.owner;
        __atomic_store_n(&o.allocs, __atomic_load_n(&o.allocs, order_relaxed) + 1, order_relaxed);
        const std::uint64_t bytes = __atomic_load_n(&o.bytes, order_relaxed) + n;
        __atomic_store_n(&o.bytes, bytes, order_relaxed);
        total = static_cast<std::int64_t>(bytes - __atomic_load_n(&o.freed, order_relaxed)) +
                __atomic_load_n(&state.others.live, order_relaxed);
    } else {
        if (outside_members(epoch))
            return epoch | paused_tag;  // not a member: as if paused, for this thread alone
        shared_tally& s = state.others;
        __atomic_fetch_add(&s.allocs, 1, order_relaxed);
        __atomic_fetch_add(&s.bytes, n, order_relaxed);
        total = __atomic_add_fetch(&s.live, sn, order_relaxed) + owner_live();
    }
    raise_peak(total);
    return epoch;
}

/// Counts `n` bytes through a copy (memcpy, memmove, mempcpy; `set` false) or memset (`set`
/// true) while a region counts: the owner by load and store, other threads by relaxed
/// read-modify-writes, as allocations (tare::copies' hooks, copies.cpp).
TARE_ALLOC_HOOK inline void count_copy(std::size_t n, bool set) noexcept {
    const std::uint32_t epoch = __atomic_load_n(&state.flags.counting_epoch, order_relaxed);
    if (epoch == 0) [[likely]]
        return;
    if (owned_epoch == epoch) [[likely]] {
        std::uint64_t& field = set ? state.owner.set : state.owner.copied;
        __atomic_store_n(&field, __atomic_load_n(&field, order_relaxed) + n, order_relaxed);
    } else if (!outside_members(epoch)) {
        __atomic_fetch_add(set ? &state.others.set : &state.others.copied, n, order_relaxed);
    }
}

/// Set by tare::copies' object when it is linked (copies.cpp); read by copies_counted().
extern constinit bool copy_hooks_linked TARE_ALLOC_HIDDEN;

/// Releases a block of `n` requested bytes tagged `tag` (docs/accounting.md, "What a free
/// lowers"): the live heap is the net level of the region, so it falls by the block's bytes
/// - for a block the region allocated, whenever it is freed while the region is open (paused
///   or not);
/// - for a block from before the region (setup, an earlier region), when it is freed while
///   the region counts: a steady-state body that replaces setup's blocks one for one (a cache
///   evicting as it inserts) holds a flat heap, and the figures say so;
/// and not at all for a block allocated while the region was paused (the harness's own, or a
/// with_inputs input made outside the window): freeing it is not the code shrinking the heap.
/// In a member region, a thread that is not a member frees as if the region were paused.
TARE_ALLOC_HOOK inline void count_free(std::uint32_t tag, std::size_t n) noexcept {
    const std::uint32_t region = __atomic_load_n(&state.flags.region_epoch, order_relaxed);
    if (region == 0 || tag == (region | paused_tag))
        return;
    if (tag != region &&
        (__atomic_load_n(&state.flags.counting_epoch, order_relaxed) == 0 || outside_members(region)))
        return;  // an older block freed during a pause: the harness's work, not the region's
    if (owned_epoch == region) [[likely]] {
        owner_tally& o = state.owner;
        __atomic_store_n(&o.freed, __atomic_load_n(&o.freed, order_relaxed) + n, order_relaxed);
    } else {
        __atomic_fetch_sub(&state.others.live, static_cast<std::int64_t>(n), order_relaxed);
    }
}

}  // namespace tare::alloc::detail
