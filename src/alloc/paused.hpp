#pragma once
// Private to src/alloc: the blocks allocated while the open region is paused (docs/accounting.md,
// "What a free lowers"). Without a header a block carries nothing of its own, so the one thing a
// free must still know, "was this block the harness's, made outside the window?", lives here: a
// set of addresses, written only while a region is open and paused (or by a thread outside a
// member region), and looked up by every free while a region is open, through per-group counts
// that turn nearly every block away at once.
//
// Shape: two tables of open addressing over fixed static arrays, linear probing within a window
// of probe_window slots. The region's owner (the runner, or the thread that runs a Google
// Benchmark body and its PauseTiming work) makes nearly every paused block, and has a table of
// its own that only it inserts into: its insert and its removal are plain loads and stores, and
// its per-group count a load and a store, with no lock-prefixed instruction (the shared table's
// three read-modify-writes a pair made the paused pair six times dearer than the allocator's
// own on jemalloc, four times on glibc). Every other thread inserts into the shared table
// lock-free: an insert claims an empty or deleted slot with one compare-and-swap, a removal
// writes the deleted mark over its own key. Keys are unique (a live block has one address), so
// two threads never race for the same key, only for the same slot, and the compare-and-swap
// settles that. Another thread that frees one of the owner's paused blocks writes the deleted
// mark over its key too (only the owner ever writes a key into an empty or deleted slot, so the
// two never write one slot at once) but leaves the owner's count as it is, since a store of its
// own would race with the owner's: a count too high only sends a later free to probe the slots. The key mixes
// the region's epoch into the address's unused top bits, so an entry left from an earlier region (a paused
// block still live when its region ended) never matches; the table is also cleared when a region opens after
// one that used it (region_begin, outside every timed window).
//
// Rejected: a header bit (there is no header: the program gets its allocator's block as it is);
// a table of every counted block, which would put a hash insert on the counting path that the
// timed body pays for. This one costs a counted free a hash and a load of its group's counts,
// and the owner's paused path plain loads and stores (another thread's a compare-and-swap and
// two counted updates), outside the window.
//
// Capacity: 32,768 slots a table; with probes bounded to a window of 32, about half of them can
// be held at once (with_inputs' inputs of a chunk, Google Benchmark's PauseTiming work). Past that, an
// insert finds no slot in its window and is counted in `lost`, and that block's free while
// counting lowers the level as an older block's would; counters::untracked reports the count.

#include <cstddef>
#include <cstdint>

#include "alloc/tally.hpp"

