// A Google Benchmark suite as most CMake suites have it: no BENCHMARK_MAIN() of its own, Google
// Benchmark's main taken from benchmark::benchmark_main, which the build replaces with
// tare::gbench_main and nothing else. BM_nothing allocates nothing (every tare_* counter is 0 in
// every repetition: the case whose `_cv` row Google Benchmark would write as NaN); BM_one_block
// makes one allocation of 64 bytes per iteration.
#include <benchmark/benchmark.h>

#include <memory>

namespace {

void BM_nothing(benchmark::State& state) {
    int x = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(++x);
    }
}
BENCHMARK(BM_nothing);

void BM_one_block(benchmark::State& state) {
    for (auto _ : state) {
        auto block = std::make_unique<char[]>(64);
        benchmark::DoNotOptimize(block.get());
    }
}
BENCHMARK(BM_one_block);

}  // namespace
