// The allocation interposer. It defines the whole malloc family and every replaceable
// operator new/delete in the executable, which the dynamic linker then prefers to any shared
// library's, and forwards each call, with the caller's own arguments, to the allocator the
// program would have called without it: the next definition after the executable (a linked or
// preloaded jemalloc, tcmalloc or mimalloc, or glibc; underlying.hpp), or TSan's allocator in a
// GCC TSan build. The program gets exactly the block its allocator gives: no header, no other
// size class, and a pointer any of the allocator's entry points takes back (mallocx then free,
// malloc then mi_free). What each call counts is in counting.hpp.
//
// Rejected: the 16-byte header this file used to put before every block, carrying the
// requested size and the region's tag. It made every block 16 bytes bigger than without tare
// (malloc_usable_size(malloc(100)) answered 100 where glibc gives 104), which moves blocks
// into other size classes and changes how often code that grows into its slack reallocates;
// and a block freed through another of the allocator's entry points crashed. The figures it
// made possible in requested bytes are now in usable bytes (docs/accounting.md, "The live
// heap in usable bytes").
//
// SAFETY: every entry point here allocates nothing of its own, takes no lock, and throws
// nothing (except operator new's std::bad_alloc, after the new_handler loop, as the standard
// requires). Its state is constant-initialised globals and initial-exec thread_locals (a fixed
// offset from the thread pointer: no __tls_get_addr, which may call malloc, and no init guard),
// so it works before main(), in the dynamic linker's own calls, while a thread is being
// created, during TLS destructors and thread exit, and in the child after fork() (no lock can
// be held by a thread that no longer exists).
//
// PERF: bench/accounting_ab.py measures a malloc(32)+free pair counted, paused and outside any
// region, against the same loop without tare; bench/allocator_cost.py the same on jemalloc, and a
// mixed-size body; bench/README.md has the figures.

#include <dlfcn.h>
#include <malloc.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <new>

#include "alloc/counting.hpp"
#include "tare/report.hpp"

// The interposed names must be in the dynamic symbol table even if the build hides symbols
// by default (-fvisibility=hidden): a hidden malloc would leave glibc's internal calls
// (strdup, getline, fopen...) uncounted, and on glibc's allocator beside the program's own.
#define TARE_ALLOC_EXPORT __attribute__((visibility("default"))) TARE_ALLOC_HOOK

