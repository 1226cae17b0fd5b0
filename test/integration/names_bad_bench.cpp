// Benchmark names the executable must refuse (exit 2, the name in the message), chosen by
// TARE_BAD_NAME at build time: a newline, a leading space, a duplicate, an empty name.
#include <tare/tare.hpp>

static void body(tare::State& state) {
    for (auto _ : state) {
        tare::do_not_optimize(state.iterations());
    }
}
TARE_BENCHMARK(body);

[[maybe_unused]] static tare::benchmark* const bad = tare::register_benchmark(TARE_BAD_NAME, body);
