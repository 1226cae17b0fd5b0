// A Google Benchmark suite with benchmarks that crash, exit and hang between two that work:
// `tare run --isolate` must keep the good ones and name each other one (Google Benchmark itself
// has no isolation, and one crash loses the whole run).
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>

static void BM_good(benchmark::State& state) {
    int x = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(++x);
    }
}
BENCHMARK(BM_good);

static void BM_segfault(benchmark::State& state) {
    for (auto _ : state) {
        std::raise(SIGSEGV);
    }
}
BENCHMARK(BM_segfault);

static void BM_exit3(benchmark::State& state) {
    for (auto _ : state) {
        ::_exit(3);
    }
}
BENCHMARK(BM_exit3);

static void BM_spin(benchmark::State& state) {
    // A busy hang at the lowest priority: tare must still stop it at --timeout, while the tests
    // that run beside it (ctest runs more than one at once) keep their processor.
    setpriority(PRIO_PROCESS, 0, 19);
    for (auto _ : state) {
        for (;;) {
            benchmark::ClobberMemory();
        }
    }
}
BENCHMARK(BM_spin);

static void BM_good2(benchmark::State& state) {
    int x = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(--x);
    }
}
BENCHMARK(BM_good2)->Arg(8);

BENCHMARK_MAIN();
