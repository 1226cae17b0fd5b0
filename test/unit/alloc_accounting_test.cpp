// The allocation accounting against ground truth: bodies whose allocations are known exactly,
// through every entry point of the interposer. Everything between region_begin() and
// snapshot() below allocates only what it means to count: no GoogleTest assertion, no
// std::string, no container growth (the pointers live in fixed arrays); the checks come after.

#include <gtest/gtest.h>
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "alloc/accounting.hpp"
#include "alloc/tally.hpp"

extern "C" {
void* __libc_malloc(std::size_t size) noexcept;
void __libc_free(void* p) noexcept;
}

namespace {

namespace alloc = tare::alloc;

// ---- Which build is this? ----------------------------------------------------------------

// As src/alloc/sources.cmake decides: no interposer with ASan or MSan, nor with Clang's TSan.
#if defined(__clang__)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
#define TARE_TEST_OWN_MALLOC_SANITIZER 1
#endif
#elif defined(__SANITIZE_ADDRESS__)
#define TARE_TEST_OWN_MALLOC_SANITIZER 1  // GCC's TSan keeps the interposer
#endif

const char* name_of(tare::alloc::availability a) {
    switch (a) {
    case tare::alloc::availability::active:
        return "active";
    case tare::alloc::availability::not_built:
        return "not_built";
    case tare::alloc::availability::shadowed:
        return "shadowed";
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
const testing::Environment* const interposer_check =
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
constexpr std::size_t size_max = std::numeric_limits<std::size_t>::max();

constexpr std::size_t kib = 1024;
constexpr std::size_t mib = 1024 * kib;

bool aligned_to(const void* p, std::size_t align) {
    return reinterpret_cast<std::uintptr_t>(p) % align == 0;
}

// ---- The entry points, each as "allocate s bytes" + "free it" ------------------------------

template <std::size_t S>
struct blob {
    unsigned char bytes[S];
};

// `new T` needs the size at compile time: one instantiation per tested size.
template <std::size_t... S>
struct blob_sizes {
    static void* make(std::size_t s, bool nothrow) {
        void* p = nullptr;
        ((s == S ? (p = nothrow ? new (std::nothrow) blob<S> : new blob<S>) : nullptr), ...);
        return p;
    }
    static void destroy(void* p, std::size_t s) {
        ((s == S ? (delete static_cast<blob<S>*>(p), 0) : 0), ...);
    }
};
using tested_blobs = blob_sizes<1, 24, 4 * kib, mib>;

struct entry_point {
    const char* name;
    std::size_t align;  // what the returned pointer must be aligned to
    /// Made before the region (realloc's input block), or nullptr.
    void* (*prepare)(std::size_t s);
    void* (*allocate)(std::size_t s, void* prepared);
    void (*release)(void* p, std::size_t s);
};

void c_free(void* p, std::size_t) {
    std::free(p);
}
void delete_array(void* p, std::size_t) {
    delete[] static_cast<unsigned char*>(p);
}
void delete_aligned(void* p, std::size_t s) {
    ::operator delete (p, s, std::align_val_t{64});
}
void delete_aligned_array(void* p, std::size_t) {
    ::operator delete[](p, std::align_val_t{64});
}

const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));

const entry_point entry_points[] = {
    {"malloc", 16, nullptr, [](std::size_t s, void*) { return std::malloc(s); }, c_free},
    {"calloc", 16, nullptr, [](std::size_t s, void*) { return std::calloc(s, 1); }, c_free},
    {"realloc_from_null", 16, nullptr, [](std::size_t s, void*) { return std::realloc(nullptr, s); }, c_free},
    // Grows a block made before the region: one allocation of s, and the old block's bytes
    // were never the region's, so nothing is released.
    {"realloc_grow", 16, [](std::size_t s) { return std::malloc(s / 2); },
     [](std::size_t s, void* prepared) { return std::realloc(prepared, s); }, c_free},
    {"aligned_alloc", 64, nullptr, [](std::size_t s, void*) { return aligned_alloc(64, s); }, c_free},
    {"posix_memalign", 256, nullptr,
     [](std::size_t s, void*) {
         void* p = nullptr;
         return posix_memalign(&p, 256, s) == 0 ? p : nullptr;
     },
     c_free},
    {"memalign", 128, nullptr, [](std::size_t s, void*) { return memalign(128, s); }, c_free},
    {"valloc", page, nullptr, [](std::size_t s, void*) { return valloc(s); }, c_free},
    {"pvalloc", page, nullptr, [](std::size_t s, void*) { return pvalloc(s); }, c_free},
    {"new", 16, nullptr, [](std::size_t s, void*) { return tested_blobs::make(s, false); },
     tested_blobs::destroy},
    {"new_array", 16, nullptr, [](std::size_t s, void*) -> void* { return new unsigned char[s]; },
     delete_array},
    {"nothrow_new", 16, nullptr, [](std::size_t s, void*) { return tested_blobs::make(s, true); },
     tested_blobs::destroy},
    {"nothrow_new_array", 16, nullptr,
     [](std::size_t s, void*) -> void* { return new (std::nothrow) unsigned char[s]; }, delete_array},
    {"aligned_new", 64, nullptr,
     [](std::size_t s, void*) { return ::operator new (s, std::align_val_t{64}); }, delete_aligned},
    {"aligned_new_array", 64, nullptr,
     [](std::size_t s, void*) { return ::operator new[](s, std::align_val_t{64}); }, delete_aligned_array},
};

struct body_case {
    const entry_point* entry;
    std::size_t count;
    std::size_t size;
};

std::string case_name(const testing::TestParamInfo<body_case>& info) {
    return std::string(info.param.entry->name) + "_" + std::to_string(info.param.count) + "x" +
           std::to_string(info.param.size);
}

std::vector<body_case> all_cases() {
    std::vector<body_case> cases;
    for (const entry_point& e : entry_points) {
        for (std::size_t k : {0U, 1U, 3U, 17U}) {
            for (std::size_t s : {std::size_t{1}, std::size_t{24}, 4 * kib, mib}) {
                cases.push_back({&e, k, s});
            }
        }
    }
    return cases;
}

class entry_point_test : public testing::TestWithParam<body_case> {};

// k allocations of s bytes, all live at the snapshot.
TEST_P(entry_point_test, counts_exactly_k_allocations_of_s_bytes) {
    const body_case c = GetParam();
    std::array<void*, 17> prepared{};
    std::array<void*, 17> blocks{};
    for (std::size_t i = 0; i < c.count; ++i) {
        if (c.entry->prepare != nullptr)
            prepared[i] = c.entry->prepare(c.size);
    }

    alloc::region_begin();
    for (std::size_t i = 0; i < c.count; ++i) {
        blocks[i] = c.entry->allocate(c.size, prepared[i]);
        escape(blocks[i]);
    }
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();

    for (std::size_t i = 0; i < c.count; ++i) {
        ASSERT_NE(blocks[i], nullptr);
        EXPECT_TRUE(aligned_to(blocks[i], c.entry->align)) << blocks[i];
        EXPECT_EQ(malloc_usable_size(blocks[i]), c.size);
        std::memset(blocks[i], 0xa5, c.size);  // the whole request is writable
        c.entry->release(blocks[i], c.size);
    }
    const auto k = static_cast<std::int64_t>(c.count);
    const auto s = static_cast<std::int64_t>(c.size);
    EXPECT_EQ(got.allocs, c.count);
    EXPECT_EQ(got.bytes, c.count * c.size);
    EXPECT_EQ(got.live, k * s);
    EXPECT_EQ(got.peak, k * s);
}

// The same, each block freed before the next is made: live back to 0, peak one block.
TEST_P(entry_point_test, freeing_inside_the_region_brings_live_back_to_zero) {
    const body_case c = GetParam();
    std::array<void*, 17> prepared{};
    std::array<void*, 17> blocks{};
    for (std::size_t i = 0; i < c.count; ++i) {
        if (c.entry->prepare != nullptr)
            prepared[i] = c.entry->prepare(c.size);
    }

    alloc::region_begin();
    for (std::size_t i = 0; i < c.count; ++i) {
        blocks[i] = c.entry->allocate(c.size, prepared[i]);
        escape(blocks[i]);
        c.entry->release(blocks[i], c.size);
    }
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();

    const auto s = static_cast<std::int64_t>(c.size);
    EXPECT_EQ(got.allocs, c.count);
    EXPECT_EQ(got.bytes, c.count * c.size);
    EXPECT_EQ(got.live, 0);
    EXPECT_EQ(got.peak, c.count == 0 ? 0 : s);
}

INSTANTIATE_TEST_SUITE_P(every_entry_point, entry_point_test, testing::ValuesIn(all_cases()), case_name);

// ---- The model ---------------------------------------------------------------------------

TEST(accounting, availability_is_resolved_once) {
    EXPECT_TRUE(alloc::available());
    alloc::region_begin();  // cached: asking inside a region changes nothing
    void* p = std::malloc(10);
    escape(p);
    EXPECT_TRUE(alloc::available());
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    std::free(p);
    EXPECT_EQ(got.allocs, 1U);
}

TEST(accounting, the_availability_probe_leaves_the_last_region_alone) {
    alloc::region_begin();
    void* p = std::malloc(10);
    escape(p);
    alloc::region_end();
    std::free(p);
    void* (*const m)(std::size_t) = &std::malloc;
    void (*const f)(void*) = &std::free;
    EXPECT_TRUE(tare::alloc::detail::hook_counts(m, f));
    const alloc::counters got = alloc::snapshot();
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.bytes, 10U);
    EXPECT_EQ(got.live, 10);
    EXPECT_EQ(got.peak, 10);
}

