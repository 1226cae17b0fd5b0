// The allocation interposer. It defines the whole malloc family and every replaceable
// operator new/delete in the executable, which the dynamic linker then prefers to any shared
// library's, and forwards to the allocator the program would have called without it: the
// next definition of malloc, free, calloc and realloc after the executable (a linked or
// preloaded jemalloc, tcmalloc or mimalloc, or glibc; underlying.hpp), or TSan's allocator in
// a GCC TSan build. Around each block
// it keeps a 16-byte header with the size the caller asked for, so that a free knows how many
// requested bytes leave the live heap (docs/accounting.md, "The header").
//
// Block layout:
//   plain (malloc, calloc, realloc, new, alignment <= 16):
//       base = under_malloc(n + 16)  [header][n bytes...]       user = base + 16
//   aligned (alignment > 16):
//       base = under_malloc(n + align + 16)
//       [slack...][offset: u64][header][n bytes...][slack]        user = base + offset,
//       user % align == 0, offset = user - base in [24, align + 16].
//   header = { u64 size requested, u32 epoch (0: not counted), u32 magic }.
//
// Rejected: the allocator's memalign for the aligned forms. The header needs room before the user
// pointer, so memalign(align, n + align) would waste the same `align` bytes as rounding up
// inside a plain block does, and one primitive fewer underneath is one forwarder fewer to
// swap when the allocator underneath changes (the TSan build below).
//
// SAFETY: every entry point here allocates nothing of its own, takes no lock, and throws
// nothing (except operator new's std::bad_alloc, after the new_handler loop, as the standard
// requires). Its state is constant-initialised globals and one initial-exec thread_local
// (a fixed offset from the thread pointer: no __tls_get_addr, which may call malloc, and no
// init guard), so it works before main(), in the dynamic linker's own calls, while a thread
// is being created, during TLS destructors and thread exit (the static TLS block outlives
// every call the thread makes), and in the child after fork() (no lock can be held by a
// thread that no longer exists; glibc makes its own arenas fork-safe). It reads the 16 bytes
// before every non-null pointer it is given; release() says what happens to pointers that did
// not come from here.
//
// PERF: malloc(32)+free with counting on, on the region's owner: 11.0-11.8 ns against
// 9.3-9.8 ns for the same loop calling __libc_malloc/__libc_free, i.e. +1.5-1.9 ns, 1.16-1.19x
// (a bare forwarder alone costs +0.75-1.1 ns, 1.08-1.11x). Paused: +1.0-1.4 ns. On another
// thread: +25 ns (four uncontended lock-prefixed RMWs per pair). Min and median of 201
// rounds, g++ 12 -O2, dev VM; docs/accounting.md, "Cost", has the method. Measured when the
// calls underneath went to __libc_malloc through the GOT; the table of underlying.hpp is the
// same load and indirect call, not measured again.

#include <dlfcn.h>
#include <malloc.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <new>

#include "alloc/tally.hpp"
#include "alloc/underlying.hpp"

// The interposed names must be in the dynamic symbol table even if the build hides symbols
// by default (-fvisibility=hidden): a hidden malloc would leave glibc's internal calls
// (strdup, getline, fopen...) on glibc's allocator, and glibc would then free() a pointer 16
// bytes inside one of its blocks.
#define TARE_ALLOC_EXPORT __attribute__((visibility("default"))) TARE_ALLOC_HOOK

