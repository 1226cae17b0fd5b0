#pragma once
// The timing engine for one benchmark instance: calibration, warm-up and measured samples,
// driven from inside the body's range-for loop (State::begin / State::next_chunk).
//
// Why the loop drives the samples (one call of the body for the whole run) rather than one
// call of the body per sample as divan does: setup then runs once, so a 256 MiB fixture is
// built once, and memory that the loop keeps across iterations accumulates across samples,
// which is exactly what the retained-growth figure needs to see (examples/round_trip).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/probes.hpp"
#include "model/run.hpp"
#include "tare/benchmark.hpp"
#include "tare/state.hpp"

namespace tare::detail {

/// How an instance is sampled.
struct sample_plan {
    double budget_ns = 0.5e9;            // measured time to aim for (--min-time)
    double warmup_fraction = 0.1;        // of the budget, spent before measuring
    std::uint64_t fixed_iterations = 0;  // iterations per sample; 0 = calibrate
    std::uint64_t fixed_samples = 0;     // measured samples; 0 = as the budget allows
    std::uint64_t target_samples = 100;  // budget / this = a sample's target duration
    std::uint64_t min_samples = 10;      // fewer only when a sample is very long
    std::uint64_t max_samples = 10000;
    std::uint64_t input_chunk = 256;                      // largest batch of untimed inputs alive at once
    double clock_overhead_ns = 25;                        // one clock read; samples are kept far above it
    std::int64_t max_live_bytes = std::int64_t{2} << 30;  // stop a runaway leak here
    /// A calibration that reaches this many iterations at under 0.01 ns each has no work left in
    /// its loop (the compiler removed it): it is measured at that size, not grown further. A
    /// field, not a constant, so that a test under a manual clock, whose empty loop is real work
    /// in an unoptimised sanitizer build, can set it low instead of running 10^11 iterations.
    std::uint64_t optimized_away_iterations = 1000000000;
    /// After the measured samples, one diagnostic pass that records every allocation's stack
    /// (--alloc-sites; docs/accounting.md, "Allocation sites"); false: none.
    bool alloc_sites = false;
    std::size_t alloc_sites_top = 5;  // sites reported per list (--alloc-sites=N)
    /// The most allocations the pass records; its iterations are sized to fit.
    std::size_t site_capacity = 16384;
};

/// The shortest a sample may be under `plan`: it must dwarf the two clock reads that bound it
/// (1000 reads keep their cost under 0.2 % of the sample), and never below 10 µs.
double shortest_sample_ns(const sample_plan& plan) noexcept;
/// The length a sample is sized to: the budget spread over target_samples, but never shorter
/// than shortest_sample_ns().
double target_sample_ns(const sample_plan& plan) noexcept;

/// Whether `count` measured samples of `measured_ns` in all end the measuring under `plan` (no
/// fixed count): the budget measured and min_samples taken, max_samples taken, or three samples
/// of a body slower than five budgets. Shared with `tare run`'s sampling of Google Benchmark
/// workers (compare/rounds.hpp, run_alone).
bool enough_samples(const sample_plan& plan, std::uint64_t count, double measured_ns) noexcept;

/// What the loop of one instance produced.
struct loop_outcome {
    std::vector<tare::sample> samples;  // measured samples only
    std::uint64_t warmup_iterations = 0;
    std::uint64_t total_iterations = 0;
    std::int64_t peak_live_bytes = 0;
    /// Blocks made while paused that the accounting could not keep apart (alloc::counters::
    /// untracked): their frees in the window lowered the live heap.
    std::uint64_t untracked_paused_blocks = 0;
    bool accounting = false;
    bool copies = false;                       // copied and set bytes were counted (tare::copies)
    bool mappings = false;                     // the body's anonymous mappings were counted
    std::optional<std::string> stopped_early;  // why measuring ended before the plan did
    bool optimized_away = false;               // time did not grow with iterations
    /// The process's CPU time over the measured samples' windows (all its threads); none where
    /// the probe does not read it.
    std::optional<double> measured_cpu_ns;
    double bytes_per_iteration = 0;  // declared by the body
    double items_per_iteration = 0;
    std::vector<std::pair<std::string, double>> counters;
    std::optional<error_info> error;

    /// The growth check: when the measured samples' live heap grew as a leak's does, the loop ran
    /// on, untimed, for `iterations` more, and its live heap grew by `grown` bytes meanwhile
    /// (docs/accounting.md, "Retained growth"). No check: iterations 0.
    struct growth_check_run {
        std::uint64_t iterations = 0;
        std::int64_t grown = 0;
    } growth_check;