TEST(accounting, the_availability_probe_sees_a_function_that_bypasses_the_hook) {
    EXPECT_FALSE(tare::alloc::detail::hook_counts(&__libc_malloc, &__libc_free));
}

TEST(accounting, setup_memory_is_in_no_figure) {
    constexpr std::size_t setup_size = 128 * mib;
    auto* setup = static_cast<unsigned char*>(std::malloc(setup_size));
    ASSERT_NE(setup, nullptr);
    for (std::size_t i = 0; i < setup_size; i += page)
        setup[i] = 1;  // touched

    alloc::region_begin();
    void* a = std::malloc(1000);
    escape(a);
    std::free(setup);  // foreign to the region: must not lower live below what it allocated
    void* b = std::malloc(3000);
    escape(b);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    std::free(a);
    std::free(b);

    EXPECT_EQ(got.allocs, 2U);
    EXPECT_EQ(got.bytes, 4000U);
    EXPECT_EQ(got.live, 4000);
    EXPECT_EQ(got.peak, 4000);
}

TEST(accounting, freeing_only_setup_memory_leaves_live_at_zero) {
    std::vector<unsigned char> setup(128 * mib, 1);
    alloc::region_begin();
    std::vector<unsigned char>().swap(setup);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(got.allocs, 0U);
    EXPECT_EQ(got.live, 0);
    EXPECT_EQ(got.peak, 0);
}

