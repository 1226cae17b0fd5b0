// tare::gbench's region hooks: the timed region of an unmodified Google Benchmark suite, exactly
// (docs/gbench.md, "Which figures").
//
// Google Benchmark's loop calls four out-of-line members of benchmark::State from the user's own
// code (inline in benchmark.h): StartKeepRunning() when the loop begins (State::end(), or the
// first KeepRunning()), FinishKeepRunning() when it ends, and PauseTiming()/ResumeTiming(); and
// SkipWithError(), after which a body may leave the loop without FinishKeepRunning() (from 1.8 on
// SkipWithError(const std::string&) and SkipWithMessage(), where 1.7 had SkipWithError(const
// char*)). The link options of tare::gbench (-Wl,--wrap=SYMBOL) send the suite's calls of those
// members, both releases' names, to the __wrap_ functions here, which open and close tare's
// accounting region around the real calls. A name the library does not define is never called;
// one the installed header declares but the library lacks is found before any run
// (missing_members(): worker.cpp stops the suite), since its calls would pass the hooks by.
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
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "adapters/gbench/region_hooks.hpp"
#include "alloc/accounting.hpp"
#include "os/counters.hpp"
#include "os/os.hpp"

// The real members: weak, so a suite linked without the --wrap options still links (then the
// wrappers below are never called, and the MemoryManager measures alone).
extern "C" {
void __real__ZN9benchmark5State16StartKeepRunningEv(benchmark::State*) __attribute__((weak));
void __real__ZN9benchmark5State17FinishKeepRunningEv(benchmark::State*) __attribute__((weak));
void __real__ZN9benchmark5State11PauseTimingEv(benchmark::State*) __attribute__((weak));
void __real__ZN9benchmark5State12ResumeTimingEv(benchmark::State*) __attribute__((weak));
void __real__ZN9benchmark5State13SkipWithErrorEPKc(benchmark::State*, const char*) __attribute__((weak));
void __real__ZN9benchmark5State13SkipWithErrorERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE(
    benchmark::State*, const std::string&) __attribute__((weak));
void __real__ZN9benchmark5State15SkipWithMessageERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE(
    benchmark::State*, const std::string&) __attribute__((weak));
}

