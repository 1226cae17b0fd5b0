// Google Benchmark's side of bench/self_bench.cpp: the same bodies under Google Benchmark,
// and what its PauseTiming/ResumeTiming costs per iteration (the alternative tare's untimed
// inputs replace).
#include <benchmark/benchmark.h>

#include <cstdint>

static void loop_overhead(benchmark::State& state) {
    for (auto _ : state) {
        benchmark::ClobberMemory();
    }
}
BENCHMARK(loop_overhead);

static void increment(benchmark::State& state) {
    std::uint64_t x = 0;
    for (auto _ : state) {
        ++x;
        benchmark::DoNotOptimize(x);
    }
}
BENCHMARK(increment);

static void increment_with_pause(benchmark::State& state) {
    std::uint64_t seed = 0;
    for (auto _ : state) {
        state.PauseTiming();
        std::uint64_t v = ++seed;
        state.ResumeTiming();
        ++v;
        benchmark::DoNotOptimize(v);
    }
}
BENCHMARK(increment_with_pause);
