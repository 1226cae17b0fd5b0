// Direct mappings (src/alloc/interpose_mmap.cpp) against ground truth: the anonymous mappings a
// region makes count their length in whole pages, and nothing else does — file mappings,
// PROT_NONE reservations, mappings made while paused or outside a region, and the mappings the
// allocator makes for its own heap.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <thread>

#include "unit/alloc_test_support.hpp"

namespace {

namespace alloc = tare::alloc;
using namespace tare::alloc::test;

std::size_t page() {
    return static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

void* map_anonymous(std::size_t length, int prot = PROT_READ | PROT_WRITE) {
    void* p = mmap(nullptr, length, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(p, MAP_FAILED);
    return p;
}

class mappings : public testing::Test {
protected:
    void SetUp() override {
        if (!alloc::mappings_counted())
            GTEST_SKIP() << "mappings are not counted in this build (no interposer, or the TSan build)";
    }
};

TEST_F(mappings, an_anonymous_mapping_counts_its_length_in_whole_pages) {
    alloc::region_begin();
    void* a = map_anonymous(page() * 256 + 1);  // 257 pages
    void* b = map_anonymous(100);               // 1 page
    const alloc::counters c = alloc::snapshot();
    munmap(a, page() * 256 + 1);
    munmap(b, 100);
    const alloc::counters after = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(c.mapped, page() * 258);
    EXPECT_EQ(after.mapped, c.mapped) << "unmapping takes nothing off: mapped bytes are a volume";
    EXPECT_EQ(c.allocs, 0U) << "a mapping is no allocation";
}

TEST_F(mappings, mremap_counts_what_it_grows) {
    void* p = map_anonymous(page());
    alloc::region_begin();
    void* q = mremap(p, page(), page() * 3, MREMAP_MAYMOVE);
    ASSERT_NE(q, MAP_FAILED);
    void* r = mremap(q, page() * 3, page() * 2, 0);  // shrinks: nothing
    ASSERT_NE(r, MAP_FAILED);
    const alloc::counters c = alloc::snapshot();
    alloc::region_end();
    munmap(r, page() * 2);
    EXPECT_EQ(c.mapped, page() * 2);
}

TEST_F(mappings, file_mappings_and_reservations_are_not_memory_the_body_took) {
    char path[] = "/tmp/tare-mappings-XXXXXX";
    const int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    unlink(path);
    ASSERT_EQ(ftruncate(fd, static_cast<off_t>(page() * 4)), 0);
    alloc::region_begin();
    void* file = mmap(nullptr, page() * 4, PROT_READ, MAP_PRIVATE, fd, 0);
    void* reserved = map_anonymous(page() * 1024, PROT_NONE);
    const alloc::counters c = alloc::snapshot();
    alloc::region_end();
    ASSERT_NE(file, MAP_FAILED);
    munmap(file, page() * 4);
    munmap(reserved, page() * 1024);
    close(fd);
    EXPECT_EQ(c.mapped, 0U);
}

TEST_F(mappings, nothing_counts_while_paused_or_outside_a_region) {
    void* before = map_anonymous(page());
    alloc::region_begin();
    alloc::pause();
    void* paused = map_anonymous(page() * 2);
    alloc::resume();
    void* counted = map_anonymous(page() * 4);
    const alloc::counters c = alloc::snapshot();
    alloc::region_end();
    void* after = map_anonymous(page() * 8);
    for (auto [p, n] : {std::pair{before, 1}, {paused, 2}, {counted, 4}, {after, 8}})
        munmap(p, page() * static_cast<std::size_t>(n));
    EXPECT_EQ(c.mapped, page() * 4);
}

TEST_F(mappings, another_threads_mapping_counts) {
    alloc::region_begin();
    void* p = nullptr;
    std::thread t([&] { p = map_anonymous(page() * 16); });
    t.join();
    const alloc::counters c = alloc::snapshot();
    alloc::region_end();
    munmap(p, page() * 16);
    // glibc maps the new thread's stack with an internal call that never reaches the hook.
    EXPECT_EQ(c.mapped, page() * 16);
}

// The allocator's own heap is not counted twice: glibc maps a large block through an internal
// call, and an allocator that calls mmap from its own code (jemalloc, mimalloc: test/alloc) is
// told by the caller's address.
TEST_F(mappings, the_allocators_own_mappings_are_its_heap) {
    alloc::region_begin();
    void* big = std::malloc(std::size_t{64} << 20);
    escape(big);
    std::free(big);
    const alloc::counters c = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(c.mapped, 0U);
    EXPECT_EQ(c.bytes, std::size_t{64} << 20);
}

}  // namespace
