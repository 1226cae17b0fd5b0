// What a loop keeps, when every Google Benchmark run starts from the body's setup again: state
// the first iteration fills and later ones reuse is not growth, a bounded cache filled within a
// sample is not either, and a buffer cleared outside the loop (a vector appended to in every
// iteration) is.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace {

// A 64 KiB buffer the first iteration of each run allocates and the rest reuse.
void BM_reused_buffer(benchmark::State& state) {
    std::vector<char> buffer;
    for (auto _ : state) {
        buffer.resize(64 << 10);
        benchmark::DoNotOptimize(buffer.data());
    }
}
BENCHMARK(BM_reused_buffer);

// A memo cache of 32 KiB entries bounded at 1 MiB: each iteration computes for about a
// microsecond and adds an entry until the cache is full, after 32 iterations, whose first touch
// of 256 pages takes a few milliseconds on a loaded machine: within the 25 ms of the worker's
// shorter extra run. One Google Benchmark run of half a second keeps the 1 MiB over some 400,000
// iterations, a few bytes each, which its own run's judgment took for growth.
void BM_bounded_cache(benchmark::State& state) {
    constexpr std::size_t entry = 32768;
    constexpr std::size_t capacity = (std::size_t{1} << 20) / entry;
    std::vector<std::unique_ptr<char[]>> cache;
    cache.reserve(capacity);
    std::uint64_t x = 1;
    for (auto _ : state) {
        for (int i = 0; i < 1024; ++i) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            benchmark::DoNotOptimize(x);
        }
        if (cache.size() < capacity) {
            cache.push_back(std::make_unique<char[]>(entry));
        }
        benchmark::DoNotOptimize(cache.data());
    }
}
BENCHMARK(BM_bounded_cache);

// The seed's bug in a Google Benchmark body: the buffer is cleared outside the loop, so every
// iteration appends 64 bytes to what the earlier ones left.
void BM_never_cleared(benchmark::State& state) {
    std::vector<char> out;
    const std::string chunk(64, 'x');
    out.clear();  // the bug: outside the loop
    for (auto _ : state) {
        out.insert(out.end(), chunk.begin(), chunk.end());
        benchmark::DoNotOptimize(out.data());
    }
}
BENCHMARK(BM_never_cleared);

}  // namespace

BENCHMARK_MAIN();