namespace tare::alloc::detail {
namespace {

// Larger requests fail with ENOMEM before reaching the allocator: every allocator refuses
// them anyway, and TSan's aborts the process instead of failing above 1 TiB.
#if defined(__SANITIZE_THREAD__)
constexpr std::size_t max_request = std::size_t{1} << 40;
#else
constexpr std::size_t max_request = PTRDIFF_MAX / 2;
#endif

TARE_ALLOC_HOOK constexpr bool is_power_of_two(std::size_t x) noexcept {
    return x != 0 && (x & (x - 1)) == 0;
}

TARE_ALLOC_HOOK void* fail(int error) noexcept {
    errno = error;
    return nullptr;
}

// Inlined into malloc and the plain operator new's first attempt: one call level less on the
// path every allocation takes (operator new used to call it, and it called the allocator).
[[gnu::always_inline]] TARE_ALLOC_HOOK inline void* allocate(std::size_t n) noexcept {
    if (n > max_request) [[unlikely]]
        return fail(ENOMEM);
    // Outside every region there is nothing to count and no paused block to hold: the
    // allocator's call is then a tail call, as a bare forwarder's. A region another thread opens
    // meanwhile finds this allocation made before it, as it would one a moment earlier. Both
    // epochs: the interposer's probe (hook_counts) counts with no region open. The counting
    // epoch read here serves publish_in() too: rejected, a second read after the call, which
    // made a counted glibc pair about 0.3 ns dearer.
    const std::uint32_t epoch = counting_epoch_now();
    if ((epoch | open_region_epoch()) == 0) [[likely]]
        return under_malloc(n);
    return publish_in(epoch, under_malloc(n), n);
}

/// `align` must be a power of two. Allocates `n` bytes aligned to it and counts `counted` (they
/// differ for pvalloc only).
TARE_ALLOC_HOOK void* allocate_aligned(std::size_t align, std::size_t n, std::size_t counted) noexcept {
    if (n > max_request || align > max_request)
        return fail(ENOMEM);
    // The allocator's memalign may call its own aligned entry point through its PLT (mimalloc's
    // calls mi_malloc_aligned): interpose_native.cpp's forwarder passes that call through.
    const bool outer = forwarding;
    forwarding = true;
    void* p = under_memalign(align, n);
    forwarding = outer;
    return publish(p, counted);
}

TARE_ALLOC_HOOK void* allocate_zeroed(std::size_t count, std::size_t size) noexcept {
    std::size_t n = 0;
    if (__builtin_mul_overflow(count, size, &n) || n > max_request)
        return fail(ENOMEM);
    const std::uint32_t epoch = counting_epoch_now();  // as allocate()
    if ((epoch | open_region_epoch()) == 0) [[likely]]
        return under_calloc(count, size);
    return publish_in(epoch, under_calloc(count, size), n);
}

/// How release() hands a block back: free, the common case.
struct by_free {
    TARE_ALLOC_HOOK void operator()(void* p) const noexcept { under_free(p); }
};

/// ...or the allocator's own sized delete (underlying.hpp, sized_delete_table), with the size
/// the program passed. Inside a forwarding scope: an allocator whose sized delete calls its own
/// free through its PLT (mimalloc's jumps to mi_free) reaches interpose_native.cpp's forwarder,
/// which passes it through uncounted.
struct by_sized_delete {
    sized_free_fn f;
    std::size_t n;
    TARE_ALLOC_HOOK void operator()(void* p) const noexcept {
        const bool outer = forwarding;
        forwarding = true;
        f(p, n);
        forwarding = outer;
    }
};

struct by_sized_aligned_delete {
    sized_aligned_free_fn f;
    std::size_t n;
    std::align_val_t align;
    TARE_ALLOC_HOOK void operator()(void* p) const noexcept {
        const bool outer = forwarding;
        forwarding = true;
        f(p, n, align);
        forwarding = outer;
    }
};

/// The end of release() while a region is open and the common test did not settle it: the
/// block may be in the paused set, the region is a member region, or it records sites.
template <typename Free>
[[gnu::noinline]] TARE_ALLOC_HOOK void release_in_region(void* p, std::uint32_t region, Free done) noexcept {
    if (count_free(p, region) && (region & sites_tag) != 0) [[unlikely]]
        record_free(p, region);
    done(p);
}

/// release()'s common case when the usable size is a call (any allocator but glibc's): the
/// owner's free, in a plain region, of a block the paused set does not hold.
template <typename Free>
[[gnu::noinline]] TARE_ALLOC_HOOK void release_called(void* p, Free done) noexcept {
    owner_released(TARE_ALLOC_UNDER(malloc_usable_size, usable_size)(p));
    done(p);
}

// Inlined into free and every delete: one call level less on the hottest path. The owner's
// free of a block no pause made, in a plain region, with the usable size read inline, is settled
// here with no call but the allocator's (a tail call), so this path saves no register and makes
// no frame (with a call inline here, p had to survive it in a saved register). On an allocator
// whose counters the owner's level is read off (jemalloc's; tally.hpp), the same free counts
// nothing at all: the allocator's free lowers them. On any other allocator whose usable size is
// a call it goes to release_called(), which does that call and nothing else;
// release_in_region() takes every other case. Rejected: sending the called case
// to release_in_region() too (as this did), whose re-tests of the paused set and the member
// region made a jemalloc pair about 15 % dearer (bench/README.md, "On jemalloc"). `done` hands
// the block back: free, or the allocator's own sized delete.
template <typename Free = by_free>
[[gnu::always_inline]] TARE_ALLOC_HOOK inline void release(void* p, Free done = {}) noexcept {
    if (p == nullptr || from_bootstrap(p)) [[unlikely]]
        return;  // a block of the bootstrap buffer (dlsym's, underlying.cpp) is never freed
    const std::uint32_t region = open_region_epoch();
    if (region != 0) {
        if (owned_epoch != region || (region & sites_tag) != 0 || paused_may_hold(p, region)) [[unlikely]]
            return release_in_region(p, region, done);
        if (usable_read_inline()) [[likely]]
            owner_released(inline_usable(p));
        else if (!counted_by_allocator(region))
            return release_called(p, done);
        // else the level is read off the allocator's counters, which its free lowers: no call
    }
    done(p);
}

/// A sized operator delete: the allocator's own when it has one (sized_delete_table), else free.
/// Never in the GCC TSan build, whose blocks are TSan's allocator's.
TARE_ALLOC_HOOK inline void release_sized(void* p, [[maybe_unused]] std::size_t n,
                                          [[maybe_unused]] sized_free_fn own) noexcept {
#if !defined(__SANITIZE_THREAD__)
    if (own != nullptr)
        return release(p, by_sized_delete{own, n});
#endif
    release(p);
}

TARE_ALLOC_HOOK inline void release_sized_aligned(void* p, [[maybe_unused]] std::size_t n,
                                                  [[maybe_unused]] std::align_val_t a,
                                                  [[maybe_unused]] sized_aligned_free_fn own) noexcept {
#if !defined(__SANITIZE_THREAD__)
    if (own != nullptr)
        return release(p, by_sized_aligned_delete{own, n, a});
#endif
    release(p);
}

/// realloc(p, n), p != nullptr, n > 0: one allocation of n bytes, and p released, counted only
/// once the allocator has succeeded (a failed realloc leaves p as it was, and every figure).
TARE_ALLOC_HOOK void* reallocate(void* p, std::size_t n) noexcept {
    if (from_bootstrap(p)) [[unlikely]] {
        void* q = under_malloc(n);  // out of the bootstrap buffer, which is never freed
        if (q != nullptr)
            __builtin_memcpy(q, p, bootstrap_size(p) < n ? bootstrap_size(p) : n);
        return publish(q, n);  // a block of the allocator's, counted as any other
    }
    if (n > max_request)
        return fail(ENOMEM);
    const resize_release r = plan_release(p);
    // The allocator's realloc may free the old block through its own free's PLT entry (mimalloc's
    // calls mi_free): interpose_native.cpp's forwarder passes that call through.
    const bool outer = forwarding;
    forwarding = true;
    void* q = under_realloc(p, n);
    forwarding = outer;
    if (q == nullptr)
        return nullptr;
    apply_release(p, r);
    return publish(q, n);
}

TARE_ALLOC_HOOK std::size_t page_size() noexcept {
    return static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

/// The alignment argument of a plain operator new: malloc's, which is what libstdc++'s calls.
constexpr std::size_t plain_align = 0;

/// operator new's allocation: malloc for the plain forms, the allocator's memalign for the
/// aligned ones (libstdc++'s calls aligned_alloc, the same function in every allocator tare
/// forwards to); nullptr for an alignment that is not a power of two.
[[gnu::always_inline]] TARE_ALLOC_HOOK inline void* new_block(std::size_t n, std::size_t align) noexcept {
    if (align == plain_align)
        return allocate(n);
    return is_power_of_two(align) ? allocate_aligned(align, n, n) : nullptr;
}

// operator new: the new_handler loop of [new.delete.single]/4, past a first attempt that
// failed. The allocation itself is the internal path, so a new is counted once, with the size
// asked for (never the alignment).
[[gnu::noinline, gnu::cold]] TARE_ALLOC_HOOK void* new_retry(std::size_t n, std::size_t align) {
    for (;;) {
        const std::new_handler handler = std::get_new_handler();
        if (handler == nullptr || (align != plain_align && !is_power_of_two(align)))
            throw std::bad_alloc();
        handler();
        void* p = new_block(n, align);
        if (p != nullptr)
            return p;
    }
}

// The first attempt inline, the loop out of line: a plain new is then malloc's path with no
// call between operator new and the allocator. Rejected: the whole loop here (as it was), around
// which GCC kept the allocation as a call of its own.
[[gnu::always_inline]] TARE_ALLOC_HOOK inline void* new_or_throw(std::size_t n, std::size_t align) {
    void* p = new_block(n, align);
    if (p != nullptr) [[likely]]
        return p;
    return new_retry(n, align);
}

TARE_ALLOC_HOOK void* new_or_null(std::size_t n, std::size_t align) noexcept {
    for (;;) {
        void* p = new_block(n, align);
        if (p != nullptr)
            return p;
        const std::new_handler handler = std::get_new_handler();
        if (handler == nullptr || (align != plain_align && !is_power_of_two(align)))
            return nullptr;
        try {
            handler();
        } catch (const std::bad_alloc&) {
            return nullptr;
        }
    }
}

TARE_ALLOC_HOOK std::size_t align_of(std::align_val_t a) noexcept {
    return static_cast<std::size_t>(a);
}

}  // namespace
}  // namespace tare::alloc::detail

namespace tad = tare::alloc::detail;

// ---- The C allocation functions ----------------------------------------------------------

extern "C" {

TARE_ALLOC_EXPORT void* malloc(std::size_t size) noexcept {
    return tad::allocate(size);
}

TARE_ALLOC_EXPORT void free(void* p) noexcept {
    tad::release(p);
}

TARE_ALLOC_EXPORT void* calloc(std::size_t count, std::size_t size) noexcept {
    return tad::allocate_zeroed(count, size);
}

TARE_ALLOC_EXPORT void* realloc(void* p, std::size_t size) noexcept {
    if (p == nullptr)
        return tad::allocate(size);
    if (size == 0) {  // glibc's semantics: a free, returning a null pointer
        tad::release(p);
        return nullptr;
    }
    return tad::reallocate(p, size);
}

TARE_ALLOC_EXPORT void* reallocarray(void* p, std::size_t count, std::size_t size) noexcept {
    std::size_t n = 0;
    if (__builtin_mul_overflow(count, size, &n))
        return tad::fail(ENOMEM);
    return realloc(p, n);
}

// C17 7.22.3.1 and glibc >= 2.38: an alignment that is not a power of two fails with EINVAL
// (glibc 2.36's aligned_alloc, an alias of memalign, rounded it up instead).
TARE_ALLOC_EXPORT void* aligned_alloc(std::size_t align, std::size_t size) noexcept {
    if (!tad::is_power_of_two(align))
        return tad::fail(EINVAL);
    return tad::allocate_aligned(align, size, size);
}

TARE_ALLOC_EXPORT int posix_memalign(void** out, std::size_t align, std::size_t size) noexcept {
    if (!tad::is_power_of_two(align) || align % sizeof(void*) != 0)
        return EINVAL;
    const int saved = errno;  // POSIX reports through the return value alone
    void* p = tad::allocate_aligned(align, size, size);
    if (p == nullptr) {
        errno = saved;
        return ENOMEM;
    }
    *out = p;
    return 0;
}

// The allocator's own memalign, with its own rules for an alignment that is not a power of two
// (glibc rounds it up to the next); an alignment above SIZE_MAX/2 + 1 is EINVAL, as in glibc.
TARE_ALLOC_EXPORT void* memalign(std::size_t align, std::size_t size) noexcept {
    if (align > SIZE_MAX / 2 + 1)
        return tad::fail(EINVAL);
    return tad::allocate_aligned(align, size, size);
}

TARE_ALLOC_EXPORT void* valloc(std::size_t size) noexcept {
    return tad::allocate_aligned(tad::page_size(), size, size);
}

// pvalloc rounds the block up to whole pages (one page for 0); the request is what counts.
TARE_ALLOC_EXPORT void* pvalloc(std::size_t size) noexcept {
    const std::size_t page = tad::page_size();
    if (size > tad::max_request)
        return tad::fail(ENOMEM);
    const std::size_t rounded = size == 0 ? page : (size + page - 1) & ~(page - 1);
    return tad::allocate_aligned(page, rounded, size);
}

// The allocator's answer, as without tare (and what the live heap counts for the block).
TARE_ALLOC_EXPORT std::size_t malloc_usable_size(void* p) noexcept {
    if (p == nullptr)
        return 0;
    return tad::from_bootstrap(p) ? tad::bootstrap_size(p) : tad::under_usable_size(p);
}

// The definitions above under names that never leave this module: what check_interposer()
// compares the dynamic linker's answer with (taking &malloc under -fPIC would itself load the
// dynamic linker's answer from the GOT and so always agree).
void* tare_alloc_own_malloc(std::size_t) noexcept
    __attribute__((alias("malloc"), visibility("hidden"), malloc, alloc_size(1), leaf));
void tare_alloc_own_free(void*) noexcept __attribute__((alias("free"), visibility("hidden"), leaf));
void* tare_alloc_own_new(std::size_t)
    __attribute__((alias("_Znwm"), visibility("hidden"), malloc, alloc_size(1)));

}  // extern "C"

// ---- The replaceable operator new and delete ---------------------------------------------

TARE_ALLOC_EXPORT void* operator new(std::size_t n) {
    return tad::new_or_throw(n, tad::plain_align);
}
TARE_ALLOC_EXPORT void* operator new[](std::size_t n) {
    return tad::new_or_throw(n, tad::plain_align);
}
TARE_ALLOC_EXPORT void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    return tad::new_or_null(n, tad::plain_align);
}
TARE_ALLOC_EXPORT void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
    return tad::new_or_null(n, tad::plain_align);
}
TARE_ALLOC_EXPORT void* operator new(std::size_t n, std::align_val_t a) {
    return tad::new_or_throw(n, tad::align_of(a));
}
TARE_ALLOC_EXPORT void* operator new[](std::size_t n, std::align_val_t a) {
    return tad::new_or_throw(n, tad::align_of(a));
}
TARE_ALLOC_EXPORT void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
    return tad::new_or_null(n, tad::align_of(a));
}
TARE_ALLOC_EXPORT void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
    return tad::new_or_null(n, tad::align_of(a));
}

