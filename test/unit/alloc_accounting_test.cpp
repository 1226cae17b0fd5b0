// The allocation accounting against ground truth: bodies whose allocations are known exactly,
// through every entry point of the interposer. Everything between region_begin() and
// snapshot() below allocates only what it means to count: no GoogleTest assertion, no
// std::string, no container growth (the pointers live in fixed arrays); the checks come after.

#include <gtest/gtest.h>
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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

#include "alloc/tally.hpp"
#include "tare/report.hpp"
#include "unit/alloc_slack.hpp"
#include "unit/alloc_test_support.hpp"

namespace {

namespace alloc = tare::alloc;
using namespace tare::alloc::test;

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
    const std::int64_t held = usable(p);
    std::free(p);
    void* (*const m)(std::size_t) = &std::malloc;
    void (*const f)(void*) = &std::free;
    EXPECT_TRUE(tare::alloc::detail::hook_counts(m, f));
    const alloc::counters got = alloc::snapshot();
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.bytes, 10U);
    EXPECT_EQ(got.live, held);
    EXPECT_EQ(got.peak, held);
}

TEST(accounting, the_availability_probe_sees_a_function_that_bypasses_the_hook) {
    EXPECT_FALSE(tare::alloc::detail::hook_counts(&__libc_malloc, &__libc_free));
}

TEST(accounting, setup_allocations_are_in_no_figure) {
    constexpr std::size_t setup_size = 128 * mib;
    auto* setup = static_cast<unsigned char*>(std::malloc(setup_size));
    ASSERT_NE(setup, nullptr);
    for (std::size_t i = 0; i < setup_size; i += page)
        setup[i] = 1;  // touched

    alloc::region_begin();
    void* a = std::malloc(1000);
    escape(a);
    void* b = std::malloc(3000);
    escape(b);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    const std::int64_t held = usable(a) + usable(b);
    std::free(a);
    std::free(b);
    std::free(setup);

    EXPECT_EQ(got.allocs, 2U);
    EXPECT_EQ(got.bytes, 4000U);
    EXPECT_EQ(got.live, held);
    EXPECT_EQ(got.peak, held);
}

// The live heap is the region's net level: a setup block freed while the region counts lowers
// it, and the peak is the highest level above the one the region began at.
TEST(accounting, a_setup_block_freed_inside_the_region_lowers_the_level) {
    void* setup = std::malloc(10000);
    escape(setup);
    const std::int64_t setup_usable = usable(setup);
    alloc::region_begin();
    void* a = std::malloc(1000);
    escape(a);
    std::free(setup);
    void* b = std::malloc(3000);
    escape(b);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    const std::int64_t a_usable = usable(a);
    const std::int64_t b_usable = usable(b);
    std::free(a);
    std::free(b);
    EXPECT_EQ(got.allocs, 2U);
    EXPECT_EQ(got.bytes, 4000U);
    EXPECT_EQ(got.live, a_usable + b_usable - setup_usable);
    EXPECT_EQ(got.peak, a_usable);
}

TEST(accounting, freeing_only_setup_memory_lowers_the_level_and_keeps_the_peak_at_zero) {
    std::vector<unsigned char> setup(128 * mib, 1);
    const std::int64_t setup_usable = usable(setup.data());
    alloc::region_begin();
    std::vector<unsigned char>().swap(setup);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(got.allocs, 0U);
    EXPECT_GE(setup_usable, static_cast<std::int64_t>(128 * mib));
    EXPECT_EQ(got.live, -setup_usable);
    EXPECT_EQ(got.peak, 0);
}

// A steady state over setup's data: each step allocates a block and frees one of setup's.
TEST(accounting, replacing_setup_blocks_one_for_one_holds_the_level_flat) {
    std::vector<void*> blocks(100);
    for (void*& p : blocks)
        p = std::malloc(10000);
    const std::int64_t one = usable(blocks[0]);  // every 10000 B block's, in one size class
    alloc::region_begin();
    for (void*& p : blocks) {
        void* fresh = std::malloc(10000);
        escape(fresh);
        std::free(p);
        p = fresh;
    }
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    for (void* p : blocks)
        std::free(p);
    EXPECT_EQ(got.allocs, 100U);
    EXPECT_EQ(got.bytes, 100U * 10000);
    EXPECT_EQ(got.live, 0);
    EXPECT_EQ(got.peak, one);
}