    /// The diagnostic pass (sample_plan::alloc_sites): its iterations and time, and what it
    /// recorded, in the order recorded. No pass: iterations 0. The pass records every
    /// allocation for `iterations`, then, for `growth_iterations` more, only an allocation bigger
    /// than every one before (alloc::sites_growth_only), into `growth`.
    struct sites_pass {
        std::uint64_t iterations = 0;
        std::uint64_t growth_iterations = 0;
        double elapsed_ns = 0;  // the pass's chunks, capture included
        alloc::site_totals totals;
        std::vector<alloc::site_record> allocs;
        std::vector<alloc::free_record> frees;
        std::vector<alloc::site_record> growth;
    } sites;
};

/// Lets another party size the measured samples: `tare compare` runs both sides' workers in
/// lock-step, so each measured sample waits for the controller's word (src/protocol/worker_protocol.hpp).
/// Calibration and warm-up stay the driver's own. Rejected: a separate "worker loop" that calls
/// the body once per sample, which would rerun setup per sample and hide retained growth.
class sample_controller {
public:
    sample_controller() = default;
    sample_controller(const sample_controller&) = delete;
    sample_controller& operator=(const sample_controller&) = delete;
    sample_controller(sample_controller&&) = delete;
    sample_controller& operator=(sample_controller&&) = delete;
    virtual ~sample_controller() = default;

    /// Calibration and warm-up are over; `iterations` is the size the driver would use.
    /// Returns the first measured sample's size, or 0 to end the loop.
    virtual std::uint64_t calibrated(std::uint64_t iterations) = 0;
    /// A measured sample ended (`peak_live_bytes`: the region's highest live heap so far).
    /// Returns the next sample's size, or 0 to end the loop.
    virtual std::uint64_t measured(const tare::sample& s, std::int64_t peak_live_bytes) = 0;
};

class sample_driver {
public:
    sample_driver(core::clock_source& clock, core::region_probe& probe, sample_plan plan)
        : clock_(clock), probe_(probe), plan_(plan) {}

    /// Hands the measured samples' sizes to `controller` (null: the plan decides).
    void set_controller(sample_controller* controller) noexcept { controller_ = controller; }

    /// Runs `fn` once with a fresh State; never throws what the body throws.
    loop_outcome run(const std::string& name, const std::vector<std::int64_t>& args,
                     const benchmark_function& fn);

    // Called by State (see state.hpp).
    std::uint64_t start_loop(State& state, refill_fn refill, void* ctx);
    std::uint64_t next_chunk(State& state, refill_fn refill, void* ctx);
    std::uint64_t max_input_chunk() const noexcept { return plan_.input_chunk; }

private:
    enum class phase { calibrating, warming, measuring, checking, diagnosing, growing, done };

    std::uint64_t begin_sample(std::uint64_t n, refill_fn refill, void* ctx);
    std::uint64_t begin_chunk(refill_fn refill, void* ctx);
    void end_chunk();
    // Keeps the finished sample as measured, and its CPU time.
    void record_measured();
    // After the measured samples: the growth check when the samples' live heap grew, else (or
    // after it) the sites pass. Returns the next stretch's size, or 0 when done.
    std::uint64_t after_measuring();
    std::uint64_t begin_growth_check();
    // A stretch of the sites pass ended (`elapsed_ns` long): the next stretch's size, or 0.
    std::uint64_t end_sites_stretch(double elapsed_ns);
    // Records the finished sample and returns the next sample's size, or 0 when done.
    std::uint64_t end_sample();
    // end_sample's two ordinary cases: a calibration or warm-up sample (`t` ns, `n` iterations),
    // and a measured one.
    std::uint64_t end_unmeasured_sample(double t, std::uint64_t n);
    std::uint64_t end_measured_sample(double t, std::uint64_t n);
    std::uint64_t next_calibration_size(std::uint64_t n, double elapsed_ns) const;
    // The measured samples are over: the diagnostic pass's size, its region opened, or 0 for none.
    std::uint64_t begin_sites_pass();
    double target_sample_ns() const noexcept;
    void close_region();

    core::clock_source& clock_;
    core::region_probe& probe_;
    sample_plan plan_;
    sample_controller* controller_ = nullptr;
    loop_outcome out_;
    std::optional<error_info> misuse_;  // a second timed loop

    phase phase_ = phase::calibrating;
    bool region_open_ = false;
    bool chunk_open_ = false;
    double unmeasured_ns_ = 0;  // calibration and warm-up time so far
    double measured_ns_ = 0;

    // The sample in progress.
    tare::sample cur_;
    std::uint64_t sample_left_ = 0;  // iterations of the sample not yet handed out

    // The chunk in progress.
    std::uint64_t chunk_ = 0;
    std::int64_t t0_ = 0;
    std::uint64_t faults0_ = 0;
    std::optional<double> cpu0_;  // the process's CPU time at the chunk's start
    alloc::counters c0_;
    double sample_cpu_ns_ = 0;  // CPU time of the sample in progress
    bool cpu_known_ = true;     // every chunk so far had its CPU time read
};

}  // namespace tare::detail

namespace tare::core {

/// The harness's own cost per iteration: an empty body measured through the same loop. Here,
/// beside the loop, so that its empty body is compiled as the loop's own calls are, with the
/// project's flags (CMakeLists.txt, TARE_COLD_CODE_FLAGS).
double measure_loop_overhead(clock_source& clock, region_probe& probe, detail::sample_plan plan);

}  // namespace tare::core