TEST(accounting, peak_is_the_most_held_at_once_in_requested_bytes) {
    alloc::region_begin();
    void* a = std::malloc(mib);
    escape(a);
    void* b = std::malloc(mib);
    escape(b);
    void* c = std::malloc(mib);
    escape(c);
    std::free(a);
    std::free(b);
    std::free(c);
    void* d = std::malloc(mib / 2);  // after the peak: lower, must not move it
    escape(d);
    std::free(d);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(got.allocs, 4U);
    EXPECT_EQ(got.peak, static_cast<std::int64_t>(3 * mib));
    EXPECT_EQ(got.live, 0);
}

TEST(accounting, a_new_region_starts_from_zero) {
    alloc::region_begin();
    void* held = std::malloc(500);
    escape(held);
    alloc::region_end();

    alloc::region_begin();
    std::free(held);  // the earlier region's block: foreign to this one
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(got.allocs, 0U);
    EXPECT_EQ(got.bytes, 0U);
    EXPECT_EQ(got.live, 0);
    EXPECT_EQ(got.peak, 0);
}

TEST(accounting, frees_after_region_end_are_ignored) {
    alloc::region_begin();
    void* p = std::malloc(64);
    escape(p);
    alloc::region_end();
    std::free(p);
    const alloc::counters got = alloc::snapshot();  // the closed region's last figures
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.live, 64);
}

TEST(accounting, nothing_is_counted_outside_a_region) {
    alloc::region_begin();
    alloc::region_end();
    void* p = std::malloc(64);
    escape(p);
    std::free(p);
    const alloc::counters got = alloc::snapshot();
    EXPECT_EQ(got.allocs, 0U);
    EXPECT_EQ(got.live, 0);
}

// ---- pause() / resume() ------------------------------------------------------------------

TEST(accounting, allocations_while_paused_are_not_counted) {
    alloc::region_begin();
    void* counted = std::malloc(100);
    escape(counted);
    alloc::pause();
    void* paused = std::malloc(7000);
    escape(paused);
    auto* paused_new = new std::array<char, 300>;
    escape(paused_new);
    alloc::resume();
    void* counted_too = std::malloc(200);
    escape(counted_too);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    std::free(counted);
    std::free(paused);
    delete paused_new;
    std::free(counted_too);
    EXPECT_EQ(got.allocs, 2U);
    EXPECT_EQ(got.bytes, 300U);
    EXPECT_EQ(got.live, 300);
    EXPECT_EQ(got.peak, 300);
}