// Without a header a block does not say whether it is older than the region or the region's
// own: a free while paused lowers the level either way (only blocks made while paused do not).
TEST(accounting, a_setup_block_freed_while_paused_lowers_the_level_too) {
    void* setup = std::malloc(10000);
    escape(setup);
    const std::int64_t setup_usable = usable(setup);
    alloc::region_begin();
    void* a = std::malloc(1000);
    escape(a);
    alloc::pause();
    std::free(setup);
    alloc::resume();
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    const std::int64_t a_usable = usable(a);
    std::free(a);
    EXPECT_EQ(got.live, a_usable - setup_usable);
    EXPECT_EQ(got.peak, a_usable);
}

TEST(accounting, realloc_of_a_setup_block_counts_its_net_change) {
    void* p = std::malloc(100000);
    escape(p);
    const std::int64_t before = usable(p);
    alloc::region_begin();
    p = std::realloc(p, 100100);
    escape(p);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    const std::int64_t after = usable(p);
    std::free(p);
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.bytes, 100100U);
    EXPECT_GT(after, before);
    EXPECT_EQ(got.live, after - before);
    EXPECT_EQ(got.peak, after - before);
}

TEST(accounting, peak_is_the_most_held_at_once_in_usable_bytes) {
    alloc::region_begin();
    void* a = std::malloc(mib);
    escape(a);
    void* b = std::malloc(mib);
    escape(b);
    void* c = std::malloc(mib);
    escape(c);
    const std::int64_t held = usable(a) + usable(b) + usable(c);
    std::free(a);
    std::free(b);
    std::free(c);
    void* d = std::malloc(mib / 2);  // after the peak: lower, must not move it
    escape(d);
    std::free(d);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(got.allocs, 4U);
    EXPECT_GE(held, static_cast<std::int64_t>(3 * mib));
    EXPECT_EQ(got.peak, held);
    EXPECT_EQ(got.live, 0);
}

TEST(accounting, a_new_region_starts_from_zero) {
    alloc::region_begin();
    void* held = std::malloc(500);
    escape(held);
    alloc::region_end();
    const std::int64_t held_usable = usable(held);

    alloc::region_begin();
    std::free(held);  // the earlier region's block: older than this one, like setup's
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(got.allocs, 0U);
    EXPECT_EQ(got.bytes, 0U);
    EXPECT_EQ(got.live, -held_usable);
    EXPECT_EQ(got.peak, 0);
}

TEST(accounting, frees_after_region_end_are_ignored) {
    alloc::region_begin();
    void* p = std::malloc(64);
    escape(p);
    alloc::region_end();
    const std::int64_t held = usable(p);
    std::free(p);
    const alloc::counters got = alloc::snapshot();  // the closed region's last figures
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.live, held);
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
    const std::int64_t held = usable(counted) + usable(counted_too);
    std::free(counted);
    std::free(paused);
    delete paused_new;
    std::free(counted_too);
    EXPECT_EQ(got.allocs, 2U);
    EXPECT_EQ(got.bytes, 300U);
    EXPECT_EQ(got.live, held);
    EXPECT_EQ(got.peak, held);
}

TEST(accounting, a_region_block_freed_while_paused_lowers_live) {
    alloc::region_begin();
    void* p = std::malloc(4096);
    escape(p);
    const std::int64_t held = usable(p);
    alloc::pause();
    std::free(p);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.live, 0);
    EXPECT_EQ(got.peak, held);
}