// Every delete but the sized ones is a free: the allocator knows the block's size and
// alignment, and the usable size it reports is what the live heap counted. The sized ones go to
// the allocator's own sized delete where it has one (underlying.hpp), as without tare.
TARE_ALLOC_EXPORT void operator delete(void* p) noexcept {
    tad::release(p);
}
TARE_ALLOC_EXPORT void operator delete[](void* p) noexcept {
    tad::release(p);
}
TARE_ALLOC_EXPORT void operator delete(void* p, std::size_t n) noexcept {
    tad::release_sized(p, n, __atomic_load_n(&tad::sized_delete.single, tad::order_relaxed));
}
TARE_ALLOC_EXPORT void operator delete[](void* p, std::size_t n) noexcept {
    tad::release_sized(p, n, __atomic_load_n(&tad::sized_delete.array, tad::order_relaxed));
}
TARE_ALLOC_EXPORT void operator delete(void* p, const std::nothrow_t&) noexcept {
    tad::release(p);
}
TARE_ALLOC_EXPORT void operator delete[](void* p, const std::nothrow_t&) noexcept {
    tad::release(p);
}
TARE_ALLOC_EXPORT void operator delete(void* p, std::align_val_t) noexcept {
    tad::release(p);
}
TARE_ALLOC_EXPORT void operator delete[](void* p, std::align_val_t) noexcept {
    tad::release(p);
}
TARE_ALLOC_EXPORT void operator delete(void* p, std::size_t n, std::align_val_t a) noexcept {
    tad::release_sized_aligned(p, n, a,
                               __atomic_load_n(&tad::sized_delete.single_aligned, tad::order_relaxed));
}
TARE_ALLOC_EXPORT void operator delete[](void* p, std::size_t n, std::align_val_t a) noexcept {
    tad::release_sized_aligned(p, n, a,
                               __atomic_load_n(&tad::sized_delete.array_aligned, tad::order_relaxed));
}
TARE_ALLOC_EXPORT void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
    tad::release(p);
}
TARE_ALLOC_EXPORT void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
    tad::release(p);
}

