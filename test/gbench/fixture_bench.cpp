// The Google Benchmark suite whose real output is stored under data/ for the reader's golden
// tests: non-finite counters, repetitions with aggregates, an error row, time units, rates and
// throughput, a fixture, a complexity fit. Regenerate as data/README.md says after a GB upgrade.
#include <benchmark/benchmark.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace {

void BM_non_finite(benchmark::State& state) {
    for (auto _ : state) {
        auto p = std::make_unique<int>(1);
        benchmark::DoNotOptimize(p.get());
    }
    state.counters["nan"] = std::nan("");
    state.counters["inf"] = std::numeric_limits<double>::infinity();
    state.counters["minus_inf"] = -std::numeric_limits<double>::infinity();
    state.counters["plain"] = 42;
}
BENCHMARK(BM_non_finite);

void BM_repeated(benchmark::State& state) {
    std::string s;
    for (auto _ : state) {
        s.assign(static_cast<std::size_t>(state.range(0)), 'x');
        benchmark::DoNotOptimize(s.data());
    }
    state.SetBytesProcessed(state.iterations() * state.range(0));
    state.counters["rate"] = benchmark::Counter(1, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_repeated)->Arg(1000)->Repetitions(3);

void BM_error(benchmark::State& state) {
    state.SkipWithError("input \"missing\": NaN is not a number here");
    for (auto _ : state) {
    }
}
BENCHMARK(BM_error);

void BM_microseconds(benchmark::State& state) {
    std::vector<double> v(256, 1.0);
    for (auto _ : state) {
        double sum = 0;
        for (double x : v) {
            sum += x;
        }
        benchmark::DoNotOptimize(sum);
    }
    state.SetItemsProcessed(state.iterations() * 256);
    state.SetLabel("sum of 256");
}
BENCHMARK(BM_microseconds)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_microseconds)->Unit(benchmark::kMillisecond)->Name("BM_milliseconds");

// A complexity fit: GB adds BigO and RMS rows under the family's name.
void BM_linear(benchmark::State& state) {
    std::vector<int> v(static_cast<std::size_t>(state.range(0)), 1);
    for (auto _ : state) {
        int sum = 0;
        for (int x : v) {
            sum += x;
        }
        benchmark::DoNotOptimize(sum);
    }
    state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_linear)->RangeMultiplier(4)->Range(64, 1024)->Complexity(benchmark::oN);

// SetUp allocates: GB's memory window includes it (the adapter's README says so).
class with_setup : public benchmark::Fixture {
public:
    void SetUp(const benchmark::State&) override { data_ = std::make_unique<std::vector<int>>(1024); }
    void TearDown(const benchmark::State&) override { data_.reset(); }

protected:
    std::unique_ptr<std::vector<int>> data_;
};
BENCHMARK_DEFINE_F(with_setup, BM_fixture)(benchmark::State& state) {
    for (auto _ : state) {
        benchmark::DoNotOptimize(data_->data());
    }
}
BENCHMARK_REGISTER_F(with_setup, BM_fixture);

}  // namespace

BENCHMARK_MAIN();