TEST(accounting, a_block_allocated_while_paused_is_not_live_when_freed) {
    alloc::region_begin();
    alloc::pause();
    void* p = std::malloc(4096);
    escape(p);
    alloc::resume();
    void* q = std::malloc(10);
    escape(q);
    std::free(p);  // made while paused: live stays at q's
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    const std::int64_t held = usable(q);
    std::free(q);
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.live, held);
    EXPECT_EQ(got.untracked, 0U);
}

// ---- realloc -----------------------------------------------------------------------------

TEST(accounting, realloc_of_a_region_block_releases_its_bytes) {
    alloc::region_begin();
    void* p = std::malloc(100);
    escape(p);
    std::memset(p, 7, 100);
    const std::int64_t small = usable(p);
    void* q = std::realloc(p, 5000);  // one allocation of 5000, 100 released
    escape(q);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(static_cast<unsigned char*>(q)[99], 7);  // contents kept
    const std::int64_t large = usable(q);
    std::free(q);
    EXPECT_EQ(got.allocs, 2U);
    EXPECT_EQ(got.bytes, 5100U);
    EXPECT_EQ(got.live, large);
    // The net change: a realloc does not hold both blocks.
    EXPECT_EQ(got.peak, std::max(small, large));
}

TEST(accounting, realloc_shrink_counts_one_allocation_of_the_new_size) {
    alloc::region_begin();
    alloc::pause();
    void* p = std::malloc(5000);  // allocated while paused: in no figure, freed or not
    escape(p);
    alloc::resume();
    void* q = std::realloc(p, 10);
    escape(q);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    const std::int64_t held = usable(q);
    std::free(q);
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.bytes, 10U);
    EXPECT_EQ(got.live, held);
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
    EXPECT_TRUE(aligned_to(p, 4096));
    std::memset(p, 3, 64);
    const std::int64_t before = usable(p);
    alloc::region_begin();
    void* q = std::realloc(p, 100000);
    escape(q);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(static_cast<unsigned char*>(q)[0], 3);
    EXPECT_EQ(static_cast<unsigned char*>(q)[63], 3);
    const std::int64_t after = usable(q);
    EXPECT_GE(after, 100000);
    std::free(q);
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.bytes, 100000U);
    EXPECT_EQ(got.live, after - before);  // the setup block leaves the level
    EXPECT_EQ(got.peak, after - before);
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
    const std::int64_t held = usable(p);  // the allocator's smallest block
    std::free(p);
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.bytes, 0U);
    EXPECT_EQ(got.live, held);
}

// ---- The allocator's own blocks ------------------------------------------------------------

// The program gets the block its allocator gives, no bigger: the usable size of malloc(n) is
// the one glibc answers for the same request made past tare (with a header it was n).
TEST(accounting, a_block_is_the_allocators_own_size) {
#if defined(__SANITIZE_THREAD__)
    GTEST_SKIP() << "under ThreadSanitizer the heap underneath is TSan's, not glibc's";
#endif
    for (const std::size_t n : {std::size_t{1}, std::size_t{24}, std::size_t{100}, std::size_t{1000}}) {
        void* ours = std::malloc(n);
        void* glibcs = __libc_malloc(n);
        escape(ours);
        ASSERT_NE(ours, nullptr);
        ASSERT_NE(glibcs, nullptr);
        EXPECT_EQ(malloc_usable_size(ours), malloc_usable_size(glibcs)) << n;
        EXPECT_GT(malloc_usable_size(ours), n == 100 ? 100U : 0U) << n;
        std::free(ours);
        __libc_free(glibcs);
    }
}

TEST(accounting, code_that_grows_into_its_slack_reallocates_as_without_tare) {
#if defined(__SANITIZE_THREAD__)
    GTEST_SKIP() << "under ThreadSanitizer the heap underneath is TSan's, not glibc's";
#endif
    const auto usable_size = [](void* p) { return malloc_usable_size(p); };
    const int under_tare = reallocations_to_grow(
        4000, [](void* p, std::size_t n) { return std::realloc(p, n); }, usable_size, std::free);
    const int glibc = reallocations_to_grow(
        4000,
        [](void* p, std::size_t n) {
            void* q = __libc_malloc(n);  // as realloc would, but past the interposer
            if (p != nullptr) {
                std::memcpy(q, p, malloc_usable_size(p));
                __libc_free(p);
            }
            return q;
        },
        usable_size, __libc_free);
    EXPECT_EQ(under_tare, glibc);
}

