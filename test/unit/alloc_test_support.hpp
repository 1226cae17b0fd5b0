#pragma once
// Shared by the allocation tests: which build this is, the check that the interposer is what
// the process calls, and small helpers that keep the optimizer from eliding allocations.

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <limits>

#include <malloc.h>
#include <unistd.h>

#include "alloc/accounting.hpp"

extern "C" {
void* __libc_malloc(std::size_t size) noexcept;
void __libc_free(void* p) noexcept;
}

namespace tare::alloc::test {

// ---- Which build is this? ----------------------------------------------------------------

// As src/alloc/sources.cmake decides: no interposer with ASan or MSan, nor with Clang's TSan.
#if defined(__clang__)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
#define TARE_TEST_OWN_MALLOC_SANITIZER 1
#endif
#elif defined(__SANITIZE_ADDRESS__)
#define TARE_TEST_OWN_MALLOC_SANITIZER 1  // GCC's TSan keeps the interposer
#endif

inline const char* name_of(tare::alloc::availability a) {
    switch (a) {
    case tare::alloc::availability::active:
        return "active";
    case tare::alloc::availability::not_built:
        return "not_built";
    case tare::alloc::availability::shadowed:
        return "shadowed";
    case tare::alloc::availability::static_allocator:
        return "static_allocator";
    }
    return "?";
}

/// In a build without the interposer (src/alloc/sources.cmake) there is nothing to count:
/// every test is skipped, saying why. In any other build the interposer must be active, and
/// its absence fails every test rather than skipping it.
class interposer_environment : public testing::Environment {
public:
    void SetUp() override {
#if defined(TARE_TEST_OWN_MALLOC_SANITIZER)
        ASSERT_STREQ(name_of(tare::alloc::availability_status()), "not_built");
        GTEST_SKIP() << "built without the interposer (the sanitizer owns malloc)";
#else
        ASSERT_STREQ(name_of(tare::alloc::availability_status()), "active")
            << "the interposer is linked but not what the process calls (under valgrind, run "
               "with --soname-synonyms=somalloc=nouserintercepts)";
#endif
    }
};
inline const testing::Environment* const interposer_check =
    testing::AddGlobalTestEnvironment(new interposer_environment);

/// Makes `p` escape to the compiler: a new/delete pair it can see through is otherwise
/// elided (GCC does, since 10), and a malloc/free pair too.
inline void escape(void* p) {
    asm volatile("" : : "g"(p) : "memory");
}

/// Hides a value from the optimizer, so that neither a huge size nor a pointer still valid
/// after a failed realloc draws a compile-time warning.
template <typename T>
T opaque(T v) {
    asm volatile("" : "+r"(v));
    return v;
}
inline constexpr std::size_t size_max = std::numeric_limits<std::size_t>::max();

inline constexpr std::size_t kib = 1024;
inline constexpr std::size_t mib = 1024 * kib;

inline const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));

/// The allocator's usable size of `p`: what the live heap counts for it. Asking allocates
/// nothing, so it may be asked inside a region; a block about to be freed is asked first.
/// A template, not a `const void*` parameter: GCC takes a pointer to const as read through and,
/// unoptimised, warns of a block fresh from malloc as used uninitialised.
template <class T>
std::int64_t usable(T* p) {
    return static_cast<std::int64_t>(malloc_usable_size(const_cast<void*>(static_cast<const void*>(p))));
}

/// The figures of a region in which one block of `held` usable bytes was counted and is still
/// live, and every other block was in no figure (made while paused, and freed).
inline void expect_one_block_kept(const tare::alloc::counters& got, std::int64_t held) {
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.live, held);
    EXPECT_EQ(got.peak, held);
    EXPECT_EQ(got.untracked, 0U);
}

/// The usable size the allocator gives a request of `n` bytes (asked outside any region, for the
/// small sizes whose block size is fixed by the request alone).
inline std::int64_t usable_of(std::size_t n) {
    void* p = malloc(n);
    const std::int64_t u = usable(p);
    free(p);
    return u;
}

inline bool aligned_to(const void* p, std::size_t align) {
    return reinterpret_cast<std::uintptr_t>(p) % align == 0;
}

}  // namespace tare::alloc::test
