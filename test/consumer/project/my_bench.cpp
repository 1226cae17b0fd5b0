// Public headers compile as C++17 in a consumer's project.
#include <tare/tare.hpp>

#include <vector>

static void fill(tare::State& state) {
    std::vector<int> v;
    for (auto _ : state) {
        v.assign(static_cast<std::size_t>(state.arg(0)), 7);
        tare::do_not_optimize(v.data());
    }
}
TARE_BENCHMARK(fill)->arg(16);

// A copy of arg(0) ints an iteration: with tare::copies linked (my_bench_copies), arg(0) * 4
// bytes copied.
static void copy(tare::State& state) {
    const std::vector<int> source(static_cast<std::size_t>(state.arg(0)), 7);
    for (auto _ : state) {
        std::vector<int> v(source);
        tare::do_not_optimize(v.data());
    }
}
TARE_BENCHMARK(copy)->arg(16);
