// Allocations by threads other than the region's owner: counted, and their frees of the
// owner's blocks (and the owner's of theirs) kept in `live`.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <thread>
#include <vector>

#include "alloc/accounting.hpp"
#include "alloc/paused.hpp"
#include "unit/alloc_test_support.hpp"

namespace {

namespace alloc = tare::alloc;

using namespace tare::alloc::test;

constexpr std::size_t max_threads = 8;
constexpr std::size_t per_thread = 10;
constexpr std::size_t block = 32;

void ten_allocations() {
    std::array<void*, per_thread> blocks{};
    for (void*& p : blocks) {
        p = std::malloc(block);
        escape(p);
    }
    for (void* p : blocks)
        std::free(p);
}

void nothing() {}

/// A region in which `n` threads are started, run `body`, and are joined; the counters at the
/// end. std::thread's own allocations (its state object, glibc's thread bookkeeping) are in
/// the figures, which is why callers compare against a control that differs only in `body`.
alloc::counters region_with_threads(std::size_t n, void (*body)()) {
    std::array<std::thread, max_threads> threads;
    alloc::region_begin();
    for (std::size_t i = 0; i < n; ++i)
        threads[i] = std::thread(body);
    for (std::size_t i = 0; i < n; ++i)
        threads[i].join();
    const alloc::counters c = alloc::snapshot();  // join: their calls happen before this
    alloc::region_end();
    return c;
}

class threads_started_in_the_region : public testing::TestWithParam<std::size_t> {};

TEST_P(threads_started_in_the_region, add_exactly_their_allocations_over_a_control) {
    const std::size_t n = GetParam();
    region_with_threads(n, nothing);  // warm up: first-thread-ever set-up, stack cache
    const alloc::counters control = region_with_threads(n, nothing);
    const alloc::counters busy = region_with_threads(n, ten_allocations);
    const alloc::counters control_again = region_with_threads(n, nothing);

    // The control itself is deterministic, or the difference would mean nothing.
    EXPECT_EQ(control.allocs, control_again.allocs);
    EXPECT_EQ(control.bytes, control_again.bytes);
    EXPECT_EQ(busy.allocs - control.allocs, n * per_thread);
    EXPECT_EQ(busy.bytes - control.bytes, n * per_thread * block);
    EXPECT_EQ(busy.live, control.live);  // every block freed again
    RecordProperty("control_allocs", std::to_string(control.allocs));
    RecordProperty("control_bytes", std::to_string(control.bytes));
}

INSTANTIATE_TEST_SUITE_P(four_and_eight, threads_started_in_the_region,
                         testing::Values(std::size_t{4}, std::size_t{8}));

/// Threads started before the region and released inside it: no thread start-up in the
/// figures, so they are exact without a control. They end only when the pool is destroyed,
/// after the region: a std::thread's state object, allocated by the starting thread before the
/// region, is freed by the thread as it ends, and that free of setup memory would lower the
/// region's level (docs/accounting.md, "What a free lowers").
class worker_pool {
public:
    explicit worker_pool(std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) {
            threads_.emplace_back([this] {
                while (go_.load(std::memory_order_acquire) == 0)
                    std::this_thread::yield();
                ten_allocations();
                done_.fetch_add(1, std::memory_order_release);
                while (go_.load(std::memory_order_acquire) != 2)
                    std::this_thread::yield();
            });
        }
    }
    void run_and_wait() {
        go_.store(1, std::memory_order_release);
        while (done_.load(std::memory_order_acquire) != threads_.size())
            std::this_thread::yield();
    }
    ~worker_pool() {
        go_.store(2, std::memory_order_release);
        for (std::thread& t : threads_)
            t.join();
    }

private:
    std::vector<std::thread> threads_;
    std::atomic<int> go_{0};
    std::atomic<std::size_t> done_{0};
};

