// Memory figures and warnings from constructed samples whose truth is known.
#include "core/metrics.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace tare {
namespace {

bool has_warning(const benchmark_result& r, const std::string& kind) {
    return std::any_of(r.warnings.begin(), r.warnings.end(),
                       [&](const warning& w) { return w.kind == kind; });
}

// `live(i)` gives the live heap after i loop iterations.
template <class Live>
detail::loop_outcome samples_of(std::uint64_t warmup, std::uint64_t per_sample, int count, Live live,
                                std::uint64_t faults_per_sample = 0) {
    detail::loop_outcome out;
    out.accounting = true;
    out.warmup_iterations = warmup;
    std::uint64_t before = warmup;
    for (int i = 0; i < count; ++i) {
        sample s;
        s.iterations = per_sample;
        s.elapsed_ns = 1000.0 * static_cast<double>(per_sample);
        s.iterations_before = before;
        s.allocs = per_sample;
        s.bytes = per_sample * 4096;
        s.page_faults = faults_per_sample;
        before += per_sample;
        s.live_bytes_end = live(before);
        out.peak_live_bytes = std::max(out.peak_live_bytes, s.live_bytes_end);
        out.samples.push_back(s);
    }
    out.total_iterations = before;
    return out;
}

// contended: under 70 % of the measured wall-clock time on a CPU, over at least 1 ms.
TEST(metrics, a_row_that_waited_for_the_cpu_is_contended) {
    auto w = core::contended_warning(5e6, 10e6);
    ASSERT_TRUE(w.has_value());
    EXPECT_EQ(w->kind, "contended");
    EXPECT_NE(w->message.find("50%"), std::string::npos) << w->message;
    EXPECT_FALSE(core::contended_warning(7e6, 10e6).has_value());     // at the threshold
    EXPECT_FALSE(core::contended_warning(12e6, 10e6).has_value());    // threads: more CPU than wall
    EXPECT_FALSE(core::contended_warning(0.1e6, 0.5e6).has_value());  // too short to judge
}

TEST(metrics, a_body_keeping_4096_bytes_an_iteration) {
    auto loop = samples_of(100, 50, 30, [](std::uint64_t i) { return static_cast<std::int64_t>(4096 * i); });
    benchmark_result r;
    core::derive_memory(loop, r);
    ASSERT_TRUE(r.retained_bytes_per_iter);
    EXPECT_NEAR(*r.retained_bytes_per_iter, 4096.0, 1e-6);
    EXPECT_TRUE(has_warning(r, "retained_growth"));
    EXPECT_DOUBLE_EQ(*r.allocs_per_iter, 1.0);
    EXPECT_DOUBLE_EQ(*r.bytes_per_iter, 4096.0);
}

TEST(metrics, a_doubling_vector_never_cleared_is_flagged) {
    // Live heap is the capacity: the next power of two above 4096 * i.
    auto loop = samples_of(100, 100, 30, [](std::uint64_t i) {
        std::int64_t cap = 1;
        while (cap < static_cast<std::int64_t>(4096 * i)) {
            cap *= 2;
        }
        return cap;
    });
    benchmark_result r;
    core::derive_memory(loop, r);
    EXPECT_TRUE(has_warning(r, "retained_growth"));
    EXPECT_GT(*r.retained_bytes_per_iter, 2048.0);
}

TEST(metrics, a_flat_heap_is_not_flagged_however_large) {
    auto loop = samples_of(100, 50, 30, [](std::uint64_t) { return std::int64_t{256} << 20; });
    benchmark_result r;
    core::derive_memory(loop, r);
    EXPECT_DOUBLE_EQ(*r.retained_bytes_per_iter, 0.0);
    EXPECT_FALSE(has_warning(r, "retained_growth"));
    EXPECT_EQ(*r.peak_live_bytes, std::int64_t{256} << 20);
}

TEST(metrics, a_one_off_small_fill_is_not_flagged) {
    // A cache that gains 8 KiB once, during the measured samples.
    auto loop = samples_of(10, 10, 30, [](std::uint64_t i) { return i > 150 ? std::int64_t{8192} : 0; });
    benchmark_result r;
    core::derive_memory(loop, r);
    EXPECT_FALSE(has_warning(r, "retained_growth"));
}

TEST(metrics, page_faults_per_iteration_and_fresh_memory) {
    auto fresh = samples_of(
        0, 2, 10, [](std::uint64_t) { return 0; }, /*faults_per_sample=*/2 * 16384);
    benchmark_result r;
    core::derive_memory(fresh, r);
    EXPECT_DOUBLE_EQ(*r.page_faults_per_iter, 16384.0);
    EXPECT_TRUE(has_warning(r, "fresh_memory"));

    auto resident = samples_of(
        0, 2, 10, [](std::uint64_t) { return 0; }, /*faults_per_sample=*/1);
    benchmark_result r2;
    core::derive_memory(resident, r2);
    EXPECT_DOUBLE_EQ(*r2.page_faults_per_iter, 0.5);
    EXPECT_FALSE(has_warning(r2, "fresh_memory"));

    // An allocator touching only the header page of 17 mmapped 1 MiB blocks: real faults,
    // but a sliver of the bytes requested, not a buffer mapped fresh per iteration.
    auto headers = samples_of(
        0, 2, 10, [](std::uint64_t) { return 0; }, /*faults_per_sample=*/34);
    for (sample& s : headers.samples) {
        s.bytes = 2 * 17 * (1U << 20);
    }
    benchmark_result r3;
    core::derive_memory(headers, r3);
    EXPECT_DOUBLE_EQ(*r3.page_faults_per_iter, 17.0);
    EXPECT_FALSE(has_warning(r3, "fresh_memory"));
}

/// Samples of 2 iterations each that fault `faults_per_iter` pages an iteration, request
/// `bytes_per_iter` and reach a live heap of `peak` bytes at the end of each sample.
detail::loop_outcome faulting(std::uint64_t faults_per_iter, std::uint64_t bytes_per_iter,
                              std::int64_t peak) {
    auto loop = samples_of(
        0, 2, 10, [peak](std::uint64_t) { return peak; }, 2 * faults_per_iter);
    for (sample& s : loop.samples) {
        s.bytes = 2 * bytes_per_iter;
        s.allocs = bytes_per_iter == 0 ? 0 : 2;
    }
    return loop;
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool sanitized = true;
#else
constexpr bool sanitized = false;
#endif

TEST(metrics, fresh_memory_that_no_counted_allocation_explains_is_unseen) {
    constexpr std::uint64_t mib = 1U << 20;
    const auto warns = [](const detail::loop_outcome& loop) {
        benchmark_result r;
        core::derive_memory(loop, r);
        return has_warning(r, "unseen_memory");
    };
    // A pool the hook does not see, faulting 16 MiB in each iteration with nothing counted.
    EXPECT_EQ(warns(faulting(4096, 0, 0)), !sanitized);
    // A counted 16 MiB buffer, fresh each iteration: explained by its bytes.
    EXPECT_FALSE(warns(faulting(4096, 16 * mib, 0)));
    // 8 MiB of small blocks that cost 32 MiB of pages, given back after each iteration (glibc's
    // trim): explained by the 24 MiB peak in usable bytes.
    EXPECT_FALSE(warns(faulting(8192, 8 * mib, 24 * static_cast<std::int64_t>(mib))));
    // Half the fresh pages counted: explained enough.
    EXPECT_FALSE(warns(faulting(4096, 8 * mib + 1, 0)));
    // A quarter counted: the rest unseen.
    EXPECT_EQ(warns(faulting(4096, 4 * mib, 0)), !sanitized);
    // Too few faults to speak of.
    EXPECT_FALSE(warns(faulting(10, 0, 0)));
    // Without accounting nothing is counted, so nothing is unexplained: no warning.
    auto off = faulting(4096, 0, 0);
    off.accounting = false;
    EXPECT_FALSE(warns(off));
}

TEST(metrics, without_accounting_memory_figures_stay_null) {
    auto loop = samples_of(0, 2, 10, [](std::uint64_t) { return 0; });
    loop.accounting = false;
    benchmark_result r;
    core::derive_memory(loop, r);
    EXPECT_FALSE(r.allocs_per_iter);
    EXPECT_FALSE(r.bytes_per_iter);
    EXPECT_FALSE(r.peak_live_bytes);
    EXPECT_FALSE(r.retained_bytes_per_iter);
    EXPECT_TRUE(r.page_faults_per_iter);  // faults come from the OS, not the interposer
}

TEST(metrics, time_statistics_and_throughput) {
    auto loop = samples_of(0, 10, 10, [](std::uint64_t) { return 0; });
    loop.bytes_per_iteration = 1000;
    loop.items_per_iteration = 2;
    benchmark_result r;
    core::derive_time(loop, r);
    EXPECT_EQ(r.iterations, 100U);
    EXPECT_DOUBLE_EQ(r.time.mean, 1000.0);
    EXPECT_DOUBLE_EQ(*r.bytes_per_second, 1e9);
    EXPECT_DOUBLE_EQ(*r.items_per_second, 2e6);
}

}  // namespace
}  // namespace tare
