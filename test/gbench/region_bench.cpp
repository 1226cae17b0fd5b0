// Ground truth for tare::gbench's region hooks: Google Benchmark suites whose timed region makes
// a known number of allocations while setup, pauses and fixtures make others. The hooks must
// report the region's alone, at every iteration count.
#include <benchmark/benchmark.h>
#include <tare/report.hpp>

#include <sys/mman.h>

#include <cstring>
#include <memory>
#include <vector>

namespace {

// 1,000 allocations of setup, one of 48 bytes per iteration in the loop, and one inside a
// PauseTiming/ResumeTiming pair per iteration: exactly 1 alloc/iter and 48 B/iter.
void BM_setup_and_pause(benchmark::State& state) {
    std::vector<std::unique_ptr<int>> setup;
    for (int i = 0; i < 1000; ++i) {
        setup.push_back(std::make_unique<int>(i));
    }
    for (auto _ : state) {
        auto block = std::make_unique<char[]>(48);
        benchmark::DoNotOptimize(block.get());
        state.PauseTiming();
        auto paused = std::make_unique<char[]>(4096);
        benchmark::DoNotOptimize(paused.get());
        state.ResumeTiming();
    }
}
BENCHMARK(BM_setup_and_pause);
BENCHMARK(BM_setup_and_pause)->Iterations(1);
BENCHMARK(BM_setup_and_pause)->Iterations(4);

// The fixture allocates in SetUp and TearDown; the loop allocates nothing: 0.
class with_buffers : public benchmark::Fixture {
public:
    void SetUp(const benchmark::State&) override { buffers_.assign(64, std::vector<int>(256, 1)); }
    void TearDown(const benchmark::State&) override { buffers_.clear(); }

protected:
    std::vector<std::vector<int>> buffers_;
};

BENCHMARK_DEFINE_F(with_buffers, BM_fixture_loop)(benchmark::State& state) {
    for (auto _ : state) {
        benchmark::DoNotOptimize(buffers_[0].data());
    }
}
BENCHMARK_REGISTER_F(with_buffers, BM_fixture_loop);

// KeepRunning and KeepRunningBatch enter and leave the loop through the same members.
void BM_keep_running(benchmark::State& state) {
    while (state.KeepRunning()) {
        auto block = std::make_unique<char[]>(16);
        benchmark::DoNotOptimize(block.get());
    }
}
BENCHMARK(BM_keep_running);

void BM_keep_running_batch(benchmark::State& state) {
    while (state.KeepRunningBatch(8)) {
        for (int i = 0; i < 8; ++i) {
            auto block = std::make_unique<char[]>(16);
            benchmark::DoNotOptimize(block.get());
        }
    }
}
BENCHMARK(BM_keep_running_batch);

// A pool carving a 64-byte block out of memory it holds, and declaring it: exactly 1 alloc/iter,
// 64 B/iter and a peak of 64 B, none of which malloc sees.
void BM_declared_pool(benchmark::State& state) {
    static unsigned char pool[64];
    for (auto _ : state) {
        tare::report_alloc(pool, sizeof pool);
        benchmark::DoNotOptimize(pool);
        tare::report_free(pool, sizeof pool);
    }
}
BENCHMARK(BM_declared_pool);

// Keeps each iteration's 32-byte block: 32 bytes retained per iteration, and the peak grows.
void BM_keeps(benchmark::State& state) {
    std::vector<std::unique_ptr<char[]>> kept;
    kept.reserve(1 << 22);  // setup: the vector's own growth is outside the region
    for (auto _ : state) {
        kept.push_back(std::make_unique<char[]>(32));
    }
}
BENCHMARK(BM_keeps)->Iterations(1000);

// Each iteration maps 1 MiB, fills it and unmaps it: 256 page faults of 4 KiB (fewer with huge
// pages), where a malloc'd block would come back from glibc's heap warm after the first.
void BM_fresh_pages(benchmark::State& state) {
    constexpr std::size_t size = 1 << 20;
    for (auto _ : state) {
        void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            state.SkipWithError("mmap failed");
            break;
        }
        std::memset(p, 1, size);
        benchmark::DoNotOptimize(p);
        munmap(p, size);
    }
}
BENCHMARK(BM_fresh_pages)->Iterations(50);

// ->Threads(n): each thread makes 10 allocations of 16 bytes per iteration in its loop, besides
// a setup and a teardown of its own sizes, and thread 0 makes one allocation inside a pause each
// iteration while the other threads' loops go on. Exactly 10 allocs and 160 B per iteration.
void BM_threads(benchmark::State& state) {
    std::vector<std::unique_ptr<int>> setup;
    for (int i = 0; i < 100 * (state.thread_index() + 1); ++i) {
        setup.push_back(std::make_unique<int>(i));
    }
    for (auto _ : state) {
        for (int i = 0; i < 10; ++i) {
            auto block = std::make_unique<char[]>(16);
            benchmark::DoNotOptimize(block.get());
        }
        if (state.thread_index() == 0) {
            state.PauseTiming();
            auto paused = std::make_unique<char[]>(4096);
            benchmark::DoNotOptimize(paused.get());
            state.ResumeTiming();
        }
    }
    std::vector<std::unique_ptr<int>> teardown(setup.size());
    benchmark::DoNotOptimize(teardown.data());
}
BENCHMARK(BM_threads)->Threads(4);
BENCHMARK(BM_threads)->Threads(2)->Iterations(7);

// One of two threads skips its loop: Google Benchmark lets the other go on, and so must the
// hooks (a barrier of their own would wait for it forever). The row is an error row.
void BM_thread_skips(benchmark::State& state) {
    if (state.thread_index() == 1) {
        state.SkipWithError("thread 1 has no input");
        return;
    }
    for (auto _ : state) {
        auto block = std::make_unique<char[]>(16);
        benchmark::DoNotOptimize(block.get());
    }
}
BENCHMARK(BM_thread_skips)->Threads(2);

// Thread 1 skips inside its loop and breaks out of it, so its FinishKeepRunning never comes. The
// next threaded run must be measured as if nothing had happened.
void BM_thread_breaks(benchmark::State& state) {
    for (auto _ : state) {
        if (state.thread_index() == 1) {
            state.SkipWithError("thread 1 gave up");
            break;
        }
        auto block = std::make_unique<char[]>(16);
        benchmark::DoNotOptimize(block.get());
    }
}
BENCHMARK(BM_thread_breaks)->Threads(2);

// The same with SkipWithMessage (Google Benchmark 1.8 and later: a skipped row, not an error
// row); SkipWithError where the release has no SkipWithMessage.
template <typename State>
void skip_with_message(State& state, const char* why) {
    if constexpr (requires { state.SkipWithMessage(why); }) {
        state.SkipWithMessage(why);
    } else {
        state.SkipWithError(why);
    }
}

void BM_message_breaks(benchmark::State& state) {
    for (auto _ : state) {
        if (state.thread_index() == 1) {
            skip_with_message(state, "thread 1 is done");
            break;
        }
        auto block = std::make_unique<char[]>(16);
        benchmark::DoNotOptimize(block.get());
    }
}
BENCHMARK(BM_message_breaks)->Threads(2);
BENCHMARK(BM_threads)->Threads(3);

void BM_skipped(benchmark::State& state) {
    state.SkipWithError("no input");
    for (auto _ : state) {
    }
}
BENCHMARK(BM_skipped);

}  // namespace

BENCHMARK_MAIN();