TEST(accounting, a_region_block_freed_while_paused_lowers_live) {
    alloc::region_begin();
    void* p = std::malloc(4096);
    escape(p);
    alloc::pause();
    std::free(p);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.live, 0);
    EXPECT_EQ(got.peak, 4096);
}

TEST(accounting, a_block_allocated_while_paused_is_not_live_when_freed) {
    alloc::region_begin();
    alloc::pause();
    void* p = std::malloc(4096);
    escape(p);
    alloc::resume();
    void* q = std::malloc(10);
    escape(q);
    std::free(p);  // untagged: live stays at q's 10
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    std::free(q);
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.live, 10);
}

// ---- realloc -----------------------------------------------------------------------------

TEST(accounting, realloc_of_a_region_block_releases_its_bytes) {
    alloc::region_begin();
    void* p = std::malloc(100);
    escape(p);
    std::memset(p, 7, 100);
    void* q = std::realloc(p, 5000);  // one allocation of 5000, 100 released
    escape(q);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(static_cast<unsigned char*>(q)[99], 7);  // contents kept
    std::free(q);
    EXPECT_EQ(got.allocs, 2U);
    EXPECT_EQ(got.bytes, 5100U);
    EXPECT_EQ(got.live, 5000);
    EXPECT_EQ(got.peak, 5000);  // the net change: a realloc does not hold both blocks
}

TEST(accounting, realloc_shrink_counts_one_allocation_of_the_new_size) {
    void* p = std::malloc(5000);
    alloc::region_begin();
    void* q = std::realloc(p, 10);
    escape(q);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    std::free(q);
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.bytes, 10U);
    EXPECT_EQ(got.live, 10);
}

TEST(accounting, realloc_to_zero_is_a_free) {
    alloc::region_begin();
    void* p = std::malloc(300);
    escape(p);
    void* q = std::realloc(p, 0);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(q, nullptr);
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.bytes, 300U);
    EXPECT_EQ(got.live, 0);
}

TEST(accounting, realloc_of_an_aligned_block_keeps_its_contents) {
    void* p = aligned_alloc(4096, 64);
    ASSERT_NE(p, nullptr);
    std::memset(p, 3, 64);
    alloc::region_begin();
    void* q = std::realloc(p, 100000);
    escape(q);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(static_cast<unsigned char*>(q)[0], 3);
    EXPECT_EQ(static_cast<unsigned char*>(q)[63], 3);
    EXPECT_EQ(malloc_usable_size(q), 100000U);
    std::free(q);
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.bytes, 100000U);
    EXPECT_EQ(got.live, 100000);
}

TEST(accounting, reallocarray_counts_the_product_and_checks_overflow) {
    alloc::region_begin();
    void* p = reallocarray(nullptr, 10, 12);
    escape(p);
    errno = 0;
    void* bad = reallocarray(opaque(p), opaque(size_max / 2), 3);
    const int error = errno;
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(bad, nullptr);
    EXPECT_EQ(error, ENOMEM);
    std::free(p);  // still valid after the failed call
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.bytes, 120U);
}

// ---- Edge cases and failures -------------------------------------------------------------

TEST(accounting, free_of_null_is_nothing) {
    alloc::region_begin();
    std::free(nullptr);
    ::operator delete(nullptr);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(got.allocs, 0U);
    EXPECT_EQ(got.live, 0);
}

TEST(accounting, malloc_of_zero_is_one_allocation_of_zero_bytes) {
    alloc::region_begin();
    void* p = std::malloc(0);
    escape(p);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_NE(p, nullptr);
    EXPECT_EQ(malloc_usable_size(p), 0U);
    std::free(p);
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.bytes, 0U);
}