// A block that another of the allocator's entry points made (here glibc's own, past the
// interposer) is freed and reallocated as the allocator does it, and its free lowers the level
// by its usable size like any block older than the region.
TEST(accounting, a_block_from_another_entry_point_is_freed_as_any_other) {
#if defined(__SANITIZE_THREAD__)
    GTEST_SKIP() << "under ThreadSanitizer the heap underneath is TSan's, not glibc's";
#endif
    void* other = __libc_malloc(100);
    ASSERT_NE(other, nullptr);
    void* big_other = __libc_malloc(4 * mib);  // an mmapped chunk
    ASSERT_NE(big_other, nullptr);
    const std::int64_t small_usable = usable(other);
    const std::int64_t big_usable = usable(big_other);

    alloc::region_begin();
    other = std::realloc(other, 200);  // counted: one allocation, the old block released
    escape(other);
    const std::int64_t grown_usable = usable(other);
    std::free(other);
    std::free(big_other);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.bytes, 200U);
    EXPECT_EQ(got.live, -small_usable - big_usable);
    EXPECT_EQ(got.peak, grown_usable - small_usable);
}

// Blocks made while paused, as with_inputs makes its inputs, are in no figure when the body
// frees them: many at once, freed in another order than they were made.
TEST(accounting, many_blocks_made_while_paused_stay_out_of_every_figure) {
    constexpr std::size_t count = 4000;
    static void* inputs[count];
    alloc::region_begin();
    alloc::pause();
    for (std::size_t i = 0; i < count; ++i) {
        inputs[i] = std::malloc(16 + i % 200);
        escape(inputs[i]);
    }
    alloc::resume();
    for (std::size_t i = count; i-- > 0;)
        std::free(inputs[i]);
    void* kept = std::malloc(50);
    escape(kept);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    const std::int64_t held = usable(kept);
    std::free(kept);
    expect_one_block_kept(got, held);
}

// The next region starts with an empty paused set: a block the last one made while paused is
// older than this one, and its free lowers the level.
TEST(accounting, a_paused_block_of_an_earlier_region_is_an_older_block) {
    alloc::region_begin();
    alloc::pause();
    void* p = std::malloc(300);
    escape(p);
    alloc::region_end();
    const std::int64_t held = usable(p);
    alloc::region_begin();
    std::free(p);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(got.live, -held);
}

// Past the paused set's room, the blocks it could not hold are counted as untracked.
TEST(accounting, paused_blocks_past_the_sets_room_are_reported) {
    constexpr std::size_t count = 40000;
    static void* inputs[count];
    alloc::region_begin();
    alloc::pause();
    for (void*& p : inputs) {
        p = std::malloc(8);
        escape(p);
    }
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    for (void* p : inputs)
        std::free(p);
    EXPECT_GT(got.untracked, 0U);
    EXPECT_LT(got.untracked, count);
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
    EXPECT_EQ(aligned_alloc(opaque(std::size_t{48}), 96), nullptr);
    EXPECT_EQ(errno, EINVAL);
    errno = 0;
    EXPECT_EQ(aligned_alloc(opaque(std::size_t{0}), 16), nullptr);
    EXPECT_EQ(errno, EINVAL);
}

