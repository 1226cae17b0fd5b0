#pragma once
// Private to src/alloc: the region's state and the counting the allocation hook does.
//
// Who writes what (docs/accounting.md, "Threads"):
// - The runner thread (the region's owner) opens, pauses, resumes, snapshots and closes
//   regions, and counts its own allocations in `owner_tally` with a plain load and store
//   (one writer, so no read-modify-write). That tally is a global, not a thread_local, and
//   its fields are accessed as relaxed atomics (a plain mov on x86-64), because the other
//   threads read the owner's live bytes to compute the peak.
// - Every other thread counts with relaxed read-modify-writes on `shared_tally`.
// - live = owner.live + others.live, in usable bytes; the peak is raised by compare-and-swap
//   only when a new maximum is reached, so the common case is a single relaxed load.
//
// Rejected alternative: every thread, owner included, on the shared atomics. It is simpler,
// but the lock-prefixed adds make a malloc+free pair ~25 ns dearer where the owner's plain
// stores add a few nanoseconds in all (bench/README.md), and the owner is the thread that
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
    /// The open region's epoch while the owner's live heap is read off its allocator's own
    /// counters (below), 0 otherwise: set by region_begin() and resume() on the owner, cleared
    /// by pause() and region_end(). Written with release after the pointers and the owner's
    /// rebased level; read with acquire by any thread that then follows the pointers.
    std::uint32_t counted_by_allocator = 0;
    /// Odd while the owner rebases its tally onto its allocator's counters or folds them back
    /// (owner_live()).
    std::uint32_t level_seq = 0;
    /// The owner thread's running totals of bytes allocated and freed, as its allocator keeps
    /// them in usable sizes (jemalloc's thread.allocatedp and thread.deallocatedp), or nullptr.
    const std::uint64_t* allocated = nullptr;
    const std::uint64_t* deallocated = nullptr;
};

/// The owner's counts: written by the owner alone, with load + store. `live` is the level its
/// allocations and frees moved, in the allocator's usable size: one field, so an allocation reads
/// and writes the one it raises the peak from.
struct alignas(cache_line) owner_tally {
    std::uint64_t allocs = 0;
    std::uint64_t bytes = 0;   // requested
    std::int64_t live = 0;     // usable bytes: added by the owner's allocations, taken off by its frees
    std::uint64_t copied = 0;  // bytes through memcpy, memmove, mempcpy (tare::copies)
    std::uint64_t set = 0;     // bytes through memset (tare::copies)
    std::uint64_t mapped = 0;  // bytes of anonymous mappings the program made (mmap, mremap)
};

