#pragma once
// Private to src/alloc: the allocator underneath the interposer, i.e. the definitions the
// program would have called without tare: a linked or LD_PRELOADed jemalloc, tcmalloc or
// mimalloc, or glibc's (docs/accounting.md, "The allocator underneath").
//
// The table below starts out pointing at bootstrap functions (underlying.cpp) that resolve
// the real ones with dlsym(RTLD_NEXT, ...) on first use, then call through the table. A
// constructor resolves it before main() as well; a call made before constructors run (the
// dynamic linker's, another library's constructor) resolves it then. So the hot path is one
// load of a function pointer and an indirect call, as a call through the GOT is, with no
// "resolved yet?" test.
//
// Rejected: calling glibc's exported __libc_malloc family (what the interposer did first).
// jemalloc does not export those names, so a jemalloc program ran on glibc under tare; and
// tcmalloc and mimalloc export them only as aliases of their own malloc, which is luck.
//
// The GCC ThreadSanitizer build keeps TSan's __interceptor_* family, called directly: its
// blocks must come from TSan's allocator so that TSan sees them allocated and freed, and no
// lookup is needed.

#include <cstddef>
#include <cstdint>
#include <new>

#include "alloc/tally.hpp"

namespace tare::alloc::detail {

using malloc_fn = void* (*)(std::size_t) noexcept;
using free_fn = void (*)(void*) noexcept;
using calloc_fn = void* (*)(std::size_t, std::size_t) noexcept;
using realloc_fn = void* (*)(void*, std::size_t) noexcept;
using memalign_fn = void* (*)(std::size_t, std::size_t) noexcept;
using usable_fn = std::size_t (*)(void*) noexcept;

/// The allocator's entry points, all from one module. Each pointer is written with a relaxed
/// atomic store by resolve() (possibly by several threads at once, all storing the same
/// values) and read with a plain load: a pointer-sized aligned load is atomic on every target
/// the interposer builds for, and a stale bootstrap pointer only resolves again.
struct underlying_table {
    malloc_fn malloc;
    free_fn free;
    calloc_fn calloc;
    realloc_fn realloc;
    memalign_fn memalign;
    usable_fn usable_size;
};

/// Defined in underlying.cpp, constant-initialised to the bootstrap functions.
extern constinit underlying_table underlying TARE_ALLOC_HIDDEN;

using sized_free_fn = void (*)(void*, std::size_t) noexcept;
using sized_aligned_free_fn = void (*)(void*, std::size_t, std::align_val_t) noexcept;

/// The sized forms of operator delete the program would have called without tare, when they
/// are the allocator's own: defined by the module that defines the malloc underneath (jemalloc's
/// go to its sdallocx, tcmalloc's to its sized free, mimalloc's to mi_free). Null where they are
/// not (on glibc the next definition is libstdc++'s, which calls free: free is then what tare
/// calls, the same thing without the detour). Written by resolve() as the table is.
///
/// Why forward them rather than call free, as every other delete does: a sized free takes
/// another path through the allocator (without tare, on Debian's jemalloc 5.3, new(32) and a
/// sized delete took 5.8-7.0 ns where malloc(32) and free took 4.6-5.1; bench/README.md, "Sized
/// deletes, as the program ships"), so freeing them with free made the program
/// under tare faster than the one shipped.
struct sized_delete_table {
    sized_free_fn single;                  ///< operator delete(void*, size_t): _ZdlPvm
    sized_free_fn array;                   ///< operator delete[](void*, size_t): _ZdaPvm
    sized_aligned_free_fn single_aligned;  ///< operator delete(void*, size_t, align_val_t)
    sized_aligned_free_fn array_aligned;   ///< operator delete[](void*, size_t, align_val_t)
};

/// Defined in underlying.cpp, all null until resolve() finds the allocator's own.
extern constinit sized_delete_table sized_delete TARE_ALLOC_HIDDEN;

/// True once resolve() has found glibc's allocator underneath (not under valgrind): a block's
/// usable size is then read from its chunk here, inline, rather than by a call through the
/// table. The hook asks it twice a pair, and the call alone cost 3-4 ns a pair.
extern constinit bool usable_in_chunk TARE_ALLOC_HIDDEN;

/// glibc's usable size of one of its blocks, read from the chunk's size word as its own
/// musable() does (malloc/malloc.c): the chunk size less one size word, or two for an
/// mmapped chunk (flag bit 1).
TARE_ALLOC_HOOK inline std::size_t glibc_chunk_usable(const void* p) noexcept {
    std::size_t word = 0;
    __builtin_memcpy(&word, static_cast<const unsigned char*>(p) - sizeof word, sizeof word);
    // A heap chunk (at least 32 bytes) less one word; an mmapped one (flag bit 1, at least a
    // page) less two: (word & 2) << 2 is 8 for it, 0 otherwise. No branch, no compare.
    const std::size_t chunk = word & ~std::size_t{7};
    return chunk - sizeof word - ((word & 2U) << 2);
}

/// The static buffer that serves the allocations dlsym makes while resolve() runs on this
/// thread (they never reach the real allocator, and their frees are ignored).
inline constexpr std::size_t bootstrap_capacity = 16 * 1024;
extern unsigned char bootstrap_arena[bootstrap_capacity] TARE_ALLOC_HIDDEN;

/// True for a pointer the bootstrap buffer handed out: one subtraction and one compare.
TARE_ALLOC_HOOK inline bool from_bootstrap(const void* p) noexcept {
    return reinterpret_cast<std::uintptr_t>(p) - reinterpret_cast<std::uintptr_t>(bootstrap_arena) <
           bootstrap_capacity;
}

/// The bytes a bootstrap block holds (for realloc and malloc_usable_size).
std::size_t bootstrap_size(const void* p) noexcept;

/// What resolve() found.
enum class underlying_kind : unsigned char {
    unresolved,
    next,      ///< the next definition after the executable (a shared allocator or glibc)
    fallback,  ///< glibc's __libc_* (the next definitions were missing or incomplete)
};

/// Resolves the table if nothing has yet (the constructors' order between files is not fixed).
void resolve_underlying() noexcept TARE_ALLOC_HIDDEN;

/// The next definition of `name` after the executable (dlsym(RTLD_NEXT)), looked up as resolve()
/// looks up the malloc family: the allocations dlsym makes meanwhile are served from the
/// bootstrap buffer while the family is unresolved. nullptr when no module defines it.
void* next_definition(const char* name) noexcept TARE_ALLOC_HIDDEN;

/// True on a thread while tare forwards a call to an allocator's own API or an aligned allocation
/// to the allocator underneath: a call the allocator then makes of another of its entry points
/// through its PLT (tcmalloc's tc_posix_memalign calls tc_memalign, mimalloc's memalign calls
/// mi_malloc_aligned) reaches interpose_native.cpp's forwarder, which then passes it through
/// uncounted: the outer call counts the block, once.
extern constinit thread_local bool forwarding TARE_ALLOC_TLS;

/// The next definition of the allocator's own entry point `name` (mallocx, mi_malloc,
/// tc_malloc...) that interpose_native.cpp forwards to, or nullptr when none is in the process.
const void* native_definition(const char* name) noexcept TARE_ALLOC_HIDDEN;

/// Defined in interpose_mmap.cpp; check_interposer() reads it to link that file.
extern const bool mapping_hooks_anchor TARE_ALLOC_HIDDEN;

/// True when the allocator's own entry point `name` (mallocx, mi_malloc, tc_malloc...) has a
/// definition after the executable that interpose_native.cpp forwards to.
bool native_api_counted(const char* name) noexcept;

/// An allocator's own entry point defined inside the executable itself (an archive or object
/// linked statically), or nullptr: its name. May allocate; not for the hook.
const char* static_allocator_symbol() noexcept;

}  // namespace tare::alloc::detail

