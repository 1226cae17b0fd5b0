// A sized operator delete under tare reaches the allocator's own sized delete, as it does
// without tare, and is counted once: tested on a stand-in allocator that counts its sized
// deletes (sized_delete_fake.cpp), since a real allocator's blocks cannot tell which of its
// frees took them back. The real allocators are checked in allocator_test.cpp.
#include <gtest/gtest.h>
#include <malloc.h>

#include <cstddef>
#include <cstdint>
#include <new>

#include "alloc/accounting.hpp"
#include "allocator_setup.hpp"

extern "C" int fake_sized_delete_calls() noexcept;
extern "C" int fake_free_calls() noexcept;

namespace {

namespace alloc = tare::alloc;

void escape(void* p) {
    asm volatile("" : : "g"(p) : "memory");
}

TEST(sized_delete, reaches_the_allocators_own_once_and_counts_exactly) {
    tare::alloc::test::require_the_allocator();
    const int sized_before = fake_sized_delete_calls();
    const int frees_before = fake_free_calls();
    alloc::region_begin();
    void* a = ::operator new(48);
    escape(a);
    void* b = ::operator new[](300);
    escape(b);
    void* c = ::operator new (64, std::align_val_t{64});
    escape(c);
    void* d = ::operator new[](640, std::align_val_t{128});
    escape(d);
    const alloc::counters held = alloc::snapshot();
    std::size_t usable = 0;
    for (void* block : {a, b, c, d})
        usable += malloc_usable_size(block);
    ::operator delete(a, 48);
    ::operator delete[](b, 300);
    ::operator delete (c, 64, std::align_val_t{64});
    ::operator delete[](d, 640, std::align_val_t{128});
    const alloc::counters done = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(fake_sized_delete_calls() - sized_before, 4) << "sized deletes went to free";
    EXPECT_EQ(fake_free_calls() - frees_before, 0);
    EXPECT_EQ(held.allocs, 4U);
    EXPECT_EQ(held.live, static_cast<std::int64_t>(usable));
    EXPECT_EQ(done.live, 0);
    EXPECT_EQ(done.peak, held.live);
}

// An unsized delete stays a free: the allocator's unsized delete is its free in every allocator
// tare forwards to.
TEST(sized_delete, an_unsized_delete_is_a_free) {
    tare::alloc::test::require_the_allocator();
    const int sized_before = fake_sized_delete_calls();
    const int frees_before = fake_free_calls();
    void* a = ::operator new(48);
    escape(a);
    ::operator delete(a);
    EXPECT_EQ(fake_sized_delete_calls() - sized_before, 0);
    EXPECT_EQ(fake_free_calls() - frees_before, 1);
}

}  // namespace