/// Every other thread's counts: relaxed read-modify-writes.
struct alignas(cache_line) shared_tally {
    std::uint64_t allocs = 0;
    std::uint64_t bytes = 0;
    std::int64_t live = 0;  // usable bytes; may go below 0: the owner's blocks, or setup's, freed here
    std::uint64_t copied = 0;
    std::uint64_t set = 0;
    std::uint64_t mapped = 0;
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
/// The member region this thread has left for a pause inside its loop (0: none, or its loop is
/// over); compared like owned_epoch.
extern constinit thread_local std::uint32_t member_paused_epoch TARE_ALLOC_TLS;

/// Defined by exactly one of interpose_glibc.cpp / interpose_none.cpp. accounting.cpp calls
/// it, which is what pulls the interposer's object out of the static archive.
availability check_interposer() noexcept;

/// Calls `allocate(1)` then `release` on its result with counting on, under an epoch of its
/// own, and says whether the hook counted the call: i.e. whether calling that function runs
/// this library's hook. Must be called by the runner thread with no region open (it returns
/// true without calling anything otherwise); leaves the closed region's figures as they were.
bool hook_counts(void* (*allocate)(std::size_t), void (*release)(void*)) noexcept;

/// A thread's running totals of the bytes it has allocated and freed, as its allocator keeps
/// them, in usable sizes.
struct thread_counters {
    const std::uint64_t* allocated = nullptr;
    const std::uint64_t* deallocated = nullptr;
};

/// The calling thread's counters of the allocator underneath, when it keeps them (jemalloc's
/// thread.allocatedp and thread.deallocatedp); nullptrs otherwise. Defined by underlying.cpp
/// and interpose_none.cpp. May allocate on a thread's first call: for region_begin() and
/// resume(), never for the hook.
thread_counters allocator_thread_counters() noexcept;

/// The owner's bytes allocated less its bytes freed, by its allocator's own counters: plain
/// integers of the owner thread that its allocator writes with plain stores, read here as
/// relaxed atomics (an aligned 8-byte load, atomic on every target the interposer builds for).
TARE_ALLOC_HOOK inline std::int64_t allocator_level() noexcept {
    const region_flags& f = state.flags;
    return static_cast<std::int64_t>(
        __atomic_load_n(__atomic_load_n(&f.allocated, order_relaxed), order_relaxed) -
        __atomic_load_n(__atomic_load_n(&f.deallocated, order_relaxed), order_relaxed));
}

/// True while the open region `epoch` reads the owner's level off its allocator's counters.
TARE_ALLOC_HOOK inline bool counted_by_allocator(std::uint32_t epoch) noexcept {
    return __atomic_load_n(&state.flags.counted_by_allocator, order_relaxed) == epoch;
}

/// The owner's live bytes (any thread may ask): its tally, plus what its allocator has counted
/// since the tally was rebased, while the level is read off the allocator's counters. The
/// tally, the flag and the counters change together when the owner rebases or folds
/// (accounting.cpp), and a reader must not take them from two sides of that: a sequence lock
/// (Lamport's; the reader of Boehm, "Can seqlocks get along with programming language memory
/// models?", 2012) makes the sequence odd around each change, and a reader that saw it odd or
/// changed reads again. The owner changes them only at region_begin(), pause(), resume() and
/// region_end(), outside every timed window, so a reader almost never reads twice. Rejected:
/// ordering the loads alone, which cannot tell a fold from a fold followed by the owner's paused
/// allocations (the counters then hold bytes no figure has).
TARE_ALLOC_HOOK inline std::int64_t owner_live() noexcept {
    const region_flags& f = state.flags;
    for (;;) {
        const std::uint32_t before = __atomic_load_n(&f.level_seq, order_acquire);
        if ((before & 1U) != 0)
            continue;
        std::int64_t live = __atomic_load_n(&state.owner.live, order_relaxed);
        if (__atomic_load_n(&f.counted_by_allocator, order_relaxed) != 0)
            live += allocator_level();
        __atomic_thread_fence(order_acquire);
        if (__atomic_load_n(&f.level_seq, order_relaxed) == before)
            return live;
    }
}

TARE_ALLOC_HOOK inline void raise_peak(std::int64_t total) noexcept {
    std::int64_t seen = __atomic_load_n(&state.peak.value, order_relaxed);
    while (total > seen && !__atomic_compare_exchange_n(&state.peak.value, &seen, total, true, order_relaxed,
                                                        order_relaxed)) {
    }
}

/// Set in the epoch of a member region (region_begin_members()). Epochs stay below it, and no
/// thread owns a member region, so its allocations never take the owner's path: the one test it
/// adds is on the other threads' path, which already pays read-modify-writes.
inline constexpr std::uint32_t members_tag = 0x4000'0000U;

/// Set in the epoch of a sites region (region_begin_sites()): every allocation it counts is
/// recorded with its stack, and every free it counts too.
inline constexpr std::uint32_t sites_tag = 0x2000'0000U;

/// Records the allocation of `block` (n bytes requested, counted in the sites region `epoch`)
/// with its call stack (sites.cpp), and returns `block`, so that the hook reaches it by a tail
/// call.
[[gnu::cold]] void* record_site(void* block, std::size_t n, std::uint32_t epoch) noexcept;
/// Records a counted free of `block` while the sites region `region` is open.
[[gnu::cold]] void record_free(const void* block, std::uint32_t region) noexcept;
/// Points the recording at `buffers` and zeroes its counts (region_begin_sites()).
void set_site_buffers(site_buffers buffers) noexcept;

/// True when this thread's allocations are outside the counting member region `epoch`.
TARE_ALLOC_HOOK inline bool outside_members(std::uint32_t epoch) noexcept {
    return (epoch & members_tag) != 0 && member_epoch != epoch;
}

/// True when this thread's frees are in no figure of the open region `region`: a member region
/// this thread has not joined yet (its setup) or has finished in (its teardown).
TARE_ALLOC_HOOK inline bool outside_member_loop(std::uint32_t region) noexcept {
    return (region & members_tag) != 0 && member_epoch != region && member_paused_epoch != region;
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

/// Counts `n` bytes of an anonymous mapping the program made (interpose_native.cpp) while a
/// region counts, as count_copy() counts.
TARE_ALLOC_HOOK inline void count_mapped(std::size_t n) noexcept {
    const std::uint32_t epoch = __atomic_load_n(&state.flags.counting_epoch, order_relaxed);
    if (epoch == 0) [[likely]]
        return;
    if (owned_epoch == epoch) [[likely]] {
        __atomic_store_n(&state.owner.mapped, __atomic_load_n(&state.owner.mapped, order_relaxed) + n,
                         order_relaxed);
    } else if (!outside_members(epoch)) {
        __atomic_fetch_add(&state.others.mapped, n, order_relaxed);
    }
}

/// True in a build whose interposer counts mappings (not the TSan build: its runtime's own
/// mmap interceptor stays the only one).
extern constinit bool mapping_hooks_linked TARE_ALLOC_HIDDEN;

/// Set by tare::copies' object when it is linked (copies.cpp); read by copies_counted().
extern constinit bool copy_hooks_linked TARE_ALLOC_HIDDEN;

}  // namespace tare::alloc::detail
