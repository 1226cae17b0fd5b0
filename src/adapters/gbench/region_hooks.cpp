// tare::gbench's region hooks: the timed region of an unmodified Google Benchmark suite, exactly
// (docs/gbench.md, "Which figures").
//
// Google Benchmark's loop calls four out-of-line members of benchmark::State from the user's own
// code (inline in benchmark.h): StartKeepRunning() when the loop begins (State::end(), or the
// first KeepRunning()), FinishKeepRunning() when it ends, and PauseTiming()/ResumeTiming(). The
// link options of tare::gbench (-Wl,--wrap=SYMBOL) send the suite's calls of those four to the
// __wrap_ functions here, which open and close tare's accounting region around the real calls.
// A call inside libbenchmark itself (FinishKeepRunning's own PauseTiming) is not the suite's and
// is not redirected. The figures go into the State's counters, so Google Benchmark's own console
// and JSON output carry them, and tare reads them in preference to the MemoryManager's.
//
// Rejected: the MemoryManager alone (what tare::gbench did first): one extra run of the whole
// function, setup, fixture and pauses included, divided by min(16, iterations); and
// LD_PRELOAD-style interposition of the members, which a static libbenchmark defeats.

#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdint>

#include "adapters/gbench/region_hooks.hpp"
#include "alloc/accounting.hpp"
#include "os/os.hpp"

// The real members: weak, so a suite linked without the --wrap options still links (then the
// wrappers below are never called, and the MemoryManager measures alone).
extern "C" {
void __real__ZN9benchmark5State16StartKeepRunningEv(benchmark::State*) __attribute__((weak));
void __real__ZN9benchmark5State17FinishKeepRunningEv(benchmark::State*) __attribute__((weak));
void __real__ZN9benchmark5State11PauseTimingEv(benchmark::State*) __attribute__((weak));
void __real__ZN9benchmark5State12ResumeTimingEv(benchmark::State*) __attribute__((weak));
}

namespace tare::gbench {
namespace {

std::atomic<bool> memory_run{false};

struct open_region {
    bool open = false;
    std::uint64_t faults_at_start = 0;
};
// The hooks account single-threaded runs only: a process has one region, and ->Threads(n) runs
// n loops at once, each pausing on its own. Those keep the MemoryManager's figures.
open_region region;

std::uint64_t faults_now() noexcept {
    const os::usage u = os::self_usage();
    return u.minor_faults + u.major_faults;
}

bool accounts(const benchmark::State& state) noexcept {
    return state.threads() == 1 && !memory_run.load(std::memory_order_relaxed) && alloc::available();
}

}  // namespace

void set_memory_run(bool active) noexcept {
    memory_run.store(active, std::memory_order_relaxed);
}

namespace {

void on_start(benchmark::State& state) noexcept {
    if (!accounts(state))
        return;
    region.faults_at_start = faults_now();
    alloc::region_begin();
    region.open = true;
}

// After the real FinishKeepRunning, whose PauseTiming stopped the clock: nothing here is timed.
void on_finish(benchmark::State& state) {
    if (!region.open)
        return;
    region.open = false;
    alloc::pause();
    const alloc::counters c = alloc::snapshot();
    alloc::region_end();
    const std::uint64_t faults = faults_now() - region.faults_at_start;
    // kAvgIterations: Google Benchmark divides by the run's iterations, so every figure is per
    // iteration of the loop, as tare's own. The peak is the region's, not per iteration.
    using counter = benchmark::Counter;
    state.counters["tare_allocs_per_iter"] = counter(static_cast<double>(c.allocs), counter::kAvgIterations);
    state.counters["tare_bytes_per_iter"] = counter(static_cast<double>(c.bytes), counter::kAvgIterations);
    state.counters["tare_retained_per_iter"] = counter(static_cast<double>(c.live), counter::kAvgIterations);
    state.counters["tare_faults_per_iter"] = counter(static_cast<double>(faults), counter::kAvgIterations);
    state.counters["tare_peak_live_bytes"] = counter(static_cast<double>(c.peak));
}

}  // namespace
}  // namespace tare::gbench

extern "C" {

void __wrap__ZN9benchmark5State16StartKeepRunningEv(benchmark::State* state) {
    tare::gbench::on_start(*state);  // before the clock starts: untimed
    __real__ZN9benchmark5State16StartKeepRunningEv(state);
}

void __wrap__ZN9benchmark5State17FinishKeepRunningEv(benchmark::State* state) {
    __real__ZN9benchmark5State17FinishKeepRunningEv(state);
    tare::gbench::on_finish(*state);
}

void __wrap__ZN9benchmark5State11PauseTimingEv(benchmark::State* state) {
    __real__ZN9benchmark5State11PauseTimingEv(state);  // the clock first: the pause is untimed
    if (tare::gbench::region.open)
        tare::alloc::pause();
}

void __wrap__ZN9benchmark5State12ResumeTimingEv(benchmark::State* state) {
    if (tare::gbench::region.open)
        tare::alloc::resume();
    __real__ZN9benchmark5State12ResumeTimingEv(state);
}

}  // extern "C"