TEST(alloc_threads, workers_released_in_the_region_count_exactly) {
    for (std::size_t n : {std::size_t{4}, std::size_t{8}}) {
        worker_pool pool(n);
        alloc::region_begin();
        pool.run_and_wait();  // acquire on `done_`: their calls happen before the snapshot
        const alloc::counters c = alloc::snapshot();
        alloc::region_end();
        EXPECT_EQ(c.allocs, n * per_thread) << n;
        EXPECT_EQ(c.bytes, n * per_thread * block) << n;
        const std::int64_t one = usable_of(block);
        EXPECT_EQ(c.live, 0) << n;
        EXPECT_GE(c.peak, static_cast<std::int64_t>(per_thread) * one) << n;
        EXPECT_LE(c.peak, static_cast<std::int64_t>(n * per_thread) * one) << n;
    }
}

/// One thread waiting to be handed a job; the hand-over allocates nothing.
class helper {
public:
    helper()
        : thread_([this] {
              for (;;) {
                  while (state_.load(std::memory_order_acquire) != 1)
                      std::this_thread::yield();
                  if (job_ == nullptr)
                      return;
                  job_(arg_);
                  state_.store(2, std::memory_order_release);
              }
          }) {}
    void* run(void* (*job)(void*), void* arg) {
        job_ = job;
        arg_ = arg;
        result_ = nullptr;
        state_.store(1, std::memory_order_release);
        while (state_.load(std::memory_order_acquire) != 2)
            std::this_thread::yield();
        return result_;
    }
    ~helper() {
        job_ = nullptr;
        state_.store(1, std::memory_order_release);
        thread_.join();
    }
    static void* result_;

private:
    void* (*job_)(void*) = nullptr;
    void* arg_ = nullptr;
    std::atomic<int> state_{0};
    std::thread thread_;
};
void* helper::result_ = nullptr;

void* free_it(void* p) {
    std::free(p);
    return nullptr;
}
void* allocate_mib(void*) {
    helper::result_ = std::malloc(1 << 20);
    escape(helper::result_);
    return nullptr;
}

TEST(alloc_threads, another_thread_freeing_the_owners_block_lowers_live) {
    helper other;
    alloc::region_begin();
    void* p = std::malloc(5000);
    escape(p);
    void* q = std::malloc(700);
    escape(q);
    const std::int64_t both = usable(p) + usable(q);
    other.run(free_it, p);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    const std::int64_t kept = usable(q);
    std::free(q);
    EXPECT_EQ(got.allocs, 2U);
    EXPECT_EQ(got.bytes, 5700U);
    EXPECT_EQ(got.live, kept);
    EXPECT_EQ(got.peak, both);
}

TEST(alloc_threads, the_owner_freeing_another_threads_block_lowers_live) {
    helper other;
    alloc::region_begin();
    other.run(allocate_mib, nullptr);
    void* theirs = helper::result_;
    void* mine = std::malloc(2 << 20);  // 1 MiB of theirs + 2 MiB of mine at once
    escape(mine);
    const std::int64_t both = usable(theirs) + usable(mine);
    std::free(theirs);
    std::free(mine);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(got.allocs, 2U);
    EXPECT_EQ(got.live, 0);
    EXPECT_GE(both, 3 << 20);
    EXPECT_EQ(got.peak, both);
}

TEST(alloc_threads, another_thread_freeing_a_setup_block_lowers_the_level) {
    helper other;
    void* setup = std::malloc(4000);
    escape(setup);
    const std::int64_t setup_usable = usable(setup);
    alloc::region_begin();
    void* p = std::malloc(1000);
    escape(p);
    other.run(free_it, setup);
    void* q = std::malloc(5000);
    escape(q);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    const std::int64_t p_usable = usable(p);
    const std::int64_t q_usable = usable(q);
    std::free(p);
    std::free(q);
    EXPECT_EQ(got.allocs, 2U);
    EXPECT_EQ(got.live, p_usable - setup_usable + q_usable);
    EXPECT_EQ(got.peak, std::max(p_usable, p_usable - setup_usable + q_usable));
}