namespace tare::gbench {
namespace {

std::atomic<bool> memory_run{false};
std::atomic<bool> counting{false};
thread_local bool collecting = false;  // this thread's Callgrind counting is on

// Callgrind keeps its counting switch per thread: each thread's loop switches its own.
void collect(bool on) noexcept {
    if (counting.load(std::memory_order_relaxed) && collecting != on) {
        collecting = on;
        os::callgrind::toggle_collect();
    }
}

std::uint64_t faults_of(const os::usage& u) noexcept {
    return u.minor_faults + u.major_faults;
}

// A single-threaded run: one loop, the process's one region, opened and closed on its thread;
// every thread counts while it is open (a body may start threads of its own), as in tare's
// own benchmarks. Faults are the process's, from the start to the end less the pauses.
struct single_run {
    bool open = false;
    std::uint64_t faults = 0;     // faults of the counted stretches so far
    std::uint64_t faults_at = 0;  // the process's count when the current stretch began
};
single_run single;

// ->Threads(n): n copies of the loop, on n threads that start, pause and finish each on their
// own. One member region (alloc::region_begin_members) for the run: each thread counts from its
// loop's start to its end, and not while it pauses, so another thread's setup, teardown or
// pause is outside the figures while this one's loop counts. Google Benchmark's start barrier
// (inside StartKeepRunning, after the hook) holds every loop until all threads that run one
// have started, so no thread finishes before the last one joined: the last to finish closes the
// region. Faults are each thread's own (os::thread_usage), summed. Rejected: a barrier of the
// hooks' own around the region, which would wait forever for a thread that skips its loop
// (SkipWithError before it), where Google Benchmark's barrier lets that thread go.
struct threaded_run {
    std::mutex mutex;
    bool open = false;
    int in_loop = 0;           // threads between their start and their finish
    std::uint64_t faults = 0;  // the finished threads' counted faults
};
threaded_run threaded;

struct member {
    bool in_loop = false;
    bool counting = false;
    std::uint64_t faults = 0;
    std::uint64_t faults_at = 0;
};
thread_local member self;

// The sites pass (arm_sites): one loop of a run of its own recorded as a sites region, as tare's
// own sample driver records its pass. Only the first loop of the run: a ->Repetitions(R) family
// runs its loop R times, and a second sites region would reset the first's records; the later
// loops open no region at all, so their figures are in nothing. Single-threaded loops only: a
// member region (->Threads(n)) has no sites form. Armed and disarmed on the thread that calls
// run_one, which is the thread a single-threaded loop runs on; atomics, since ->Threads(n) loops
// read `used` from their own threads.
struct sites_state {
    std::atomic<bool> armed{false};  // the next single-threaded loop opens the sites region
    std::atomic<bool> used{false};   // it has: later loops of the pass open none
    bool in_loop = false;            // the sites region is open
    double started_s = 0;
    alloc::site_buffers buffers;
    sites_loop loop;
};
sites_state sites;

// Not during Google Benchmark's memory run (TARE_GBENCH_MEMORY_RUN=1), which the MemoryManager
// measures as a region of its own; not without the interposer, where every figure would be 0;
// not in the loops of a sites pass after its own.
bool accounts() noexcept {
    return !memory_run.load(std::memory_order_relaxed) && alloc::available() &&
           !sites.used.load(std::memory_order_relaxed);
}

void counters_into(benchmark::State& state, const alloc::counters& c, std::uint64_t faults) {
    // kAvgIterations: Google Benchmark divides by the run's iterations (all threads' together),
    // so every figure is per iteration of the loop, as tare's own. The peak is the region's.
    using counter = benchmark::Counter;
    state.counters["tare_allocs_per_iter"] = counter(static_cast<double>(c.allocs), counter::kAvgIterations);
    state.counters["tare_bytes_per_iter"] = counter(static_cast<double>(c.bytes), counter::kAvgIterations);
    state.counters["tare_retained_per_iter"] = counter(static_cast<double>(c.live), counter::kAvgIterations);
    state.counters["tare_faults_per_iter"] = counter(static_cast<double>(faults), counter::kAvgIterations);
    state.counters["tare_peak_live_bytes"] = counter(static_cast<double>(c.peak));
    if (alloc::mappings_counted())
        state.counters["tare_mapped_per_iter"] =
            counter(static_cast<double>(c.mapped), counter::kAvgIterations);
}

}  // namespace

void set_counting(bool on) noexcept {
    counting.store(on, std::memory_order_relaxed);
}

void set_memory_run(bool active) noexcept {
    memory_run.store(active, std::memory_order_relaxed);
}

void arm_sites(alloc::site_buffers buffers) noexcept {
    alloc::prepare_site_capture();
    sites.buffers = buffers;
    sites.loop = sites_loop{};
    sites.in_loop = false;
    sites.used.store(false, std::memory_order_relaxed);
    sites.armed.store(true, std::memory_order_relaxed);
}

sites_loop disarm_sites() noexcept {
    sites.armed.store(false, std::memory_order_relaxed);
    sites.used.store(false, std::memory_order_relaxed);
    sites.buffers = {};
    return sites.loop;
}

bool hooks_linked() noexcept {
    // With --wrap=SYMBOL the linker resolves __real_SYMBOL to the real member; without it the
    // weak reference stays null.
    return __real__ZN9benchmark5State16StartKeepRunningEv != nullptr;
}

namespace {

// Google Benchmark 1.8 and later: SkipWithError and SkipWithMessage take a std::string.
template <typename State>
concept skips_with_strings = requires(State& s) {
    s.SkipWithMessage(std::string());
};

}  // namespace

std::vector<std::string> missing_members() {
    std::vector<std::string> missing;
    const auto need = [&](const void* real, const char* member) {
        if (real == nullptr) {
            missing.emplace_back(member);
        }
    };
    need(reinterpret_cast<const void*>(&__real__ZN9benchmark5State16StartKeepRunningEv),
         "benchmark::State::StartKeepRunning()");
    need(reinterpret_cast<const void*>(&__real__ZN9benchmark5State17FinishKeepRunningEv),
         "benchmark::State::FinishKeepRunning()");
    need(reinterpret_cast<const void*>(&__real__ZN9benchmark5State11PauseTimingEv),
         "benchmark::State::PauseTiming()");
    need(reinterpret_cast<const void*>(&__real__ZN9benchmark5State12ResumeTimingEv),
         "benchmark::State::ResumeTiming()");
    if constexpr (skips_with_strings<benchmark::State>) {
        need(
            reinterpret_cast<const void*>(
                &__real__ZN9benchmark5State13SkipWithErrorERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE),
            "benchmark::State::SkipWithError(const std::string&)");
        need(
            reinterpret_cast<const void*>(
                &__real__ZN9benchmark5State15SkipWithMessageERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE),
            "benchmark::State::SkipWithMessage(const std::string&)");
    } else {
        need(reinterpret_cast<const void*>(&__real__ZN9benchmark5State13SkipWithErrorEPKc),
             "benchmark::State::SkipWithError(const char*)");
    }
    return missing;
}

namespace {

void on_start(benchmark::State& state) noexcept {
    if (!accounts())
        return;
    if (state.threads() == 1) {
        single.faults = 0;
        single.faults_at = faults_of(os::self_usage());
        if (sites.armed.exchange(false, std::memory_order_relaxed)) {
            sites.in_loop = true;
            sites.started_s = os::monotonic_seconds();
            alloc::region_begin_sites(sites.buffers);
            sites.used.store(true, std::memory_order_relaxed);
        } else {
            alloc::region_begin();
        }
        single.open = true;
        return;
    }
    {
        const std::lock_guard<std::mutex> lock(threaded.mutex);
        if (!threaded.open) {
            alloc::region_begin_members();
            threaded.open = true;
            threaded.faults = 0;
        }
        ++threaded.in_loop;
    }
    self = member{true, true, 0, faults_of(os::thread_usage())};
    alloc::join();
}

void pause_member() noexcept {
    if (!self.counting)
        return;
    alloc::leave();
    self.faults += faults_of(os::thread_usage()) - self.faults_at;
    self.counting = false;
}

void resume_member() noexcept {
    if (!self.in_loop || self.counting)
        return;
    self.faults_at = faults_of(os::thread_usage());
    self.counting = true;
    alloc::join();
}

void on_pause(benchmark::State& state) noexcept {
    if (state.threads() > 1) {
        pause_member();
    } else if (single.open) {
        alloc::pause();
        single.faults += faults_of(os::self_usage()) - single.faults_at;
    }
}

void on_resume(benchmark::State& state) noexcept {
    if (state.threads() > 1) {
        resume_member();
    } else if (single.open) {
        single.faults_at = faults_of(os::self_usage());
        alloc::resume();
    }
}

// What a loop's end closes: the region's figures, when this thread's loop was the last to end.
struct loop_totals {
    alloc::counters counters;
    std::uint64_t faults = 0;
};

// This thread's loop is over: it stops counting, and the last loop of the run closes the region
// and takes its totals. Shared by the loop's normal end and by SkipWithError inside it.
std::optional<loop_totals> end_loop(const benchmark::State& state) noexcept {
    if (state.threads() == 1) {
        if (!single.open)
            return std::nullopt;
        single.open = false;
        alloc::pause();
        loop_totals t{alloc::snapshot(), single.faults + faults_of(os::self_usage()) - single.faults_at};
        alloc::region_end();
        if (sites.in_loop) {
            sites.in_loop = false;
            // After FinishKeepRunning the State counts the loop's iterations, as Google
            // Benchmark's runner reads them.
            sites.loop = {true, static_cast<std::uint64_t>(state.iterations()),
                          (os::monotonic_seconds() - sites.started_s) * 1e9};
        }
        return t;
    }
    if (!self.in_loop)
        return std::nullopt;
    pause_member();
    alloc::finish();  // its teardown is in no figure, as a single-threaded run's ends with its loop
    self.in_loop = false;
    const std::lock_guard<std::mutex> lock(threaded.mutex);
    threaded.faults += self.faults;
    if (--threaded.in_loop > 0)
        return std::nullopt;
    // The last loop: every other member has left, under this mutex, so the snapshot is exact.
    loop_totals t{alloc::snapshot(), threaded.faults};
    alloc::region_end();
    threaded.open = false;
    return t;
}

// After the real FinishKeepRunning, whose PauseTiming stopped the clock (and, through the
// library's own call, not this hook): nothing here is timed. Google Benchmark adds up the
// threads' counters, so only the thread whose loop ended last reports the totals.
void on_finish(benchmark::State& state) {
    if (auto t = end_loop(state))
        counters_into(state, t->counters, t->faults);
}

// SkipWithError inside the loop makes the run an error row, and the body may then `break` out
// of the loop, so that FinishKeepRunning is never called: the loop's accounting ends here, with
// no figures (an error row has none). Without this, a thread that broke out would keep the
// run's member region open into the next run.
void on_skip(benchmark::State& state) noexcept {
    (void)end_loop(state);
}

}  // namespace
}  // namespace tare::gbench