#if defined(__SANITIZE_THREAD__)
extern "C" {
void* __interceptor_malloc(std::size_t size) noexcept;
void* __interceptor_calloc(std::size_t count, std::size_t size) noexcept;
void* __interceptor_realloc(void* p, std::size_t size) noexcept;
void __interceptor_free(void* p) noexcept;
void* __interceptor_memalign(std::size_t align, std::size_t size) noexcept;
std::size_t __interceptor_malloc_usable_size(void* p) noexcept;
}
#define TARE_ALLOC_UNDER(name, fallback) __interceptor_##name
#else
#define TARE_ALLOC_UNDER(name, field) ::tare::alloc::detail::underlying.field
#endif

namespace tare::alloc::detail {

// The allocator underneath, as the hook calls it.
TARE_ALLOC_HOOK inline void* under_malloc(std::size_t n) noexcept {
    return TARE_ALLOC_UNDER(malloc, malloc)(n);
}
TARE_ALLOC_HOOK inline void* under_calloc(std::size_t count, std::size_t n) noexcept {
    return TARE_ALLOC_UNDER(calloc, calloc)(count, n);
}
TARE_ALLOC_HOOK inline void* under_realloc(void* p, std::size_t n) noexcept {
    return TARE_ALLOC_UNDER(realloc, realloc)(p, n);
}
TARE_ALLOC_HOOK inline void under_free(void* p) noexcept {
    TARE_ALLOC_UNDER(free, free)(p);
}
TARE_ALLOC_HOOK inline void* under_memalign(std::size_t align, std::size_t n) noexcept {
    return TARE_ALLOC_UNDER(memalign, memalign)(align, n);
}
/// True when under_usable_size() is an inline read of the block's chunk, no call.
TARE_ALLOC_HOOK inline bool usable_read_inline() noexcept {
#if defined(__SANITIZE_THREAD__)
    return false;
#else
    return __atomic_load_n(&usable_in_chunk, order_relaxed);
#endif
}

/// The usable size of a non-null block when usable_read_inline() holds.
TARE_ALLOC_HOOK inline std::size_t inline_usable(const void* p) noexcept {
    return glibc_chunk_usable(p);
}

/// The usable size of a non-null block the allocator underneath gave.
TARE_ALLOC_HOOK inline std::size_t under_usable_size(void* p) noexcept {
#if !defined(__SANITIZE_THREAD__)
    if (__atomic_load_n(&usable_in_chunk, order_relaxed)) [[likely]]
        return glibc_chunk_usable(p);
#endif
    return TARE_ALLOC_UNDER(malloc_usable_size, usable_size)(p);
}

}  // namespace tare::alloc::detail