// The owner's paused blocks and another thread's are kept apart (the owner's without atomics);
// a block made while paused is in no figure whichever thread frees it.
TEST(alloc_threads, a_paused_block_freed_by_another_thread_is_in_no_figure) {
    helper other;
    alloc::region_begin();
    alloc::pause();
    void* owners = std::malloc(3000);
    escape(owners);
    other.run(allocate_mib, nullptr);  // another thread's, while the region is paused
    void* theirs = helper::result_;
    alloc::resume();
    other.run(free_it, owners);
    std::free(theirs);
    void* p = std::malloc(100);
    escape(p);
    alloc::pause();
    void* again = std::malloc(3000);  // the owner's table after another thread removed from it
    escape(again);
    alloc::resume();
    std::free(again);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    const std::int64_t p_usable = usable(p);
    std::free(p);
    expect_one_block_kept(got, p_usable);
}

// Another thread's removal of one of the owner's paused keys leaves the owner's count high.
// Past 65,535 such removals in one group the count must not wrap to a figure that says the
// group is empty while a key is in it: the key's free would then lower the level. Fake
// addresses of one group, 32 at a time (the probe window), never given to an allocator.
std::vector<void*> addresses_of_one_group(std::size_t n) {
    namespace d = tare::alloc::detail;
    std::vector<void*> out;
    const std::uint32_t region = __atomic_load_n(&d::state.flags.region_epoch, __ATOMIC_RELAXED);
    const std::size_t group = d::paused_home(d::paused_key(reinterpret_cast<void*>(0x10000), region)) >> 3;
    for (std::uintptr_t a = 0x10000; out.size() < n; a += 16) {
        if (d::paused_home(d::paused_key(reinterpret_cast<void*>(a), region)) >> 3 == group)
            out.push_back(reinterpret_cast<void*>(a));
    }
    return out;
}

void* remove_batch(void* batch) {
    namespace d = tare::alloc::detail;
    const std::uint32_t region = __atomic_load_n(&d::state.flags.region_epoch, __ATOMIC_RELAXED);
    for (void* p : *static_cast<std::vector<void*>*>(batch))
        helper::result_ = d::paused_remove(p, region) ? p : nullptr;
    return nullptr;
}

TEST(alloc_threads, the_owners_paused_count_never_wraps_to_empty) {
    namespace d = tare::alloc::detail;
    helper other;
    alloc::region_begin();
    alloc::pause();
    const std::uint32_t region = __atomic_load_n(&d::state.flags.region_epoch, __ATOMIC_RELAXED);
    std::vector<void*> batch = addresses_of_one_group(32);
    constexpr std::size_t removals = 65535;
    for (std::size_t done = 0; done < removals; done += batch.size()) {
        batch.resize(std::min(batch.size(), removals - done));
        for (void* p : batch)
            d::paused_insert(p, region);
        other.run(remove_batch, &batch);
    }
    d::paused_insert(batch.front(), region);
    const bool held = d::paused_may_hold(batch.front(), region);
    const bool removed = d::paused_remove(batch.front(), region);
    alloc::region_end();
    EXPECT_TRUE(held);
    EXPECT_TRUE(removed);
}

TEST(alloc_threads, a_block_freed_by_another_thread_after_region_end_is_ignored) {
    helper other;
    alloc::region_begin();
    void* p = std::malloc(100);
    escape(p);
    alloc::region_end();
    const std::int64_t held = usable(p);
    other.run(free_it, p);
    const alloc::counters got = alloc::snapshot();
    EXPECT_EQ(got.live, held);
}

