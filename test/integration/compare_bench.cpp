// A benchmark executable for `tare compare` end to end, built three ways (test/integration/
// CMakeLists.txt): TARE_WORK_FACTOR scales the work of `spin` (1 = base, 3 = a head three
// times slower), TARE_EXTRA_BENCH adds a benchmark the base lacks, and TARE_NO_ALLOC makes
// `allocate` allocate nothing. TARE_TEST_CRASH / TARE_TEST_HANG name a benchmark that aborts or
// hangs inside its loop (read from the environment, so one build serves every error test).
#include <tare/tare.hpp>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#ifndef TARE_WORK_FACTOR
#define TARE_WORK_FACTOR 1
#endif
#ifndef TARE_NO_ALLOC
#define TARE_NO_ALLOC 0
#endif

namespace {

void misbehave_if_asked(const std::string& name) {
    if (const char* c = std::getenv("TARE_TEST_CRASH"); c != nullptr && name == c) {
        std::fputs("compare_bench: crashing on purpose\n", stderr);
        std::abort();
    }
    if (const char* h = std::getenv("TARE_TEST_HANG"); h != nullptr && name == h) {
        for (;;) {
            std::this_thread::sleep_for(std::chrono::seconds(1));
        }
    }
}

std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    return x;
}

void spin(tare::State& state) {
    std::uint64_t acc = 1;
    for (auto _ : state) {
        misbehave_if_asked(state.name());
        for (int i = 0; i < 200 * TARE_WORK_FACTOR; ++i) {
            acc = mix(acc + static_cast<std::uint64_t>(i));
        }
        tare::do_not_optimize(acc);
    }
}
TARE_BENCHMARK(spin);

void allocate(tare::State& state) {
    for (auto _ : state) {
        misbehave_if_asked(state.name());
#if TARE_NO_ALLOC
        std::uint64_t local[8] = {};
        tare::do_not_optimize(local);
#else
        auto p = std::make_unique<std::uint64_t[]>(8);
        tare::do_not_optimize(p.get());
#endif
    }
}
TARE_BENCHMARK(allocate);

#ifdef TARE_EXTRA_BENCH
void only_in_head(tare::State& state) {
    std::uint64_t acc = 0;
    for (auto _ : state) {
        acc = mix(acc);
        tare::do_not_optimize(acc);
    }
}
TARE_BENCHMARK(only_in_head);
#endif

void throws_in_setup(tare::State& state) {
    if (std::getenv("TARE_TEST_THROW") != nullptr) {
        throw std::runtime_error("setup failed on purpose");
    }
    for (auto _ : state) {
        tare::clobber_memory();
    }
}
TARE_BENCHMARK(throws_in_setup);

}  // namespace
