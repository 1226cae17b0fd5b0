#pragma once
// Private to src/alloc: the blocks allocated while the open region is paused (docs/accounting.md,
// "What a free lowers"). Without a header a block carries nothing of its own, so the one thing a
// free must still know, "was this block the harness's, made outside the window?", lives here: a
// set of addresses, written only while a region is open and paused (or by a thread outside a
// member region), and looked up by every free while a region is open, through per-group counts
// that turn nearly every block away at once.
//
// Shape: open addressing over a fixed static array, linear probing within a window of
// probe_window slots, lock-free: an insert claims an empty or deleted slot with one
// compare-and-swap, a removal writes the deleted mark over its own key. Keys are unique (a live
// block has one address), so two threads never race for the same key, only for the same slot,
// and the compare-and-swap settles that. The key mixes the region's epoch into the address's
// unused top bits, so an entry left from an earlier region (a paused block still live when its
// region ended) never matches; the table is also cleared when a region opens after one that
// used it (region_begin, outside every timed window).
//
// Rejected: a header bit (there is no header: the program gets its allocator's block as it is);
// a table of every counted block, which would put a hash insert on the counting path that the
// timed body pays for. This one costs a counted free a hash and a load of its group's count,
// and the paused path a compare-and-swap and two counted updates, outside the window.
//
// Capacity: 32,768 slots; with probes bounded to a window of 32, about half of them can be held
// at once (with_inputs' inputs of a chunk, Google Benchmark's PauseTiming work). Past that, an
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

struct paused_set {
    std::uint64_t keys[paused_slots];
    alignas(cache_line) std::uint64_t lost;          // inserts that found no slot in their window
    std::uint32_t used_by;                           // the epoch of the last region that inserted
    alignas(cache_line) std::uint16_t held[groups];  // keys present per group: at most 32,768
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

/// The count of the group of 8 home slots that `home` is in.
TARE_ALLOC_HOOK inline std::uint16_t& group_of(std::size_t home) noexcept {
    return paused.held[home >> 3];
}

/// Adds `p`, allocated while `region` is open and not counting for this thread. Out of line: the
/// counting path that branches around it stays small enough to inline.
[[gnu::noinline]] TARE_ALLOC_HOOK inline void paused_insert(const void* p, std::uint32_t region) noexcept {
    const std::uint64_t key = paused_key(p, region);
    const std::size_t home = paused_home(key);
    // Before the key: a free that finds the key has seen the count (the same thread, or one the
    // program ordered after this allocation).
    __atomic_fetch_add(&group_of(home), 1, order_relaxed);
    if (__atomic_load_n(&paused.used_by, order_relaxed) != region)
        __atomic_store_n(&paused.used_by, region, order_relaxed);
    for (std::size_t i = 0; i < probe_window; ++i) {
        std::uint64_t& slot = paused.keys[(home + i) & (paused_slots - 1)];
        std::uint64_t seen = __atomic_load_n(&slot, order_relaxed);
        // Any key of another region is as good as empty: it can never match again.
        while (seen == empty_slot || seen == deleted_slot || (seen ^ key) >> 48 != 0) {
            if (__atomic_compare_exchange_n(&slot, &seen, key, false, order_relaxed, order_relaxed))
                return;
        }
    }
    __atomic_fetch_sub(&group_of(home), 1, order_relaxed);
    __atomic_fetch_add(&paused.lost, 1, order_relaxed);
}

/// The slot that holds `key` (home slot `home`), or nullptr: the probe behind both lookups.
[[gnu::noinline]] TARE_ALLOC_HOOK inline std::uint64_t* paused_find(std::uint64_t key,
                                                                    std::size_t home) noexcept {
    for (std::size_t i = 0; i < probe_window; ++i) {
        std::uint64_t& slot = paused.keys[(home + i) & (paused_slots - 1)];
        const std::uint64_t seen = __atomic_load_n(&slot, order_relaxed);
        if (seen == key)
            return &slot;
        if (seen == empty_slot)
            return nullptr;
    }
    return nullptr;
}

/// False when `p` cannot be in the set for `region`: its group holds no key. The hash and one
/// load, which turn nearly every block away.
[[gnu::always_inline]] TARE_ALLOC_HOOK inline bool paused_may_hold(const void* p,
                                                                   std::uint32_t region) noexcept {
    return __atomic_load_n(&group_of(paused_home(paused_key(p, region))), order_relaxed) != 0;
}

/// Removes `p` if it was allocated while `region` was paused; says whether it was. Inline up to
/// the group count, which turns nearly every block away.
[[gnu::always_inline]] TARE_ALLOC_HOOK inline bool paused_remove(const void* p,
                                                                 std::uint32_t region) noexcept {
    const std::uint64_t key = paused_key(p, region);
    const std::size_t home = paused_home(key);
    if (__atomic_load_n(&group_of(home), order_relaxed) == 0) [[likely]]
        return false;
    std::uint64_t* slot = paused_find(key, home);
    if (slot == nullptr)
        return false;
    __atomic_store_n(slot, deleted_slot, order_relaxed);  // the key's owner alone writes it
    __atomic_fetch_sub(&group_of(home), 1, order_relaxed);
    return true;
}

/// True when `p` is in the set (realloc asks before it knows whether the call succeeds).
TARE_ALLOC_HOOK inline bool paused_holds(const void* p, std::uint32_t region) noexcept {
    const std::uint64_t key = paused_key(p, region);
    const std::size_t home = paused_home(key);
    return __atomic_load_n(&group_of(home), order_relaxed) != 0 && paused_find(key, home) != nullptr;
}

}  // namespace tare::alloc::detail
