// Direct mappings (docs/accounting.md, "Direct mappings"): an anonymous mapping the program makes
// while a region counts adds its length, in whole pages, to the region's mapped bytes; mremap
// adds what it grows. Not counted: file mappings, PROT_NONE reservations (no memory yet),
// unmapping (mapped bytes are a volume, as bytes requested are), and the mappings an allocator
// makes for its own heap, told by the caller's address inside the allocator's code (glibc's
// malloc maps through an internal call that never reaches here; jemalloc and mimalloc call
// mmap). Not in the TSan build, whose runtime intercepts mmap itself.
//
// Rejected: counting every anonymous mapping and subtracting the allocator's heap growth
// (which no allocator reports per call), and a thread-local flag set around every forwarded
// malloc (a store and a clear on the hottest path, for a call that is rare).
//
// SAFETY: as interpose_glibc.cpp. Until the lookups before main() the hooks make the system
// call themselves, so that an allocator mapping its heap in its own constructor never reaches
// dlsym (which may call malloc, which is that allocator, mid-initialisation).

#include <link.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdarg>
#include <cstddef>
#include <cstdint>

#include "alloc/tally.hpp"
#include "alloc/underlying.hpp"

#define TARE_MAPPING_EXPORT __attribute__((weak, visibility("default"))) TARE_ALLOC_HOOK

namespace tare::alloc::detail {
/// Referenced by check_interposer(), so that this file's object is linked whenever the
/// interposer's is (an archive member is linked only when it resolves a name).
constinit const bool mapping_hooks_anchor = true;
}  // namespace tare::alloc::detail

#if !defined(__SANITIZE_THREAD__)

namespace tare::alloc::detail {
namespace {

/// The executable code of a module: a mapping made from inside it is the allocator's own heap.
struct code_range {
    std::uintptr_t lo = 0;
    std::uintptr_t hi = 0;
};

/// The code of the allocator underneath and of each allocator whose own API is present. Written
/// before main(), read by the mapping hooks.
constinit code_range allocator_code[4];

TARE_ALLOC_HOOK bool from_allocator(const void* caller) noexcept {
    const auto at = reinterpret_cast<std::uintptr_t>(caller);
    for (const code_range& r : allocator_code) {
        if (at - r.lo < r.hi - r.lo)
            return true;
    }
    return false;
}

/// dl_iterate_phdr's callback: the executable segment of the module holding each wanted address.
struct code_search {
    const void* wanted[4];
    code_range* found;
};

int find_code(dl_phdr_info* info, std::size_t /*size*/, void* data) noexcept {
    auto* search = static_cast<code_search*>(data);
    for (int h = 0; h < info->dlpi_phnum; ++h) {
        const ElfW(Phdr)& ph = info->dlpi_phdr[h];
        if (ph.p_type != PT_LOAD || (ph.p_flags & PF_X) == 0)
            continue;
        const std::uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
        const std::uintptr_t hi = lo + ph.p_memsz;
        for (int i = 0; i < 4; ++i) {
            const auto at = reinterpret_cast<std::uintptr_t>(search->wanted[i]);
            if (at >= lo && at < hi)
                search->found[i] = {lo, hi};
        }
    }
    return 0;
}

/// Fills allocator_code: the modules of malloc underneath and of mallocx, mi_malloc and tc_malloc.
void find_allocator_code() noexcept {
    resolve_underlying();
    code_search search{{reinterpret_cast<const void*>(underlying.malloc), native_definition("mallocx"),
                        native_definition("mi_malloc"), native_definition("tc_malloc")},
                       allocator_code};
    dl_iterate_phdr(find_code, &search);
}

/// The definitions of mmap, mmap64 and mremap after the executable (glibc's, or an LD_PRELOADed
/// tool's): looked up before main(); until then the hooks make the system call themselves, so
/// that an allocator mapping its heap in its own constructor never reaches a lookup.
constinit void* next_mmap = nullptr;
constinit void* next_mmap64 = nullptr;
constinit void* next_mremap = nullptr;

/// Before main(): the allocators' code, and the next definitions.
__attribute__((constructor(101))) void look_up_before_main() noexcept {
    find_allocator_code();
    __atomic_store_n(&next_mmap, next_definition("mmap"), order_relaxed);
    __atomic_store_n(&next_mmap64, next_definition("mmap64"), order_relaxed);
    __atomic_store_n(&next_mremap, next_definition("mremap"), order_relaxed);
    __atomic_store_n(&mapping_hooks_linked, true, order_relaxed);
}

/// Counts a mapping of `length` bytes that `caller` made, if it is the program's.
TARE_ALLOC_HOOK void count_mapping(std::size_t length, const void* caller) noexcept {
    if (__atomic_load_n(&state.flags.counting_epoch, order_relaxed) == 0) [[likely]]
        return;
    if (from_allocator(caller))
        return;
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    count_mapped((length + page - 1) & ~(page - 1));
}

using mmap_fn = void* (*)(void*, std::size_t, int, int, int, off_t) noexcept;

TARE_ALLOC_HOOK void* map(void* next, void* addr, std::size_t length, int prot, int flags, int fd,
                          off_t offset, const void* caller) noexcept {
    void* p = next != nullptr
                  ? reinterpret_cast<mmap_fn>(next)(addr, length, prot, flags, fd, offset)
                  : reinterpret_cast<void*>(::syscall(SYS_mmap, addr, length, prot, flags, fd, offset));
    if (p != MAP_FAILED && (flags & MAP_ANONYMOUS) != 0 && prot != PROT_NONE)
        count_mapping(length, caller);
    return p;
}

}  // namespace
}  // namespace tare::alloc::detail

namespace tad = tare::alloc::detail;

extern "C" {

TARE_MAPPING_EXPORT void* mmap(void* addr, std::size_t length, int prot, int flags, int fd,
                               off_t offset) noexcept {
    return tad::map(__atomic_load_n(&tad::next_mmap, tad::order_relaxed), addr, length, prot, flags, fd,
                    offset, __builtin_return_address(0));
}

TARE_MAPPING_EXPORT void* mmap64(void* addr, std::size_t length, int prot, int flags, int fd,
                                 off_t offset) noexcept {
    return tad::map(__atomic_load_n(&tad::next_mmap64, tad::order_relaxed), addr, length, prot, flags, fd,
                    offset, __builtin_return_address(0));
}

TARE_MAPPING_EXPORT void* mremap(void* old, std::size_t old_size, std::size_t new_size, int flags,
                                 ...) noexcept {
    void* target = nullptr;
    if ((flags & MREMAP_FIXED) != 0) {
        std::va_list args;
        va_start(args, flags);
        target = va_arg(args, void*);
        va_end(args);
    }
    using mremap_fn = void* (*)(void*, std::size_t, std::size_t, int, ...) noexcept;
    const auto next = reinterpret_cast<mremap_fn>(__atomic_load_n(&tad::next_mremap, tad::order_relaxed));
    void* p = next != nullptr
                  ? next(old, old_size, new_size, flags, target)
                  : reinterpret_cast<void*>(::syscall(SYS_mremap, old, old_size, new_size, flags, target));
    if (p != MAP_FAILED && new_size > old_size)
        tad::count_mapping(new_size - old_size, __builtin_return_address(0));
    return p;
}

}  // extern "C"

#endif
