#include "core/sample_driver.hpp"

#include "core/alloc_sites.hpp"
#include "core/metrics.hpp"
#include "tare/optimizer.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

namespace tare::detail {

namespace {

// Growth records a pass keeps (alloc::sites_growth_only): each is bigger than every one before,
// so a buffer that doubles takes one per doubling, 64 in all from a byte to the address space.
constexpr std::size_t max_growth_records = 64;

std::uint64_t to_count(double x) {
    if (!(x >= 1)) {
        return 1;
    }
    if (x > 1e18) {
        return std::uint64_t{1000000000000000000};
    }
    return static_cast<std::uint64_t>(std::ceil(x));
}

}  // namespace

loop_outcome sample_driver::run(const std::string& name, const std::vector<std::int64_t>& args,
                                const benchmark_function& fn) {
    out_ = loop_outcome{};
    misuse_.reset();
    out_.accounting = probe_.accounting();
    out_.copies = out_.accounting && probe_.copies();
    out_.mappings = out_.accounting && probe_.mappings();
    phase_ = plan_.fixed_iterations != 0 ? phase::measuring : phase::calibrating;
    State state(name, args, this);
    try {
        fn(state);
    } catch (const std::exception& e) {
        out_.error = error_info{"exception", e.what()};
    } catch (...) {
        out_.error = error_info{"exception", "a non-standard exception was thrown"};
    }
    // The body returned (or threw) with a chunk open: it left the loop before the loop ended.
    const bool left_early = chunk_open_;
    if (chunk_open_) {
        probe_.pause();
        chunk_open_ = false;
    }
    close_region();
    // The first misuse is the one reported: a skip_with_error() followed by the `break` it asks
    // for is a skip, not a broken loop.
    if (!out_.error && state.errored_) {
        out_.error = error_info{"skipped", state.error_};
    }
    if (!out_.error && misuse_) {
        out_.error = misuse_;
    }
    if (!out_.error && left_early) {
        // Every sample is timed whole; one cut short, and the plan behind it, is no measurement.
        // Rejected: keeping the samples finished before the break, as if it were a shorter run —
        // a loop that breaks when a condition holds would then time only the iterations before it.
        out_.error = error_info{
            "loop_left_early",
            "the body left its timed loop before the loop ended (a break, return or goto out of "
            "for (auto _ : state)), in the chunk of " +
                std::to_string(chunk_) + " iterations that began after " +
                std::to_string(out_.total_iterations) +
                "; tare decides when the loop ends: to stop a benchmark, call state.skip_with_error()"};
    }
    if (!out_.error && !state.loop_started_) {
        out_.error = error_info{"no_loop", "the benchmark never ran its timed loop (for (auto _ : state))"};
    }
    if (!out_.error && out_.samples.empty() && out_.stopped_early) {
        out_.error = error_info{"heap_cap", *out_.stopped_early + ", before a sample was measured"};
    }
    if (!out_.error && out_.samples.empty()) {
        out_.error = error_info{"no_samples", "the loop ended before a sample was measured"};
    }
    out_.bytes_per_iteration = state.bytes_per_iteration_;
    out_.items_per_iteration = state.items_per_iteration_;
    out_.counters = state.counters_;
    return std::move(out_);
}

std::uint64_t sample_driver::start_loop(State& state, refill_fn refill, void* ctx) {
    if (state.loop_started_) {
        if (!misuse_)
            misuse_ = error_info{"loop_twice",
                                 "the timed loop ran twice; a benchmark has exactly one loop over its State "
                                 "(for repeated work inside one measurement, loop inside the body)"};
        return 0;
    }
    state.loop_started_ = true;
    if (state.errored_) {
        return 0;
    }
    probe_.region_begin();
    region_open_ = true;
    std::uint64_t first = plan_.fixed_iterations != 0 ? plan_.fixed_iterations : 1;
    if (plan_.fixed_iterations != 0 && controller_ != nullptr) {
        first = controller_->calibrated(first);
        if (first == 0) {
            phase_ = phase::done;
            close_region();
            return 0;
        }
    }
    return begin_sample(first, refill, ctx);
}

std::uint64_t sample_driver::next_chunk(State& state, refill_fn refill, void* ctx) {
    if (!chunk_open_) {  // the loop is over (or never started); keep saying so
        return 0;
    }
    end_chunk();
    state.total_iterations_ = out_.total_iterations;
    if (state.errored_) {
        close_region();
        return 0;
    }
    if (sample_left_ == 0) {
        std::uint64_t next = end_sample();
        if (next == 0) {
            close_region();
            return 0;
        }
        return begin_sample(next, refill, ctx);
    }
    return begin_chunk(refill, ctx);
}

std::uint64_t sample_driver::begin_sample(std::uint64_t n, refill_fn refill, void* ctx) {
    cur_ = tare::sample{};
    sample_cpu_ns_ = 0;
    cur_.iterations = n;
    cur_.iterations_before = out_.total_iterations;
    sample_left_ = n;
    return begin_chunk(refill, ctx);
}

std::uint64_t sample_driver::begin_chunk(refill_fn refill, void* ctx) {
    chunk_ = sample_left_;
    if (refill != nullptr) {
        chunk_ = std::min(chunk_, std::max<std::uint64_t>(plan_.input_chunk, 1));
        refill(ctx, chunk_);  // paused and untimed: the inputs are in no figure
    }
    const core::process_reading r0 = probe_.read_process();
    faults0_ = r0.page_faults;
    cpu0_ = r0.cpu_ns;
    c0_ = probe_.counters();
    chunk_open_ = true;
    probe_.resume();
    // Last thing before the body runs: nothing of the harness is inside the interval.
    t0_ = clock_.now_ns();
    return chunk_;
}

void sample_driver::end_chunk() {
    // First thing after the body: nothing of the harness is inside the interval.
    std::int64_t t1 = clock_.now_ns();
    probe_.pause();
    chunk_open_ = false;
    const core::process_reading r1 = probe_.read_process();
    const std::uint64_t faults1 = r1.page_faults;
    alloc::counters c1 = probe_.counters();
    if (cpu0_ && r1.cpu_ns) {
        sample_cpu_ns_ += *r1.cpu_ns - *cpu0_;
    } else {
        cpu_known_ = false;
    }
    cur_.elapsed_ns += static_cast<double>(t1 - t0_);
    cur_.allocs += c1.allocs - c0_.allocs;
    cur_.bytes += c1.bytes - c0_.bytes;
    cur_.copied_bytes += c1.copied - c0_.copied;
    cur_.set_bytes += c1.set - c0_.set;
    cur_.mapped_bytes += c1.mapped - c0_.mapped;
    cur_.page_faults += faults1 >= faults0_ ? faults1 - faults0_ : 0;
    cur_.live_bytes_end = c1.live;
    // Neither the growth check nor the sites pass is measured: their peaks are no figure.
    if (phase_ != phase::diagnosing && phase_ != phase::growing && phase_ != phase::checking) {
        out_.peak_live_bytes = std::max(out_.peak_live_bytes, c1.peak);
        out_.untracked_paused_blocks = c1.untracked;
    }
    out_.total_iterations += chunk_;
    sample_left_ -= chunk_;
}

double shortest_sample_ns(const sample_plan& plan) noexcept {
    return std::max(1000.0 * plan.clock_overhead_ns, 10000.0);
}

bool enough_samples(const sample_plan& plan, std::uint64_t count, double measured_ns) noexcept {
    return (count >= plan.min_samples && measured_ns >= plan.budget_ns) || count >= plan.max_samples ||
           // A body slower than the budget itself: three samples, not ten hours.
           (count >= 3 && measured_ns >= 5 * plan.budget_ns);
}

double target_sample_ns(const sample_plan& plan) noexcept {
    const double by_budget =
        plan.budget_ns / static_cast<double>(std::max<std::uint64_t>(plan.target_samples, 1));
    return std::max(by_budget, shortest_sample_ns(plan));
}

double sample_driver::target_sample_ns() const noexcept {
    return detail::target_sample_ns(plan_);
}

std::uint64_t sample_driver::next_calibration_size(std::uint64_t n, double elapsed_ns) const {
    const double growth_cap = 100;
    // Below ~100 clock reads the reading is mostly the clock: grow geometrically rather than
    // trust a per-iteration estimate made of noise.
    if (elapsed_ns < 100 * plan_.clock_overhead_ns) {
        return to_count(static_cast<double>(n) * growth_cap);
    }
    double wanted = static_cast<double>(n) * target_sample_ns() / elapsed_ns;
    double next = std::clamp(wanted, static_cast<double>(n) + 1, static_cast<double>(n) * growth_cap);
    return to_count(next);
}

std::uint64_t sample_driver::end_unmeasured_sample(double t, std::uint64_t n) {
    const double target = target_sample_ns();
    unmeasured_ns_ += t;
    out_.warmup_iterations += n;
    if (phase_ == phase::calibrating && t < 0.5 * target) {
        // A billion iterations in under 0.01 ns each is less than a cycle apiece: the
        // compiler removed the loop's work, and growing n further would never end.
        if (n >= plan_.optimized_away_iterations && t < 0.01 * static_cast<double>(n)) {
            out_.optimized_away = true;
            plan_.fixed_samples = plan_.min_samples;
            phase_ = phase::measuring;
            return controller_ != nullptr ? controller_->calibrated(n) : n;
        }
        return next_calibration_size(n, t);
    }
    // Calibrated: each warm-up sample refines the size from the latest reading.
    phase_ = phase::warming;
    std::uint64_t next = plan_.fixed_iterations != 0
                             ? plan_.fixed_iterations
                             : to_count(static_cast<double>(n) * target / std::max(t, 1.0));
    if (unmeasured_ns_ >= plan_.warmup_fraction * plan_.budget_ns) {
        phase_ = phase::measuring;
        if (controller_ != nullptr) {
            return controller_->calibrated(next);
        }
    }
    return next;
}

std::uint64_t sample_driver::end_measured_sample(double t, std::uint64_t n) {
    record_measured();
    measured_ns_ += t;
    if (controller_ != nullptr) {
        std::uint64_t next = controller_->measured(cur_, out_.peak_live_bytes);
        if (next == 0) {
            phase_ = phase::done;
        }
        return next;
    }
    const auto count = static_cast<std::uint64_t>(out_.samples.size());
    bool done = false;
    if (plan_.fixed_samples != 0) {
        done = count >= plan_.fixed_samples;
    } else {
        done = enough_samples(plan_, count, measured_ns_);
    }
    if (done) {
        return after_measuring();
    }
    return n;
}

std::uint64_t sample_driver::end_sample() {
    const double t = cur_.elapsed_ns;
    const std::uint64_t n = cur_.iterations;
    if (phase_ == phase::checking) {
        out_.growth_check.iterations = n;
        out_.growth_check.grown =
            cur_.live_bytes_end - out_.samples.back().live_bytes_end;  // since the last sample
        phase_ = phase::done;
        return begin_sites_pass();
    }
    if (phase_ == phase::diagnosing || phase_ == phase::growing) {
        return end_sites_stretch(t);
    }
    if (cur_.live_bytes_end > plan_.max_live_bytes) {
        out_.stopped_early = "the region's live heap passed the cap of " +
                             std::to_string(plan_.max_live_bytes >> 20) + " MiB after " +
                             std::to_string(out_.total_iterations) +
                             (out_.total_iterations == 1 ? " iteration" : " iterations");
        if (phase_ == phase::measuring) {
            record_measured();
            measured_ns_ += t;
        }
        phase_ = phase::done;
        return 0;
    }
    switch (phase_) {
    case phase::calibrating:
    case phase::warming:
        return end_unmeasured_sample(t, n);
    case phase::measuring:
        return end_measured_sample(t, n);
    case phase::checking:
    case phase::diagnosing:
    case phase::growing:
    case phase::done:
        break;
    }
    return 0;
}

void sample_driver::record_measured() {
    out_.samples.push_back(cur_);
    if (cpu_known_) {
        out_.measured_cpu_ns = out_.measured_cpu_ns.value_or(0) + sample_cpu_ns_;
    } else {
        out_.measured_cpu_ns.reset();
    }
}

std::uint64_t sample_driver::end_sites_stretch(double elapsed_ns) {
    out_.sites.elapsed_ns += elapsed_ns;
    if (phase_ == phase::diagnosing && out_.sites.growth_iterations > 0) {
        // Paused: what this allocates is in no figure and no record.
        const alloc::site_totals so_far = probe_.sites_recorded();
        const std::vector<const void*> live = core::live_blocks({out_.sites.allocs.data(), so_far.allocs},
                                                                {out_.sites.frees.data(), so_far.frees});
        probe_.sites_growth_only(live);
        phase_ = phase::growing;
        return out_.sites.growth_iterations;
    }
    out_.sites.totals = probe_.sites_recorded();
    out_.sites.allocs.resize(out_.sites.totals.allocs);
    out_.sites.frees.resize(out_.sites.totals.frees);
    out_.sites.growth.resize(out_.sites.totals.growth);
    phase_ = phase::done;
    return 0;
}

std::uint64_t sample_driver::after_measuring() {
    phase_ = phase::done;
    if (const std::uint64_t n = begin_growth_check(); n != 0) {
        return n;
    }
    return begin_sites_pass();
}

// A bounded structure filling (a cache, a batch flushed every N records) grows the live heap
// as a leak does until it is full; when that takes longer than the measured samples, only
// running on tells the two apart. So when the samples' live heap grew enough to be called
// retained growth (core::retained_growth_suspected), the loop runs on, untimed and in the same
// region, for as many iterations as it has run so far, and at least half the time budget's
// worth: a leak grows on at its rate, a cache stops at its cap, a batch falls back at its
// flush. derive_memory() reads the outcome. Rejected: judging from the samples alone (the slope
// of their second half against the first), which cannot see a fill that outlasts them, and is
// what called a 2 MiB memo cache and a batch flushed every 8,192 records leaks.
std::uint64_t sample_driver::begin_growth_check() {
    if (!out_.accounting || controller_ != nullptr) {
        return 0;
    }
    const double rate = core::suspected_growth_rate(out_.samples);
    const std::int64_t live = out_.samples.back().live_bytes_end;
    if (rate <= 0 || live >= plan_.max_live_bytes / 2) {
        return 0;  // no growth to judge, or running on would near the cap that stops a runaway leak
    }
    double measured_ns = 0;
    std::uint64_t measured = 0;
    for (const tare::sample& s : out_.samples) {
        measured_ns += s.elapsed_ns;
        measured += s.iterations;
    }
    const double per_iteration = measured_ns / static_cast<double>(std::max<std::uint64_t>(measured, 1));
    const double by_time = 0.5 * plan_.budget_ns / std::max(per_iteration, 1.0);
    // The check adds at most four times what the samples grew, and at least 32 MiB: a leak need
    // not be fed a gigabyte to be told from a cache. A buffer that doubles needs as many
    // iterations as it holds to double once, which four times the samples' growth allows.
    const double grown = static_cast<double>(live - out_.samples.front().live_bytes_end);
    const double by_growth = std::max(4 * grown, 32.0 * (1 << 20)) / rate;
    const double wanted = std::min(std::max(static_cast<double>(out_.total_iterations), by_time), by_growth);
    // Half the heap's room to the cap, at the samples' rate; a check that room cuts shorter than
    // the loop's run so far could not tell a doubling buffer from a cache: none is made.
    const double room = static_cast<double>(plan_.max_live_bytes - live) / (2 * rate);
    if (room < wanted && room < static_cast<double>(out_.total_iterations)) {
        return 0;
    }
    phase_ = phase::checking;
    return to_count(std::min({wanted, room, 1e18}));
}

std::uint64_t sample_driver::begin_sites_pass() {
    if (!plan_.alloc_sites || controller_ != nullptr || !out_.accounting || out_.samples.empty()) {
        return 0;
    }
    std::uint64_t allocs = 0;
    std::uint64_t iterations = 0;
    for (const tare::sample& s : out_.samples) {
        allocs += s.allocs;
        iterations += s.iterations;
    }
    if (allocs == 0) {
        return 0;  // nothing to locate
    }
    // Every allocation located for as many iterations as fit the record buffer, none only
    // counted; then, recording only allocations bigger than any before, on until the pass has run
    // as many iterations as the loop had before it. A buffer the loop grows geometrically (a
    // vector appended to and never cleared) holds fewer than twice as many elements as the loop
    // has run iterations, so it reallocates inside the pass, and that reallocation, bigger than
    // any before it, is recorded: its site is found however fast the loop. Rejected: recording
    // every allocation of the whole pass, a few microseconds each (seconds for a fast loop), or
    // only the iterations that fit, which in a loop of 200,000 iterations and four temporaries
    // each saw no reallocation of the buffer at all. The pass takes about as long as the run did,
    // plus the capture. Not when the live heap is past half its cap: running on would pass it.
    const double per_iteration = static_cast<double>(allocs) / static_cast<double>(iterations);
    const auto fit =
        static_cast<std::uint64_t>(static_cast<double>(plan_.site_capacity) / std::max(per_iteration, 1.0));
    const std::uint64_t ran = out_.total_iterations;
    const std::uint64_t n = std::max<std::uint64_t>(1, std::min(ran, fit));
    const bool room = out_.samples.back().live_bytes_end < plan_.max_live_bytes / 2;
    close_region();  // the measured region ends here; the pass opens its own
    out_.sites.allocs.resize(plan_.site_capacity);
    out_.sites.frees.resize(4 * plan_.site_capacity);
    out_.sites.growth.resize(max_growth_records);
    if (!probe_.region_begin_sites({out_.sites.allocs, out_.sites.frees, out_.sites.growth})) {
        out_.sites = {};
        return 0;
    }
    region_open_ = true;
    out_.sites.iterations = n;
    out_.sites.growth_iterations = ran > n && room ? ran - n : 0;
    phase_ = phase::diagnosing;
    return n;
}

void sample_driver::close_region() {
    if (region_open_) {
        probe_.region_end();
        region_open_ = false;
    }
}

}  // namespace tare::detail

namespace tare::core {

double measure_loop_overhead(clock_source& clock, region_probe& probe, detail::sample_plan plan) {
    // The body is a compiler barrier only: an empty body lets the compiler delete the whole
    // loop, and the barrier costs no instruction, so what remains is the loop itself.
    benchmark empty("tare_loop_overhead", [](State& state) {
        for (auto _ : state) {
            clobber_memory();
        }
    });
    plan.fixed_iterations = 0;
    plan.fixed_samples = 0;
    detail::sample_driver driver(clock, probe, plan);
    detail::loop_outcome loop = driver.run(empty.name(), {}, empty.function());
    if (loop.error || loop.samples.empty()) {
        return 0;
    }
    benchmark_result r;
    derive_time(loop, r);
    return r.time.median;
}

}  // namespace tare::core
