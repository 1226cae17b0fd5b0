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
