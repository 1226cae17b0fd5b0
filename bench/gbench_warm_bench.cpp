// Google Benchmark rows whose every run starts cold, for warm samples (docs/gbench.md, "Warm
// samples"; bench/README.md), linked with tare::gbench. Setup builds a document of 200,000
// numbers (tens of milliseconds). BM_dump_document: setup also maps a 16 MiB output buffer it
// never touches; each iteration writes the document as text into that buffer, some
// milliseconds, allocating nothing: a run's first iteration faults in the pages it writes, the
// later ones none. BM_sum_field: each iteration sums one field of the document, microseconds: a
// setup that costs far more than any sample.
#include <benchmark/benchmark.h>
#include <sys/mman.h>

#include <charconv>
#include <cstddef>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

std::map<std::string, std::vector<double>> make_document() {
    std::mt19937_64 random(42);
    std::uniform_real_distribution<double> value(-1e6, 1e6);
    std::map<std::string, std::vector<double>> document;
    for (int key = 0; key < 2000; ++key) {
        auto& row = document["field_" + std::to_string(key)];
        for (int i = 0; i < 100; ++i) {
            row.push_back(value(random));
        }
    }
    return document;
}

void BM_dump_document(benchmark::State& state) {
    const auto document = make_document();
    constexpr std::size_t capacity = std::size_t{16} << 20;
    void* m = mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        state.SkipWithError("mmap failed");
        return;
    }
    char* const out = static_cast<char*>(m);
    for (auto _ : state) {
        char* p = out;
        char* const end = out + capacity;
        *p++ = '{';
        for (const auto& [key, row] : document) {
            *p++ = '"';
            p = std::copy(key.begin(), key.end(), p);
            *p++ = '"';
            *p++ = ':';
            *p++ = '[';
            for (double v : row) {
                p = std::to_chars(p, end, v).ptr;
                *p++ = ',';
            }
            p[-1] = ']';
            *p++ = ',';
        }
        p[-1] = '}';
        benchmark::DoNotOptimize(p);
        benchmark::ClobberMemory();
    }
    munmap(m, capacity);
}
BENCHMARK(BM_dump_document)->Unit(benchmark::kMillisecond);

void BM_sum_field(benchmark::State& state) {
    const auto document = make_document();
    const std::vector<double>& field = document.at("field_1000");
    for (auto _ : state) {
        double sum = 0;
        for (int pass = 0; pass < 100; ++pass) {
            for (double v : field) {
                sum += v;
            }
            benchmark::DoNotOptimize(sum);
        }
    }
}
BENCHMARK(BM_sum_field)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