TEST(accounting, memalign_rounds_an_odd_alignment_up) {
#if defined(__SANITIZE_THREAD__)
    GTEST_SKIP() << "the allocator underneath is TSan's, which refuses what glibc rounds up, with tare "
                    "or without it";
#endif
    void* p = memalign(opaque(std::size_t{48}), 10);
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
        const std::int64_t before_usable = usable(before);
        std::free(before);
        const alloc::counters c = alloc::snapshot();
        if (c.allocs - c0.allocs != 2000)
            ok = false;
        if (c.live != c0.live - before_usable)
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

// ---- Declared allocations ------------------------------------------------------------------

/// A bump arena over one buffer made before any region, handing out blocks it reports.
struct reporting_arena {
    unsigned char* base;
    std::size_t used = 0;
    void* take(std::size_t n) {
        void* p = base + used;
        used += n;
        tare::report_alloc(p, n);
        return p;
    }
    static void give(void* p, std::size_t n) { tare::report_free(p, n); }
};

// A pool's blocks count as malloc's: allocations, bytes, live heap and peak, exactly what it
// declares.
TEST(accounting, a_declared_pool_counts_like_malloc) {
    static unsigned char buffer[4096];
    reporting_arena arena{buffer};
    alloc::region_begin();
    void* x = arena.take(100);
    void* y = arena.take(300);
    reporting_arena::give(x, 100);
    void* z = arena.take(50);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(got.allocs, 3U);
    EXPECT_EQ(got.bytes, 450U);
    EXPECT_EQ(got.live, 350);
    EXPECT_EQ(got.peak, 400);
    (void)y;
    (void)z;
}

// Outside a region a report is nothing; one made while paused is in no figure, nor is its free
// while counting, as a malloc's would be.
TEST(accounting, declared_blocks_follow_the_regions_rules) {
    static unsigned char buffer[4096];
    reporting_arena arena{buffer};
    void* before = arena.take(64);
    alloc::region_begin();
    alloc::pause();
    void* paused = arena.take(200);
    alloc::resume();
    reporting_arena::give(paused, 200);
    void* counted = arena.take(10);
    reporting_arena::give(before, 64);  // older than the region: the level falls
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    reporting_arena::give(counted, 10);  // after the region: nothing
    const alloc::counters after = alloc::snapshot();
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.bytes, 10U);
    EXPECT_EQ(got.live, 10 - 64);
    EXPECT_EQ(got.peak, 10);
    EXPECT_EQ(after.live, got.live);
}

// ---- Allocation sites ----------------------------------------------------------------------

// A sites region records every counted allocation with its stack and every free of such a
// block, in order; it counts as any region does; a region without it records nothing.
// ThreadSanitizer intercepts backtrace(), and its interceptor is no place to be inside malloc:
// the sites pass is a diagnostic of optimized builds, not of sanitizer ones.
#if defined(__SANITIZE_THREAD__)
#define TARE_SKIP_SITES_UNDER_TSAN() GTEST_SKIP() << "stack capture inside the hook is not for TSan builds"
#else
#define TARE_SKIP_SITES_UNDER_TSAN() (void)0
#endif

TEST(accounting, a_sites_region_records_each_allocation_and_free_in_order) {
    TARE_SKIP_SITES_UNDER_TSAN();
    static alloc::site_record records[8];
    static alloc::free_record frees[8];
    alloc::prepare_site_capture();
    alloc::region_begin_sites({records, frees});
    void* a = std::malloc(24);
    escape(a);
    auto* b = new int[4];
    escape(b);
    // Addresses kept as numbers: compared after the blocks are freed.
    const auto a_at = reinterpret_cast<std::uintptr_t>(a);
    const auto b_at = reinterpret_cast<std::uintptr_t>(b);
    void* c = std::realloc(a, 100);  // a released, c recorded
    escape(c);
    const auto c_at = reinterpret_cast<std::uintptr_t>(c);
    delete[] b;
    alloc::pause();
    void* paused = std::malloc(8);  // not counted: not recorded
    escape(paused);
    alloc::resume();
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    std::free(paused);
    std::free(c);  // after the region: no record
    const alloc::site_totals t = alloc::sites_recorded();
    EXPECT_EQ(got.allocs, 3U);
    ASSERT_EQ(t.allocs, 3U);
    ASSERT_EQ(t.frees, 2U);
    EXPECT_EQ(t.dropped_allocs, 0U);
    EXPECT_EQ(records[0].size, 24U);
    EXPECT_EQ(records[1].size, 16U);
    EXPECT_EQ(records[2].size, 100U);
    const auto at = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p); };
    EXPECT_EQ(at(records[2].block), c_at);
    EXPECT_EQ(at(frees[0].block), a_at);
    EXPECT_EQ(at(frees[1].block), b_at);
    // The order: malloc, new, (release of a, then c), delete.
    EXPECT_LT(records[1].seq, frees[0].seq);
    EXPECT_LT(frees[0].seq, records[2].seq);
    EXPECT_LT(records[2].seq, frees[1].seq);
    for (const auto& r : records) {
        if (r.size != 0) {
            EXPECT_GT(r.depth, 2U);  // the hook, the allocation function, this test
            EXPECT_EQ(r.thread, 0U);
        }
    }

    // A plain region afterwards: counted, not recorded (the last sites region's records stay).
    alloc::region_begin();
    void* d = std::malloc(8);
    escape(d);
    alloc::region_end();
    std::free(d);
    EXPECT_EQ(alloc::sites_recorded().allocs, 3U);
}

