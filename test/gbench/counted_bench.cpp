// Ground truth for --instrument on a Google Benchmark suite linked with tare::gbench: bodies of
// known instruction counts, the same behind heavy setup and inside heavy pauses, and with one
// allocation per iteration (gbench_counted_test.cpp).
#include <benchmark/benchmark.h>

#include <memory>

namespace {

// N no-ops in a row: exactly N instructions.
template <int N>
inline void nops() {
    asm volatile(".rept %c0\n\tnop\n\t.endr" ::"i"(N));
}

void BM_nops_1000(benchmark::State& state) {
    for (auto _ : state) {
        nops<1000>();
    }
}
BENCHMARK(BM_nops_1000);

void BM_nops_2000(benchmark::State& state) {
    for (auto _ : state) {
        nops<2000>();
    }
}
BENCHMARK(BM_nops_2000);

// 10^6 no-ops of setup, and 5,000 inside a pause every iteration: neither is counted.
void BM_setup_and_pause(benchmark::State& state) {
    for (int i = 0; i < 1000; ++i) {
        nops<1000>();
    }
    for (auto _ : state) {
        nops<1000>();
        state.PauseTiming();
        nops<5000>();
        state.ResumeTiming();
    }
}
BENCHMARK(BM_setup_and_pause);

void BM_one_allocation(benchmark::State& state) {
    for (auto _ : state) {
        auto block = std::make_unique<char[]>(48);
        benchmark::DoNotOptimize(block.get());
    }
}
BENCHMARK(BM_one_allocation);

}  // namespace

BENCHMARK_MAIN();
