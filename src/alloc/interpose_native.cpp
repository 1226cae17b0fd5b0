// The allocators' own APIs, counted as the malloc family is (docs/accounting.md, "Allocators'
// own entry points"): jemalloc's mallocx family, mimalloc's mi_ functions and tcmalloc's tc_
// functions. Each is defined here, weakly, and forwards with the caller's arguments to the next
// definition after the executable (the shared allocator's own), counting as interpose_glibc.cpp
// does: requested bytes for allocations and bytes, the allocator's own usable size (sallocx,
// mi_usable_size, tc_malloc_size) for the live heap.
//
// Which functions. Those that make, resize or free a block and that the allocator does not
// reach through another of them: mimalloc's mi_posix_memalign calls mi_malloc_aligned through
// its PLT, mi_reallocarray calls mi_reallocn, mi_new_realloc calls mi_realloc, mi_wcsdup calls
// mi_malloc, so those are counted through the callee and are not defined here (defining both
// would count them twice). mimalloc's heaps (mi_heap_*) are not counted: mi_heap_destroy frees
// every block of a heap at once, with no call per block to count.
//
// Weak, so that an allocator object linked into the executable (which tare does not support:
// docs/accounting.md, "Statically linked allocators") keeps its own strong definitions and is
// still detected (static_allocator_symbol()). A name whose next definition is missing means
// this file's definition satisfied the link and no allocator in the process has it: a call
// then ends the process with a message that names the fix, rather than serve the block from
// another allocator.
//
// Rejected: leaving the APIs uncounted and saying so (what tare did): Apache Arrow's jemalloc
// pool allocates with mallocx, and its figures read 0. Rejected: defining them in an archive
// member of their own, pulled only when the program calls them: then a call from a shared
// library (libarrow.so's mallocx) is not seen unless the executable itself calls the name too.
//
// SAFETY: as interpose_glibc.cpp: nothing allocated, no lock taken, initial-exec TLS only.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

#include "alloc/counting.hpp"

#define TARE_NATIVE_EXPORT __attribute__((weak, visibility("default"))) TARE_ALLOC_HOOK

