// The allocators' own entry points, counted as the malloc family is (docs/accounting.md,
// "Allocators' own entry points"): each call of jemalloc's mallocx family, mimalloc's mi_
// functions and tcmalloc's tc_ functions, made by the program, counts exactly once — one
// allocation of the bytes asked for, the allocator's usable size in the live heap — and each free
// takes off what its allocation put on. Calls that the allocator makes of another of its entry
// points (mi_posix_memalign through mi_malloc_aligned) count once, not twice.
//
// Built into each per-allocator executable (test/alloc/CMakeLists.txt); a test for another
// allocator than the executable's skips. The calls are direct, as a program's are: they bind to
// tare's definitions, which forward to the allocator's.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <new>
#include <string>
#include <vector>

#include "alloc/accounting.hpp"
#include "allocator_setup.hpp"

extern "C" {
// jemalloc
void* mallocx(std::size_t size, int flags) noexcept;
void* rallocx(void* p, std::size_t size, int flags) noexcept;
std::size_t xallocx(void* p, std::size_t size, std::size_t extra, int flags) noexcept;
void dallocx(void* p, int flags) noexcept;
void sdallocx(void* p, std::size_t size, int flags) noexcept;
// mimalloc
void* mi_malloc(std::size_t size) noexcept;
void* mi_zalloc(std::size_t size) noexcept;
void* mi_calloc(std::size_t count, std::size_t size) noexcept;
void* mi_mallocn(std::size_t count, std::size_t size) noexcept;
void* mi_malloc_small(std::size_t size) noexcept;
void* mi_zalloc_small(std::size_t size) noexcept;
void* mi_realloc(void* p, std::size_t size) noexcept;
void* mi_reallocn(void* p, std::size_t count, std::size_t size) noexcept;
void* mi_reallocf(void* p, std::size_t size) noexcept;
void* mi_rezalloc(void* p, std::size_t size) noexcept;
void* mi_recalloc(void* p, std::size_t count, std::size_t size) noexcept;
void* mi_malloc_aligned(std::size_t size, std::size_t align) noexcept;
void* mi_malloc_aligned_at(std::size_t size, std::size_t align, std::size_t offset) noexcept;
void* mi_zalloc_aligned(std::size_t size, std::size_t align) noexcept;
void* mi_calloc_aligned(std::size_t count, std::size_t size, std::size_t align) noexcept;
void* mi_realloc_aligned(void* p, std::size_t size, std::size_t align) noexcept;
char* mi_strdup(const char* s) noexcept;
char* mi_strndup(const char* s, std::size_t n) noexcept;
void mi_free(void* p) noexcept;
void mi_free_size(void* p, std::size_t size) noexcept;
void mi_free_aligned(void* p, std::size_t align) noexcept;
void mi_free_size_aligned(void* p, std::size_t size, std::size_t align) noexcept;
void* mi_new(std::size_t size);
void* mi_new_nothrow(std::size_t size) noexcept;
void* mi_new_aligned(std::size_t size, std::size_t align);
void* mi_new_n(std::size_t count, std::size_t size);
// tcmalloc
void* tc_malloc(std::size_t size) noexcept;
void* tc_malloc_skip_new_handler(std::size_t size) noexcept;
void* tc_calloc(std::size_t count, std::size_t size) noexcept;
void* tc_realloc(void* p, std::size_t size) noexcept;
void* tc_memalign(std::size_t align, std::size_t size) noexcept;
int tc_posix_memalign(void** out, std::size_t align, std::size_t size) noexcept;
void* tc_valloc(std::size_t size) noexcept;
void* tc_pvalloc(std::size_t size) noexcept;
void tc_free(void* p) noexcept;
void tc_cfree(void* p) noexcept;
void tc_free_sized(void* p, std::size_t size) noexcept;
void* tc_new(std::size_t size);
void* tc_newarray(std::size_t size);
void* tc_new_nothrow(std::size_t size, const std::nothrow_t&) noexcept;
void* tc_newarray_nothrow(std::size_t size, const std::nothrow_t&) noexcept;
void* tc_new_aligned(std::size_t size, std::align_val_t align);
void* tc_newarray_aligned(std::size_t size, std::align_val_t align);
void* tc_new_aligned_nothrow(std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept;
void tc_delete(void* p) noexcept;
void tc_deletearray(void* p) noexcept;
void tc_delete_sized(void* p, std::size_t size) noexcept;
void tc_deletearray_sized(void* p, std::size_t size) noexcept;
void tc_delete_nothrow(void* p, const std::nothrow_t&) noexcept;
void tc_delete_aligned(void* p, std::align_val_t align) noexcept;
void tc_delete_sized_aligned(void* p, std::size_t size, std::align_val_t align) noexcept;
void tc_deletearray_aligned_nothrow(void* p, std::align_val_t align, const std::nothrow_t&) noexcept;
}

namespace {

namespace alloc = tare::alloc;

/// An allocator function tare does not define, looked up by name: an executable built for
/// another allocator links without it.
template <typename F>
F find(const char* name) {
    auto* f = reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
    EXPECT_NE(f, nullptr) << name << " is not in the process";
    return f;
}

std::size_t sallocx(const void* p, int flags) {
    return find<std::size_t (*)(const void*, int)>("sallocx")(p, flags);
}
std::size_t mi_usable_size(const void* p) {
    return find<std::size_t (*)(const void*)>("mi_usable_size")(p);
}
int mi_posix_memalign(void** out, std::size_t align, std::size_t size) {
    return find<int (*)(void**, std::size_t, std::size_t)>("mi_posix_memalign")(out, align, size);
}
void* mi_reallocarray(void* p, std::size_t count, std::size_t size) {
    return find<void* (*)(void*, std::size_t, std::size_t)>("mi_reallocarray")(p, count, size);
}
std::size_t tc_malloc_size(void* p) {
    return find<std::size_t (*)(void*)>("tc_malloc_size")(p);
}

const std::string expected = tare::alloc::test::allocator_name;

void escape(void* p) {
    asm volatile("" : : "g"(p) : "memory");
}

/// One call that makes a block: its name, the call, and the bytes it asks for.
struct maker {
    const char* name;
    std::function<void*()> make;
    std::size_t requested;
};

/// One call that frees a block made by `make`.
struct releaser {
    const char* name;
    std::function<void(void*)> release;
};

class native_api_test : public testing::Test {
protected:
    void SetUp() override { tare::alloc::test::require_the_allocator(); }

    void TearDown() override {
        if (open_)
            alloc::region_end();
    }

    /// Each maker, alone in a region, counts one allocation of its bytes and the usable size
    /// `usable` reports; `release` then takes the level back to 0.
    void expect_each_counted_once(const std::vector<maker>& makers,
                                  const std::function<std::size_t(void*)>& usable,
                                  const std::function<void(void*)>& release) {
        for (const maker& m : makers) {
            alloc::region_begin();
            open_ = true;
            void* p = m.make();
            escape(p);
            const alloc::counters held = alloc::snapshot();
            ASSERT_NE(p, nullptr) << m.name;
            const auto size = static_cast<std::int64_t>(usable(p));
            release(p);
            const alloc::counters done = alloc::snapshot();
            alloc::region_end();
            open_ = false;
            EXPECT_EQ(held.allocs, 1U) << m.name;
            EXPECT_EQ(held.bytes, m.requested) << m.name;
            EXPECT_EQ(held.live, size) << m.name;
            EXPECT_EQ(done.live, 0) << m.name << ": the free took off what the allocation put on";
            EXPECT_EQ(done.peak, size) << m.name;
        }
    }

    /// Each releaser takes off exactly the usable size of a block `make` made in the region.
    void expect_each_release_counted(const std::vector<releaser>& releasers,
                                     const std::function<void*()>& make,
                                     const std::function<std::size_t(void*)>& usable) {
        for (const releaser& r : releasers) {
            alloc::region_begin();
            open_ = true;
            void* p = make();
            escape(p);
            ASSERT_NE(p, nullptr) << r.name;
            const auto size = static_cast<std::int64_t>(usable(p));
            const alloc::counters held = alloc::snapshot();
            r.release(p);
            const alloc::counters done = alloc::snapshot();
            alloc::region_end();
            open_ = false;
            EXPECT_EQ(held.live, size) << r.name;
            EXPECT_EQ(done.live, 0) << r.name;
            EXPECT_EQ(done.allocs, 1U) << r.name;
        }
    }

    bool open_ = false;
};

// ---- jemalloc ----------------------------------------------------------------------------

constexpr int mallocx_zero = 0x40;   // MALLOCX_ZERO
constexpr int mallocx_align_64 = 6;  // MALLOCX_LG_ALIGN(6)
std::size_t je_usable(void* p) {
    return sallocx(p, 0);
}

TEST_F(native_api_test, jemallocs_mallocx_family_is_counted) {
    if (expected != "jemalloc")
        GTEST_SKIP() << "a jemalloc test; this executable runs on " << expected;
    expect_each_counted_once({{"mallocx", [] { return mallocx(100, 0); }, 100},
                              {"mallocx zeroed", [] { return mallocx(1000, mallocx_zero); }, 1000},
                              {"mallocx aligned", [] { return mallocx(300, mallocx_align_64); }, 300}},
                             je_usable, [](void* p) { dallocx(p, 0); });
    expect_each_release_counted(
        {{"dallocx", [](void* p) { dallocx(p, 0); }},
         {"sdallocx", [](void* p) { sdallocx(p, 700, 0); }},
         {"free", [](void* p) { std::free(p); }}},
        [] { return mallocx(700, 0); }, je_usable);
}

TEST_F(native_api_test, jemallocs_resizes_release_the_old_block_and_count_the_new) {
    if (expected != "jemalloc")
        GTEST_SKIP() << "a jemalloc test; this executable runs on " << expected;
    void* before = mallocx(64, 0);  // made before the region: its release is an older block's
    const auto before_usable = static_cast<std::int64_t>(je_usable(before));
    alloc::region_begin();
    open_ = true;
    void* grown = rallocx(before, 70000, 0);
    ASSERT_NE(grown, nullptr);
    const alloc::counters after_rallocx = alloc::snapshot();
    const std::size_t old_size = je_usable(grown);
    const std::size_t new_size = xallocx(grown, 200000, 0, 0);  // in place, if jemalloc can
    const alloc::counters after_xallocx = alloc::snapshot();
    sdallocx(grown, 200000, 0);
    const alloc::counters done = alloc::snapshot();
    alloc::region_end();
    open_ = false;
    EXPECT_EQ(after_rallocx.allocs, 1U);
    EXPECT_EQ(after_rallocx.bytes, 70000U);
    EXPECT_EQ(after_rallocx.live, static_cast<std::int64_t>(old_size) - before_usable);
    // A resize in place counts as a resize; a size left as it was counts nothing.
    const bool resized = new_size != old_size;
    EXPECT_EQ(after_xallocx.allocs, resized ? 2U : 1U) << old_size << " -> " << new_size;
    EXPECT_EQ(after_xallocx.live, static_cast<std::int64_t>(new_size) - before_usable);
    EXPECT_EQ(done.live, -before_usable);
}

// ---- mimalloc ----------------------------------------------------------------------------

std::size_t mi_usable(void* p) {
    return mi_usable_size(p);
}

TEST_F(native_api_test, mimallocs_mi_functions_are_counted) {
    if (expected != "mimalloc")
        GTEST_SKIP() << "a mimalloc test; this executable runs on " << expected;
    expect_each_counted_once(
        {{"mi_malloc", [] { return mi_malloc(100); }, 100},
         {"mi_zalloc", [] { return mi_zalloc(100); }, 100},
         {"mi_calloc", [] { return mi_calloc(3, 24); }, 72},
         {"mi_mallocn", [] { return mi_mallocn(3, 24); }, 72},
         {"mi_malloc_small", [] { return mi_malloc_small(64); }, 64},
         {"mi_zalloc_small", [] { return mi_zalloc_small(64); }, 64},
         {"mi_malloc_aligned", [] { return mi_malloc_aligned(100, 256); }, 100},
         {"mi_malloc_aligned_at", [] { return mi_malloc_aligned_at(100, 64, 16); }, 100},
         {"mi_zalloc_aligned", [] { return mi_zalloc_aligned(100, 64); }, 100},
         {"mi_calloc_aligned", [] { return mi_calloc_aligned(4, 25, 64); }, 100},
         {"mi_strdup", [] { return static_cast<void*>(mi_strdup("hello")); }, 6},
         {"mi_strndup", [] { return static_cast<void*>(mi_strndup("hello", 3)); }, 4},
         {"mi_new", [] { return mi_new(100); }, 100},
         {"mi_new_nothrow", [] { return mi_new_nothrow(100); }, 100},
         {"mi_new_aligned", [] { return mi_new_aligned(100, 128); }, 100},
         {"mi_new_n", [] { return mi_new_n(3, 8); }, 24},
         // Through another entry point, inside mimalloc: counted there, once.
         {"mi_posix_memalign",
          [] {
              void* p = nullptr;
              return mi_posix_memalign(&p, 64, 200) == 0 ? p : nullptr;
          },
          200},
         {"mi_reallocarray (nullptr)", [] { return mi_reallocarray(nullptr, 5, 10); }, 50},
         {"mi_realloc (nullptr)", [] { return mi_realloc(nullptr, 90); }, 90}},
        mi_usable, mi_free);
    expect_each_release_counted(
        {{"mi_free", mi_free},
         {"mi_free_size", [](void* p) { mi_free_size(p, 500); }},
         {"mi_free_aligned", [](void* p) { mi_free_aligned(p, 16); }},
         {"mi_free_size_aligned", [](void* p) { mi_free_size_aligned(p, 500, 16); }},
         {"free", [](void* p) { std::free(p); }}},
        [] { return mi_malloc(500); }, mi_usable);
}

TEST_F(native_api_test, mimallocs_resizes_release_the_old_block_and_count_the_new) {
    if (expected != "mimalloc")
        GTEST_SKIP() << "a mimalloc test; this executable runs on " << expected;
    using resize = std::function<void*(void*)>;
    const std::vector<std::pair<const char*, resize>> resizes = {
        {"mi_realloc", [](void* p) { return mi_realloc(p, 5000); }},
        {"mi_reallocn", [](void* p) { return mi_reallocn(p, 50, 100); }},
        {"mi_reallocf", [](void* p) { return mi_reallocf(p, 5000); }},
        {"mi_rezalloc", [](void* p) { return mi_rezalloc(p, 5000); }},
        {"mi_recalloc", [](void* p) { return mi_recalloc(p, 50, 100); }},
        {"mi_realloc_aligned", [](void* p) { return mi_realloc_aligned(p, 5000, 64); }},
        {"mi_reallocarray", [](void* p) { return mi_reallocarray(p, 50, 100); }},
    };
    for (const auto& [name, grow] : resizes) {
        alloc::region_begin();
        open_ = true;
        void* p = mi_zalloc_aligned(40, 64);
        const auto small = static_cast<std::int64_t>(mi_usable(p));
        void* q = grow(p);
        ASSERT_NE(q, nullptr) << name;
        const alloc::counters grown = alloc::snapshot();
        const auto large = static_cast<std::int64_t>(mi_usable(q));
        mi_free(q);
        const alloc::counters done = alloc::snapshot();
        alloc::region_end();
        open_ = false;
        EXPECT_EQ(grown.allocs, 2U) << name;
        EXPECT_EQ(grown.bytes, 40U + 5000U) << name;
        EXPECT_EQ(grown.live, large) << name;
        // The old block is released before the new one is counted, as realloc's (the net change).
        EXPECT_EQ(grown.peak, std::max(small, large)) << name;
        EXPECT_EQ(done.live, 0) << name;
    }
}

// ---- tcmalloc ----------------------------------------------------------------------------

std::size_t tc_usable(void* p) {
    return tc_malloc_size(p);
}

TEST_F(native_api_test, tcmallocs_tc_functions_are_counted) {
    if (expected != "tcmalloc")
        GTEST_SKIP() << "a tcmalloc test; this executable runs on " << expected;
    const std::align_val_t a64{64};
    expect_each_counted_once(
        {{"tc_malloc", [] { return tc_malloc(100); }, 100},
         {"tc_malloc_skip_new_handler", [] { return tc_malloc_skip_new_handler(100); }, 100},
         {"tc_calloc", [] { return tc_calloc(3, 24); }, 72},
         {"tc_memalign", [] { return tc_memalign(256, 100); }, 100},
         {"tc_posix_memalign",
          [] {
              void* p = nullptr;
              return tc_posix_memalign(&p, 64, 200) == 0 ? p : nullptr;
          },
          200},
         {"tc_valloc", [] { return tc_valloc(100); }, 100},
         {"tc_pvalloc", [] { return tc_pvalloc(100); }, 100},
         {"tc_realloc (nullptr)", [] { return tc_realloc(nullptr, 90); }, 90},
         {"tc_new", [] { return tc_new(100); }, 100},
         {"tc_newarray", [] { return tc_newarray(100); }, 100},
         {"tc_new_nothrow", [] { return tc_new_nothrow(100, std::nothrow); }, 100},
         {"tc_newarray_nothrow", [] { return tc_newarray_nothrow(100, std::nothrow); }, 100},
         {"tc_new_aligned", [a64] { return tc_new_aligned(100, a64); }, 100},
         {"tc_newarray_aligned", [a64] { return tc_newarray_aligned(100, a64); }, 100},
         {"tc_new_aligned_nothrow", [a64] { return tc_new_aligned_nothrow(100, a64, std::nothrow); }, 100}},
        tc_usable, tc_free);
    expect_each_release_counted(
        {{"tc_free", tc_free},
         {"tc_cfree", tc_cfree},
         {"tc_free_sized", [](void* p) { tc_free_sized(p, 500); }},
         {"tc_delete", tc_delete},
         {"tc_deletearray", tc_deletearray},
         {"tc_delete_sized", [](void* p) { tc_delete_sized(p, 500); }},
         {"tc_deletearray_sized", [](void* p) { tc_deletearray_sized(p, 500); }},
         {"tc_delete_nothrow", [](void* p) { tc_delete_nothrow(p, std::nothrow); }},
         {"tc_delete_aligned", [a64](void* p) { tc_delete_aligned(p, a64); }},
         {"tc_delete_sized_aligned", [a64](void* p) { tc_delete_sized_aligned(p, 500, a64); }},
         {"tc_deletearray_aligned_nothrow",
          [a64](void* p) { tc_deletearray_aligned_nothrow(p, a64, std::nothrow); }},
         {"tc_realloc to 0", [](void* p) { EXPECT_EQ(tc_realloc(p, 0), nullptr); }},
         {"free", [](void* p) { std::free(p); }}},
        [] { return tc_memalign(64, 500); }, tc_usable);
}

TEST_F(native_api_test, tcmallocs_realloc_releases_the_old_block_and_counts_the_new) {
    if (expected != "tcmalloc")
        GTEST_SKIP() << "a tcmalloc test; this executable runs on " << expected;
    alloc::region_begin();
    open_ = true;
    void* p = tc_malloc(40);
    void* q = tc_realloc(p, 5000);
    ASSERT_NE(q, nullptr);
    const alloc::counters grown = alloc::snapshot();
    const auto large = static_cast<std::int64_t>(tc_usable(q));
    tc_free(q);
    const alloc::counters done = alloc::snapshot();
    alloc::region_end();
    open_ = false;
    EXPECT_EQ(grown.allocs, 2U);
    EXPECT_EQ(grown.bytes, 5040U);
    EXPECT_EQ(grown.live, large);
    EXPECT_EQ(done.live, 0);
}

// ---- Any allocator -------------------------------------------------------------------------

// A call of an allocator's own API with no such allocator in the process (tare's definition
// satisfied the link: the allocator linked statically, or not at all) ends the process with the
// fix, rather than serve the block from another allocator.
TEST_F(native_api_test, a_call_with_no_allocator_behind_it_names_the_fix) {
    if (expected != "glibc")
        GTEST_SKIP() << "this executable runs on " << expected << ", whose API is there";
    testing::FLAGS_gtest_death_test_style = "threadsafe";
    EXPECT_DEATH(mallocx(8, 0),
                 "the program calls mallocx, but no shared library in the process defines it.*"
                 "Link the allocator as a shared library");
    EXPECT_DEATH(mi_free(reinterpret_cast<void*>(std::uintptr_t{4096})), "calls mi_free");
    EXPECT_DEATH(tc_malloc(8), "calls tc_malloc");
}

// A block the allocator's own API made while the region was paused is in no figure when it is
// freed while counting, as a malloc'd one is.
TEST_F(native_api_test, a_block_made_while_paused_is_in_no_figure) {
    using pair = std::pair<void* (*)(std::size_t), void (*)(void*)>;
    pair api{};
    if (expected == "jemalloc")
        api = {[](std::size_t n) { return mallocx(n, 0); }, [](void* p) { dallocx(p, 0); }};
    else if (expected == "mimalloc")
        api = {[](std::size_t n) { return mi_malloc(n); }, [](void* p) { mi_free(p); }};
    else if (expected == "tcmalloc")
        api = {[](std::size_t n) { return tc_malloc(n); }, [](void* p) { tc_free(p); }};
    else
        GTEST_SKIP() << "glibc has no API of its own past the malloc family";
    alloc::region_begin();
    open_ = true;
    alloc::pause();
    void* p = api.first(1000);
    alloc::resume();
    api.second(p);
    const alloc::counters done = alloc::snapshot();
    alloc::region_end();
    open_ = false;
    EXPECT_EQ(done.allocs, 0U);
    EXPECT_EQ(done.live, 0);
}

}  // namespace