extern "C" {

void __wrap__ZN9benchmark5State16StartKeepRunningEv(benchmark::State* state) {
    tare::gbench::on_start(*state);  // before the clock starts: untimed
    __real__ZN9benchmark5State16StartKeepRunningEv(state);
    tare::gbench::collect(true);  // counted mode: the loop's body from here
}

void __wrap__ZN9benchmark5State17FinishKeepRunningEv(benchmark::State* state) {
    tare::gbench::collect(false);
    __real__ZN9benchmark5State17FinishKeepRunningEv(state);
    tare::gbench::on_finish(*state);
}

void __wrap__ZN9benchmark5State11PauseTimingEv(benchmark::State* state) {
    tare::gbench::collect(false);
    __real__ZN9benchmark5State11PauseTimingEv(state);  // the clock first: the pause is untimed
    tare::gbench::on_pause(*state);
}

void __wrap__ZN9benchmark5State12ResumeTimingEv(benchmark::State* state) {
    tare::gbench::on_resume(*state);
    __real__ZN9benchmark5State12ResumeTimingEv(state);
    tare::gbench::collect(true);
}

void __wrap__ZN9benchmark5State13SkipWithErrorEPKc(benchmark::State* state, const char* message) {
    tare::gbench::collect(false);
    tare::gbench::on_skip(*state);
    __real__ZN9benchmark5State13SkipWithErrorEPKc(state, message);
}

void __wrap__ZN9benchmark5State13SkipWithErrorERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE(
    benchmark::State* state, const std::string& message) {
    tare::gbench::collect(false);
    tare::gbench::on_skip(*state);
    __real__ZN9benchmark5State13SkipWithErrorERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE(state,
                                                                                                     message);
}

void __wrap__ZN9benchmark5State15SkipWithMessageERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE(
    benchmark::State* state, const std::string& message) {
    tare::gbench::collect(false);
    tare::gbench::on_skip(*state);
    __real__ZN9benchmark5State15SkipWithMessageERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE(
        state, message);
}

}  // extern "C"
