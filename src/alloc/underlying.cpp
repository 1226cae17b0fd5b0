// Finds the allocator underneath the interposer (underlying.hpp): the definitions of the
// malloc family that the program would have called without tare.
//
// How. dlsym(RTLD_NEXT, name), called from this module (part of the executable), returns the
// first definition after the executable in the dynamic linker's search order: an
// LD_PRELOADed allocator, then the shared libraries in link order (a -ljemalloc before libc),
// then glibc. All six names must come from the module that defines malloc; if one is missing
// or elsewhere, the whole family falls back to glibc's __libc_* names rather than mixing two
// allocators (a block from one freed by the other is heap corruption).
//
// The allocations of the lookup itself. glibc's dlsym may call malloc or calloc (dlerror's
// state, when a name is missing), and those calls reach this interposer while its table still
// points at the bootstrap functions: a thread-local flag says "this thread is resolving", and
// the bootstrap functions then serve the call from a static buffer, never from an allocator.
// Those blocks are never given to the real allocator: free() ignores them, realloc() copies
// out of them (from_bootstrap(), one compare on the free path).
//
// Threads. Resolution happens in a constructor before main(), or on the first allocation if
// one comes earlier (the dynamic linker's, another library's constructor), when the process
// normally has one thread. If several threads do meet an unresolved table, each resolves on
// its own: dlsym is thread-safe, every thread finds the same definitions, and each pointer is
// stored atomically, so the race is benign and no lock or spin is needed. Rejected: a
// once-flag with a spin-wait, which is a lock by another name (a thread preempted inside dlsym
// would stall every allocating thread) and buys nothing since the stores are idempotent.
//
// SAFETY: allocates nothing from any allocator (the bootstrap buffer is static), takes no lock
// of its own (dlsym takes the dynamic linker's recursive lock, which is what every lazy
// binding does), throws nothing. The thread-local flag is initial-exec, as tally.hpp's.

#include "alloc/underlying.hpp"

#include <dlfcn.h>
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <string>

extern "C" {
void* __libc_malloc(std::size_t size) noexcept;
void* __libc_calloc(std::size_t count, std::size_t size) noexcept;
void* __libc_realloc(void* p, std::size_t size) noexcept;
void __libc_free(void* p) noexcept;
void* __libc_memalign(std::size_t align, std::size_t size) noexcept;
}

