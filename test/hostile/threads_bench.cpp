// Eight threads started and joined in every iteration, for many samples: the accounting must
// stay exact with allocations and frees racing on every CPU, and nothing may deadlock or race
// (the test runs under ThreadSanitizer in CI). `threads_allocating` differs from
// `threads_idle` by exactly eight threads' ten blocks of 32 bytes an iteration.
#include <tare/tare.hpp>

#include <array>
#include <cstdlib>
#include <thread>

namespace {

constexpr int threads = 8;

void ten_blocks() {
    std::array<void*, 10> blocks{};
    for (void*& p : blocks) {
        p = std::malloc(32);
        tare::do_not_optimize(p);
    }
    for (void* p : blocks) {
        std::free(p);
    }
}

void idle() {}

template <void (*Body)()>
void start_and_join(tare::State& state) {
    for (auto _ : state) {
        std::array<std::thread, threads> pool;
        for (std::thread& t : pool) {
            t = std::thread(Body);
        }
        for (std::thread& t : pool) {
            t.join();
        }
    }
}

}  // namespace

static void threads_idle(tare::State& state) {
    start_and_join<idle>(state);
}
TARE_BENCHMARK(threads_idle);

static void threads_allocating(tare::State& state) {
    start_and_join<ten_blocks>(state);
}
TARE_BENCHMARK(threads_allocating);