namespace tare::alloc::detail {
namespace {

struct block_header {
    std::uint64_t size;   // bytes the caller requested
    std::uint32_t epoch;  // region epoch when counted, 0 when not
    std::uint32_t magic;  // plain_magic or aligned_magic
};
constexpr std::size_t header_size = sizeof(block_header);
static_assert(header_size == 16, "the header keeps malloc's 16-byte alignment");
constexpr std::size_t offset_size = sizeof(std::uint64_t);

// On little-endian targets the magic is the upper half of the 8 bytes just before the user
// pointer. For a block that glibc handed out directly (a "foreign" pointer) those 8 bytes are
// glibc's chunk-size word, whose upper half is 0 below 4 GiB and could equal these values
// only for a chunk of more than 2^62 bytes: a foreign glibc pointer never passes for ours.
constexpr std::uint32_t plain_magic = 0x7a4e5a01U;
constexpr std::uint32_t aligned_magic = 0x7a4e5a02U;

// glibc's MALLOC_ALIGNMENT on every 64-bit target (and i386 since 2.26).
constexpr std::size_t base_align = 16;
static_assert(alignof(std::max_align_t) <= base_align);
// Larger requests fail with ENOMEM before reaching glibc (which refuses anything over
// PTRDIFF_MAX anyway); the margin keeps size + alignment + header from wrapping.
constexpr std::size_t max_request = PTRDIFF_MAX / 2;

TARE_ALLOC_HOOK constexpr bool is_power_of_two(std::size_t x) noexcept {
    return x != 0 && (x & (x - 1)) == 0;
}

TARE_ALLOC_HOOK void* fail(int error) noexcept {
    errno = error;
    return nullptr;
}

TARE_ALLOC_HOOK unsigned char* bytes_of(void* p) noexcept {
    return static_cast<unsigned char*>(p);
}

TARE_ALLOC_HOOK block_header header_of(void* user) noexcept {
    block_header h;
    __builtin_memcpy(&h, bytes_of(user) - header_size, header_size);
    return h;
}

TARE_ALLOC_HOOK bool ours(const block_header& h) noexcept {
    return h.magic == plain_magic || h.magic == aligned_magic;
}

/// Writes the header of a block that has just been obtained, counting it. Inlined into every
/// allocation function: its rare call (record_site) would otherwise make it a function of its
/// own, one more jump and an argument shuffle on every allocation (measured: +1.7 ns a pair).
TARE_ALLOC_HOOK [[gnu::always_inline]] inline void* publish(void* base, std::size_t offset,
                                                            std::size_t counted,
                                                            std::uint32_t magic) noexcept {
    unsigned char* user = bytes_of(base) + offset;
    const block_header h{counted, count_alloc(counted), magic};
    __builtin_memcpy(user - header_size, &h, header_size);
    if (recorded_tag(h.epoch)) [[unlikely]]
        return record_site(user, counted, h.epoch);  // a diagnostic pass (--alloc-sites); a tail call
    return user;
}

/// The address glibc returned for one of our blocks.
TARE_ALLOC_HOOK void* base_of(void* user, const block_header& h) noexcept {
    if (h.magic == plain_magic)
        return bytes_of(user) - header_size;
    std::uint64_t offset = 0;
    __builtin_memcpy(&offset, bytes_of(user) - header_size - offset_size, offset_size);
    return bytes_of(user) - offset;
}

TARE_ALLOC_HOOK void* allocate(std::size_t n) noexcept {
    if (n > max_request)
        return fail(ENOMEM);
    void* base = under_malloc(n + header_size);
    if (base == nullptr)
        return nullptr;  // glibc has set errno
    return publish(base, header_size, n, plain_magic);
}

/// `align` must be a power of two. Allocates `n` bytes and counts `counted` (they differ for
/// pvalloc only).
TARE_ALLOC_HOOK void* allocate_aligned(std::size_t align, std::size_t n, std::size_t counted) noexcept {
    if (align <= base_align)
        return allocate(n);
    if (n > max_request || align > max_request)
        return fail(ENOMEM);
    unsigned char* base = bytes_of(under_malloc(n + align + header_size));
    if (base == nullptr)
        return nullptr;
    // base is 16-aligned and align a multiple of 16, so rounding base + 24 up to `align`
    // moves at most align - 8 further: offset <= align + 16, and n bytes still fit.
    const auto at = reinterpret_cast<std::uintptr_t>(base) + header_size + offset_size;
    const std::uint64_t offset =
        ((at + (align - 1)) & ~std::uintptr_t{align - 1}) - reinterpret_cast<std::uintptr_t>(base);
    __builtin_memcpy(base + offset - header_size - offset_size, &offset, offset_size);
    return publish(base, offset, counted, aligned_magic);
}

TARE_ALLOC_HOOK void* allocate_zeroed(std::size_t count, std::size_t size) noexcept {
    std::size_t n = 0;
    if (__builtin_mul_overflow(count, size, &n) || n > max_request)
        return fail(ENOMEM);
    void* base = under_calloc(1, n + header_size);
    if (base == nullptr)
        return nullptr;
    return publish(base, header_size, n, plain_magic);
}

/// The end of release() for a block a sites region recorded: reached by a tail call, so the
/// hot path keeps no frame for it.
[[gnu::cold, gnu::noinline]] TARE_ALLOC_HOOK void release_recorded(void* p, void* base,
                                                                   std::uint32_t tag) noexcept {
    record_free(p, tag);
    under_free(base);
}

// Inlined into free and every delete: one call level less on the hottest path.
TARE_ALLOC_HOOK [[gnu::always_inline]] inline void release(void* p) noexcept {
    if (p == nullptr)
        return;
    const block_header h = header_of(p);
    if (!ours(h)) {
        // A foreign pointer: allocated by a path that bypassed this file (a direct
        // __libc_malloc call, an allocator's own API such as mallocx). The allocator
        // underneath takes it back as it is; it never was in any count. A block of the
        // bootstrap buffer (dlsym's, underlying.cpp) is never freed.
        if (!from_bootstrap(p))
            under_free(p);
        return;
    }
    count_free(h.epoch, h.size);
    if (recorded_tag(h.epoch)) [[unlikely]]
        return release_recorded(p, base_of(p, h), h.epoch);
    under_free(base_of(p, h));
}

/// realloc(p, n), p != nullptr, n > 0: one allocation of n bytes, and p's bytes released.
TARE_ALLOC_HOOK void* reallocate(void* p, std::size_t n) noexcept {
    const block_header h = header_of(p);
    if (!ours(h)) {
        if (!from_bootstrap(p))
            return under_realloc(p, n);  // foreign: stays the allocator's, uncounted
        void* q = under_malloc(n);       // out of the bootstrap buffer, which is never freed
        if (q != nullptr)
            __builtin_memcpy(q, p, bootstrap_size(p) < n ? bootstrap_size(p) : n);
        return q;
    }
    if (n > max_request)
        return fail(ENOMEM);
    if (h.magic == plain_magic) {
        void* base = under_realloc(base_of(p, h), n + header_size);
        if (base == nullptr)
            return nullptr;  // p untouched, nothing counted
        // Release first, then count: the peak sees the net change, as an in-place resize has.
        count_free(h.epoch, h.size);
        if (recorded_tag(h.epoch)) [[unlikely]]
            record_free(p, h.epoch);
        return publish(base, header_size, n, plain_magic);
    }
    // An aligned block: realloc promises only malloc's alignment, so the new block is a plain
    // one and the bytes are copied (glibc's realloc of a memalign'd block does the same).
    void* base = under_malloc(n + header_size);
    if (base == nullptr)
        return nullptr;
    __builtin_memcpy(bytes_of(base) + header_size, p, h.size < n ? h.size : n);
    count_free(h.epoch, h.size);
    if (recorded_tag(h.epoch)) [[unlikely]]
        record_free(p, h.epoch);
    under_free(base_of(p, h));
    return publish(base, header_size, n, plain_magic);
}

TARE_ALLOC_HOOK std::size_t page_size() noexcept {
    return static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

// operator new: the new_handler loop of [new.delete.single]/4. The allocation itself is the
// internal path, so a new is counted once, with the size asked for (never the alignment).
TARE_ALLOC_HOOK void* new_or_throw(std::size_t n, std::size_t align) {
    for (;;) {
        void* p = is_power_of_two(align) ? allocate_aligned(align, n, n) : nullptr;
        if (p != nullptr)
            return p;
        const std::new_handler handler = std::get_new_handler();
        if (handler == nullptr || !is_power_of_two(align))
            throw std::bad_alloc();
        handler();
    }
}

TARE_ALLOC_HOOK void* new_or_null(std::size_t n, std::size_t align) noexcept {
    for (;;) {
        void* p = is_power_of_two(align) ? allocate_aligned(align, n, n) : nullptr;
        if (p != nullptr)
            return p;
        const std::new_handler handler = std::get_new_handler();
        if (handler == nullptr || !is_power_of_two(align))
            return nullptr;
        try {
            handler();
        } catch (const std::bad_alloc&) {
            return nullptr;
        }
    }
}

constexpr std::size_t plain_align = base_align;
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

// glibc's memalign: an alignment above SIZE_MAX/2 + 1 is EINVAL; one that is not a power of
// two is rounded up to the next.
TARE_ALLOC_EXPORT void* memalign(std::size_t align, std::size_t size) noexcept {
    if (align > SIZE_MAX / 2 + 1)
        return tad::fail(EINVAL);
    if (align <= tad::plain_align)
        return tad::allocate(size);
    if (!tad::is_power_of_two(align))
        align = std::size_t{1} << (64 - __builtin_clzll(align));
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

// The size the caller asked for: all it may rely on, and what the accounting calls live.
TARE_ALLOC_EXPORT std::size_t malloc_usable_size(void* p) noexcept {
    if (p == nullptr)
        return 0;
    const tad::block_header h = tad::header_of(p);
    if (tad::ours(h))
        return static_cast<std::size_t>(h.size);
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

// Every delete reads the header, which knows the block's size and alignment better than the
// arguments (a sized delete's size is the type's, not necessarily what was counted).
TARE_ALLOC_EXPORT void operator delete(void* p) noexcept {
    tad::release(p);
}
TARE_ALLOC_EXPORT void operator delete[](void* p) noexcept {
    tad::release(p);
}
TARE_ALLOC_EXPORT void operator delete(void* p, std::size_t) noexcept {
    tad::release(p);
}
TARE_ALLOC_EXPORT void operator delete[](void* p, std::size_t) noexcept {
    tad::release(p);
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
TARE_ALLOC_EXPORT void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
    tad::release(p);
}
TARE_ALLOC_EXPORT void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
    tad::release(p);
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