TEST(accounting, foreign_pointers_go_back_to_glibc_uncounted) {
#if defined(__SANITIZE_THREAD__)
    GTEST_SKIP() << "under ThreadSanitizer the heap underneath is TSan's, not glibc's";
#endif
    // A block from glibc directly, as code that bypasses the interposer would make. (Under
    // valgrind, __libc_malloc is valgrind's: run with --gtest_filter=-*foreign*.)
    void* foreign = __libc_malloc(100);
    ASSERT_NE(foreign, nullptr);
    EXPECT_GE(malloc_usable_size(foreign), 100U);
    void* big_foreign = __libc_malloc(4 * mib);  // an mmapped chunk
    ASSERT_NE(big_foreign, nullptr);
    EXPECT_GE(malloc_usable_size(big_foreign), 4 * mib);

    alloc::region_begin();
    foreign = std::realloc(foreign, 200);  // stays glibc's, uncounted
    escape(foreign);
    std::free(foreign);
    std::free(big_foreign);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(got.allocs, 0U);
    EXPECT_EQ(got.live, 0);
}

TEST(accounting, a_failed_allocation_is_not_counted) {
    const std::size_t huge = opaque(size_max);
    alloc::region_begin();
    errno = 0;
    void* m = std::malloc(huge);
    const int malloc_errno = errno;
    errno = 0;
    void* c = std::calloc(huge / 2, 3);
    const int calloc_errno = errno;
    void* c2 = std::calloc(1, huge - 8);
    void* r = std::realloc(nullptr, huge);
    void* big = std::malloc(opaque(static_cast<std::size_t>(PTRDIFF_MAX)));
    void* a = aligned_alloc(64, huge - 32);
    void* v = valloc(huge);
    void* pv = pvalloc(huge - 10);
    void* n = ::operator new(huge, std::nothrow);
    void* na = ::operator new[](huge, std::align_val_t{64}, std::nothrow);
    const alloc::counters got = alloc::snapshot();
    bool threw = false;
    try {
        escape(::operator new(huge));
    } catch (const std::bad_alloc&) {
        threw = true;
    }
    const alloc::counters after_throw = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(m, nullptr);
    EXPECT_EQ(malloc_errno, ENOMEM);
    EXPECT_EQ(c, nullptr);
    EXPECT_EQ(calloc_errno, ENOMEM);
    EXPECT_EQ(c2, nullptr);
    EXPECT_EQ(r, nullptr);
    EXPECT_EQ(big, nullptr);
    EXPECT_EQ(a, nullptr);
    EXPECT_EQ(v, nullptr);
    EXPECT_EQ(pv, nullptr);
    EXPECT_EQ(n, nullptr);
    EXPECT_EQ(na, nullptr);
    EXPECT_EQ(got.allocs, 0U);
    EXPECT_EQ(got.bytes, 0U);
    EXPECT_EQ(got.peak, 0);
    EXPECT_TRUE(threw);
    // The failed new is not counted; the exception object (__cxa_allocate_exception's malloc,
    // a real allocation) may be.
    EXPECT_LE(after_throw.allocs, 1U);
    EXPECT_LT(after_throw.bytes, 1024U);
}

TEST(accounting, a_failed_realloc_keeps_the_block_and_counts_nothing) {
    void* p = std::malloc(64);
    std::memset(p, 9, 64);
    alloc::region_begin();
    errno = 0;
    void* q = std::realloc(opaque(p), opaque(size_max - 100));
    const int error = errno;
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(q, nullptr);
    EXPECT_EQ(error, ENOMEM);
    EXPECT_EQ(static_cast<unsigned char*>(p)[63], 9);
    std::free(p);
    EXPECT_EQ(got.allocs, 0U);
}

TEST(accounting, posix_memalign_validates_the_alignment) {
    void* p = reinterpret_cast<void*>(std::uintptr_t{0x1234});
    const auto untouched = p;
    alloc::region_begin();
    const int zero = posix_memalign(&p, 0, 64);
    const int three = posix_memalign(&p, 3, 64);
    const int four = posix_memalign(&p, 4, 64);  // a power of two, not a multiple of void*
    const int twenty_four = posix_memalign(&p, 24, 64);
    const int huge = posix_memalign(&p, 64, opaque(size_max - 64));
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(zero, EINVAL);
    EXPECT_EQ(three, EINVAL);
    EXPECT_EQ(four, EINVAL);
    EXPECT_EQ(twenty_four, EINVAL);
    EXPECT_EQ(huge, ENOMEM);
    EXPECT_EQ(p, untouched);  // never written on failure
    EXPECT_EQ(got.allocs, 0U);

    void* ok = nullptr;
    ASSERT_EQ(posix_memalign(&ok, 8, 10), 0);  // sizeof(void*) itself is valid
    EXPECT_TRUE(aligned_to(ok, 16));
    std::free(ok);
}

