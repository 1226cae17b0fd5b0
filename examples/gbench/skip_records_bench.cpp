// A plain Google Benchmark suite (seed case 001 in miniature: Arrow's SkipRecords built a new
// validity bitmap on every call). Nothing here knows about tare: linking tare::gbench is what
// makes GB's JSON, and `tare run`, show allocs/iter, bytes/iter and the peak heap.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

namespace {

// Skips `n` records; the fresh variant builds its scratch bitmap per call, as the bug did.
std::int64_t skip_fresh(const std::vector<std::uint8_t>& levels, std::int64_t n) {
    std::vector<std::uint8_t> bitmap(static_cast<std::size_t>(n + 7) / 8);
    std::int64_t defined = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        const bool d = levels[static_cast<std::size_t>(i)] != 0;
        bitmap[static_cast<std::size_t>(i / 8)] |= static_cast<std::uint8_t>(d << (i % 8));
        defined += d;
    }
    return defined;
}

// The fix: the caller's scratch buffer, grown once and reused.
std::int64_t skip_reused(const std::vector<std::uint8_t>& levels, std::int64_t n,
                         std::vector<std::uint8_t>& bitmap) {
    bitmap.assign(static_cast<std::size_t>(n + 7) / 8, 0);
    std::int64_t defined = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        const bool d = levels[static_cast<std::size_t>(i)] != 0;
        bitmap[static_cast<std::size_t>(i / 8)] |= static_cast<std::uint8_t>(d << (i % 8));
        defined += d;
    }
    return defined;
}

std::vector<std::uint8_t> make_levels(std::int64_t n) {
    std::vector<std::uint8_t> levels(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < levels.size(); ++i) {
        levels[i] = static_cast<std::uint8_t>(i % 3 != 0);
    }
    return levels;
}

void BM_skip_records_fresh_bitmap(benchmark::State& state) {
    const auto levels = make_levels(state.range(0));
    for (auto _ : state) {
        benchmark::DoNotOptimize(skip_fresh(levels, state.range(0)));
    }
    state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_skip_records_fresh_bitmap)->Arg(4096);

void BM_skip_records_reused_bitmap(benchmark::State& state) {
    const auto levels = make_levels(state.range(0));
    std::vector<std::uint8_t> bitmap;
    for (auto _ : state) {
        benchmark::DoNotOptimize(skip_reused(levels, state.range(0), bitmap));
    }
    state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_skip_records_reused_bitmap)->Arg(4096);

}  // namespace

BENCHMARK_MAIN();