namespace tare::alloc::detail {

inline constexpr unsigned paused_bits = 15;
inline constexpr std::size_t paused_slots = std::size_t{1} << paused_bits;  // 256 KiB of keys
inline constexpr std::size_t probe_window = 32;
inline constexpr std::uint64_t empty_slot = 0;
inline constexpr std::uint64_t deleted_slot = 1;  // a key's low bit is an aligned address's: 0

/// How many keys of each group of 8 home slots the set holds: raised by an insert, lowered by
/// its removal. A free looks here first, and nowhere else when its group holds none: one
/// 16-bit load from 8 KiB whose line for a hot block stays in the cache, where the keys'
/// 256 KiB do not. Rejected: one bit per group, set by an insert and cleared only when the set
/// is emptied. The harness's work between samples reuses the very blocks the body frees (the
/// allocator's per-size caches hand back the last block freed), so its bit stayed set, and
/// every counted free of that block went on to probe the keys, a cache miss each time, in some
/// runs and not others. Rejected as well: a count of all keys, which helps no counted free while
/// the harness holds any block.
inline constexpr unsigned group_bits = paused_bits - 3;
inline constexpr std::size_t groups = std::size_t{1} << group_bits;

/// One group's key counts: the owner's table and the shared one, side by side in one line.
struct group_counts {
    std::uint16_t owner;
    std::uint16_t shared;
};

struct paused_set {
    std::uint64_t keys[paused_slots];        // other threads' blocks: compare-and-swap
    std::uint64_t owner_keys[paused_slots];  // the owner's: plain stores, one writer
    alignas(cache_line) std::uint64_t lost;  // inserts that found no slot in their window
    std::uint32_t used_by;                   // the epoch of the last region that inserted
    // Keys present per group, at least: another thread's removal of an owner's key leaves the
    // owner's count as it was, and that count stops at its top (owner_saturated) rather than wrap.
    alignas(cache_line) group_counts held[groups];
};

/// Defined in accounting.cpp; zero-initialised.
extern constinit paused_set paused TARE_ALLOC_HIDDEN;

TARE_ALLOC_HOOK inline std::uint64_t paused_key(const void* p, std::uint32_t region) noexcept {
    return reinterpret_cast<std::uintptr_t>(p) ^ (std::uint64_t{region & 0xffffU} << 48);
}

TARE_ALLOC_HOOK inline std::size_t paused_home(std::uint64_t key) noexcept {
    // Fibonacci hashing of the address above its alignment bits (Knuth, TAOCP 6.4).
    return static_cast<std::size_t>(((key >> 3) * 0x9E3779B97F4A7C15ULL) >> (64 - paused_bits));
}

/// The counts of the group of 8 home slots that `home` is in.
TARE_ALLOC_HOOK inline group_counts& group_of(std::size_t home) noexcept {
    return paused.held[home >> 3];
}

/// The owner's count of a group that has reached its top: it stays there, raised and lowered no
/// more, until the set is emptied. A free in that group then always probes the slots. Rejected:
/// letting it wrap, after 65,536 paused blocks of one group freed by other threads in one
/// region, to a count that says 0 while a key is present.
inline constexpr std::uint16_t owner_saturated = UINT16_MAX;

/// Marks the set as used by `region`, for region_begin() to empty it.
TARE_ALLOC_HOOK inline void paused_used_by(std::uint32_t region) noexcept {
    if (__atomic_load_n(&paused.used_by, order_relaxed) != region)
        __atomic_store_n(&paused.used_by, region, order_relaxed);
}

/// True for a slot an insert may take: empty, deleted, or any key of another region (it can
/// never match again).
TARE_ALLOC_HOOK inline bool slot_free(std::uint64_t seen, std::uint64_t key) noexcept {
    return seen == empty_slot || seen == deleted_slot || (seen ^ key) >> 48 != 0;
}

/// Adds `p`, allocated while `region` is open and not counting for this thread, which does not
/// own the region. Out of line: the counting path that branches around it stays small enough
/// to inline.
[[gnu::noinline]] TARE_ALLOC_HOOK inline void paused_insert_shared(const void* p,
                                                                   std::uint32_t region) noexcept {
    const std::uint64_t key = paused_key(p, region);
    const std::size_t home = paused_home(key);
    // Before the key: a free that finds the key has seen the count (the same thread, or one the
    // program ordered after this allocation).
    __atomic_fetch_add(&group_of(home).shared, 1, order_relaxed);
    paused_used_by(region);
    for (std::size_t i = 0; i < probe_window; ++i) {
        std::uint64_t& slot = paused.keys[(home + i) & (paused_slots - 1)];
        std::uint64_t seen = __atomic_load_n(&slot, order_relaxed);
        while (slot_free(seen, key)) {
            if (__atomic_compare_exchange_n(&slot, &seen, key, false, order_relaxed, order_relaxed))
                return;
        }
    }
    __atomic_fetch_sub(&group_of(home).shared, 1, order_relaxed);
    __atomic_fetch_add(&paused.lost, 1, order_relaxed);
}

/// paused_insert() for the region's owner: its own table, by loads and stores.
[[gnu::noinline]] TARE_ALLOC_HOOK inline void paused_insert_owned(const void* p,
                                                                  std::uint32_t region) noexcept {
    const std::uint64_t key = paused_key(p, region);
    const std::size_t home = paused_home(key);
    std::uint16_t& count = group_of(home).owner;
    paused_used_by(region);
    for (std::size_t i = 0; i < probe_window; ++i) {
        std::uint64_t& slot = paused.owner_keys[(home + i) & (paused_slots - 1)];
        if (slot_free(__atomic_load_n(&slot, order_relaxed), key)) {
            // The count before the key, as in the shared table.
            const std::uint16_t n = __atomic_load_n(&count, order_relaxed);
            if (n != owner_saturated)
                __atomic_store_n(&count, static_cast<std::uint16_t>(n + 1), order_relaxed);
            __atomic_store_n(&slot, key, order_relaxed);
            return;
        }
    }
    __atomic_fetch_add(&paused.lost, 1, order_relaxed);
}

/// Adds `p`, allocated while `region` is open and not counting for this thread.
TARE_ALLOC_HOOK inline void paused_insert(const void* p, std::uint32_t region) noexcept {
    if (owned_epoch == region)
        paused_insert_owned(p, region);
    else
        paused_insert_shared(p, region);
}

/// The slot of `table` that holds `key` (home slot `home`), or nullptr: the probe behind every
/// lookup.
TARE_ALLOC_HOOK inline std::uint64_t* paused_find(std::uint64_t* table, std::uint64_t key,
                                                  std::size_t home) noexcept {
    for (std::size_t i = 0; i < probe_window; ++i) {
        std::uint64_t& slot = table[(home + i) & (paused_slots - 1)];
        const std::uint64_t seen = __atomic_load_n(&slot, order_relaxed);
        if (seen == key)
            return &slot;
        if (seen == empty_slot)
            return nullptr;
    }
    return nullptr;
}

/// True when the group of `home` holds a key in either table: two loads from one line.
TARE_ALLOC_HOOK inline bool group_holds(std::size_t home) noexcept {
    const group_counts& g = group_of(home);
    return (__atomic_load_n(&g.owner, order_relaxed) | __atomic_load_n(&g.shared, order_relaxed)) != 0;
}

/// False when `p` cannot be in the set for `region`: its group holds no key. The hash and the
/// group's counts, which turn nearly every block away.
[[gnu::always_inline]] TARE_ALLOC_HOOK inline bool paused_may_hold(const void* p,
                                                                   std::uint32_t region) noexcept {
    return group_holds(paused_home(paused_key(p, region)));
}

/// paused_remove() past the group's counts: finds the key in either table and removes it.
[[gnu::noinline]] TARE_ALLOC_HOOK inline bool paused_remove_found(std::uint64_t key, std::size_t home,
                                                                  std::uint32_t region) noexcept {
    group_counts& g = group_of(home);
    if (std::uint64_t* slot = paused_find(paused.owner_keys, key, home); slot != nullptr) {
        __atomic_store_n(slot, deleted_slot, order_relaxed);  // the key's owner alone writes it
        // Another thread leaves the owner's count high (above).
        const std::uint16_t n = __atomic_load_n(&g.owner, order_relaxed);
        if (owned_epoch == region && n != owner_saturated)
            __atomic_store_n(&g.owner, static_cast<std::uint16_t>(n - 1), order_relaxed);
        return true;
    }
    if (std::uint64_t* slot = paused_find(paused.keys, key, home); slot != nullptr) {
        __atomic_store_n(slot, deleted_slot, order_relaxed);
        __atomic_fetch_sub(&g.shared, 1, order_relaxed);
        return true;
    }
    return false;
}

/// Removes `p` if it was allocated while `region` was paused; says whether it was. Inline up to
/// the group's counts, which turn nearly every block away.
[[gnu::always_inline]] TARE_ALLOC_HOOK inline bool paused_remove(const void* p,
                                                                 std::uint32_t region) noexcept {
    const std::uint64_t key = paused_key(p, region);
    const std::size_t home = paused_home(key);
    if (!group_holds(home)) [[likely]]
        return false;
    return paused_remove_found(key, home, region);
}

/// True when `p` is in the set (realloc asks before it knows whether the call succeeds).
TARE_ALLOC_HOOK inline bool paused_holds(const void* p, std::uint32_t region) noexcept {
    const std::uint64_t key = paused_key(p, region);
    const std::size_t home = paused_home(key);
    return group_holds(home) && (paused_find(paused.owner_keys, key, home) != nullptr ||
                                 paused_find(paused.keys, key, home) != nullptr);
}

}  // namespace tare::alloc::detail