TEST(alloc_threads, concurrent_allocation_and_cross_thread_frees_balance) {
    // Each thread allocates blocks that the next thread frees, while the owner does the same:
    // every count is exact at the end, and live returns to 0.
    constexpr std::size_t rounds = 20000;
    constexpr std::size_t n = 4;
    std::array<std::atomic<void*>, n + 1> mailbox{};
    std::atomic<int> go{0};
    std::atomic<std::size_t> done{0};
    const auto work = [&](std::size_t me) {
        while (go.load(std::memory_order_acquire) == 0)
            std::this_thread::yield();
        for (std::size_t i = 0; i < rounds; ++i) {
            void* mine = std::malloc(16 + me);
            escape(mine);
            // Slots are shared: whoever exchanges next frees it, usually another thread.
            void* old = mailbox[(me + i) % (n + 1)].exchange(mine, std::memory_order_acq_rel);
            std::free(old);
        }
    };
    // The threads end after the region: as they end they free their std::thread state, which
    // was allocated before the region (see worker_pool).
    std::vector<std::thread> threads;
    for (std::size_t t = 1; t <= n; ++t) {
        threads.emplace_back([&, t] {
            work(t);
            done.fetch_add(1, std::memory_order_release);
            while (go.load(std::memory_order_acquire) != 2)
                std::this_thread::yield();
        });
    }

    alloc::region_begin();
    go.store(1, std::memory_order_release);
    work(0);
    while (done.load(std::memory_order_acquire) != n)
        std::this_thread::yield();
    for (std::atomic<void*>& m : mailbox)
        std::free(m.exchange(nullptr));
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    go.store(2, std::memory_order_release);
    for (std::thread& t : threads)
        t.join();

    std::uint64_t bytes = 0;
    for (std::size_t t = 0; t <= n; ++t)
        bytes += rounds * (16 + t);
    EXPECT_EQ(got.allocs, (n + 1) * rounds);
    EXPECT_EQ(got.bytes, bytes);
    EXPECT_EQ(got.live, 0);
    EXPECT_GT(got.peak, 0);
}

// ---- Member regions: only threads between join() and leave() count ----------------------

struct member_job {
    member_job(std::size_t b, std::size_t i, std::size_t a, void* f = nullptr)
        : before(b), inside(i), after(a), to_free_inside(f) {}
    std::size_t before;    // allocations of 48 bytes before join(): the thread's setup
    std::size_t inside;    // allocations of 32 bytes between join() and leave(), kept
    std::size_t after;     // allocations of 64 bytes after leave(): its teardown
    void* to_free_inside;  // freed between join() and leave()
    std::vector<void*> kept;
};

void* run_member(void* arg) {
    auto& job = *static_cast<member_job*>(arg);
    job.kept.reserve(job.before + job.inside + job.after);  // before anything is counted
    for (std::size_t i = 0; i < job.before; ++i)
        job.kept.push_back(std::malloc(48));
    alloc::join();
    for (std::size_t i = 0; i < job.inside; ++i)
        job.kept.push_back(std::malloc(32));
    if (job.to_free_inside != nullptr)
        std::free(job.to_free_inside);
    alloc::leave();
    for (std::size_t i = 0; i < job.after; ++i)
        job.kept.push_back(std::malloc(64));
    return nullptr;
}

void free_all(member_job& job) {
    for (void* p : job.kept)
        std::free(p);
    job.kept.clear();
}

TEST(alloc_members, only_members_count_each_from_join_to_leave) {
    helper a;
    helper b;
    member_job ja{5, 10, 3};
    member_job jb{2, 10, 7};
    alloc::region_begin_members();
    void* not_a_member = std::malloc(1000);  // this thread never joined
    escape(not_a_member);
    a.run(run_member, &ja);
    b.run(run_member, &jb);
    const alloc::counters got = alloc::snapshot();  // run() waits: their calls happen before
    alloc::region_end();
    EXPECT_EQ(got.allocs, 20U);
    EXPECT_EQ(got.bytes, 20U * 32);
    EXPECT_EQ(got.live, 20 * usable_of(32));
    EXPECT_EQ(got.peak, 20 * usable_of(32));
    std::free(not_a_member);
    free_all(ja);
    free_all(jb);
}