TEST(accounting, aligned_alloc_rejects_an_alignment_that_is_not_a_power_of_two) {
    errno = 0;
    EXPECT_EQ(aligned_alloc(48, 96), nullptr);
    EXPECT_EQ(errno, EINVAL);
    errno = 0;
    EXPECT_EQ(aligned_alloc(0, 16), nullptr);
    EXPECT_EQ(errno, EINVAL);
}

TEST(accounting, memalign_rounds_an_odd_alignment_up) {
    void* p = memalign(48, 10);
    ASSERT_NE(p, nullptr);
    EXPECT_TRUE(aligned_to(p, 64));
    std::free(p);
    errno = 0;
    EXPECT_EQ(memalign(opaque(size_max), 1), nullptr);
    EXPECT_EQ(errno, EINVAL);
}

TEST(accounting, large_alignments_are_honoured) {
    for (std::size_t align = 32; align <= 2 * mib; align *= 2) {
        void* p = aligned_alloc(align, 40);
        ASSERT_NE(p, nullptr);
        EXPECT_TRUE(aligned_to(p, align)) << align;
        std::memset(p, 1, 40);
        void* q = ::operator new (40, std::align_val_t{align});
        EXPECT_TRUE(aligned_to(q, align)) << align;
        ::operator delete (q, std::align_val_t{align});
        std::free(p);
    }
}

TEST(accounting, malloc_aligns_to_max_align_t) {
    for (std::size_t s : {1U, 8U, 15U, 16U, 17U, 100U, 1000U}) {
        void* p = std::malloc(s);
        EXPECT_TRUE(aligned_to(p, alignof(std::max_align_t))) << s;
        std::free(p);
    }
}

TEST(accounting, calloc_zeroes_memory) {
    for (int round = 0; round < 4; ++round) {  // reuse blocks that malloc dirtied
        void* dirty = std::malloc(4000);
        std::memset(dirty, 0xff, 4000);
        std::free(dirty);
        auto* p = static_cast<unsigned char*>(std::calloc(1000, 4));
        ASSERT_NE(p, nullptr);
        for (std::size_t i = 0; i < 4000; ++i)
            ASSERT_EQ(p[i], 0) << i;
        std::free(p);
    }
}

TEST(accounting, an_aligned_new_expression_counts_the_type_size) {
    struct alignas(256) line {
        unsigned char bytes[300];
    };
    static_assert(sizeof(line) == 512);
    alloc::region_begin();
    auto* p = new line;
    escape(p);
    auto* q = new line[3];
    escape(q);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_TRUE(aligned_to(p, 256));
    EXPECT_TRUE(aligned_to(q, 256));
    delete p;
    delete[] q;
    EXPECT_EQ(got.allocs, 2U);
    EXPECT_EQ(got.bytes, 4 * sizeof(line));  // trivially destructible: no array cookie
}

TEST(accounting, operator_new_runs_the_new_handler_loop) {
    static int calls = 0;
    calls = 0;
    std::set_new_handler([] {
        if (++calls == 3)
            std::set_new_handler(nullptr);
    });
    EXPECT_THROW(escape(::operator new(opaque(size_max))), std::bad_alloc);
    EXPECT_EQ(calls, 3);

    calls = 0;
    std::set_new_handler([] {
        ++calls;
        throw std::bad_alloc();
    });
    EXPECT_EQ(::operator new(opaque(size_max), std::nothrow), nullptr);
    EXPECT_EQ(calls, 1);
    std::set_new_handler(nullptr);
}

TEST(accounting, malloc_and_free_work_in_a_forked_child) {
    alloc::region_begin();
    void* before = std::malloc(100);
    escape(before);
    const pid_t child = fork();
    ASSERT_NE(child, -1);
    if (child == 0) {
        // Only async-signal-safe calls are promised after fork in a threaded parent, but
        // glibc makes malloc work there too, and so must the hook.
        // The child goes on counting in the region it inherited.
        const alloc::counters c0 = alloc::snapshot();
        bool ok = true;
        for (int i = 0; i < 1000; ++i) {
            void* p = std::malloc(static_cast<std::size_t>(i) * 16 + 1);
            auto* q = new int[10];
            escape(p);
            escape(q);
            ok = ok && p != nullptr;
            delete[] q;
            std::free(p);
        }
        std::free(before);
        const alloc::counters c = alloc::snapshot();
        if (c.allocs - c0.allocs != 2000)
            ok = false;
        if (c.live != c0.live - 100)
            ok = false;  // `before` was the region's
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    alloc::region_end();
    std::free(before);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