namespace tare::alloc::detail {
namespace {

/// One entry point of an allocator's own API and its next definition: nullptr until looked up,
/// `absent_marker`'s address when no module after the executable defines it.
struct next_slot {
    const char* name;
    void* fn;
};

unsigned char absent_marker;

enum api : unsigned char {
    // jemalloc
    je_mallocx,
    je_rallocx,
    je_xallocx,
    je_sallocx,
    je_dallocx,
    je_sdallocx,
    // mimalloc
    mi_malloc_,
    mi_zalloc_,
    mi_calloc_,
    mi_mallocn_,
    mi_malloc_small_,
    mi_zalloc_small_,
    mi_realloc_,
    mi_reallocn_,
    mi_rezalloc_,
    mi_recalloc_,
    mi_malloc_aligned_,
    mi_malloc_aligned_at_,
    mi_zalloc_aligned_,
    mi_calloc_aligned_,
    mi_realloc_aligned_,
    mi_strdup_,
    mi_strndup_,
    mi_free_,
    mi_usable_size_,
    mi_new_,
    mi_new_nothrow_,
    mi_new_aligned_,
    mi_new_n_,
    // tcmalloc
    tc_malloc_,
    tc_malloc_skip_new_handler_,
    tc_calloc_,
    tc_realloc_,
    tc_memalign_,
    tc_posix_memalign_,
    tc_valloc_,
    tc_pvalloc_,
    tc_free_,
    tc_malloc_size_,
    tc_new_,
    tc_new_nothrow_,
    tc_new_aligned_,
    tc_new_aligned_nothrow_,
    api_count,
};

constinit next_slot slots[api_count] = {
    {"mallocx", nullptr},
    {"rallocx", nullptr},
    {"xallocx", nullptr},
    {"sallocx", nullptr},
    {"dallocx", nullptr},
    {"sdallocx", nullptr},
    {"mi_malloc", nullptr},
    {"mi_zalloc", nullptr},
    {"mi_calloc", nullptr},
    {"mi_mallocn", nullptr},
    {"mi_malloc_small", nullptr},
    {"mi_zalloc_small", nullptr},
    {"mi_realloc", nullptr},
    {"mi_reallocn", nullptr},
    {"mi_rezalloc", nullptr},
    {"mi_recalloc", nullptr},
    {"mi_malloc_aligned", nullptr},
    {"mi_malloc_aligned_at", nullptr},
    {"mi_zalloc_aligned", nullptr},
    {"mi_calloc_aligned", nullptr},
    {"mi_realloc_aligned", nullptr},
    {"mi_strdup", nullptr},
    {"mi_strndup", nullptr},
    {"mi_free", nullptr},
    {"mi_usable_size", nullptr},
    {"mi_new", nullptr},
    {"mi_new_nothrow", nullptr},
    {"mi_new_aligned", nullptr},
    {"mi_new_n", nullptr},
    {"tc_malloc", nullptr},
    {"tc_malloc_skip_new_handler", nullptr},
    {"tc_calloc", nullptr},
    {"tc_realloc", nullptr},
    {"tc_memalign", nullptr},
    {"tc_posix_memalign", nullptr},
    {"tc_valloc", nullptr},
    {"tc_pvalloc", nullptr},
    {"tc_free", nullptr},
    {"tc_malloc_size", nullptr},
    {"tc_new", nullptr},
    {"tc_new_nothrow", nullptr},
    {"tc_new_aligned", nullptr},
    {"tc_new_aligned_nothrow", nullptr},
};

[[gnu::cold, gnu::noinline]] TARE_ALLOC_HOOK void* look_up(api id) noexcept {
    void* f = next_definition(slots[id].name);
    if (f == nullptr)
        f = &absent_marker;
    __atomic_store_n(&slots[id].fn, f, order_relaxed);
    return f;
}

TARE_ALLOC_HOOK void say(const char* text) noexcept {
    const std::size_t n = __builtin_strlen(text);
    std::size_t done = 0;
    while (done < n) {
        const ssize_t w = ::write(STDERR_FILENO, text + done, n - done);
        if (w <= 0)
            return;
        done += static_cast<std::size_t>(w);
    }
}

/// A call of `name` with no allocator behind it: this file's definition satisfied the link.
[[noreturn, gnu::cold, gnu::noinline]] TARE_ALLOC_HOOK void no_allocator(const char* name) noexcept {
    say("tare: the program calls ");
    say(name);
    say(", but no shared library in the process defines it: tare's definition satisfied the link "
        "(an allocator linked statically, or not at all). Link the allocator as a shared library "
        "(-ljemalloc, -lmimalloc, -ltcmalloc_minimal) or LD_PRELOAD it (docs/accounting.md, "
        "\"Statically linked allocators\").\n");
    std::abort();
}

/// The next definition of `id`, as F.
template <typename F>
[[gnu::always_inline]] TARE_ALLOC_HOOK inline F next(api id) noexcept {
    void* f = __atomic_load_n(&slots[id].fn, order_relaxed);
    if (f == nullptr) [[unlikely]]
        f = look_up(id);
    if (f == &absent_marker) [[unlikely]]
        no_allocator(slots[id].name);
    return reinterpret_cast<F>(f);
}

#if !defined(__SANITIZE_THREAD__)
/// Looks every family up before main(), so that no lookup lands in a timed region. A family
/// whose marker is missing (no jemalloc, say) is marked absent without a lookup per name.
__attribute__((constructor(101))) void look_up_before_main() noexcept {
    struct family {
        api first;
        api last;
    };
    const family families[] = {
        {je_mallocx, je_sdallocx}, {mi_malloc_, mi_new_n_}, {tc_malloc_, tc_new_aligned_nothrow_}};
    for (const family& f : families) {
        const bool present = next_definition(slots[f.first].name) != nullptr;
        for (int id = f.first; id <= f.last; ++id) {
            if (__atomic_load_n(&slots[id].fn, order_relaxed) != nullptr)
                continue;
            if (present)
                look_up(static_cast<api>(id));
            else
                __atomic_store_n(&slots[id].fn, static_cast<void*>(&absent_marker), order_relaxed);
        }
    }
}
#endif

// The allocators' usable-size readers, as count_alloc() and count_free() take them (jemalloc's
// is jemalloc_usable(), below: counting.hpp tells its calls by it).
TARE_ALLOC_HOOK std::size_t mi_usable(void* p) noexcept {
    return next<usable_fn>(mi_usable_size_)(p);
}
TARE_ALLOC_HOOK std::size_t tc_usable(void* p) noexcept {
    return next<usable_fn>(tc_malloc_size_)(p);
}

/// While alive, this thread is inside a call tare forwards (underlying.hpp, `forwarding`): the
/// allocator's calls of its own entry points pass through uncounted. Restores the outer value,
/// also when the call throws (mi_new, tc_new).
struct forwarding_scope {
    bool outer;
    TARE_ALLOC_HOOK forwarding_scope() noexcept : outer(forwarding) { forwarding = true; }
    TARE_ALLOC_HOOK ~forwarding_scope() { forwarding = outer; }
    forwarding_scope(const forwarding_scope&) = delete;
    forwarding_scope& operator=(const forwarding_scope&) = delete;
};

/// Calls `f` with `args` inside a forwarding scope.
template <typename F, typename... A>
[[gnu::always_inline]] TARE_ALLOC_HOOK inline auto forward(F f, A... args) {
    const forwarding_scope scope;
    return f(args...);
}

/// An allocation through `id` with `args`, counting `counted` requested bytes.
template <typename F, typename... A>
[[gnu::always_inline]] TARE_ALLOC_HOOK inline void* alloc_via(api id, usable_fn usable, std::size_t counted,
                                                              A... args) {
    const F f = next<F>(id);
    if (forwarding)
        return f(args...);  // the allocator's own call, inside one tare counts
    return publish(forward(f, args...), counted, usable);
}

/// A free through `id` of `p` (with the rest of the call's arguments).
template <typename F, typename... A>
[[gnu::always_inline]] TARE_ALLOC_HOOK inline void free_via(api id, usable_fn usable, void* p,
                                                            A... rest) noexcept {
    if (p == nullptr)
        return;
    const F f = next<F>(id);
    if (forwarding)
        return f(p, rest...);
    count_release(p, usable);
    forward(f, p, rest...);
}

/// A resize through `id` of `p` (nullptr: an allocation) to `counted` requested bytes: the
/// old block released and the new one counted once the allocator has succeeded.
template <typename F, typename... A>
[[gnu::always_inline]] TARE_ALLOC_HOOK inline void* resize_via(api id, usable_fn usable, std::size_t counted,
                                                               void* p, A... rest) noexcept {
    const F f = next<F>(id);
    if (forwarding)
        return f(p, rest...);
    if (p == nullptr)
        return publish(forward(f, p, rest...), counted, usable);
    const resize_release r = plan_release(p, usable);
    void* q = forward(f, p, rest...);
    if (q == nullptr)
        return nullptr;
    apply_release(p, r);
    return publish(q, counted, usable);
}

/// count * size, or SIZE_MAX when it overflows (the allocator then fails, and nothing counts).
TARE_ALLOC_HOOK inline std::size_t product(std::size_t count, std::size_t size) noexcept {
    std::size_t n = 0;
    return __builtin_mul_overflow(count, size, &n) ? SIZE_MAX : n;
}

using size_fn = void* (*)(std::size_t) noexcept;
using size_flags_fn = void* (*)(std::size_t, int) noexcept;
using count_size_fn = void* (*)(std::size_t, std::size_t) noexcept;
using resize_fn = void* (*)(void*, std::size_t) noexcept;
using resize_n_fn = void* (*)(void*, std::size_t, std::size_t) noexcept;
using free_fn_ = void (*)(void*) noexcept;
using throwing_size_fn = void* (*)(std::size_t);
using throwing_aligned_fn = void* (*)(std::size_t, std::size_t);

}  // namespace

const void* native_definition(const char* name) noexcept {
    for (next_slot& s : slots) {
        if (__builtin_strcmp(s.name, name) != 0)
            continue;
        void* f = __atomic_load_n(&s.fn, order_relaxed);
        if (f == nullptr)
            f = look_up(static_cast<api>(&s - slots));
        return f == &absent_marker ? nullptr : f;
    }
    return nullptr;
}

TARE_ALLOC_HOOK std::size_t jemalloc_usable(void* p) noexcept {
    return next<std::size_t (*)(const void*, int) noexcept>(je_sallocx)(p, 0);
}

bool native_api_counted(const char* name) noexcept {
    return native_definition(name) != nullptr;
}

}  // namespace tare::alloc::detail