namespace tare::alloc::detail {
namespace {

TARE_ALLOC_HOOK void* bootstrap_malloc(std::size_t n) noexcept;
TARE_ALLOC_HOOK void bootstrap_free(void* p) noexcept;
TARE_ALLOC_HOOK void* bootstrap_calloc(std::size_t count, std::size_t n) noexcept;
TARE_ALLOC_HOOK void* bootstrap_realloc(void* p, std::size_t n) noexcept;
TARE_ALLOC_HOOK void* bootstrap_memalign(std::size_t align, std::size_t n) noexcept;
TARE_ALLOC_HOOK std::size_t bootstrap_usable_size(void* p) noexcept;

constinit thread_local bool resolving_here TARE_ALLOC_TLS = false;
constinit std::size_t bootstrap_used = 0;
constinit underlying_kind resolution = underlying_kind::unresolved;

/// The base address of the module that defines `f` (nullptr if none): dladdr, which allocates
/// nothing.
TARE_ALLOC_HOOK const void* module_base(const void* f) noexcept {
    Dl_info info{};
    return f != nullptr && dladdr(f, &info) != 0 ? info.dli_fbase : nullptr;
}

/// The path of the module that defines the malloc underneath (nullptr if unknown): what tells
/// jemalloc, mimalloc and tcmalloc apart.
[[maybe_unused]] const char* underlying_module() noexcept {
    Dl_info info{};
    const auto* const f = reinterpret_cast<const void*>(__atomic_load_n(&underlying.malloc, order_relaxed));
    return dladdr(f, &info) != 0 ? info.dli_fname : nullptr;
}

}  // namespace

constinit bool usable_in_chunk = false;
constinit sized_delete_table sized_delete = {nullptr, nullptr, nullptr, nullptr};
constinit thread_local bool forwarding = false;
constinit underlying_table underlying = {bootstrap_malloc,  bootstrap_free,     bootstrap_calloc,
                                         bootstrap_realloc, bootstrap_memalign, bootstrap_usable_size};
alignas(64) unsigned char bootstrap_arena[bootstrap_capacity];

namespace {

/// The fallback family's malloc_usable_size, since glibc exports no __libc_ name for it (and
/// malloc_usable_size itself is ours).
TARE_ALLOC_HOOK std::size_t glibc_usable_size(void* p) noexcept {
    return p == nullptr ? 0 : glibc_chunk_usable(p);
}

/// True when the process runs under valgrind (its client request, a few instructions that do
/// nothing natively); false when its header was not there at build time.
TARE_ALLOC_HOOK bool under_valgrind() noexcept {
#if __has_include(<valgrind/valgrind.h>)
    return RUNNING_ON_VALGRIND != 0;
#else
    return false;
#endif
}

constexpr underlying_table glibc_table = {__libc_malloc,  __libc_free,     __libc_calloc,
                                          __libc_realloc, __libc_memalign, glibc_usable_size};

// A bootstrap block: [size u64][pad][bytes], the size in the 8 bytes before the pointer.
constexpr std::size_t bootstrap_header = 16;

TARE_ALLOC_HOOK void* bootstrap_allocate(std::size_t n, std::size_t align) noexcept {
    if (align < bootstrap_header)
        align = bootstrap_header;
    if (n > bootstrap_capacity || align > 4096) {
        errno = ENOMEM;
        return nullptr;
    }
    const std::size_t need = n + align + bootstrap_header;
    const std::size_t at = __atomic_fetch_add(&bootstrap_used, need, order_relaxed);
    if (at + need > bootstrap_capacity) {
        errno = ENOMEM;
        return nullptr;
    }
    const auto base = reinterpret_cast<std::uintptr_t>(bootstrap_arena) + at + bootstrap_header;
    const std::uintptr_t user = (base + align - 1) & ~std::uintptr_t{align - 1};
    const std::uint64_t size = n;
    __builtin_memcpy(reinterpret_cast<unsigned char*>(user) - sizeof size, &size, sizeof size);
    return reinterpret_cast<void*>(user);
}

/// The next definition of `name` if the module `home` (the malloc underneath) defines it, else
/// nullptr. Called while resolving, so dlsym's own allocations come from the bootstrap buffer.
template <typename F>
TARE_ALLOC_HOOK F next_in(const void* home, const char* name) noexcept {
    void* const f = dlsym(RTLD_NEXT, name);
    return f != nullptr && module_base(f) == home ? reinterpret_cast<F>(f) : nullptr;
}

/// The allocator's own sized deletes (underlying.hpp), found while resolving the family from
/// `home`. The next definition is what the program calls without tare: where libstdc++'s comes
/// first (glibc underneath, or an allocator linked after it), it frees through free, and free is
/// what tare calls instead. Rejected: forwarding every new and delete to the allocator's own
/// definitions: some call the standard names through their PLT (Debian's jemalloc 5.3: its
/// unsized delete jumps to free, its aligned new calls aligned_alloc), which tare's definitions
/// would count a second time.
TARE_ALLOC_HOOK void resolve_sized_deletes(const void* home) noexcept {
    const sized_delete_table d = {
        next_in<sized_free_fn>(home, "_ZdlPvm"),
        next_in<sized_free_fn>(home, "_ZdaPvm"),
        next_in<sized_aligned_free_fn>(home, "_ZdlPvmSt11align_val_t"),
        next_in<sized_aligned_free_fn>(home, "_ZdaPvmSt11align_val_t"),
    };
    __atomic_store_n(&sized_delete.single, d.single, order_relaxed);
    __atomic_store_n(&sized_delete.array, d.array, order_relaxed);
    __atomic_store_n(&sized_delete.single_aligned, d.single_aligned, order_relaxed);
    __atomic_store_n(&sized_delete.array_aligned, d.array_aligned, order_relaxed);
}

/// Fills the table (see the file comment). Called by every bootstrap function on a thread
/// that is not resolving already, and by the constructor below.
TARE_ALLOC_HOOK void resolve() noexcept {
    resolving_here = true;
    underlying_table t = {
        reinterpret_cast<malloc_fn>(dlsym(RTLD_NEXT, "malloc")),
        reinterpret_cast<free_fn>(dlsym(RTLD_NEXT, "free")),
        reinterpret_cast<calloc_fn>(dlsym(RTLD_NEXT, "calloc")),
        reinterpret_cast<realloc_fn>(dlsym(RTLD_NEXT, "realloc")),
        reinterpret_cast<memalign_fn>(dlsym(RTLD_NEXT, "memalign")),
        reinterpret_cast<usable_fn>(dlsym(RTLD_NEXT, "malloc_usable_size")),
    };
    // One module for the whole family.
    const void* const home = module_base(reinterpret_cast<const void*>(t.malloc));
    const void* const fns[] = {reinterpret_cast<const void*>(t.free), reinterpret_cast<const void*>(t.calloc),
                               reinterpret_cast<const void*>(t.realloc),
                               reinterpret_cast<const void*>(t.memalign),
                               reinterpret_cast<const void*>(t.usable_size)};
    bool whole = home != nullptr;
    for (const void* f : fns)
        whole = whole && module_base(f) == home;
    if (!whole)
        t = glibc_table;
    // glibc's malloc_usable_size is the same chunk read, one call deeper. Its module is told by
    // a function no allocator defines (tcmalloc and mimalloc export __libc_malloc as well).
    // Not under valgrind, whose replacements of glibc's family make blocks of their own, with
    // no chunk header to read.
    if (whole && home == module_base(reinterpret_cast<const void*>(&::getpid)) && !under_valgrind())
        t.usable_size = glibc_usable_size;
    // Not under valgrind: one that replaces the module's malloc and its sized deletes (an
    // allocator named in --soname-synonyms) would see tare's new, which calls malloc, freed by its
    // own delete, and report a mismatch. Its Callgrind (--instrument's counted runs) replaces
    // nothing, but cannot be told from the tools that do: sized deletes are frees there.
    if (whole && !under_valgrind())
        resolve_sized_deletes(home);
    __atomic_store_n(&underlying.free, t.free, order_relaxed);
    __atomic_store_n(&underlying.calloc, t.calloc, order_relaxed);
    __atomic_store_n(&underlying.realloc, t.realloc, order_relaxed);
    __atomic_store_n(&underlying.memalign, t.memalign, order_relaxed);
    __atomic_store_n(&underlying.usable_size, t.usable_size, order_relaxed);
    __atomic_store_n(&usable_in_chunk, t.usable_size == glibc_usable_size && !under_valgrind(),
                     order_relaxed);
    __atomic_store_n(&underlying.malloc, t.malloc, order_relaxed);
    __atomic_store_n(&resolution, whole ? underlying_kind::next : underlying_kind::fallback, order_relaxed);
    resolving_here = false;
}

TARE_ALLOC_HOOK void* bootstrap_malloc(std::size_t n) noexcept {
    if (resolving_here)
        return bootstrap_allocate(n, bootstrap_header);
    resolve();
    return underlying.malloc(n);
}

TARE_ALLOC_HOOK void* bootstrap_calloc(std::size_t count, std::size_t n) noexcept {
    if (resolving_here) {
        std::size_t total = 0;
        if (__builtin_mul_overflow(count, n, &total)) {
            errno = ENOMEM;
            return nullptr;
        }
        return bootstrap_allocate(total, bootstrap_header);  // static storage: already zero
    }
    resolve();
    return underlying.calloc(count, n);
}

TARE_ALLOC_HOOK void* bootstrap_memalign(std::size_t align, std::size_t n) noexcept {
    if (resolving_here)
        return bootstrap_allocate(n, align);
    resolve();
    return underlying.memalign(align, n);
}

TARE_ALLOC_HOOK void bootstrap_free(void* p) noexcept {
    if (p == nullptr || from_bootstrap(p))
        return;
    if (resolving_here)
        return;  // the real free is not known yet on this thread: leaking is the safe choice
    resolve();
    underlying.free(p);
}

TARE_ALLOC_HOOK void* bootstrap_realloc(void* p, std::size_t n) noexcept {
    if (resolving_here) {
        void* q = bootstrap_allocate(n, bootstrap_header);
        if (q != nullptr && p != nullptr) {
            const std::size_t old = bootstrap_size(p);
            __builtin_memcpy(q, p, old < n ? old : n);
        }
        return q;
    }
    resolve();
    return underlying.realloc(p, n);
}

TARE_ALLOC_HOOK std::size_t bootstrap_usable_size(void* p) noexcept {
    if (p == nullptr || from_bootstrap(p))
        return p == nullptr ? 0 : bootstrap_size(p);
    if (resolving_here)
        return 0;
    resolve();
    return underlying.usable_size(p);
}

#if !defined(__SANITIZE_THREAD__)
// Before main(), and before the default-priority constructors of this executable.
__attribute__((constructor(101))) void resolve_before_main() noexcept {
    if (__atomic_load_n(&resolution, order_relaxed) == underlying_kind::unresolved)
        resolve();
}
#endif

// An allocator's own API, referenced weakly: a weak reference pulls no archive member and is
// null when nothing defines the name. Where it is defined tells whether that allocator was
// linked into the executable itself (see static_allocator_symbol()).
extern "C" {
__attribute__((weak)) int mallctl(const char*, void*, std::size_t*, void*, std::size_t);
__attribute__((weak)) int je_mallctl(const char*, void*, std::size_t*, void*, std::size_t);
__attribute__((weak)) void* mi_malloc(std::size_t);
__attribute__((weak)) void* tc_malloc(std::size_t);
// interpose_native.cpp's own (weak) definitions of the last two, and of mallocx.
void* tare_alloc_own_mallocx(std::size_t, int) noexcept __attribute__((visibility("hidden")));
void* tare_alloc_own_mi_malloc(std::size_t) noexcept __attribute__((visibility("hidden")));
void* tare_alloc_own_tc_malloc(std::size_t) noexcept __attribute__((visibility("hidden")));
}

}  // namespace

void resolve_underlying() noexcept {
#if !defined(__SANITIZE_THREAD__)
    if (__atomic_load_n(&resolution, order_relaxed) == underlying_kind::unresolved)
        resolve();
#endif
}

TARE_ALLOC_HOOK void* next_definition(const char* name) noexcept {
    const bool was = resolving_here;
    resolving_here = true;
    void* const f = dlsym(RTLD_NEXT, name);
    resolving_here = was;
    return f;
}

namespace {

using mallctl_fn = int (*)(const char*, void*, std::size_t*, void*, std::size_t) noexcept;

/// jemalloc's mallctl when jemalloc is the allocator underneath, with its own thread counters:
/// the module that defines malloc is a jemalloc and defines it. Not under valgrind, whose
/// replacements serve the blocks and leave jemalloc's counters still. Told by the module's name
/// first: a failed dlsym leaves an error string that glibc frees at the next dynamic-linker
/// call, which could then fall inside a region (the first call of an allocator's own API).
mallctl_fn counters_source() noexcept {
#if defined(__SANITIZE_THREAD__)
    return nullptr;
#else
    resolve_underlying();
    if (__atomic_load_n(&resolution, order_relaxed) != underlying_kind::next || under_valgrind())
        return nullptr;
    const char* const module = underlying_module();
    if (module == nullptr || __builtin_strstr(module, "jemalloc") == nullptr)
        return nullptr;
    auto* const f = reinterpret_cast<mallctl_fn>(next_definition("mallctl"));
    if (f == nullptr ||
        module_base(reinterpret_cast<const void*>(f)) !=
            module_base(reinterpret_cast<const void*>(__atomic_load_n(&underlying.malloc, order_relaxed))))
        return nullptr;
    return f;
#endif
}

/// A pointer jemalloc hands out for `name` (thread.allocatedp, thread.deallocatedp), or nullptr.
const std::uint64_t* counter(mallctl_fn mallctl, const char* name) noexcept {
    std::uint64_t* p = nullptr;
    std::size_t size = sizeof p;
    return mallctl(name, static_cast<void*>(&p), &size, nullptr, 0) == 0 && size == sizeof p ? p : nullptr;
}

constinit thread_local thread_counters this_thread TARE_ALLOC_TLS{};
constinit thread_local bool this_thread_asked TARE_ALLOC_TLS = false;

}  // namespace

// Reading the level off the allocator's counters saves the hook two calls of jemalloc's
// malloc_usable_size a pair (a lookup in its radix tree each): bench/README.md, "On jemalloc".
// The counters are in usable sizes, as the level is (docs/accounting.md); a jemalloc built
// without statistics answers no pointer, and the hook then reads usable sizes as on any other
// allocator.
thread_counters allocator_thread_counters() noexcept {
    if (!this_thread_asked) {
        static const mallctl_fn mallctl = counters_source();
        if (mallctl != nullptr) {
            const thread_counters c = {counter(mallctl, "thread.allocatedp"),
                                       counter(mallctl, "thread.deallocatedp")};
            if (c.allocated != nullptr && c.deallocated != nullptr)
                this_thread = c;
        }
        this_thread_asked = true;
    }
    return this_thread;
}

std::size_t bootstrap_size(const void* p) noexcept {
    std::uint64_t size = 0;
    __builtin_memcpy(&size, static_cast<const unsigned char*>(p) - sizeof size, sizeof size);
    return static_cast<std::size_t>(size);
}

const char* static_allocator_symbol() noexcept {
    struct candidate {
        const char* name;
        const void* address;
    };
    const candidate candidates[] = {
        {"mallctl (jemalloc)", reinterpret_cast<const void*>(&mallctl)},
        {"je_mallctl (jemalloc)", reinterpret_cast<const void*>(&je_mallctl)},
        {"mi_malloc (mimalloc)", reinterpret_cast<const void*>(&mi_malloc)},
        {"tc_malloc (tcmalloc)", reinterpret_cast<const void*>(&tc_malloc)},
    };
    const void* const ours[] = {reinterpret_cast<const void*>(&tare_alloc_own_mi_malloc),
                                reinterpret_cast<const void*>(&tare_alloc_own_tc_malloc)};
    const void* const executable = module_base(reinterpret_cast<const void*>(&module_base));
    for (const candidate& c : candidates) {
        if (c.address == ours[0] || c.address == ours[1])
            continue;  // interpose_native.cpp's forwarders, not an allocator
        if (c.address != nullptr && module_base(c.address) == executable)
            return c.name;
    }
    return nullptr;
}

}  // namespace tare::alloc::detail

