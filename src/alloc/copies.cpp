// tare::copies: the C library's memcpy, memmove, mempcpy and memset, and their _FORTIFY_SOURCE
// forms (__memcpy_chk, ...), defined in the executable so that every call to them from the
// executable and its shared libraries lands here first, as malloc does in interpose_glibc.cpp.
// Each counts its bytes while a region counts (tally.hpp, count_copy) and forwards to the C
// library's own, found with dlsym(RTLD_NEXT) before main. docs/accounting.md, "Bytes copied".
//
// Opt-in, by linking tare::copies: every memcpy of the process pays the check, some 1 ns a call
// measured against the same body without it (bench/README.md, "Bytes copied"), and a
// program's memcpy calls outnumber its allocations by far. Copies the compiler expands inline
// (small fixed sizes, struct assignment) never reach a call and are not counted.
//
// Rejected: forwarding to glibc's __memcpy_chk with an unbounded size instead of dlsym. Once
// this file defines __memcpy_chk too (as it must, for fortified callers), the name resolves to
// this definition, not the C library's. Rejected: -Wl,--wrap=memcpy, which rewrites only the
// executable's own references and leaves every shared library's calls uncounted.
//
// Compiled with -fno-builtin: nothing here may be turned back into a call to memcpy.

#include <dlfcn.h>

#include <cstddef>

#include "alloc/tally.hpp"

namespace {

using copy_fn = void* (*)(void*, const void*, std::size_t) noexcept;
using set_fn = void* (*)(void*, int, std::size_t) noexcept;

// Written once, before main (and before any thread), by resolve().
copy_fn real_memcpy TARE_ALLOC_HIDDEN = nullptr;
copy_fn real_memmove TARE_ALLOC_HIDDEN = nullptr;
copy_fn real_mempcpy TARE_ALLOC_HIDDEN = nullptr;
set_fn real_memset TARE_ALLOC_HIDDEN = nullptr;

// Until dlsym has answered, and for dlsym's own copies while it answers: byte by byte, through
// volatile pointers so no compiler turns the loop back into a memcpy call. Overlap-safe.
TARE_ALLOC_HOOK void* copy_bytes(void* dest, const void* src, std::size_t n) noexcept {
    auto* d = static_cast<volatile unsigned char*>(dest);
    const auto* s = static_cast<const volatile unsigned char*>(src);
    if (d < s) {
        for (std::size_t i = 0; i < n; ++i)
            d[i] = s[i];
    } else {
        for (std::size_t i = n; i > 0; --i)
            d[i - 1] = s[i - 1];
    }
    return dest;
}

TARE_ALLOC_HOOK void* set_bytes(void* dest, int c, std::size_t n) noexcept {
    auto* d = static_cast<volatile unsigned char*>(dest);
    for (std::size_t i = 0; i < n; ++i)
        d[i] = static_cast<unsigned char>(c);
    return dest;
}

template <class Fn>
Fn next(const char* name) noexcept {
    return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

// Priority 101, the first a program may use: before other constructors copy, so that from
// their first call on the library's own implementations run.
__attribute__((constructor(101))) void resolve() noexcept {
    const auto memcpy_fn = next<copy_fn>("memcpy");
    const auto memmove_fn = next<copy_fn>("memmove");
    const auto mempcpy_fn = next<copy_fn>("mempcpy");
    const auto memset_fn = next<set_fn>("memset");
    if (memcpy_fn == nullptr || memmove_fn == nullptr || mempcpy_fn == nullptr || memset_fn == nullptr)
        return;  // not glibc as expected: the byte loops stay, and no figure is claimed
    real_memcpy = memcpy_fn;
    real_memmove = memmove_fn;
    real_mempcpy = mempcpy_fn;
    real_memset = memset_fn;
    __atomic_store_n(&tare::alloc::detail::copy_hooks_linked, true, __ATOMIC_RELEASE);
}

}  // namespace

using tare::alloc::detail::count_copy;

extern "C" {

// glibc's own failure for a fortified call whose size overruns its destination.
[[noreturn]] void __chk_fail() noexcept;  // NOLINT(bugprone-reserved-identifier)

TARE_ALLOC_HOOK void* memcpy(void* dest, const void* src, std::size_t n) noexcept {
    count_copy(n, false);
    const copy_fn f = real_memcpy;
    return f != nullptr ? f(dest, src, n) : copy_bytes(dest, src, n);
}

TARE_ALLOC_HOOK void* memmove(void* dest, const void* src, std::size_t n) noexcept {
    count_copy(n, false);
    const copy_fn f = real_memmove;
    return f != nullptr ? f(dest, src, n) : copy_bytes(dest, src, n);
}

TARE_ALLOC_HOOK void* mempcpy(void* dest, const void* src, std::size_t n) noexcept {
    count_copy(n, false);
    const copy_fn f = real_mempcpy;
    return f != nullptr ? f(dest, src, n) : static_cast<unsigned char*>(copy_bytes(dest, src, n)) + n;
}

TARE_ALLOC_HOOK void* memset(void* dest, int c, std::size_t n) noexcept {
    count_copy(n, true);
    const set_fn f = real_memset;
    return f != nullptr ? f(dest, c, n) : set_bytes(dest, c, n);
}

// The forms _FORTIFY_SOURCE compiles calls into (Ubuntu's and Fedora's compilers enable it by
// default): the C library's check, then the same count and forward.
// NOLINTBEGIN(bugprone-reserved-identifier)
TARE_ALLOC_HOOK void* __memcpy_chk(void* dest, const void* src, std::size_t n, std::size_t room) noexcept {
    if (n > room)
        __chk_fail();
    return memcpy(dest, src, n);
}

TARE_ALLOC_HOOK void* __memmove_chk(void* dest, const void* src, std::size_t n, std::size_t room) noexcept {
    if (n > room)
        __chk_fail();
    return memmove(dest, src, n);
}

TARE_ALLOC_HOOK void* __mempcpy_chk(void* dest, const void* src, std::size_t n, std::size_t room) noexcept {
    if (n > room)
        __chk_fail();
    return mempcpy(dest, src, n);
}

TARE_ALLOC_HOOK void* __memset_chk(void* dest, int c, std::size_t n, std::size_t room) noexcept {
    if (n > room)
        __chk_fail();
    return memset(dest, c, n);
}
// NOLINTEND(bugprone-reserved-identifier)

}  // extern "C"

extern "C" {
// Referenced by tare::copies' link option (--undefined) so that this object is always linked.
[[gnu::used]] extern const int tare_copies_anchor = 1;
}
