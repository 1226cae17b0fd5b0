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
#include <type_traits>

#include "alloc/paused.hpp"
#include "alloc/tally.hpp"

namespace tare::alloc {
namespace detail {

constinit region_state state{};
constinit paused_set paused{};
constinit bool copy_hooks_linked = false;
constinit bool mapping_hooks_linked = false;
constinit thread_local std::uint32_t owned_epoch TARE_ALLOC_TLS = 0;
constinit thread_local std::uint32_t member_epoch TARE_ALLOC_TLS = 0;
constinit thread_local std::uint32_t member_paused_epoch TARE_ALLOC_TLS = 0;

}  // namespace detail

namespace {

using detail::order_relaxed;
using detail::order_release;

template <typename T>
T load(const T& field) noexcept {
    return __atomic_load_n(&field, order_relaxed);
}
template <int order = order_relaxed, typename T>
void store(T& field, std::type_identity_t<T> value) noexcept {
    __atomic_store_n(&field, value, order);
}

std::uint32_t next_epoch() noexcept {
    detail::region_state& s = detail::state;
    std::uint32_t epoch = s.flags.last_epoch + 1;
    if (epoch == 0 || epoch >= detail::sites_tag)
        epoch = 1;  // 0 means "none", the top bits "member region" and "sites region"; wraps after
                    // 2^29 regions
    s.flags.last_epoch = epoch;
    return epoch;
}

void reset_counters() noexcept {
    detail::region_state& s = detail::state;
    store(s.owner.allocs, 0);
    store(s.owner.bytes, 0);
    store(s.owner.live, 0);
    store(s.others.allocs, 0);
    store(s.others.bytes, 0);
    store(s.others.live, 0);
    store(s.owner.copied, 0);
    store(s.owner.set, 0);
    store(s.others.copied, 0);
    store(s.others.set, 0);
    store(s.owner.mapped, 0);
    store(s.others.mapped, 0);
    store(s.peak.value, 0);
}

/// Empties the paused set if the last region to insert is over: before a region opens, outside
/// every timed window (512 KiB of stores, a few microseconds, and only after a region that
/// paused with blocks made).
void clear_paused_set() noexcept {
    detail::paused_set& p = detail::paused;
    if (load(p.used_by) != 0) {
        for (std::uint64_t& key : p.keys)
            store(key, detail::empty_slot);
        for (std::uint64_t& key : p.owner_keys)
            store(key, detail::empty_slot);
        for (detail::group_counts& count : p.held) {
            store(count.owner, 0);
            store(count.shared, 0);
        }
        store(p.used_by, 0);
    }
    store(p.lost, 0);
}

}  // namespace

bool detail::hook_counts(void* (*allocate)(std::size_t), void (*release_fn)(void*)) noexcept {
    region_state& s = state;
    if (load(s.flags.region_epoch) != 0)
        return true;
    const owner_tally saved = {load(s.owner.allocs), load(s.owner.bytes), load(s.owner.live)};
    const std::int64_t peak = load(s.peak.value);
    const std::uint32_t owned = owned_epoch;
    // A private epoch that region_epoch never holds: with no region open, the free counts nothing.
    const std::uint32_t probe = next_epoch();
    owned_epoch = probe;
    store<order_release>(s.flags.counting_epoch, probe);
    void* p = allocate(1);
    asm volatile("" : : "g"(p) : "memory");  // not a pair the optimizer may elide (LTO)
    store(s.flags.counting_epoch, 0);
    const bool counted = load(s.owner.allocs) != saved.allocs;
    release_fn(p);
    store(s.owner.allocs, saved.allocs);
    store(s.owner.bytes, saved.bytes);
    store(s.owner.live, saved.live);
    store(s.peak.value, peak);
    owned_epoch = owned;
    return counted;
}

availability availability_status() noexcept {
    // Resolved once: the answer cannot change while the process runs, and the check may
    // allocate (dlsym), which it must not do between samples.
    static const availability cached = detail::check_interposer();
    return cached;
}

const char* availability_message(availability a) noexcept {
    switch (a) {
    case availability::active:
        return "";
    case availability::not_built:
        return "built without the allocation interposer (a sanitizer owns malloc)";
    case availability::shadowed:
        return "another malloc wins the dynamic lookup, or calling malloc does not run tare's (link "
               "tare::tare into the executable; under valgrind, run with "
               "--soname-synonyms=somalloc=nouserintercepts)";
    case availability::static_allocator:
        return "an allocator is linked statically into the executable, and tare would forward past "
               "it to another: link the allocator as a shared library (e.g. -ljemalloc with "
               "libjemalloc.so) or LD_PRELOAD it";
    }
    return "";
}

bool available() noexcept {
    return availability_status() == availability::active;
}

namespace {

/// The writer's half of owner_live()'s sequence lock (tally.hpp): the sequence odd, then the
/// changes, then even again. One writer: the region's owner. Not instrumented by TSan, which
/// does not model a standalone fence (GCC refuses one under -fsanitize=thread); the TSan build
/// never counts by the allocator (its allocator is TSan's), so nothing here runs there.
TARE_ALLOC_HOOK void begin_level_change() noexcept {
    detail::region_flags& f = detail::state.flags;
    store(f.level_seq, load(f.level_seq) + 1);
    __atomic_thread_fence(order_release);
}
void end_level_change() noexcept {
    detail::region_flags& f = detail::state.flags;
    store<order_release>(f.level_seq, load(f.level_seq) + 1);
}

/// Starts reading the owner's level off its allocator's counters `c` in the plain region
/// `epoch`, which the calling thread owns, when its allocator keeps them (`c` is then this
/// thread's, asked before the region opened: the first ask may allocate, in dlsym and
/// mallctl, and must not count). The owner's tally is rebased so that tally + counters is the
/// level it was.
void count_by_allocator(std::uint32_t epoch, detail::thread_counters c) noexcept {
    detail::region_state& s = detail::state;
    if (epoch == 0 || (epoch & (detail::members_tag | detail::sites_tag)) != 0 ||
        detail::owned_epoch != epoch || load(s.flags.counted_by_allocator) != 0 || c.allocated == nullptr)
        return;  // no region, not a plain region this thread owns, already counted so (a
                 // second resume()), or an allocator that keeps no counters
    begin_level_change();
    store(s.flags.allocated, c.allocated);
    store(s.flags.deallocated, c.deallocated);
    store(s.owner.live, load(s.owner.live) - detail::allocator_level());
    store(s.flags.counted_by_allocator, epoch);
    end_level_change();
}

/// Stops reading the owner's level off the allocator's counters (pause(), region_end()):
/// folds what they counted into the owner's tally when `fold`. Not when a region opens on a
/// thread that does not own the one before (its counters are reset anyway, and the old owner
/// may have exited, taking the thread-local counters with it).
void stop_counting_by_allocator(bool fold = true) noexcept {
    detail::region_state& s = detail::state;
    if (load(s.flags.counted_by_allocator) == 0)
        return;
    begin_level_change();
    if (fold)
        store(s.owner.live, load(s.owner.live) + detail::allocator_level());
    store(s.flags.counted_by_allocator, 0);
    end_level_change();
}

void open_region(std::uint32_t epoch) noexcept {
    detail::region_state& s = detail::state;
    reset_counters();
    clear_paused_set();
    // region_epoch before counting_epoch: a block counted in `epoch` can only exist after
    // counting_epoch says so, and whoever frees it then finds region_epoch already set.
    store<order_release>(s.flags.region_epoch, epoch);
    store<order_release>(s.flags.counting_epoch, epoch);
}

std::uint32_t stop_previous_region() noexcept {
    // Stop the previous region first, so nothing is counted in it from here on.
    store(detail::state.flags.counting_epoch, 0);
    stop_counting_by_allocator(detail::owned_epoch == load(detail::state.flags.counted_by_allocator));
    store(detail::state.flags.region_epoch, 0);
    return next_epoch();
}

}  // namespace

void region_begin() noexcept {
    const detail::thread_counters counters = detail::allocator_thread_counters();
    const std::uint32_t epoch = stop_previous_region();
    detail::owned_epoch = epoch;
    open_region(epoch);
    count_by_allocator(epoch, counters);
}

void region_begin_members() noexcept {
    // No owner: every member counts on the shared tally (the owner's single-writer tally would
    // need one writer, and here there are several).
    open_region(stop_previous_region() | detail::members_tag);
}

void region_begin_sites(site_buffers buffers) noexcept {
    const std::uint32_t epoch = stop_previous_region() | detail::sites_tag;
    detail::set_site_buffers(buffers);  // before open_region() publishes the epoch with release
    detail::owned_epoch = epoch;
    open_region(epoch);
}

void join() noexcept {
    detail::member_epoch = load(detail::state.flags.region_epoch);
    detail::member_paused_epoch = 0;
}

void leave() noexcept {
    detail::member_paused_epoch = detail::member_epoch;
    detail::member_epoch = 0;
}

void finish() noexcept {
    detail::member_epoch = 0;
    detail::member_paused_epoch = 0;
}

void pause() noexcept {
    store(detail::state.flags.counting_epoch, 0);
    stop_counting_by_allocator();  // a paused allocation is in no figure, and the counters count it
}

void resume() noexcept {
    detail::region_state& s = detail::state;
    // This thread's counters, if it owns the region, were asked for when it opened (cached).
    if (load(s.flags.counted_by_allocator) == 0 && detail::owned_epoch == load(s.flags.region_epoch))
        count_by_allocator(load(s.flags.region_epoch), detail::allocator_thread_counters());
    // Release for the same reason as in region_begin(): a thread that sees counting resume
    // also sees everything the runner did before, the reset included.
    store<order_release>(s.flags.counting_epoch, load(s.flags.region_epoch));
}

counters snapshot() noexcept {
    const detail::region_state& s = detail::state;
    counters c;
    c.allocs = load(s.owner.allocs) + load(s.others.allocs);
    c.bytes = load(s.owner.bytes) + load(s.others.bytes);
    c.live = detail::owner_live() + load(s.others.live);
    // The hook raises the peak at every counted allocation, so live <= peak except while
    // another thread is between its two updates; the max keeps the pair consistent anyway.
    c.peak = std::max(load(s.peak.value), c.live);
    c.copied = load(s.owner.copied) + load(s.others.copied);
    c.set = load(s.owner.set) + load(s.others.set);
    c.mapped = load(s.owner.mapped) + load(s.others.mapped);
    c.untracked = load(detail::paused.lost);
    return c;
}

bool mappings_counted() noexcept {
    return __atomic_load_n(&detail::mapping_hooks_linked, detail::order_relaxed) && available();
}

bool copies_counted() noexcept {
    return __atomic_load_n(&detail::copy_hooks_linked, detail::order_relaxed);
}

void region_end() noexcept {
    detail::region_state& s = detail::state;
    store(s.flags.counting_epoch, 0);
    stop_counting_by_allocator();
    store(s.flags.region_epoch, 0);
}

}  // namespace tare::alloc