// ---- Which allocator is it? ----------------------------------------------------------------

namespace tare::alloc {
namespace {

template <typename F>
F lookup(const char* name) noexcept {
    return reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
}

/// The allocator's name and version, from the module that defines the malloc underneath and the
/// allocator's own version call.
std::string allocator_name() {
#if defined(__SANITIZE_THREAD__)
    return "ThreadSanitizer's allocator";
#else
    const char* const path = detail::underlying_module();
    if (path == nullptr)
        return "an unknown allocator";
    const std::string module = path;
    if (module.find("jemalloc") != std::string::npos) {
        const char* version = nullptr;
        std::size_t size = sizeof version;
        using mallctl_fn = int (*)(const char*, void*, std::size_t*, void*, std::size_t);
        const auto mallctl = lookup<mallctl_fn>("mallctl");
        if (mallctl != nullptr && mallctl("version", static_cast<void*>(&version), &size, nullptr, 0) == 0 &&
            version != nullptr) {
            const std::string full = version;
            return "jemalloc " + full.substr(0, full.find('-'));
        }
        return "jemalloc";
    }
    if (module.find("mimalloc") != std::string::npos) {
        const auto mi_version = lookup<int (*)()>("mi_version");
        if (mi_version == nullptr)
            return "mimalloc";
        const int v = mi_version();  // 209 for 2.0.9
        return "mimalloc " + std::to_string(v / 100) + "." + std::to_string(v / 10 % 10) + "." +
               std::to_string(v % 10);
    }
    if (module.find("tcmalloc") != std::string::npos) {
        const auto tc_version = lookup<const char* (*)(int*, int*, const char**)>("tc_version");
        int major = 0;
        int minor = 0;
        const char* patch = nullptr;
        const char* full = tc_version != nullptr ? tc_version(&major, &minor, &patch) : nullptr;
        return full != nullptr ? std::string("tcmalloc (") + full + ")" : "tcmalloc";
    }
    const auto libc_version = lookup<const char* (*)()>("gnu_get_libc_version");
    const std::string glibc = libc_version != nullptr ? std::string("glibc ") + libc_version() : "glibc";
    if (module.find("libc.so") != std::string::npos)
        return glibc;
    return module.substr(module.rfind('/') + 1);
#endif
}

/// True when the process's calls of the allocator's own `name` reach interpose_native.cpp's
/// forwarder `own`: the executable exports it (it links the allocator) and the allocator is there.
bool reached(const char* name, const void* own) noexcept {
    return detail::native_api_counted(name) && dlsym(RTLD_DEFAULT, name) == own;
}

/// What tare counts of an allocator's own entry points past the malloc family, and what not.
struct native_part {
    std::string counted;
    std::string unseen;
};

native_part native_of(const std::string& name) {
    if (name.rfind("jemalloc", 0) == 0) {
        if (reached("mallocx", reinterpret_cast<const void*>(&detail::tare_alloc_own_mallocx)))
            return {", mallocx family", ""};
        return {"", "; not its mallocx family"};
    }
    if (name.rfind("mimalloc", 0) == 0) {
        if (reached("mi_malloc", reinterpret_cast<const void*>(&detail::tare_alloc_own_mi_malloc)))
            return {", mi_ functions", "; not its heaps (mi_heap_)"};
        return {"", "; not its mi_ functions"};
    }
    if (name.rfind("tcmalloc", 0) == 0) {
        if (reached("tc_malloc", reinterpret_cast<const void*>(&detail::tare_alloc_own_tc_malloc)))
            return {", tc_ functions", ""};
        return {"", "; not its tc_ functions"};
    }
    return {};
}

}  // namespace

const std::string& allocator_in_use() {
    static const std::string line = [] {
        if (!available())
            return std::string();
        const std::string name = allocator_name();
        const native_part native = native_of(name);
        std::string out =
            name + ": malloc family, new/delete" + native.counted + ", declared pools" +
            (__atomic_load_n(&detail::mapping_hooks_linked, detail::order_relaxed) ? ", mmap" : "") +
            native.unseen;
        if (!native.unseen.empty())
            out += " (declare those blocks with tare::report_alloc)";
        return out;
    }();
    return line;
}

}  // namespace tare::alloc
