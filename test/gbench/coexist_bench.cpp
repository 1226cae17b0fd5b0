// TARE_BENCHMARK and BENCHMARK in one translation unit: both headers, both macros, GB's main.
// The build proves they compile together; the test lists GB's benchmarks through it.
#include <benchmark/benchmark.h>
#include <tare/tare.hpp>

#include <vector>

namespace {

void tare_side(tare::State& state) {
    std::vector<int> v(16);
    for (auto _ : state) {
        tare::do_not_optimize(v.data());
    }
}
TARE_BENCHMARK(tare_side)->arg(1);

void BM_gbench_side(benchmark::State& state) {
    std::vector<int> v(16);
    for (auto _ : state) {
        benchmark::DoNotOptimize(v.data());
    }
}
BENCHMARK(BM_gbench_side);

}  // namespace

BENCHMARK_MAIN();
