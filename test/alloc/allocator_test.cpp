// The allocator underneath: one source, linked once per allocator (test/alloc/CMakeLists.txt)
// — glibc, jemalloc linked and LD_PRELOADed, mimalloc, tcmalloc_minimal — each executable
// linked with tare::tare as a benchmark is. It checks that the blocks the program gets come
// from the allocator it linked, as they would without tare, and that the counts stay exact.
//
// The allocator's own API is looked up with dlsym rather than declared, so that one source
// serves the linked and the preloaded builds alike.
//
// allocator_setup.hpp names the allocator the executable was built for, and, when its library is
// not installed, why: every test then skips with that reason.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "../unit/alloc_slack.hpp"
#include "alloc/accounting.hpp"
#include "alloc/underlying.hpp"
#include "allocator_setup.hpp"

namespace {

namespace alloc = tare::alloc;

const std::string expected = tare::alloc::test::allocator_name;
using tare::alloc::test::reallocations_to_grow;

void escape(void* p) {
    asm volatile("" : : "g"(p) : "memory");
}

template <typename F>
F lookup(const char* name) {
    return reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
}

/// The allocator's own definition of `name`, past tare's forwarder (interpose_native.cpp): the
/// next one after this executable.
template <typename F>
F lookup_past_tare(const char* name) {
    return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

class allocator_test : public testing::Test {
protected:
    void SetUp() override { tare::alloc::test::require_the_allocator(); }
};

/// Bytes the allocator says this thread (or the process) has allocated, by its own counter.
std::int64_t allocator_counter() {
    if (expected == "jemalloc") {
        using mallctl_fn = int (*)(const char*, void*, std::size_t*, void*, std::size_t);
        const auto mallctl = lookup<mallctl_fn>("mallctl");
        EXPECT_NE(mallctl, nullptr) << "jemalloc's mallctl is not in the process";
        std::uint64_t allocated = 0;
        std::size_t len = sizeof allocated;
        if (mallctl == nullptr || mallctl("thread.allocated", &allocated, &len, nullptr, 0) != 0)
            return -1;
        return static_cast<std::int64_t>(allocated);
    }
    if (expected == "tcmalloc") {
        using property_fn = int (*)(const char*, std::size_t*);
        const auto property = lookup<property_fn>("MallocExtension_GetNumericProperty");
        EXPECT_NE(property, nullptr) << "tcmalloc's MallocExtension is not in the process";
        std::size_t bytes = 0;
        if (property == nullptr || property("generic.current_allocated_bytes", &bytes) == 0)
            return -1;
        return static_cast<std::int64_t>(bytes);
    }
    if (expected == "glibc") {
        const struct mallinfo2 m = mallinfo2();
        return static_cast<std::int64_t>(m.uordblks + m.hblkhd);
    }
    return 0;
}

TEST_F(allocator_test, a_block_comes_from_the_allocator_linked) {
    constexpr std::size_t n = std::size_t{1} << 20;
    if (expected == "mimalloc") {
        using in_heap_fn = bool (*)(const void*);
        const auto in_heap = lookup<in_heap_fn>("mi_is_in_heap_region");
        ASSERT_NE(in_heap, nullptr) << "mimalloc's mi_is_in_heap_region is not in the process";
        void* p = std::malloc(n);
        escape(p);
        EXPECT_TRUE(in_heap(p)) << "malloc's block is not in mimalloc's heap";
        void* q = ::operator new(100);
        escape(q);
        EXPECT_TRUE(in_heap(q)) << "operator new's block is not in mimalloc's heap";
        ::operator delete(q);
        std::free(p);
        return;
    }
    const std::int64_t before = allocator_counter();
    void* p = std::malloc(n);
    escape(p);
    const std::int64_t after = allocator_counter();
    std::free(p);
    ASSERT_GE(before, 0);
    EXPECT_GE(after - before, static_cast<std::int64_t>(n))
        << expected << "'s own counter did not see malloc(1 MiB): the block came from another allocator";
    EXPECT_LE(after - before, static_cast<std::int64_t>(2 * n));  // one block, not two
}

// The run's header and context.allocator name the allocator the program runs on, what tare
// counts of it and what it does not see: the allocator's own API is counted when the executable
// links the allocator (its calls, and its shared libraries', reach tare's definitions), not when
// the allocator is only preloaded.
TEST_F(allocator_test, the_allocator_is_named_with_what_is_counted) {
    const std::string& line = alloc::allocator_in_use();
    EXPECT_EQ(line.rfind(expected, 0), 0U) << line;
    EXPECT_NE(line.find(": malloc family, new/delete"), std::string::npos) << line;
    EXPECT_NE(line.find("declared pools"), std::string::npos) << line;
    const bool linked = !tare::alloc::test::allocator_preloaded;
    const char* own = expected == "jemalloc"   ? ", mallocx family"
                      : expected == "mimalloc" ? ", mi_ functions"
                      : expected == "tcmalloc" ? ", tc_ functions"
                                               : nullptr;
    if (own == nullptr) {
        EXPECT_EQ(line.find("; not its"), std::string::npos) << line;
        return;
    }
    EXPECT_EQ(line.find(own) != std::string::npos, linked) << line;
    EXPECT_EQ(line.find("; not its mallocx family") != std::string::npos, !linked) << line;
    EXPECT_EQ(line.find("; not its heaps (mi_heap_)") != std::string::npos, expected == "mimalloc") << line;
}

// Every entry point of the malloc family counts once, whatever the allocator calls inside (its
// memalign may call its own aligned entry point through its PLT: mimalloc's does).
TEST_F(allocator_test, counts_stay_exact) {
    alloc::region_begin();
    void* p = std::malloc(1 << 20);
    escape(p);
    char* q = new char[100];
    escape(q);
    void* r = std::calloc(3, 24);
    escape(r);
    void* s = aligned_alloc(64, 640);
    escape(s);
    void* t = nullptr;
    ASSERT_EQ(posix_memalign(&t, 128, 300), 0);
    void* u = memalign(256, 50);
    escape(u);
    void* v = valloc(70);
    escape(v);
    void* w = ::operator new (200, std::align_val_t{64});
    escape(w);
    void* x = std::realloc(std::malloc(10), 5000);  // two allocations, the first block released
    escape(x);
    const alloc::counters held = alloc::snapshot();
    std::size_t usable = 0;
    for (void* block : {p, static_cast<void*>(q), r, s, t, u, v, w, x})
        usable += malloc_usable_size(block);
    std::free(p);
    delete[] q;
    for (void* block : {r, s, t, u, v, x})
        std::free(block);
    ::operator delete (w, std::align_val_t{64});
    const alloc::counters done = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(held.allocs, 10U);
    EXPECT_EQ(held.bytes, (1U << 20) + 100U + 72U + 640U + 300U + 50U + 70U + 200U + 10U + 5000U);
    EXPECT_EQ(held.live, static_cast<std::int64_t>(usable));  // the allocator's own sizes
    EXPECT_EQ(held.peak, held.live);  // the realloc raised it past the block it released
    EXPECT_EQ(done.allocs, 10U);
    EXPECT_EQ(done.live, 0);
    EXPECT_EQ(done.peak, held.live);
}

/// The allocator's own entry points, looked up by name: a block made past tare, its usable size,
/// and its free.
struct native_api {
    void* (*allocate)(std::size_t) = nullptr;
    std::size_t (*usable_size)(void*) = nullptr;
    void (*release)(void*) = nullptr;
    void* (*resize)(void*, std::size_t) = nullptr;
};

// The allocator's own entry points past tare (the native_api_test checks the ones tare counts).
void* je_mallocx(std::size_t n) {
    return lookup_past_tare<void* (*)(std::size_t, int)>("mallocx")(n, 0);
}
std::size_t je_sallocx(void* p) {
    return lookup_past_tare<std::size_t (*)(const void*, int)>("sallocx")(p, 0);
}
void je_dallocx(void* p) {
    lookup_past_tare<void (*)(void*, int)>("dallocx")(p, 0);
}
void* je_rallocx(void* p, std::size_t n) {
    return p == nullptr ? je_mallocx(n)
                        : lookup_past_tare<void* (*)(void*, std::size_t, int)>("rallocx")(p, n, 0);
}

native_api native() {
    if (expected == "jemalloc")
        return {je_mallocx, je_sallocx, je_dallocx, je_rallocx};
    if (expected == "mimalloc") {
        return {lookup_past_tare<void* (*)(std::size_t)>("mi_malloc"),
                lookup_past_tare<std::size_t (*)(void*)>("mi_usable_size"),
                lookup_past_tare<void (*)(void*)>("mi_free"),
                lookup_past_tare<void* (*)(void*, std::size_t)>("mi_realloc")};
    }
    if (expected == "tcmalloc") {
        return {lookup_past_tare<void* (*)(std::size_t)>("tc_malloc"),
                lookup_past_tare<std::size_t (*)(void*)>("tc_malloc_size"),
                lookup_past_tare<void (*)(void*)>("tc_free"),
                lookup_past_tare<void* (*)(void*, std::size_t)>("tc_realloc")};
    }
    return {lookup_past_tare<void* (*)(std::size_t)>("__libc_malloc"), nullptr,
            lookup_past_tare<void (*)(void*)>("__libc_free"),
            lookup_past_tare<void* (*)(void*, std::size_t)>("__libc_realloc")};
}

// The program gets the block its allocator gives for the size it asked: malloc(100) has the
// usable size the allocator's own entry point answers for the same request (with tare's old
// header it was 100, and the block one size class up).
TEST_F(allocator_test, a_block_is_the_allocators_own_size) {
    const native_api api = native();
    ASSERT_NE(api.allocate, nullptr);
    for (const std::size_t n : {std::size_t{1}, std::size_t{100}, std::size_t{1000}, std::size_t{70000}}) {
        void* ours = std::malloc(n);
        escape(ours);
        void* theirs = api.allocate(n);
        ASSERT_NE(theirs, nullptr);
        const std::size_t their_size =
            api.usable_size != nullptr ? api.usable_size(theirs) : malloc_usable_size(theirs);
        EXPECT_EQ(malloc_usable_size(ours), their_size) << expected << ", malloc(" << n << ")";
        api.release(theirs);
        std::free(ours);
    }
}

// Code that grows into its slack reallocates as often under tare as through the allocator's
// own entry points (with tare's old header it reallocated more often: 100 usable bytes, not 104).
TEST_F(allocator_test, code_that_grows_into_its_slack_reallocates_as_without_tare) {
    const native_api api = native();
    ASSERT_NE(api.resize, nullptr);
    const auto theirs_usable = [&](void* p) {
        return api.usable_size != nullptr ? api.usable_size(p) : malloc_usable_size(p);
    };
    const int under_tare = reallocations_to_grow(
        5000, [](void* p, std::size_t n) { return std::realloc(p, n); },
        [](void* p) { return malloc_usable_size(p); }, std::free);
    const int theirs = reallocations_to_grow(5000, api.resize, theirs_usable, api.release);
    EXPECT_EQ(under_tare, theirs) << expected;
}

// A block freed through another of the allocator's entry points than the one that made it, as
// the allocator allows, runs (it crashed with the header) and lowers the level by its usable
// size; a block the allocator's own API made, freed by free(), too.
TEST_F(allocator_test, frees_across_the_allocators_entry_points_run_and_count) {
    const native_api api = native();
    ASSERT_NE(api.allocate, nullptr);
    void* theirs = api.allocate(300);
    ASSERT_NE(theirs, nullptr);
    const auto theirs_usable = static_cast<std::int64_t>(malloc_usable_size(theirs));
    alloc::region_begin();
    void* ours = std::malloc(500);
    escape(ours);
    const auto ours_usable = static_cast<std::int64_t>(malloc_usable_size(ours));
    const alloc::counters held = alloc::snapshot();
    // Past tare's hooks: not seen, except on jemalloc, whose own counters of this thread the
    // owner's level is read off (level_test.cpp).
    api.release(ours);
    std::free(theirs);  // seen: an older block's free
    const alloc::counters done = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(held.allocs, 1U);
    EXPECT_EQ(held.live, ours_usable);
    EXPECT_EQ(done.live, (expected == "jemalloc" ? 0 : ours_usable) - theirs_usable);
}

// The allocator's own mappings are its heap, not the program's: jemalloc and mimalloc call mmap
// from their own code, which tare tells by the caller's address; the program's own mapping counts.
TEST_F(allocator_test, the_allocators_mappings_are_its_heap_and_the_programs_count) {
    if (!alloc::mappings_counted())
        GTEST_SKIP() << "mappings are not counted in this build";
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    alloc::region_begin();
    void* blocks[8];
    for (void*& b : blocks) {
        b = std::malloc(std::size_t{16} << 20);  // past every allocator's small classes: mapped
        escape(b);
    }
    for (void* b : blocks)
        std::free(b);
    void* own = mmap(nullptr, page * 10, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    const alloc::counters c = alloc::snapshot();
    alloc::region_end();
    ASSERT_NE(own, MAP_FAILED);
    munmap(own, page * 10);
    EXPECT_EQ(c.mapped, page * 10) << expected;
    EXPECT_EQ(c.allocs, 8U);
}

TEST_F(allocator_test, realloc_keeps_the_contents_in_the_same_allocator) {
    auto* p = static_cast<unsigned char*>(std::malloc(40));
    ASSERT_NE(p, nullptr);
    for (unsigned i = 0; i < 40; ++i)
        p[i] = static_cast<unsigned char>(i);
    for (std::size_t n : {100U, 5000U, 300000U, 64U}) {
        p = static_cast<unsigned char*>(std::realloc(p, n));
        ASSERT_NE(p, nullptr);
        for (unsigned i = 0; i < 40; ++i)
            ASSERT_EQ(p[i], i) << "after realloc to " << n;
    }
    std::free(p);
}

/// The module that defines `f`, or nullptr.
const void* module_of(const void* f) {
    Dl_info info{};
    return f != nullptr && dladdr(f, &info) != 0 ? info.dli_fbase : nullptr;
}

// A sized delete goes where it goes without tare: the allocator's own sized delete when its
// module defines one (jemalloc, tcmalloc and mimalloc do), free on glibc (libstdc++'s sized
// delete is a free). Its blocks still leave the figures exact, on every path of the free: the
// owner's plain one, a block made while paused, and an older block.
TEST_F(allocator_test, sized_deletes_reach_the_allocators_own_and_count_exactly) {
    namespace tad = tare::alloc::detail;
    const void* const home = module_of(lookup_past_tare<const void*>("malloc"));
    const void* const own[] = {reinterpret_cast<const void*>(tad::sized_delete.single),
                               reinterpret_cast<const void*>(tad::sized_delete.array),
                               reinterpret_cast<const void*>(tad::sized_delete.single_aligned),
                               reinterpret_cast<const void*>(tad::sized_delete.array_aligned)};
    for (const void* f : own) {
        if (expected == "glibc")
            EXPECT_EQ(f, nullptr) << "glibc has no sized delete of its own";
        else
            EXPECT_EQ(module_of(f), home) << expected << "'s sized delete is not the one called";
    }
    void* older = ::operator new(72);
    escape(older);
    alloc::region_begin();
    alloc::pause();
    void* paused = ::operator new(40);
    escape(paused);
    alloc::resume();
    void* a = ::operator new(48);
    escape(a);
    void* b = ::operator new[](4000);
    escape(b);
    void* c = ::operator new (96, std::align_val_t{64});
    escape(c);
    void* d = ::operator new[](1000, std::align_val_t{128});
    escape(d);
    const alloc::counters held = alloc::snapshot();
    std::size_t usable = 0;
    for (void* block : {a, b, c, d})
        usable += malloc_usable_size(block);
    const auto older_usable = static_cast<std::int64_t>(malloc_usable_size(older));
    ::operator delete(a, 48);
    ::operator delete[](b, 4000);
    ::operator delete (c, 96, std::align_val_t{64});
    ::operator delete[](d, 1000, std::align_val_t{128});
    ::operator delete(paused, 40);
    ::operator delete(older, 72);
    const alloc::counters done = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(held.allocs, 4U);
    EXPECT_EQ(held.bytes, 48U + 4000U + 96U + 1000U);
    EXPECT_EQ(held.live, static_cast<std::int64_t>(usable));
    EXPECT_EQ(done.allocs, 4U);
    EXPECT_EQ(done.live, -older_usable) << "the paused block lowered the level, or a block twice";
    EXPECT_EQ(done.peak, held.live);
}

}  // namespace
