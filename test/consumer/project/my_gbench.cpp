// A Google Benchmark suite in a consumer's project, built twice: with its own BENCHMARK_MAIN()
// (TARE_CONSUMER_OWN_MAIN, linked with tare::gbench) and on Google Benchmark's main (linked with
// tare::gbench_main). BM_one_block makes one 64-byte allocation an iteration.
#include <benchmark/benchmark.h>

#include <memory>

static void BM_one_block(benchmark::State& state) {
    for (auto _ : state) {
        auto block = std::make_unique<char[]>(64);
        benchmark::DoNotOptimize(block.get());
    }
}
BENCHMARK(BM_one_block);

#ifdef TARE_CONSUMER_OWN_MAIN
BENCHMARK_MAIN();
#endif
