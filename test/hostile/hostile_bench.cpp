// Every way a benchmark can go wrong, between two that work: the hostile-suite test runs it with
// and without --isolate, through tare run and tare compare, and checks that each failure is named
// with its kind, the good results are kept and nothing outlives the run.
#include <sys/resource.h>
#include <unistd.h>
#include <tare/tare.hpp>

#include <csignal>
#include <cstdlib>
#include <thread>

static void good_first(tare::State& state) {
    int x = 0;
    for (auto _ : state) {
        tare::do_not_optimize(++x);
    }
}
TARE_BENCHMARK(good_first);

static void aborts(tare::State& state) {
    for (auto _ : state) {
        std::abort();
    }
}
TARE_BENCHMARK(aborts);

static void segfaults(tare::State& state) {
    for (auto _ : state) {
        std::raise(SIGSEGV);
    }
}
TARE_BENCHMARK(segfaults);

// Recursion that no optimiser can turn into a loop: each frame's array is read after the call.
static int deeper(int n) {
    if (n < 0) {  // never: n only grows, and the stack ends first
        return 0;
    }
    volatile char frame[1024];
    frame[0] = static_cast<char>(n);
    return deeper(n + 1) + frame[0];
}

static void overflows_stack(tare::State& state) {
    for (auto _ : state) {
        tare::do_not_optimize(deeper(0));
    }
}
TARE_BENCHMARK(overflows_stack);

static void exits_zero(tare::State& state) {
    for (auto _ : state) {
        std::exit(0);
    }
}
TARE_BENCHMARK(exits_zero);

static void underscore_exits_3(tare::State& state) {
    for (auto _ : state) {
        ::_exit(3);
    }
}
TARE_BENCHMARK(underscore_exits_3);

static void throws_int(tare::State& state) {
    for (auto _ : state) {
        throw 42;
    }
}
TARE_BENCHMARK(throws_int);

// Leaves a child behind that would sleep for an hour: what tare starts must take it down.
static void forks_a_sleeper(tare::State& state) {
    static bool forked = false;
    if (!forked) {
        forked = true;
        if (::fork() == 0) {
            ::sleep(3600);
            ::_exit(0);
        }
    }
    int x = 0;
    for (auto _ : state) {
        tare::do_not_optimize(++x);
    }
}
TARE_BENCHMARK(forks_a_sleeper);

static void spins(tare::State& state) {
    // A busy hang at the lowest priority: tare must still stop it at --timeout, while the tests
    // that run beside it (ctest runs more than one at once) keep their processor.
    setpriority(PRIO_PROCESS, 0, 19);
    for (auto _ : state) {
        for (;;) {
            tare::clobber_memory();
        }
    }
}
TARE_BENCHMARK(spins);

static void breaks_early(tare::State& state) {
    int n = 0;
    for (auto _ : state) {
        if (++n == 100000) {
            break;
        }
    }
}
TARE_BENCHMARK(breaks_early);

static void loops_twice(tare::State& state) {
    int x = 0;
    for (auto _ : state) {
        tare::do_not_optimize(++x);
    }
    for (auto _ : state) {
        tare::do_not_optimize(--x);
    }
}
TARE_BENCHMARK(loops_twice);

#if TARE_HOSTILE_LEAK
// 3 GiB an iteration, never touched (so never resident): the 2 GiB cap ends the loop at its
// first sample. Only where tare accounts allocations; without accounting nothing could stop it.
static void leaks_past_the_cap(tare::State& state) {
    for (auto _ : state) {
        tare::do_not_optimize(std::malloc(std::size_t{3} << 30));
    }
}
TARE_BENCHMARK(leaks_past_the_cap);
#endif

static void good_last(tare::State& state) {
    int x = 0;
    for (auto _ : state) {
        tare::do_not_optimize(--x);
    }
}
TARE_BENCHMARK(good_last);
