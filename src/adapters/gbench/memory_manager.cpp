// tare::gbench: a benchmark::MemoryManager backed by tare's allocation accounting, registered
// by a static initialiser so that linking the library is the only step (docs/gbench.md), when
// the region hooks are not linked (or TARE_GBENCH_MEMORY_RUN=1 asks for it as well).
//
// What Google Benchmark 1.7.1 measures with it (benchmark_runner.cc; 1.9.1 the same): after the timed runs of
// each repetition, one extra "memory run" of min(16, iterations) iterations on one thread,
// Start() before it and Stop() after it. That window also holds the fixture's SetUp/TearDown,
// any PauseTiming() region, and GB's own allocations for the run, measured here (test/gbench):
// one of 400 B (the run's ThreadManager) always, plus one of 8 B x arguments (State's copy of
// the ranges) when the instance has arguments. Both are freed before Stop(), so they are in
// num_allocs, total_allocated_bytes and max_bytes_used but not in net_heap_growth. A body that
// allocates k times per iteration therefore reads k + 1/16 (no arguments) or k + 2/16 (with
// arguments) allocs_per_iter once it runs 16 iterations; each user counter set in the body adds
// 2 more per run (its map node in State and its merge into the run's results; 4 when its name
// passes std::string's 15-character inline buffer, as "items_per_second" does). tare's own
// benchmarks count the timed loop only; examples/gbench/README.md sets the two side by side.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "adapters/gbench/region_hooks.hpp"
#include "alloc/accounting.hpp"

namespace tare::gbench {
namespace {

class region_memory_manager : public benchmark::MemoryManager {
public:
    void Start() override {
        set_memory_run(true);
        alloc::region_begin();
    }

    void Stop(Result& result) override {
        // Stop runs on the thread that called Start, after GB has joined the run's threads, so
        // the snapshot is exact (accounting.hpp).
        alloc::pause();
        const alloc::counters c = alloc::snapshot();
        alloc::region_end();
        result.num_allocs = static_cast<std::int64_t>(c.allocs);
        result.max_bytes_used = c.peak;
        result.total_allocated_bytes = static_cast<std::int64_t>(c.bytes);
        result.net_heap_growth = c.live;
        set_memory_run(false);
    }
};

// Google Benchmark 1.7 also declares Stop(Result*), pure virtual and deprecated in favour of the
// overload above (its runner may call either, and both must give the same figures); 1.8 removed
// it. Which one the installed header has decides the class, so the same source builds on both.
template <typename Manager>
concept has_pointer_stop = requires(Manager& m, typename Manager::Result* r) {
    m.Stop(r);
};

template <typename Base, bool = has_pointer_stop<benchmark::MemoryManager>>
class complete_manager final : public Base {};

template <typename Base>
class complete_manager<Base, true> final : public Base {
public:
    using Base::Stop;
    void Stop(typename Base::Result* result) override { Base::Stop(*result); }
};

using tare_memory_manager = complete_manager<region_memory_manager>;

// A function-local static: constructed on first use, never destroyed before GB's last use of it
// (GB keeps a raw pointer, and static destruction order across libraries is unspecified, so it
// is deliberately leaked rather than given a destructor that could run first).
benchmark::MemoryManager* instance() {
    static auto* manager = new tare_memory_manager;
    return manager;
}

// TARE_GBENCH_MEMORY_RUN=1 keeps the memory run beside the hooks (docs/gbench.md), to set
// Google Benchmark's window beside the timed region's.
bool memory_run_wanted() {
    if (!hooks_linked())
        return true;
    const char* v = std::getenv("TARE_GBENCH_MEMORY_RUN");
    return v != nullptr && std::string_view(v) == "1";
}

bool register_if_available() {
    // Without the interposer (sanitizer builds) every figure would read 0, which is a lie, not
    // a measurement: GB then writes no memory fields at all, as without a manager. With the
    // region hooks every loop is measured already, and the memory run would only run each
    // benchmark, setup and all, once more per repetition for figures of a wider window.
    if (!alloc::available() || !memory_run_wanted()) {
        return false;
    }
    benchmark::RegisterMemoryManager(instance());
    return true;
}

const bool registered = register_if_available();

}  // namespace
}  // namespace tare::gbench

// The anchor the target's link option `-u tare_gbench_anchor` asks for: an archive member is
// linked only when it resolves an undefined symbol, and nothing in a GB suite refers to this
// file, so without the anchor the registration above would silently never run.
extern "C" int tare_gbench_anchor() {
    return tare::gbench::registered ? 1 : 0;
}