TEST(alloc_members, a_member_freeing_setup_memory_lowers_the_level_and_a_non_member_does_not) {
    helper a;
    void* setup_one = std::malloc(4000);
    void* setup_two = std::malloc(3000);
    escape(setup_one);
    escape(setup_two);
    const std::int64_t setup_one_usable = usable(setup_one);
    alloc::region_begin_members();
    member_job ja{0, 1, 0, setup_one};
    a.run(run_member, &ja);  // a member frees setup memory: the level falls, as in any region
    std::free(setup_two);    // a non-member frees setup memory: its teardown, in no figure
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(got.allocs, 1U);
    EXPECT_EQ(got.live, usable_of(32) - setup_one_usable);
    EXPECT_EQ(got.peak, usable_of(32));
    free_all(ja);
}

/// On a member thread: a pause inside its loop (join, leave) in which it frees the last block it
/// kept.
void* free_in_a_pause(void* arg) {
    auto& job = *static_cast<member_job*>(arg);
    alloc::join();
    alloc::leave();
    std::free(job.kept.back());
    job.kept.pop_back();
    return nullptr;
}

/// On a member thread whose loop is over: it frees the last block it kept.
void* free_after_finishing(void* arg) {
    auto& job = *static_cast<member_job*>(arg);
    alloc::finish();
    std::free(job.kept.back());
    job.kept.pop_back();
    return nullptr;
}

TEST(alloc_members, a_block_freed_in_a_members_pause_lowers_the_level) {
    helper a;
    member_job ja{0, 3, 0};
    alloc::region_begin_members();
    a.run(run_member, &ja);
    a.run(free_in_a_pause, &ja);  // the loop's block, freed while it pauses: the level falls
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(got.allocs, 3U);
    EXPECT_EQ(got.live, 2 * usable_of(32));
    EXPECT_EQ(got.peak, 3 * usable_of(32));
    free_all(ja);
}

// A thread's teardown after its loop is in no figure (a single-threaded region ends with its
// loop): nor is a free by a thread that never joined (the harness's, another thread's setup).
TEST(alloc_members, frees_before_and_after_a_members_loop_are_in_no_figure) {
    helper a;
    member_job ja{0, 3, 0};
    alloc::region_begin_members();
    a.run(run_member, &ja);
    a.run(free_after_finishing, &ja);
    std::free(ja.kept.back());  // this thread never joined
    ja.kept.pop_back();
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(got.allocs, 3U);
    EXPECT_EQ(got.live, 3 * usable_of(32));
    EXPECT_EQ(got.peak, 3 * usable_of(32));
    free_all(ja);
}

TEST(alloc_members, a_member_that_leaves_and_joins_again_counts_only_while_joined) {
    helper a;
    member_job first{0, 4, 6};
    member_job second{0, 2, 1};
    alloc::region_begin_members();
    a.run(run_member, &first);  // its teardown is a pause: leave(), then join() again
    a.run(run_member, &second);
    alloc::pause();  // the whole region's pause holds members too
    member_job paused{0, 5, 0};
    a.run(run_member, &paused);
    alloc::resume();
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(got.allocs, 6U);
    EXPECT_EQ(got.bytes, 6U * 32);
    free_all(first);
    free_all(second);
    free_all(paused);
}

TEST(alloc_members, an_ordinary_region_after_a_member_region_counts_every_thread_again) {
    helper a;
    member_job ja{0, 2, 0};
    alloc::region_begin_members();
    a.run(run_member, &ja);
    alloc::region_end();
    free_all(ja);
    alloc::region_begin();
    a.run(allocate_mib, nullptr);  // never joined: in an ordinary region, any thread counts
    void* mine = std::malloc(10);
    escape(mine);
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(got.allocs, 2U);
    EXPECT_EQ(got.bytes, (1U << 20) + 10);
    std::free(mine);
    std::free(helper::result_);
}

}  // namespace
