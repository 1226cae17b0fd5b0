#pragma once
// Private to src/alloc: what the allocation hook counts for each call (docs/accounting.md, "The
// model"). Allocations and bytes are the sizes the callers asked for; the live heap, its peak and
// what the region keeps are in the allocator's usable size, read at the allocation and again at
// the free, so that a free lowers the level by exactly what its allocation raised it, whoever
// allocated the block, on whichever thread, through whichever of the allocator's entry points.
//
// Rejected: the requested size, which a free can only know from a header before the block (the
// program would then run on blocks 16 bytes bigger than its allocator gives it, in other size
// classes) or from a table of every live block (a hash insert and removal on every counted
// call). The usable size is what the allocator itself holds for the block, a read of its
// metadata it keeps anyway.

#include <cstddef>
#include <cstdint>

#include "alloc/paused.hpp"
#include "alloc/tally.hpp"
#include "alloc/underlying.hpp"

namespace tare::alloc::detail {

/// The `held` argument that means "ask the allocator for the block's usable size"; any other
/// value is the size a program declared (tare::report_alloc).
inline constexpr std::size_t ask_allocator = SIZE_MAX;

/// The usable size of a block as `usable_of` reads it, or as the allocator underneath the malloc
/// family does when `usable_of` is null (an allocator's own API passes its own reader: sallocx,
/// mi_usable_size, tc_malloc_size).
[[gnu::always_inline]] TARE_ALLOC_HOOK inline std::size_t usable_size_of(const void* p,
                                                                         usable_fn usable_of) noexcept {
    return usable_of != nullptr ? usable_of(const_cast<void*>(p)) : under_usable_size(const_cast<void*>(p));
}

/// Counts one allocation of the region's owner, of `n` requested bytes, by load and store (one
/// writer).
[[gnu::always_inline]] TARE_ALLOC_HOOK inline void owner_counted(std::size_t n) noexcept {
    owner_tally& o = state.owner;
    __atomic_store_n(&o.allocs, __atomic_load_n(&o.allocs, order_relaxed) + 1, order_relaxed);
    __atomic_store_n(&o.bytes, __atomic_load_n(&o.bytes, order_relaxed) + n, order_relaxed);
}

/// Moves the owner's level by `delta`, by load and store; returns the new level.
[[gnu::always_inline]] TARE_ALLOC_HOOK inline std::int64_t owner_moved(std::int64_t delta) noexcept {
    owner_tally& o = state.owner;
    const std::int64_t live = __atomic_load_n(&o.live, order_relaxed) + delta;
    __atomic_store_n(&o.live, live, order_relaxed);
    return live;
}

/// Adds an allocation of the region's owner (`n` bytes requested, `usable` held) to its tally;
/// returns the live heap of all threads, for the peak.
[[gnu::always_inline]] TARE_ALLOC_HOOK inline std::int64_t owner_allocated(std::size_t n,
                                                                           std::size_t usable) noexcept {
    owner_counted(n);
    return owner_moved(static_cast<std::int64_t>(usable)) +
           __atomic_load_n(&state.others.live, order_relaxed);
}

/// Takes `usable` bytes off the owner's level.
[[gnu::always_inline]] TARE_ALLOC_HOOK inline void owner_released(std::size_t usable) noexcept {
    owner_moved(-static_cast<std::int64_t>(usable));
}

/// Gives `usable` bytes back to the owner's level: the allocator's counters, which the level is
/// read off, have lowered it by a block that is in no figure (one made while paused).
TARE_ALLOC_HOOK inline void owner_restored(std::size_t usable) noexcept {
    owner_moved(static_cast<std::int64_t>(usable));
}

/// Adds an allocation of the region's owner while its level is read off its allocator's own
/// counters (counted_by_allocator()): the allocation and its requested bytes; the allocator has
/// already raised the level. Returns the live heap of all threads, for the peak.
[[gnu::always_inline]] TARE_ALLOC_HOOK inline std::int64_t owner_allocated_by_allocator(
    std::size_t n) noexcept {
    owner_counted(n);
    return __atomic_load_n(&state.owner.live, order_relaxed) + allocator_level() +
           __atomic_load_n(&state.others.live, order_relaxed);
}

/// jemalloc's usable size of one of its blocks (sallocx), which its own entry points are counted
/// with (interpose_native.cpp).
TARE_ALLOC_HOOK std::size_t jemalloc_usable(void* p) noexcept TARE_ALLOC_HIDDEN;

/// True when a call of the owner's, in the region `epoch`, through the allocator whose usable
/// sizes `usable_of` reads (nullptr: the malloc family's), moves the counters the owner's level
/// is read off: the level then needs no update of tare's own. Another allocator's entry point
/// in the same process (a mimalloc call beside a jemalloc malloc) is counted as before.
TARE_ALLOC_HOOK inline bool seen_by_allocator(std::uint32_t epoch, usable_fn usable_of) noexcept {
    return counted_by_allocator(epoch) && (usable_of == nullptr || usable_of == &jemalloc_usable);
}

/// Counts the allocation of `p` (`n` bytes requested, `held` bytes in the live heap, or the
/// block's usable size read by `usable_of`), which has succeeded. Returns the epoch of the region
/// that counted it, 0 when none did: no region open, or open and paused (or, in a member region,
/// this thread not a member), in which case `p` joins the paused set.
[[gnu::always_inline]] TARE_ALLOC_HOOK inline std::uint32_t count_alloc(
    const void* p, std::size_t n, std::size_t held = ask_allocator, usable_fn usable_of = nullptr) noexcept {
    // Acquire pairs with the release store in region_begin()/resume(): a thread that sees the
    // new epoch also sees the counters it reset, so its increments land after the reset.
    const std::uint32_t epoch = __atomic_load_n(&state.flags.counting_epoch, order_acquire);
    if (epoch == 0) {
        const std::uint32_t region = __atomic_load_n(&state.flags.region_epoch, order_relaxed);
        if (region != 0) [[unlikely]]
            paused_insert(p, region);
        return 0;
    }
    std::int64_t total = 0;
    if (owned_epoch == epoch) [[likely]] {
        if (held == ask_allocator && seen_by_allocator(epoch, usable_of)) {
            total = owner_allocated_by_allocator(n);
        } else {
            total = owner_allocated(n, held == ask_allocator ? usable_size_of(p, usable_of) : held);
            if (counted_by_allocator(epoch))  // a declared block: the level is tally + counters
                total += allocator_level();
        }
    } else {
        if (outside_members(epoch)) {
            paused_insert(p, epoch);  // not a member: as if paused, for this thread alone
            return 0;
        }
        const std::size_t usable = held == ask_allocator ? usable_size_of(p, usable_of) : held;
        shared_tally& s = state.others;
        __atomic_fetch_add(&s.allocs, 1, order_relaxed);
        __atomic_fetch_add(&s.bytes, n, order_relaxed);
        total = __atomic_add_fetch(&s.live, static_cast<std::int64_t>(usable), order_relaxed) + owner_live();
    }
    raise_peak(total);
    return epoch;
}

/// Takes `usable` bytes off the open region `region`'s level: the owner by load and store,
/// every other thread by a read-modify-write.
TARE_ALLOC_HOOK inline void lower_level(std::uint32_t region, std::size_t usable) noexcept {
    if (owned_epoch == region) [[likely]] {
        owner_released(usable);
    } else {
        __atomic_fetch_sub(&state.others.live, static_cast<std::int64_t>(usable), order_relaxed);
    }
}

/// Counts the free of `p` while the region `region` (non-zero) is open, before the allocator
/// takes the block back. Every free lowers the level by the block's usable size, except the
/// free of a block allocated while the region was paused (the harness's own, or an input
/// with_inputs made outside the window), and in a member region a free by a thread before or
/// after its loop: those are in no figure. Returns true when it lowered.
[[gnu::always_inline]] TARE_ALLOC_HOOK inline bool count_free(const void* p, std::uint32_t region,
                                                              std::size_t held = ask_allocator,
                                                              usable_fn usable_of = nullptr) noexcept {
    const bool by_allocator =
        owned_epoch == region && held == ask_allocator && seen_by_allocator(region, usable_of);
    if (paused_remove(p, region)) [[unlikely]] {
        if (by_allocator)
            owner_restored(usable_size_of(p, usable_of));
        return false;
    }
    if (outside_member_loop(region)) [[unlikely]]
        return false;   // a thread's setup or teardown around its loop in a member region
    if (!by_allocator)  // otherwise the allocator's counters lower the level
        lower_level(region, held == ask_allocator ? usable_size_of(p, usable_of) : held);
    return true;
}

/// The open region's epoch, 0 when none is: the free's first test.
TARE_ALLOC_HOOK inline std::uint32_t open_region_epoch() noexcept {
    return __atomic_load_n(&state.flags.region_epoch, order_relaxed);
}

/// publish()'s every case but the owner's count in a plain region read inline: counts `p` and,
/// in a sites region, records it; returns `p`. Out of line and reached by a tail call, so the
/// inline path makes no call and keeps nothing in a saved register.
[[gnu::noinline]] TARE_ALLOC_HOOK inline void* publish_slow(void* p, std::size_t counted,
                                                            usable_fn usable_of) noexcept {
    const std::uint32_t epoch = count_alloc(p, counted, ask_allocator, usable_of);
    if ((epoch & sites_tag) != 0) [[unlikely]]
        return record_site(p, counted, epoch);  // a diagnostic pass (--alloc-sites); a tail call
    return p;
}

/// Raises the peak to `total` and returns `p`: publish()'s rare case, out of line (its
/// compare-and-swap would hold `p` in a saved register on the common path).
[[gnu::noinline]] TARE_ALLOC_HOOK inline void* raise_peak_and_return(void* p, std::int64_t total) noexcept {
    raise_peak(total);
    return p;
}

/// publish()'s owner case in a plain region when the usable size is a call (any allocator but
/// glibc's): the owner's count, with none of publish_slow()'s other cases. No call at all when
/// the level is read off the allocator's own counters (jemalloc); the usable-size call otherwise.
[[gnu::noinline]] TARE_ALLOC_HOOK inline void* publish_called(void* p, std::size_t counted,
                                                              std::uint32_t epoch) noexcept {
    const std::int64_t total =
        counted_by_allocator(epoch)
            ? owner_allocated_by_allocator(counted)
            : owner_allocated(counted, TARE_ALLOC_UNDER(malloc_usable_size, usable_size)(p));
    if (total > __atomic_load_n(&state.peak.value, order_relaxed)) [[unlikely]]
        raise_peak(total);
    return p;
}

/// Counts a block the allocator has just returned (`counted` requested bytes; nullptr: the call
/// failed, nothing is counted) and returns it. Inlined into every allocation function. The
/// common case, the owner's allocation in a plain region with the usable size read inline, is
/// settled here with no call; the same case on an allocator whose usable size is a call goes to
/// publish_called(), every other case to publish_slow(), each by a tail call. Rejected:
/// count_alloc() inline for every case (as this was), whose rare calls (the paused set, the
/// recording, the peak's compare-and-swap) made GCC save three registers on every allocation.
///
/// `epoch` is the counting epoch read before the allocator's call (counting_epoch_now()). The
/// owner thread opens and closes its regions itself, so none opens or closes during its own
/// call; an allocation of another thread that races a region's start or end belongs to either
/// side. One case is not covered: a region opened on another thread while the previous region's
/// owner is inside the allocator (tare's harness opens each region on the thread that owned the
/// previous one, or while that thread waits) would count that allocation as the new owner's.
[[gnu::always_inline]] TARE_ALLOC_HOOK inline void* publish_in(std::uint32_t epoch, void* p,
                                                               std::size_t counted,
                                                               usable_fn usable_of = nullptr) noexcept {
    if (p == nullptr)
        return nullptr;  // the allocator has set errno
    if (epoch == 0 || owned_epoch != epoch || (epoch & sites_tag) != 0 || usable_of != nullptr) [[unlikely]]
        return publish_slow(p, counted, usable_of);
    if (!usable_read_inline()) [[unlikely]]
        return publish_called(p, counted, epoch);
    const std::int64_t total = owner_allocated(counted, inline_usable(p));
    if (total > __atomic_load_n(&state.peak.value, order_relaxed)) [[unlikely]]
        return raise_peak_and_return(p, total);
    return p;
}

/// The counting epoch, 0 when nothing counts. Acquire, as count_alloc()'s: pairs with the
/// release store in region_begin()/resume().
[[gnu::always_inline]] TARE_ALLOC_HOOK inline std::uint32_t counting_epoch_now() noexcept {
    return __atomic_load_n(&state.flags.counting_epoch, order_acquire);
}

/// publish_in() with the epoch read after the allocator's call.
[[gnu::always_inline]] TARE_ALLOC_HOOK inline void* publish(void* p, std::size_t counted,
                                                            usable_fn usable_of = nullptr) noexcept {
    return publish_in(counting_epoch_now(), p, counted, usable_of);
}

/// Counts the free of `p` (non-null), before the allocator takes it back.
[[gnu::always_inline]] TARE_ALLOC_HOOK inline void count_release(const void* p,
                                                                 usable_fn usable_of) noexcept {
    const std::uint32_t region = open_region_epoch();
    if (region != 0 && count_free(p, region, ask_allocator, usable_of) && (region & sites_tag) != 0)
        [[unlikely]]
        record_free(p, region);
}

/// The release half of a resize (realloc and its kin), decided while the old block is still
/// the allocator's: after the call it may be gone, and a failed call must change nothing.
struct resize_release {
    std::uint32_t region = 0;   ///< the open region's epoch, 0 when none is
    bool paused_block = false;  ///< the old block is in the paused set
    bool lowers = false;        ///< its release lowers the level, by `usable`
    bool by_allocator = false;  ///< the allocator's counters move the owner's level (seen_by_allocator)
    bool usable_read = false;   ///< `usable` holds the block's usable size
    std::size_t usable = 0;
};

/// Reads what releasing `p` (non-null) will count, before the allocator resizes it.
[[gnu::always_inline]] TARE_ALLOC_HOOK inline resize_release plan_release(
    const void* p, usable_fn usable_of = nullptr) noexcept {
    resize_release r;
    r.region = open_region_epoch();
    if (r.region == 0) [[likely]]
        return r;
    r.paused_block = paused_holds(p, r.region);
    r.lowers = !r.paused_block && !outside_member_loop(r.region);  // as count_free() decides
    r.by_allocator = owned_epoch == r.region && seen_by_allocator(r.region, usable_of);
    // Read when tare lowers the level itself, or gives a paused block back to the counters.
    r.usable_read = r.by_allocator ? r.paused_block : r.lowers;
    r.usable = r.usable_read ? usable_size_of(p, usable_of) : 0;
    return r;
}

/// Counts the release of the old block `p` once the resize has succeeded. Release first, then
/// count the new block (publish): the peak sees the net change, as an in-place resize has.
[[gnu::always_inline]] TARE_ALLOC_HOOK inline void apply_release(const void* p,
                                                                 const resize_release& r) noexcept {
    if (r.region == 0) [[likely]]
        return;
    if (r.paused_block) {
        paused_remove(p, r.region);
        if (r.by_allocator)
            owner_restored(r.usable);  // the allocator lowered its counters by a block in no figure
    } else if (r.lowers) {
        if (!r.by_allocator)
            lower_level(r.region, r.usable);
        if ((r.region & sites_tag) != 0) [[unlikely]]
            record_free(p, r.region);
    }
}

}  // namespace tare::alloc::detail