// Growth-only mode: an allocation is recorded only when bigger than every one before it, and a
// free only when its block is one the caller names live or a growth record's: not a temporary's
// at an address recorded and freed before; the rest are counted as in any region.
TEST(accounting, a_sites_region_narrowed_to_growth_records_only_bigger_blocks) {
    TARE_SKIP_SITES_UNDER_TSAN();
    static alloc::site_record records[4];
    static alloc::free_record frees[8];
    static alloc::site_record growth[4];
    alloc::prepare_site_capture();
    alloc::region_begin_sites({records, frees, growth});
    void* kept = std::malloc(64);  // recorded: the largest so far is 64
    escape(kept);
    void* temporary = std::malloc(32);
    escape(temporary);
    std::free(temporary);  // recorded: the first stretch records every free
    alloc::pause();
    const void* live[] = {kept};
    alloc::sites_growth_only(live);
    alloc::resume();
    // Not bigger: counted, not recorded; likely at the temporary's address, its free is not
    // recorded either.
    void* small = std::malloc(32);
    escape(small);
    std::free(small);
    void* big = std::malloc(200);  // recorded into growth
    escape(big);
    void* same = std::malloc(200);  // not bigger than 200: not recorded
    escape(same);
    std::free(same);
    std::free(big);   // a growth record: its free is recorded
    std::free(kept);  // named live: so is this one's
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    const alloc::site_totals t = alloc::sites_recorded();
    EXPECT_EQ(got.allocs, 5U);
    EXPECT_EQ(t.allocs, 2U);
    EXPECT_EQ(t.growth, 1U);
    EXPECT_EQ(growth[0].size, 200U);
    EXPECT_GT(growth[0].depth, 2U);
    EXPECT_EQ(t.frees, 3U);  // the temporary's, big's and kept's
    EXPECT_LT(records[1].seq, growth[0].seq);
    EXPECT_LT(growth[0].seq, frees[1].seq);
}

TEST(accounting, a_full_sites_buffer_counts_the_rest_as_dropped) {
    TARE_SKIP_SITES_UNDER_TSAN();
    static alloc::site_record records[2];
    static alloc::free_record frees[1];
    void* blocks[5];
    alloc::prepare_site_capture();
    alloc::region_begin_sites({records, frees});
    for (void*& p : blocks) {
        p = std::malloc(8);
        escape(p);
    }
    for (void* p : blocks)
        std::free(p);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    const alloc::site_totals t = alloc::sites_recorded();
    EXPECT_EQ(got.allocs, 5U);
    EXPECT_EQ(t.allocs, 2U);
    EXPECT_EQ(t.dropped_allocs, 3U);
    EXPECT_EQ(t.frees, 1U);
    EXPECT_EQ(t.dropped_frees, 4U);
}

}  // namespace
