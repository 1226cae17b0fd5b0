// Comparison groups as a user declares them (docs/variants.md): one whose member allocates k
// blocks per iteration against none, one whose member does 3x the work, and one of two
// identical bodies. Used by variants_test.cpp.
#include <tare/tare.hpp>

#include <cstdlib>

#include <cstdint>

namespace {

// A dependent chain of multiply-xorshift rounds: work the compiler cannot fold or vectorize.
std::uint64_t mix(std::uint64_t x, int rounds) {
    for (int i = 0; i < rounds * 64; ++i) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        x ^= x >> 29;
    }
    return x;
}

void no_allocs(tare::State& state) {
    const auto k = state.arg(0);
    std::uint64_t x = 1;
    for (auto _ : state) {
        for (std::int64_t i = 0; i < k; ++i) {
            x = mix(x, 1);
        }
        tare::do_not_optimize(x);
    }
}

void k_allocs(tare::State& state) {
    const auto k = state.arg(0);
    std::uint64_t x = 1;
    for (auto _ : state) {
        for (std::int64_t i = 0; i < k; ++i) {
            auto* block = new std::uint64_t[8];
            tare::do_not_optimize(block);
            x = mix(x, 1);
            delete[] block;
        }
        tare::do_not_optimize(x);
    }
}

void work_1x(tare::State& state) {
    std::uint64_t x = 1;
    for (auto _ : state) {
        x = mix(x, 1);
        tare::do_not_optimize(x);
    }
}

void work_3x(tare::State& state) {
    std::uint64_t x = 1;
    for (auto _ : state) {
        x = mix(x, 3);
        tare::do_not_optimize(x);
    }
}

void same_a(tare::State& state) {
    std::uint64_t x = 1;
    for (auto _ : state) {
        x = mix(x, 1);
        tare::do_not_optimize(x);
    }
}

void same_b(tare::State& state) {
    std::uint64_t x = 1;
    for (auto _ : state) {
        x = mix(x, 1);
        tare::do_not_optimize(x);
    }
}

void lone(tare::State& state) {
    for (auto _ : state) {
        tare::do_not_optimize(mix(7, 1));
    }
}

}  // namespace

TARE_BENCHMARK(no_allocs)->arg(3);
TARE_BENCHMARK(k_allocs)->arg(3);
TARE_BENCHMARK(work_1x);
TARE_BENCHMARK(lone);
TARE_BENCHMARK(work_3x);
TARE_BENCHMARK(same_a);
TARE_BENCHMARK(same_b);

TARE_VARIANTS("allocs", no_allocs, k_allocs);  // first = baseline
TARE_VARIANTS("work", work_1x, work_3x);
// The function API, as TARE_VARIANTS expands to.
[[maybe_unused]] static const bool same_declared = [] {
    tare::register_variants("same", {"same_a", "same_b"});
    return true;
}();

// Registered only when TARE_TEST_STUCK_GROUP is set (the --isolate --timeout test): a group
// whose member never returns from its loop.
void quick(tare::State& state) {
    for (auto _ : state) {
        tare::clobber_memory();
    }
}
void stuck(tare::State& state) {
    for (auto _ : state) {
        for (;;) {
            tare::clobber_memory();
        }
    }
}
[[maybe_unused]] static const bool stuck_declared = [] {
    if (std::getenv("TARE_TEST_STUCK_GROUP") == nullptr) {
        return false;
    }
    tare::register_benchmark("quick", quick);
    tare::register_benchmark("stuck", stuck);
    tare::register_variants("stuck_group", {"quick", "stuck"});
    return true;
}();