namespace tad = tare::alloc::detail;

extern "C" {

// ---- jemalloc ----------------------------------------------------------------------------

TARE_NATIVE_EXPORT void* mallocx(std::size_t size, int flags) noexcept {
    return tad::alloc_via<tad::size_flags_fn>(tad::je_mallocx, tad::jemalloc_usable, size, size, flags);
}

TARE_NATIVE_EXPORT void* rallocx(void* p, std::size_t size, int flags) noexcept {
    return tad::resize_via<void* (*)(void*, std::size_t, int) noexcept>(tad::je_rallocx, tad::jemalloc_usable,
                                                                        size, p, size, flags);
}

// Resizes in place and returns the block's size after: a change of size counts as a resize
// (one allocation of `size` bytes, the old size released); no change counts nothing.
TARE_NATIVE_EXPORT std::size_t xallocx(void* p, std::size_t size, std::size_t extra, int flags) noexcept {
    const auto f = tad::next<std::size_t (*)(void*, std::size_t, std::size_t, int) noexcept>(tad::je_xallocx);
    if (tad::forwarding)
        return f(p, size, extra, flags);
    const tad::resize_release r = tad::plan_release(p, tad::jemalloc_usable);
    // The size before, read once: plan_release() has it when it read it.
    const std::size_t before = r.region == 0 ? 0 : r.usable_read ? r.usable : tad::jemalloc_usable(p);
    const std::size_t after = tad::forward(f, p, size, extra, flags);
    if (r.region == 0 || after == before)
        return after;
    tad::apply_release(p, r);
    tad::publish(p, size, tad::jemalloc_usable);
    return after;
}

TARE_NATIVE_EXPORT void dallocx(void* p, int flags) noexcept {
    tad::free_via<void (*)(void*, int) noexcept>(tad::je_dallocx, tad::jemalloc_usable, p, flags);
}

TARE_NATIVE_EXPORT void sdallocx(void* p, std::size_t size, int flags) noexcept {
    tad::free_via<void (*)(void*, std::size_t, int) noexcept>(tad::je_sdallocx, tad::jemalloc_usable, p, size,
                                                              flags);
}

// ---- mimalloc ----------------------------------------------------------------------------

TARE_NATIVE_EXPORT void* mi_malloc(std::size_t size) noexcept {
    return tad::alloc_via<tad::size_fn>(tad::mi_malloc_, tad::mi_usable, size, size);
}
TARE_NATIVE_EXPORT void* mi_zalloc(std::size_t size) noexcept {
    return tad::alloc_via<tad::size_fn>(tad::mi_zalloc_, tad::mi_usable, size, size);
}
TARE_NATIVE_EXPORT void* mi_malloc_small(std::size_t size) noexcept {
    return tad::alloc_via<tad::size_fn>(tad::mi_malloc_small_, tad::mi_usable, size, size);
}
TARE_NATIVE_EXPORT void* mi_zalloc_small(std::size_t size) noexcept {
    return tad::alloc_via<tad::size_fn>(tad::mi_zalloc_small_, tad::mi_usable, size, size);
}
TARE_NATIVE_EXPORT void* mi_calloc(std::size_t count, std::size_t size) noexcept {
    return tad::alloc_via<tad::count_size_fn>(tad::mi_calloc_, tad::mi_usable, tad::product(count, size),
                                              count, size);
}
TARE_NATIVE_EXPORT void* mi_mallocn(std::size_t count, std::size_t size) noexcept {
    return tad::alloc_via<tad::count_size_fn>(tad::mi_mallocn_, tad::mi_usable, tad::product(count, size),
                                              count, size);
}
TARE_NATIVE_EXPORT void* mi_malloc_aligned(std::size_t size, std::size_t align) noexcept {
    return tad::alloc_via<tad::count_size_fn>(tad::mi_malloc_aligned_, tad::mi_usable, size, size, align);
}
TARE_NATIVE_EXPORT void* mi_malloc_aligned_at(std::size_t size, std::size_t align,
                                              std::size_t offset) noexcept {
    return tad::alloc_via<void* (*)(std::size_t, std::size_t, std::size_t) noexcept>(
        tad::mi_malloc_aligned_at_, tad::mi_usable, size, size, align, offset);
}
TARE_NATIVE_EXPORT void* mi_zalloc_aligned(std::size_t size, std::size_t align) noexcept {
    return tad::alloc_via<tad::count_size_fn>(tad::mi_zalloc_aligned_, tad::mi_usable, size, size, align);
}
TARE_NATIVE_EXPORT void* mi_calloc_aligned(std::size_t count, std::size_t size, std::size_t align) noexcept {
    return tad::alloc_via<void* (*)(std::size_t, std::size_t, std::size_t) noexcept>(
        tad::mi_calloc_aligned_, tad::mi_usable, tad::product(count, size), count, size, align);
}
TARE_NATIVE_EXPORT void* mi_realloc(void* p, std::size_t size) noexcept {
    return tad::resize_via<tad::resize_fn>(tad::mi_realloc_, tad::mi_usable, size, p, size);
}
TARE_NATIVE_EXPORT void* mi_rezalloc(void* p, std::size_t size) noexcept {
    return tad::resize_via<tad::resize_fn>(tad::mi_rezalloc_, tad::mi_usable, size, p, size);
}
TARE_NATIVE_EXPORT void* mi_reallocn(void* p, std::size_t count, std::size_t size) noexcept {
    return tad::resize_via<tad::resize_n_fn>(tad::mi_reallocn_, tad::mi_usable, tad::product(count, size), p,
                                             count, size);
}
TARE_NATIVE_EXPORT void* mi_recalloc(void* p, std::size_t count, std::size_t size) noexcept {
    return tad::resize_via<tad::resize_n_fn>(tad::mi_recalloc_, tad::mi_usable, tad::product(count, size), p,
                                             count, size);
}
TARE_NATIVE_EXPORT void* mi_realloc_aligned(void* p, std::size_t size, std::size_t align) noexcept {
    return tad::resize_via<tad::resize_n_fn>(tad::mi_realloc_aligned_, tad::mi_usable, size, p, size, align);
}
// mimalloc's reallocf frees the old block when the resize fails: a resize, then a free.
TARE_NATIVE_EXPORT void* mi_reallocf(void* p, std::size_t size) noexcept {
    void* q = mi_realloc(p, size);
    if (q == nullptr && p != nullptr)
        tad::free_via<tad::free_fn_>(tad::mi_free_, tad::mi_usable, p);
    return q;
}
TARE_NATIVE_EXPORT char* mi_strdup(const char* s) noexcept {
    const auto f = tad::next<char* (*)(const char*) noexcept>(tad::mi_strdup_);
    if (tad::forwarding)
        return f(s);
    char* q = tad::forward(f, s);
    return static_cast<char*>(tad::publish(q, q != nullptr ? __builtin_strlen(q) + 1 : 0, tad::mi_usable));
}
TARE_NATIVE_EXPORT char* mi_strndup(const char* s, std::size_t n) noexcept {
    const auto f = tad::next<char* (*)(const char*, std::size_t) noexcept>(tad::mi_strndup_);
    if (tad::forwarding)
        return f(s, n);
    char* q = tad::forward(f, s, n);
    return static_cast<char*>(tad::publish(q, q != nullptr ? __builtin_strlen(q) + 1 : 0, tad::mi_usable));
}
TARE_NATIVE_EXPORT void mi_free(void* p) noexcept {
    tad::free_via<tad::free_fn_>(tad::mi_free_, tad::mi_usable, p);
}
// mimalloc's sized and aligned frees check their arguments only in debug builds and free the
// block as mi_free does (mimalloc 2.0's alloc.c, alloc-aligned.c): forwarded to mi_free.
TARE_NATIVE_EXPORT void mi_free_size(void* p, std::size_t /*size*/) noexcept {
    mi_free(p);
}
TARE_NATIVE_EXPORT void mi_free_aligned(void* p, std::size_t /*align*/) noexcept {
    mi_free(p);
}
TARE_NATIVE_EXPORT void mi_free_size_aligned(void* p, std::size_t /*size*/, std::size_t /*align*/) noexcept {
    mi_free(p);
}
TARE_NATIVE_EXPORT void* mi_new(std::size_t size) {
    return tad::alloc_via<tad::throwing_size_fn>(tad::mi_new_, tad::mi_usable, size, size);
}
TARE_NATIVE_EXPORT void* mi_new_nothrow(std::size_t size) noexcept {
    return tad::alloc_via<tad::size_fn>(tad::mi_new_nothrow_, tad::mi_usable, size, size);
}
TARE_NATIVE_EXPORT void* mi_new_aligned(std::size_t size, std::size_t align) {
    return tad::alloc_via<tad::throwing_aligned_fn>(tad::mi_new_aligned_, tad::mi_usable, size, size, align);
}
TARE_NATIVE_EXPORT void* mi_new_n(std::size_t count, std::size_t size) {
    return tad::alloc_via<tad::throwing_aligned_fn>(tad::mi_new_n_, tad::mi_usable, tad::product(count, size),
                                                    count, size);
}

// ---- tcmalloc ----------------------------------------------------------------------------

TARE_NATIVE_EXPORT void* tc_malloc(std::size_t size) noexcept {
    return tad::alloc_via<tad::size_fn>(tad::tc_malloc_, tad::tc_usable, size, size);
}
TARE_NATIVE_EXPORT void* tc_malloc_skip_new_handler(std::size_t size) noexcept {
    return tad::alloc_via<tad::size_fn>(tad::tc_malloc_skip_new_handler_, tad::tc_usable, size, size);
}
TARE_NATIVE_EXPORT void* tc_calloc(std::size_t count, std::size_t size) noexcept {
    return tad::alloc_via<tad::count_size_fn>(tad::tc_calloc_, tad::tc_usable, tad::product(count, size),
                                              count, size);
}
// tcmalloc's realloc to 0 bytes frees the block and returns nullptr.
TARE_NATIVE_EXPORT void* tc_realloc(void* p, std::size_t size) noexcept {
    if (p != nullptr && size == 0) {
        const auto f = tad::next<tad::resize_fn>(tad::tc_realloc_);
        if (tad::forwarding)
            return f(p, 0);
        tad::count_release(p, tad::tc_usable);
        return tad::forward(f, p, std::size_t{0});
    }
    return tad::resize_via<tad::resize_fn>(tad::tc_realloc_, tad::tc_usable, size, p, size);
}
TARE_NATIVE_EXPORT void* tc_memalign(std::size_t align, std::size_t size) noexcept {
    return tad::alloc_via<tad::count_size_fn>(tad::tc_memalign_, tad::tc_usable, size, align, size);
}
TARE_NATIVE_EXPORT int tc_posix_memalign(void** out, std::size_t align, std::size_t size) noexcept {
    const auto f = tad::next<int (*)(void**, std::size_t, std::size_t) noexcept>(tad::tc_posix_memalign_);
    if (tad::forwarding)
        return f(out, align, size);
    const int error = tad::forward(f, out, align, size);
    if (error == 0)
        tad::publish(*out, size, tad::tc_usable);
    return error;
}
TARE_NATIVE_EXPORT void* tc_valloc(std::size_t size) noexcept {
    return tad::alloc_via<tad::size_fn>(tad::tc_valloc_, tad::tc_usable, size, size);
}
TARE_NATIVE_EXPORT void* tc_pvalloc(std::size_t size) noexcept {
    return tad::alloc_via<tad::size_fn>(tad::tc_pvalloc_, tad::tc_usable, size, size);
}
TARE_NATIVE_EXPORT void tc_free(void* p) noexcept {
    tad::free_via<tad::free_fn_>(tad::tc_free_, tad::tc_usable, p);
}
// tcmalloc's other frees take the block back as tc_free does (gperftools' tcmalloc.cc: the sized
// and aligned deletes check nothing the free needs): forwarded to tc_free.
TARE_NATIVE_EXPORT void tc_cfree(void* p) noexcept {
    tc_free(p);
}
TARE_NATIVE_EXPORT void tc_free_sized(void* p, std::size_t /*size*/) noexcept {
    tc_free(p);
}
TARE_NATIVE_EXPORT void tc_delete(void* p) noexcept {
    tc_free(p);
}
TARE_NATIVE_EXPORT void tc_deletearray(void* p) noexcept {
    tc_free(p);
}
TARE_NATIVE_EXPORT void tc_delete_sized(void* p, std::size_t /*size*/) noexcept {
    tc_free(p);
}
TARE_NATIVE_EXPORT void tc_deletearray_sized(void* p, std::size_t /*size*/) noexcept {
    tc_free(p);
}
TARE_NATIVE_EXPORT void tc_delete_nothrow(void* p, const std::nothrow_t& /*tag*/) noexcept {
    tc_free(p);
}
TARE_NATIVE_EXPORT void tc_deletearray_nothrow(void* p, const std::nothrow_t& /*tag*/) noexcept {
    tc_free(p);
}
TARE_NATIVE_EXPORT void tc_delete_aligned(void* p, std::align_val_t /*align*/) noexcept {
    tc_free(p);
}
TARE_NATIVE_EXPORT void tc_deletearray_aligned(void* p, std::align_val_t /*align*/) noexcept {
    tc_free(p);
}
TARE_NATIVE_EXPORT void tc_delete_sized_aligned(void* p, std::size_t /*size*/,
                                                std::align_val_t /*align*/) noexcept {
    tc_free(p);
}
TARE_NATIVE_EXPORT void tc_deletearray_sized_aligned(void* p, std::size_t /*size*/,
                                                     std::align_val_t /*align*/) noexcept {
    tc_free(p);
}
TARE_NATIVE_EXPORT void tc_delete_aligned_nothrow(void* p, std::align_val_t /*align*/,
                                                  const std::nothrow_t& /*tag*/) noexcept {
    tc_free(p);
}
TARE_NATIVE_EXPORT void tc_deletearray_aligned_nothrow(void* p, std::align_val_t /*align*/,
                                                       const std::nothrow_t& /*tag*/) noexcept {
    tc_free(p);
}
TARE_NATIVE_EXPORT void* tc_new(std::size_t size) {
    return tad::alloc_via<tad::throwing_size_fn>(tad::tc_new_, tad::tc_usable, size, size);
}
TARE_NATIVE_EXPORT void* tc_newarray(std::size_t size) {
    return tc_new(size);
}
TARE_NATIVE_EXPORT void* tc_new_nothrow(std::size_t size, const std::nothrow_t& tag) noexcept {
    return tad::alloc_via<void* (*)(std::size_t, const std::nothrow_t&) noexcept>(
        tad::tc_new_nothrow_, tad::tc_usable, size, size, tag);
}
TARE_NATIVE_EXPORT void* tc_newarray_nothrow(std::size_t size, const std::nothrow_t& tag) noexcept {
    return tc_new_nothrow(size, tag);
}
TARE_NATIVE_EXPORT void* tc_new_aligned(std::size_t size, std::align_val_t align) {
    return tad::alloc_via<void* (*)(std::size_t, std::align_val_t)>(tad::tc_new_aligned_, tad::tc_usable,
                                                                    size, size, align);
}
TARE_NATIVE_EXPORT void* tc_newarray_aligned(std::size_t size, std::align_val_t align) {
    return tc_new_aligned(size, align);
}
TARE_NATIVE_EXPORT void* tc_new_aligned_nothrow(std::size_t size, std::align_val_t align,
                                                const std::nothrow_t& tag) noexcept {
    return tad::alloc_via<void* (*)(std::size_t, std::align_val_t, const std::nothrow_t&) noexcept>(
        tad::tc_new_aligned_nothrow_, tad::tc_usable, size, size, align, tag);
}
TARE_NATIVE_EXPORT void* tc_newarray_aligned_nothrow(std::size_t size, std::align_val_t align,
                                                     const std::nothrow_t& tag) noexcept {
    return tc_new_aligned_nothrow(size, align, tag);
}

// The definitions above that mark an allocator's presence, under names that never leave this
// module: static_allocator_symbol() tells them from an allocator's own definitions linked
// into the executable, and allocator_in_use() whether the process's calls reach them.
void* tare_alloc_own_mallocx(std::size_t, int) noexcept
    __attribute__((alias("mallocx"), visibility("hidden")));
void* tare_alloc_own_mi_malloc(std::size_t) noexcept
    __attribute__((alias("mi_malloc"), visibility("hidden")));
void* tare_alloc_own_tc_malloc(std::size_t) noexcept
    __attribute__((alias("tc_malloc"), visibility("hidden")));

}  // extern "C"
