// Google Benchmark registrations that a worker (src/adapters/gbench/worker.cpp) must drive at
// the controller's iteration count without help from their authors: a family with MinTime
// (which refuses Iterations()), repetitions, manual time, a name full of regular-expression
// characters, a body that crashes, and one that never enters its loop. Every loop makes exactly
// one 32-byte allocation per iteration.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <memory>

namespace {

void one_block(benchmark::State& state) {
    for (auto _ : state) {
        auto block = std::make_unique<char[]>(32);
        benchmark::DoNotOptimize(block.get());
    }
}
BENCHMARK(one_block)->Name("BM_min_time")->MinTime(0.05);
BENCHMARK(one_block)->Name("BM_repeated")->Repetitions(3);
BENCHMARK(one_block)->Name("BM_special(x)[1]+.*");

void BM_manual(benchmark::State& state) {
    for (auto _ : state) {
        auto block = std::make_unique<char[]>(32);
        benchmark::DoNotOptimize(block.get());
        state.SetIterationTime(1e-6);  // exactly 1 us an iteration, whatever the clock says
    }
}
BENCHMARK(BM_manual)->UseManualTime();

void BM_crash(benchmark::State& state) {
    for (auto _ : state) {
        std::abort();
    }
}
BENCHMARK(BM_crash);

void BM_no_loop(benchmark::State& state) {
    state.SkipWithError("nothing to measure");
}
BENCHMARK(BM_no_loop);

BENCHMARK(one_block)->Name("BM_after");

}  // namespace

BENCHMARK_MAIN();
