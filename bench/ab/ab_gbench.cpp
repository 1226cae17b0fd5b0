// The A/B study's bodies under Google Benchmark (bench/ab/README.md), for compare.py and, linked
// with tare::gbench (gbw_ab_*), for tare compare's worker mode. Built as
// gb_ab_a1, gb_ab_a2 (identical), gb_ab_slow10, gb_ab_slow20, gb_ab_slow50.
#include <benchmark/benchmark.h>

#include "bodies.hpp"

namespace {

template <class Body>
void run_body(benchmark::State& state) {
    Body body;
    for (auto _ : state) {
        benchmark::DoNotOptimize(body);
        auto r = body.run();
        benchmark::DoNotOptimize(r);
    }
}

void hash_64k(benchmark::State& state) {
    run_body<ab::hash_64k>(state);
}
void sort_2k(benchmark::State& state) {
    run_body<ab::sort_2k>(state);
}
void parse_csv(benchmark::State& state) {
    run_body<ab::parse_csv>(state);
}
void map_500(benchmark::State& state) {
    run_body<ab::map_500>(state);
}

BENCHMARK(hash_64k);
BENCHMARK(sort_2k);
BENCHMARK(parse_csv);
BENCHMARK(map_500);

}  // namespace
