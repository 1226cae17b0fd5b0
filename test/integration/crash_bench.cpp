// Benchmarks that crash, abort, hang or throw, beside one that works: with --isolate each
// failure must become its own error row while the others still run.
#include <tare/tare.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <thread>

// With TARE_TEST_ANNOUNCE set, a body says on standard error that it has begun: the interrupt
// tests wait for that line (an event) before they signal, rather than sleeping.
static void announce(const char* name) {
    if (std::getenv("TARE_TEST_ANNOUNCE") != nullptr) {
        std::fprintf(stderr, "started %s\n", name);
        std::fflush(stderr);
    }
}

// Unsigned: a body that runs billions of iterations (a long --min-time) wraps without overflow.
static void works(tare::State& state) {
    unsigned x = 0;
    for (auto _ : state) {
        tare::do_not_optimize(++x);
    }
}
TARE_BENCHMARK(works);

static void segfaults(tare::State& state) {
    for (auto _ : state) {
        std::raise(SIGSEGV);
    }
}
TARE_BENCHMARK(segfaults);

static void aborts(tare::State& state) {
    for (auto _ : state) {
        std::abort();
    }
}
TARE_BENCHMARK(aborts);

static void hangs(tare::State& state) {
    announce("hangs");
    for (auto _ : state) {
        std::this_thread::sleep_for(std::chrono::hours(1));
    }
}
TARE_BENCHMARK(hangs);

static void throws(tare::State& state) {
    for (auto _ : state) {
        throw std::logic_error("invariant broken");
    }
}
TARE_BENCHMARK(throws);

static void works_too(tare::State& state) {
    announce("works_too");
    unsigned x = 0;
    for (auto _ : state) {
        tare::do_not_optimize(--x);
    }
}
TARE_BENCHMARK(works_too);

// Ends the process from inside the loop with status 0: the guard must name it and keep the rest.
static void exits_zero(tare::State& state) {
    for (auto _ : state) {
        std::exit(0);
    }
}
TARE_BENCHMARK(exits_zero);
