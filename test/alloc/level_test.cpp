// The live heap's level on each allocator (docs/accounting.md, "What a free lowers"): every kind
// of free lowers it by exactly what its allocation raised it, or not at all, on every allocator
// the per-allocator executables run on (test/alloc/CMakeLists.txt). On jemalloc the owner's
// level is read off jemalloc's own per-thread counters rather than two usable-size calls a
// pair; these tests hold that path to the same figures as the others.
#include <gtest/gtest.h>
#include <malloc.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>

#include "alloc/accounting.hpp"
#include "alloc/tally.hpp"
#include "allocator_setup.hpp"
#include "tare/report.hpp"

namespace {

namespace alloc = tare::alloc;

const std::string expected = tare::alloc::test::allocator_name;

void escape(void* p) {
    asm volatile("" : : "g"(p) : "memory");
}

std::int64_t usable(void* p) {
    return static_cast<std::int64_t>(malloc_usable_size(p));
}

bool read_off_counters() {
    return __atomic_load_n(&alloc::detail::state.flags.counted_by_allocator, __ATOMIC_RELAXED) != 0;
}

class level_test : public testing::Test {
protected:
    void SetUp() override { tare::alloc::test::require_the_allocator(); }
    void TearDown() override { alloc::region_end(); }
};

// jemalloc keeps each thread's bytes allocated and freed; the owner's level is read off them
// while the region counts, and from tare's own tally while it is paused or closed.
TEST_F(level_test, the_owners_level_is_read_off_jemallocs_counters_while_counting) {
    alloc::region_begin();
    const bool counting = read_off_counters();
    alloc::pause();
    const bool paused = read_off_counters();
    alloc::resume();
    alloc::resume();  // a second resume changes nothing
    const bool resumed = read_off_counters();
    void* p = std::malloc(1000);
    escape(p);
    const std::int64_t p_usable = usable(p);
    const alloc::counters held = alloc::snapshot();
    alloc::region_end();
    const bool closed = read_off_counters();
    const alloc::counters after = alloc::snapshot();
    std::free(p);
    EXPECT_EQ(counting, expected == "jemalloc") << expected;
    EXPECT_FALSE(paused);
    EXPECT_EQ(resumed, expected == "jemalloc");
    EXPECT_FALSE(closed);
    EXPECT_EQ(held.live, p_usable);
    EXPECT_EQ(after.live, held.live) << "the figures stay as they were when the region closed";
}

TEST_F(level_test, each_kind_of_free_lowers_the_level_by_what_raised_it) {
    void* older = std::malloc(700);  // before the region: its free lowers the level
    escape(older);
    const std::int64_t older_usable = usable(older);
    alloc::region_begin();
    alloc::pause();
    void* made_paused = std::malloc(300);  // the harness's: in no figure, freed or not
    void* realloc_paused = std::malloc(40);
    escape(made_paused);
    alloc::resume();
    void* counted = std::malloc(5000);
    escape(counted);
    const std::int64_t counted_usable = usable(counted);
    std::free(made_paused);
    auto* grown = static_cast<char*>(std::realloc(realloc_paused, 9000));  // only the new block counts
    escape(grown);
    const std::int64_t grown_usable = usable(grown);
    static char pool[256];
    tare::report_alloc(pool, 256);  // declared: seen by no allocator's counters
    const alloc::counters held = alloc::snapshot();
    tare::report_free(pool, 256);
    std::free(older);
    alloc::pause();
    std::free(counted);  // a counted block freed while paused still lowers
    alloc::resume();
    std::free(grown);
    const alloc::counters done = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(held.allocs, 3U);
    EXPECT_EQ(held.bytes, 5000U + 9000U + 256U);
    EXPECT_EQ(held.live, counted_usable + grown_usable + 256) << expected;
    EXPECT_EQ(held.peak, held.live);
    EXPECT_EQ(done.live, -older_usable) << expected;
    EXPECT_EQ(done.peak, held.live);
}

// Another thread's blocks are on the shared tally; the owner's on its own (on jemalloc, its
// counters). A block made by one and freed by the other balances, and the peak is the sum. The
// worker starts before the region and ends after it, so that the thread's own set-up and
// teardown are in no figure, and waits for its turn on an atomic stage (no sleep).
TEST_F(level_test, blocks_freed_across_threads_balance_and_the_peak_is_their_sum) {
    std::atomic<int> stage{0};
    void* owners = nullptr;
    void* workers = nullptr;
    std::int64_t workers_usable = 0;
    std::thread worker([&] {
        while (stage.load() != 1)
            std::this_thread::yield();
        workers = std::malloc(20000);  // raises the peak to both blocks together
        escape(workers);
        workers_usable = usable(workers);
        std::free(owners);
        stage.store(2);
        while (stage.load() != 3)  // the thread's own teardown frees blocks: after the region
            std::this_thread::yield();
    });
    alloc::region_begin();
    owners = std::malloc(4000);
    escape(owners);
    const std::int64_t owners_usable = usable(owners);
    stage.store(1);
    while (stage.load() != 2)
        std::this_thread::yield();
    const alloc::counters crossed = alloc::snapshot();
    std::free(workers);
    const alloc::counters done = alloc::snapshot();
    alloc::region_end();
    stage.store(3);
    worker.join();
    EXPECT_EQ(crossed.allocs, 2U);
    EXPECT_EQ(crossed.live, workers_usable) << expected;
    EXPECT_EQ(crossed.peak, owners_usable + workers_usable) << expected;
    EXPECT_EQ(done.live, 0) << expected;
}

// Another thread that raises the peak reads the owner's level while the owner pauses and
// resumes: on jemalloc the owner then folds its allocator's counters into its tally and rebases
// it again. A read that took the tally from one side of that and the counters from the other
// would add the owner's whole heap (here the 64 MiB it holds from before the region) to the peak.
TEST_F(level_test, the_peak_never_takes_the_owners_level_from_two_sides_of_a_pause) {
    void* hoard = std::malloc(std::size_t{64} << 20);  // before the region: in no figure
    escape(hoard);
    std::atomic<int> stage{0};
    std::thread worker([&] {
        while (stage.load() == 0)
            std::this_thread::yield();
        while (stage.load() == 1) {
            void* p = std::malloc(64);
            escape(p);
            std::free(p);
        }
        while (stage.load() != 3)
            std::this_thread::yield();
    });
    alloc::region_begin();
    stage.store(1);
    for (int i = 0; i < 100000; ++i) {
        alloc::pause();
        void* q = std::malloc(std::size_t{1} << 20);  // the harness's: in no figure
        escape(q);
        std::free(q);
        alloc::resume();
    }
    stage.store(2);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    stage.store(3);
    worker.join();
    std::free(hoard);
    EXPECT_LT(got.peak, std::int64_t{1} << 20) << expected;
    EXPECT_LT(got.live, std::int64_t{1} << 20) << expected;
}

}  // namespace