// ---- Is it this file that the process calls? ---------------------------------------------

namespace tare::alloc::detail {

availability check_interposer() noexcept {
    // 1. The process allocates through this file only if the dynamic linker resolves the
    //    names that every other module calls to the definitions here. A name it does not find
    //    (e.g. _Znwm with a statically linked libstdc++, where only this executable calls it)
    //    cannot be called by anyone else, so it does not count against.
    const auto shadowed = [](const char* name, void* own) noexcept {
        void* const resolved = dlsym(RTLD_DEFAULT, name);
        return resolved != nullptr && resolved != own;
    };
    void* const own_malloc = reinterpret_cast<void*>(&tare_alloc_own_malloc);
    void* const own_free = reinterpret_cast<void*>(&tare_alloc_own_free);
    void* const own_new = reinterpret_cast<void*>(&tare_alloc_own_new);
    if (shadowed("malloc", own_malloc) || shadowed("free", own_free) || shadowed("_Znwm", own_new)) {
        return availability::shadowed;
    }
    // An allocator linked into the executable itself, whose malloc this file's replaced at
    // link time (or which defines its entry points weakly): forwarding would reach the next
    // module's malloc, a second allocator beside the one the program means to use. Refused
    // rather than mixed (docs/accounting.md, "Statically linked allocators").
    if (static_allocator_symbol() != nullptr)
        return availability::static_allocator;
    (void)__atomic_load_n(&mapping_hooks_anchor, order_relaxed);  // links interpose_mmap.cpp
    // 2. ...and if calling them runs this code. Valgrind, by default, redirects the malloc
    //    family of the executable itself to its own replacements, by address: the symbols
    //    still resolve here, but nothing would be counted.
    void* (*const process_malloc)(std::size_t) = &malloc;  // redirected with it, if it is redirected
    void (*const process_free)(void*) = &free;
    if (!hook_counts(process_malloc, process_free))
        return availability::shadowed;
    return availability::active;
}

}  // namespace tare::alloc::detail

// ---- Declared allocations ------------------------------------------------------------------
//
// include/tare/report.hpp: a pool's blocks, counted as the hook counts malloc's, with the size
// the program declares standing for the usable size the allocator would report (a pool has none
// to ask). Marked as the hook is (TARE_ALLOC_HOOK): GCC inlines the counting only into functions
// with the same sanitizer attributes.
//
// PERF: one call, the region's flags and the owner's counters, as the hook's counting path
// without the allocator underneath; bench/README.md, "Declared allocations", has the figure.

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
