// A comparison group whose member is 100x slower than its baseline: how long the group takes.
// bench/README.md ("Variant groups far apart") has the figures and the command.
#include <tare/tare.hpp>

#include <cstdint>

namespace {

std::uint64_t spin(std::uint64_t rounds) {
    std::uint64_t x = 0x9e3779b97f4a7c15ULL;
    for (std::uint64_t i = 0; i < rounds; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        tare::do_not_optimize(x);
    }
    return x;
}

void fast(tare::State& state) {
    for (auto _ : state) {
        tare::do_not_optimize(spin(100));
    }
}
TARE_BENCHMARK(fast);

void slow(tare::State& state) {
    for (auto _ : state) {
        tare::do_not_optimize(spin(100 * 100));
    }
}
TARE_BENCHMARK(slow);

TARE_VARIANTS("far_apart", fast, slow);

}  // namespace
