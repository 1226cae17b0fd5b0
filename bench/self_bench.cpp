// tare measuring itself: the harness's own cost per iteration, and what untimed inputs add.
// bench/README.md says how to read these next to Google Benchmark's (gbench_self_bench).
#include <tare/tare.hpp>

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "alloc/accounting.hpp"

namespace {

// The loop alone: a compiler barrier that costs no instruction keeps the loop from being
// deleted, so the time per iteration is the harness's own overhead.
void loop_overhead(tare::State& state) {
    for (auto _ : state) {
        tare::clobber_memory();
    }
}
TARE_BENCHMARK(loop_overhead);

// A truly empty body: the compiler deletes the loop, and tare says so (optimized_away).
void empty_body(tare::State& state) {
    for (auto _ : state) {
    }
}
TARE_BENCHMARK(empty_body);

// A trivial body, to show the overhead beside one real instruction of work.
void increment(tare::State& state) {
    std::uint64_t x = 0;
    for (auto _ : state) {
        ++x;
        tare::do_not_optimize(x);
    }
}
TARE_BENCHMARK(increment);

// The same trivial body fed by untimed inputs: the difference to `increment` is what
// with_inputs costs per iteration (target: at most 5 ns).
void increment_with_inputs(tare::State& state) {
    std::uint64_t seed = 0;
    auto inputs = state.with_inputs([&] { return ++seed; });
    for (std::uint64_t& v : inputs) {
        ++v;
        tare::do_not_optimize(v);
    }
}
TARE_BENCHMARK(increment_with_inputs);

// A malloc-heavy body: one allocation and one free per iteration, accounting on.
void malloc_free_32(tare::State& state) {
    for (auto _ : state) {
        void* p = std::malloc(32);
        tare::do_not_optimize(p);
        std::free(p);
    }
}
TARE_BENCHMARK(malloc_free_32);

// The same pair through operator new and a sized delete, as a container frees its nodes: on
// jemalloc and tcmalloc the sized delete is the allocator's own path (its sdallocx), not free.
void new_sized_delete_32(tare::State& state) {
    for (auto _ : state) {
        void* p = ::operator new(32);
        tare::do_not_optimize(p);
        ::operator delete(p, 32);
    }
}
TARE_BENCHMARK(new_sized_delete_32);

// A mixed-size body: a map of 100 strings of 16 to 136 characters built and destroyed, about
// 200 allocations and frees of 8 sizes per iteration, by operator new and a sized delete.
void map_100_strings(tare::State& state) {
    std::vector<std::string> texts;
    for (int i = 0; i < 100; ++i)
        texts.emplace_back(static_cast<std::size_t>(16 + i % 7 * 20), static_cast<char>('a' + i % 26));
    for (auto _ : state) {
        std::map<int, std::string> m;
        for (int i = 0; i < 100; ++i)
            m.emplace(i * 7919 % 100, texts[static_cast<std::size_t>(i)]);
        tare::do_not_optimize(m);
    }
}
TARE_BENCHMARK(map_100_strings);

// The same pair with the region paused, as the harness's own work between samples runs: each
// iteration pauses again (one store), the allocation goes into the paused set and the free takes
// it out (docs/accounting.md, "The live heap in usable bytes"). What a table of every live block
// would cost the counted path.
void malloc_free_32_paused(tare::State& state) {
    for (auto _ : state) {
        tare::alloc::pause();
        void* p = std::malloc(32);
        tare::do_not_optimize(p);
        std::free(p);
    }
}
TARE_BENCHMARK(malloc_free_32_paused);

// A pool's declared block, reported and freed each iteration: what tare::report_alloc and
// report_free cost while counting (in the build without accounting they are empty calls).
void declared_pair(tare::State& state) {
    static unsigned char pool[32];
    for (auto _ : state) {
        tare::report_alloc(pool, sizeof pool);
        tare::clobber_memory();
        tare::report_free(pool, sizeof pool);
    }
}
TARE_BENCHMARK(declared_pair);

}  // namespace
