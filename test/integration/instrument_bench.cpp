// Bodies whose instruction counts are known, for --instrument (instrument_test.cpp): a body of
// exactly N no-op instructions, the same behind a heavy setup or heavy untimed inputs, one
// allocation, and bodies whose count the environment or the clock could move.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <thread>

#include "tare/tare.hpp"

namespace {

// N no-ops in a row: exactly N instructions, whatever the compiler does around them.
template <int N>
inline void nops() {
    asm volatile(".rept %c0\n\tnop\n\t.endr" ::"i"(N));
}

template <int N>
void nop_body(tare::State& state) {
    for (auto _ : state) {
        nops<N>();
    }
}

// 10^6 no-ops before the loop: setup, in no count.
void heavy_setup(tare::State& state) {
    for (int i = 0; i < 1000; ++i) {
        nops<1000>();
    }
    for (auto _ : state) {
        nops<1000>();
    }
}

// Each input costs 5,000 no-ops to make, untimed and uncounted; the light one costs none.
template <bool Heavy>
void inputs_body(tare::State& state) {
    auto inputs = state.with_inputs([] {
        if constexpr (Heavy) {
            nops<5000>();
        }
        return 1;
    });
    for (int& v : inputs) {
        tare::do_not_optimize(v);
        nops<1000>();
    }
}

void one_allocation(tare::State& state) {
    for (auto _ : state) {
        void* p = ::operator new(48);
        tare::do_not_optimize(p);
        ::operator delete(p);
    }
}

// Work that depends on a variable of the environment, which the counting child does not see.
void reads_environment(tare::State& state) {
    for (auto _ : state) {
        const char* v = std::getenv("TARE_TEST_SECRET");
        std::size_t n = v != nullptr ? std::strlen(v) : 0;
        tare::do_not_optimize(n);
    }
}

// Work that depends on the clock: no two runs count alike.
void reads_clock(tare::State& state) {
    for (auto _ : state) {
        const auto t = std::chrono::steady_clock::now().time_since_epoch().count();
        for (std::int64_t i = 0; i < t % 1000; ++i) {
            nops<1>();
        }
    }
}

// Long under any clock: for interrupting a counted run.
void sleeps(tare::State& state) {
    for (auto _ : state) {
        std::this_thread::sleep_for(std::chrono::seconds(30));
    }
}

// A suite that needs its data and says so before it ends, as a real one does when the variable
// naming the data is not passed to the counted process.
void needs_data(tare::State& state) {
    if (std::getenv("TARE_TEST_DATA") == nullptr) {
        std::fputs("instrument_bench: TARE_TEST_DATA is not set: where is the test data?\n", stderr);
        std::_Exit(4);
    }
    for (auto _ : state) {
        nops<100>();
    }
}

// Two callees of known cost, for --profile (profile_test.cpp): the heavy one three times the light.
[[gnu::noinline]] void heavy_work() {
    nops<3000>();
}
[[gnu::noinline]] void light_work() {
    nops<1000>();
}

void calls_two(tare::State& state) {
    for (auto _ : state) {
        heavy_work();
        light_work();
    }
}

void aborts(tare::State& state) {
    for (auto _ : state) {
        std::abort();
    }
}

}  // namespace

// Registered by hand for names without template brackets.
[[maybe_unused]] const tare::benchmark* const registered[] = {
    tare::register_benchmark("nops_1000", nop_body<1000>)->iterations(200),
    tare::register_benchmark("nops_2000", nop_body<2000>)->iterations(200),
    tare::register_benchmark("heavy_setup", heavy_setup)->iterations(200),
    tare::register_benchmark("light_inputs", inputs_body<false>)->iterations(200),
    tare::register_benchmark("heavy_inputs", inputs_body<true>)->iterations(200),
    tare::register_benchmark("nops_100", nop_body<100>),
    tare::register_benchmark("one_allocation", one_allocation),
    tare::register_benchmark("reads_environment", reads_environment),
    tare::register_benchmark("reads_clock", reads_clock),
    tare::register_benchmark("calls_two", calls_two)->iterations(200),
    tare::register_benchmark("needs_data", needs_data)->iterations(200),
    tare::register_benchmark("aborts", aborts),
    tare::register_benchmark("sleeps", sleeps),
};
