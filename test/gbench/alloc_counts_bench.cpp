// A Google Benchmark suite with known allocations: BM_allocs/k makes exactly k heap
// allocations of 64 bytes per iteration (k in {0, 1, 3}), freed in the same iteration. Linked
// with tare::gbench and nothing else of tare: the memory figures in its JSON come from the
// MemoryManager that linking registers.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace {

void BM_allocs(benchmark::State& state) {
    const auto k = static_cast<std::size_t>(state.range(0));
    for (auto _ : state) {
        for (std::size_t i = 0; i < k; ++i) {
            auto block = std::make_unique<char[]>(64);
            benchmark::DoNotOptimize(block.get());
        }
    }
}
BENCHMARK(BM_allocs)->Arg(0)->Arg(1)->Arg(3);

// Keeps one 64-byte block per iteration alive until the benchmark ends: net heap growth and
// peak grow with the memory run's iterations.
void BM_retains(benchmark::State& state) {
    std::vector<std::unique_ptr<char[]>> kept;
    kept.reserve(1 << 20);  // before the loop: the vector's own growth is not in the figures
    for (auto _ : state) {
        kept.push_back(std::make_unique<char[]>(64));
        if (kept.size() == kept.capacity()) {
            kept.clear();
        }
    }
}
BENCHMARK(BM_retains);

}  // namespace

BENCHMARK_MAIN();
