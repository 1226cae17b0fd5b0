// tare::gbench's worker mode: a Google Benchmark executable that `tare compare` drives sample by
// sample, as it drives a tare executable (docs/gbench.md, "tare compare"; the protocol is
// src/protocol/worker_protocol.hpp).
//
// Without it a comparison of two suites can only run one fresh process per side, benchmark and
// round, each calibrating alone: few samples, each a whole process apart. With it, each side
// stays alive for a round and runs one benchmark at exactly the iteration count the controller
// asks for, so both sides' samples interleave in balanced blocks of one common size.
//
// How: the link options of tare::gbench wrap ::benchmark::RunSpecifiedBenchmarks (every overload;
// BENCHMARK_MAIN calls the first) and ::benchmark::internal::RegisterBenchmarkInternal (every
// BENCHMARK macro and RegisterBenchmark call goes through it, from the suite's own code). With
// TARE_GBENCH_WORKER=1 in its environment and the channel on descriptors 3 and 4, the wrapped
// RunSpecifiedBenchmarks serves the controller instead of running the suite. A run is one
// instance, selected by an exact regular expression, with the family's iteration count fixed;
// Google Benchmark 1.7 runs a spec as often as it is asked in one process, setup and fixture
// included each time (their cost is outside the timed loop). A sample is two runs less each
// other, so its iterations are warm ones (runs.cpp, run_warm).
// The time is what Google Benchmark reports (real, or manual, time of the loop); the memory
// figures are the region hooks' counters of that loop (region_hooks.cpp).
//
// Rejected: the public Benchmark::Iterations(), which refuses a family with MinTime() and
// cannot be undone; a flag (Google Benchmark's main refuses flags it does not know, so an
// executable without these hooks would stop, and one with them would have to parse argv before
// the suite's main does); reading the instances from libbenchmark's internal headers, which
// are not installed.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/gbench/region_hooks.hpp"
#include "adapters/gbench/runs.hpp"
#include "alloc/accounting.hpp"
#include "core/metrics.hpp"
#include "core/runner.hpp"
#include "os/channel.hpp"
#include "os/layout.hpp"
#include "protocol/worker_protocol.hpp"
#include "report/reporter.hpp"

using benchmark_family = ::benchmark::internal::Benchmark;

// The real functions, resolved by the --wrap options (weak, as region_hooks.cpp explains).
extern "C" {
size_t __real__ZN9benchmark22RunSpecifiedBenchmarksEv() __attribute__((weak));
size_t __real__ZN9benchmark22RunSpecifiedBenchmarksENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE(
    std::string) __attribute__((weak));
size_t __real__ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterE(::benchmark::BenchmarkReporter*)
    __attribute__((weak));
size_t
__real__ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE(
    ::benchmark::BenchmarkReporter*, std::string) __attribute__((weak));
size_t __real__ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterES1_(
    ::benchmark::BenchmarkReporter*, ::benchmark::BenchmarkReporter*) __attribute__((weak));
size_t
__real__ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterES1_NSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE(
    ::benchmark::BenchmarkReporter*, ::benchmark::BenchmarkReporter*, std::string) __attribute__((weak));
benchmark_family* __real__ZN9benchmark8internal25RegisterBenchmarkInternalEPNS0_9BenchmarkE(benchmark_family*)
    __attribute__((weak));
// benchmark::GetBenchmarkVersion(), from 1.8 on; weak, so a 1.7 library leaves it null. Its
// mangled name declares the C++ function, which returns a std::string: clang's warning that a C
// function cannot return one does not apply.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wreturn-type-c-linkage"
#endif
std::string _ZN9benchmark19GetBenchmarkVersionB5cxx11Ev() __attribute__((weak));
#if defined(__clang__)
#pragma clang diagnostic pop
#endif
}

namespace tare::gbench {
namespace {

// The environment switch, and the words `tare` finds in a binary to know it can serve
// (cli/run_command.cpp): present only when this object is linked, which only the wrap pulls in.
constexpr std::string_view worker_switch = protocol::gbench_worker_env;
constexpr const char* worker_marker = protocol::gbench_worker_marker.data();
// Kept in the binary for the controller (cli::gbench_sized_capable): this worker answers
// `run_sized`. serve() takes its address, so a link with --gc-sections keeps it too.
[[gnu::used]] constexpr char sized_marker[] = "tare gbench worker: run_sized";
static_assert(std::string_view(sized_marker) == protocol::gbench_sized_marker);

// The controller's channel and the benchmark being measured.
class server {
public:
    server() : in_(os::child_read_fd), sites_top_(sites_wanted()) {}

    int serve() {
        os::settle_layout();  // started by tare compare, perhaps in a chosen layout (os/layout.hpp)
        os::ignore_sigpipe();
        asm volatile("" : : "r"(sized_marker));  // referenced: kept (above)
        accounting_ = hooks_linked() && alloc::available();
        if (!send(protocol::hello(accounting_))) {
            std::fprintf(stderr, "%s: descriptor %d is not a channel\n", worker_marker, os::child_write_fd);
            return 2;
        }
        names_ = instance_names();
        for (std::string line; in_.read_line(line, -1) == os::read_status::ok;) {
            if (line == protocol::quit) {
                return 0;
            }
            if (!command(line)) {
                std::fprintf(stderr, "%s: unexpected command '%s'\n", worker_marker, line.c_str());
                return 2;
            }
        }
        return 0;
    }

private:
    bool send(const std::string& text) { return os::write_all(os::child_write_fd, text); }

    bool command(const std::string& line) {
        if (line == protocol::list) {
            return send(protocol::names(names_));
        }
        if (auto run = protocol::parse_run(line)) {
            return start(*run);
        }
        if (auto run = protocol::parse_run_sized(line)) {
            return start_sized(*run);
        }
        if (auto n = protocol::parse_sample_request(line); n && name_) {
            return sample(*n);
        }
        if (line == protocol::stop && name_) {
            return finish(std::nullopt);
        }
        return false;
    }

    // Forgets the last benchmark's figures and starts `name`; false when this suite has none of
    // that name.
    bool begin(const std::string& name) {
        name_ = name;
        samples_.clear();
        counter_sums_.clear();
        label_.clear();
        cpu_seconds_ = 0;
        peak_ = 0;
        judging_retained_ = true;
        return std::find(names_.begin(), names_.end(), *name_) != names_.end();
    }

    // `run`: calibrate to one sample of its sample_ns, warm up for its warmup_ns in all, and
    // say the size.
    bool start(const protocol::run_request& run) {
        if (!begin(run.name)) {
            return finish(error_info{"not_found", "no benchmark of this name in this executable"});
        }
        std::optional<error_info> error;
        const std::uint64_t size = calibrate(run.sample_ns, run.warmup_ns, error);
        if (error) {
            return finish(error);
        }
        return send(protocol::calibrated(size));
    }

    // `run_sized`: the controller holds the size from an earlier round's calibration, so this
    // process only warms up: runs of the sample's longer count until warmup_ns of wall time has
    // passed, at least one, so the first sample of a fresh process does not pay its first call
    // (code and data not yet touched by this process). A body with a slow setup pays one setup
    // here where a calibration costs it three or more (docs/compare.md, "Budget").
    bool start_sized(const protocol::sized_request& run) {
        if (!begin(run.name)) {
            return finish(error_info{"not_found", "no benchmark of this name in this executable"});
        }
        judging_retained_ = false;  // judged in the first round (judge_retained())
        // The controller's count is bounded as calibrate() bounds its own (a line it did not
        // send must not wrap the sum), and the warm-up is finite (parse_run_sized()).
        const std::uint64_t count = std::min(run.iterations, max_iterations);
        double spent = 0;
        do {
            const auto begun = std::chrono::steady_clock::now();
            run_outcome r = run_one(*name_, count + warm_iterations);
            const std::chrono::duration<double, std::nano> wall = std::chrono::steady_clock::now() - begun;
            if (r.error) {
                return finish(r.error);
            }
            spent += std::max(r.sample.elapsed_ns, wall.count());
        } while (spent < run.warmup_ns);
        return send(protocol::calibrated(count));
    }

    // The sample's size. Growth as Google Benchmark's own (up to tenfold a step, aiming a little
    // past the goal), from 1 iteration, on warm samples as the samples will be: a row whose first
    // iteration is slow (cold caches, fresh pages) would otherwise be sized by that iteration,
    // and its samples fall short. The warm-up counts each step's wall time, setup included, as
    // the controller counts a sample's; and a step whose runs cost ten times its loop or more
    // (a slow setup) may grow past tenfold, since every step costs a setup. Sized by the
    // requested count: a sample runs it on every thread and in every repetition, so the elapsed
    // time scales with it, whatever Google Benchmark counts.
    std::uint64_t calibrate(double sample_ns, double warmup_ns, std::optional<error_info>& error) {
        std::uint64_t iterations = 1;
        double spent = 0;
        double elapsed = 0;
        bool fixed = false;
        std::uint64_t ran = 0;
        double target = sample_ns;
        // One shorter run for all steps: they only estimate, and each step then costs one setup.
        std::optional<run_outcome> shorter;
        bool rechecked = false;
        for (int step = 0; step < 64; ++step) {
            const auto begun = std::chrono::steady_clock::now();
            run_outcome r = run_warm(*name_, iterations, &shorter);
            const std::chrono::duration<double, std::nano> wall = std::chrono::steady_clock::now() - begun;
            if (r.error) {
                error = r.error;
                return 0;
            }
            elapsed = r.sample.elapsed_ns;
            spent += std::max(elapsed, wall.count());
            fixed = r.fixed_by_suite;
            ran = r.sample.iterations;
            // A warm sample's time is a difference, and the shorter run's noise is in it: where
            // that run (one cold iteration) outlasts the planned sample, the sample is made as
            // long as it, so the difference is mostly warm iterations rather than noise. Such a
            // run is measured once more and the shorter of the two kept, so one preempted run
            // does not lengthen every sample.
            if (!rechecked && shorter && r.shorter_ns > sample_ns) {
                rechecked = true;
                run_outcome again = run_one(*name_, warm_iterations);
                if (again.error) {
                    error = again.error;
                    return 0;
                }
                if (again.sample.elapsed_ns < shorter->sample.elapsed_ns) {
                    shorter = std::move(again);
                }
            }
            target = std::max(sample_ns, shorter ? std::min(r.shorter_ns, shorter->sample.elapsed_ns) : 0.0);
            // Sized: long enough to estimate from, at the cap, or fixed by the suite. Long
            // enough is against the target: a difference shorter than the shorter run may be
            // mostly that run's noise, and would size the samples by it.
            const bool sized = elapsed >= 0.5 * target || iterations >= max_iterations || fixed;
            if (sized && spent >= warmup_ns) {
                break;
            }
            if (fixed) {
                continue;  // warming up at the suite's own count
            }
            const auto n = static_cast<double>(iterations);
            const double growth = wall.count() >= 10 * elapsed ? 1000 : 10;
            const double goal = elapsed > 0 ? target * n / elapsed : n * growth;
            const double next = sized ? goal : std::min(goal * 1.4, n * growth);
            iterations = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::min(next, 1e18)),
                                                   sized ? 1 : iterations + 1, max_iterations);
        }
        // At least as long as the shorter run, so rounded up when that run set the length.
        const double by_target = target * static_cast<double>(iterations) / elapsed;
        const double goal = !(elapsed > 0) ? 0 : target > sample_ns ? std::ceil(by_target) : by_target;
        return fixed         ? ran
               : !(goal > 0) ? iterations
                             : std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::min(goal, 1e18)), 1,
                                                         max_iterations);
    }

    bool sample(std::uint64_t iterations) {
        requested_ = iterations;
        run_outcome r = run_warm(*name_, iterations);  // warm iterations: runs.cpp says how
        if (r.error) {
            return finish(r.error);
        }
        // Each sample's heap figures are its runs' less each other's (what its iterations kept
        // beyond one), from 0; kept as one region across the samples (the live heap adds up), as
        // a tare worker's are, so the retained growth is the slope of what the samples kept.
        tare::sample s = r.sample;
        s.iterations_before = 0;
        std::int64_t live_before = 0;
        if (!samples_.empty()) {
            s.iterations_before = samples_.back().iterations_before + samples_.back().iterations;
            live_before = samples_.back().live_bytes_end;
        }
        peak_ = std::max(peak_, r.peak);  // the highest of any one run: each starts from 0
        cpu_seconds_ += r.cpu_seconds;
        for (const auto& [key, value] : r.counters) {
            auto it = std::find_if(counter_sums_.begin(), counter_sums_.end(),
                                   [&name = key](const auto& kv) { return kv.first == name; });
            if (it == counter_sums_.end()) {
                counter_sums_.emplace_back(key, value);
            } else {
                it->second += value;
            }
        }
        fixed_ = r.fixed_by_suite;
        threads_ = r.threads;
        if (label_.empty()) {
            label_ = r.label;
        }
        s.live_bytes_end += live_before;
        samples_.push_back(s);
        return send(protocol::format_sample(s, peak_));
    }

    // The benchmark's result for the controller: its figures from the samples, or the error.
    bool finish(const std::optional<error_info>& error) {
        benchmark_result result;
        result.name = *name_;
        if (error) {
            result.error = error;
        } else if (!samples_.empty()) {
            detail::loop_outcome loop;
            loop.samples = samples_;
            loop.accounting = accounting_;
            loop.mappings = accounting_ && alloc::mappings_counted();
            loop.peak_live_bytes = peak_;
            for (const auto& s : samples_) {
                loop.total_iterations += s.iterations;
            }
            core::derive_time(loop, result);
            core::derive_memory(loop, result);
            judge_retained(result, loop.total_iterations);
            add_suite_figures(result, loop.total_iterations);
            // After the samples and untimed, as tare's own pass; ->Threads(n) has no sites region.
            if (sites_top_ && accounting_ && threads_ <= 1) {
                add_sites_pass(*name_,
                               {*sites_top_, loop.total_iterations, result.allocs_per_iter.value_or(0),
                                result.time.median},
                               result);
            }
        }
        if (!label_.empty()) {
            result.label = label_;
        }
        name_.reset();
        samples_.clear();
        counter_sums_.clear();
        label_.clear();
        cpu_seconds_ = 0;
        run_results results;
        results.context = core::make_context(0, 0, accounting_);
        results.context.gbench_memory = accounting_ ? std::optional<std::string>("region") : std::nullopt;
        results.benchmarks.push_back(std::move(result));
        const std::string text = report::make_json_reporter<run_results>()->render(results);
        return send(protocol::result(text));
    }

    // What Google Benchmark's own row of the benchmark holds beside its time, as io/gbench_reader
    // reads it from a file: the suite's counters (the mean over the samples), its throughput, and
    // the CPU time per iteration (gb_cpu_time_ns).
    void add_suite_figures(benchmark_result& result, std::uint64_t iterations) const {
        const auto n = static_cast<double>(samples_.size());
        for (const auto& [key, sum] : counter_sums_) {
            if (key == "bytes_per_second") {
                result.bytes_per_second = sum / n;
            } else if (key == "items_per_second") {
                result.items_per_second = sum / n;
            } else {
                result.counters.emplace_back(key, sum / n);
            }
        }
        if (iterations > 0) {
            result.counters.emplace_back("gb_cpu_time_ns",
                                         cpu_seconds_ * 1e9 / static_cast<double>(iterations));
        }
        // As io/gbench_reader judges a row: not under manual time (the real time is then the
        // body's own figure) nor ->Threads(n) (the CPU time is the threads' together).
        if (threads_ <= 1 && name_->find("/manual_time") == std::string::npos) {
            double wall = 0;
            for (const auto& s : samples_) {
                wall += s.elapsed_ns;
            }
            if (auto w = core::contended_warning(cpu_seconds_ * 1e9, wall)) {
                result.warnings.push_back(std::move(*w));
            }
        }
    }

    // Retained growth, from runs of two lengths (judge_retained(), retained.cpp). A round after
    // the first (run_sized) does not judge: what the loop keeps is the code's, not the round's,
    // so a slow setup pays those runs once a side.
    void judge_retained(benchmark_result& result, std::uint64_t total_iterations) const {
        if (!judging_retained_) {
            std::erase_if(result.warnings, [](const warning& w) { return w.kind == "retained_growth"; });
            result.retained_bytes_per_iter.reset();
            return;
        }
        gbench::judge_retained(result, {*name_, samples_, requested_, fixed_, total_iterations});
    }

    // The top N of a sites pass the controller asked for (protocol::gbench_sites_env), if it did.
    static std::optional<std::size_t> sites_wanted() {
        const char* v = std::getenv(std::string(protocol::gbench_sites_env).c_str());
        if (v == nullptr || *v == '\0') {
            return std::nullopt;
        }
        char* end = nullptr;
        const unsigned long long top = std::strtoull(v, &end, 10);
        return *end == '\0' && top > 0 ? std::optional<std::size_t>(top) : std::nullopt;
    }

    os::line_reader in_;
    bool accounting_ = false;
    std::optional<std::size_t> sites_top_;  // a sites pass after each benchmark's samples: its top N
    std::vector<std::string> names_;
    std::optional<std::string> name_;  // the benchmark being measured
    std::vector<tare::sample> samples_;
    std::int64_t peak_ = 0;
    std::vector<std::pair<std::string, double>> counter_sums_;  // the suite's counters, summed over samples
    std::string label_;             // the first sample's State::SetLabel, if it set one
    double cpu_seconds_ = 0;        // over the samples
    std::uint64_t requested_ = 0;   // the count the last sample asked for
    bool judging_retained_ = true;  // false in a round after the first (run_sized)
    bool fixed_ = false;            // the suite fixes the count (->Iterations(K)): the samples' size is its
    int threads_ = 1;               // the benchmark's ->Threads(n)
};

// The Google Benchmark the suite runs on, for a message: the library's own word (1.8 and later),
// else the package's version tare::gbench was built against (adapter.cmake), when CMake knew it.
std::string library_version() {
    if (&_ZN9benchmark19GetBenchmarkVersionB5cxx11Ev != nullptr) {
        return _ZN9benchmark19GetBenchmarkVersionB5cxx11Ev();
    }
#ifdef TARE_GBENCH_PACKAGE_VERSION
    return TARE_GBENCH_PACKAGE_VERSION;
#else
    return "of a version it does not say";
#endif
}

// Before the suite runs anything: every function the adapter's link options wrap and that this
// Google Benchmark's header declares must be in the library. One that is not (a release the
// adapter was not tested with: a member renamed, or made inline) would let the suite's calls pass
// the hooks by, and the figures would be wrong; the suite stops with the reason instead.
void require_wrapped_functions(const void* called_real) {
    std::vector<std::string> missing = missing_members();
    if (called_real == nullptr) {
        missing.emplace_back("the benchmark::RunSpecifiedBenchmarks overload the suite calls");
    }
    if (&__real__ZN9benchmark8internal25RegisterBenchmarkInternalEPNS0_9BenchmarkE == nullptr) {
        missing.emplace_back(
            "benchmark::internal::RegisterBenchmarkInternal(benchmark::internal::Benchmark*)");
    }
    if (!run_spec_linked()) {
        missing.emplace_back("benchmark::RunSpecifiedBenchmarks(BenchmarkReporter*, std::string)");
    }
    if (missing.empty()) {
        return;
    }
    std::string names;
    for (const auto& m : missing) {
        names += (names.empty() ? "" : ", ") + m;
    }
    std::fprintf(stderr,
                 "tare::gbench: this suite's Google Benchmark (%s) lacks what tare::gbench wraps: %s. "
                 "tare::gbench is tested with Google Benchmark %s; on this one it would give wrong figures, "
                 "so the suite stops. Link benchmark::benchmark instead of tare::gbench, or use a tested "
                 "release.\n",
                 library_version().c_str(), names.c_str(), tested_versions);
    std::exit(2);
}

bool worker_wanted() {
    const char* v = std::getenv(std::string(worker_switch).c_str());
    return v != nullptr && std::string_view(v) == "1";
}

// Instead of the suite: serve, then return as RunSpecifiedBenchmarks would (0 benchmarks run),
// so the suite's main ends normally.
std::optional<size_t> serve_if_wanted(const void* called_real) {
    require_wrapped_functions(called_real);
    if (auto counted = count_if_wanted()) {
        return counted;
    }
    if (!worker_wanted()) {
        return std::nullopt;
    }
    server s;
    const int status = s.serve();
    if (status != 0) {
        std::exit(status);
    }
    return 0;
}

}  // namespace
}  // namespace tare::gbench

extern "C" {

benchmark_family* __wrap__ZN9benchmark8internal25RegisterBenchmarkInternalEPNS0_9BenchmarkE(
    benchmark_family* b) {
    tare::gbench::families().push_back(b);
    return __real__ZN9benchmark8internal25RegisterBenchmarkInternalEPNS0_9BenchmarkE(b);
}

size_t __wrap__ZN9benchmark22RunSpecifiedBenchmarksEv() {
    if (auto n = tare::gbench::serve_if_wanted(
            reinterpret_cast<const void*>(&__real__ZN9benchmark22RunSpecifiedBenchmarksEv)))
        return *n;
    return __real__ZN9benchmark22RunSpecifiedBenchmarksEv();
}

size_t __wrap__ZN9benchmark22RunSpecifiedBenchmarksENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE(
    std::string spec) {
    if (auto n = tare::gbench::serve_if_wanted(reinterpret_cast<const void*>(
            &__real__ZN9benchmark22RunSpecifiedBenchmarksENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE)))
        return *n;
    return __real__ZN9benchmark22RunSpecifiedBenchmarksENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE(
        std::move(spec));
}

size_t __wrap__ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterE(
    ::benchmark::BenchmarkReporter* display) {
    if (auto n = tare::gbench::serve_if_wanted(reinterpret_cast<const void*>(
            &__real__ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterE)))
        return *n;
    return __real__ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterE(display);
}

size_t
__wrap__ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE(
    ::benchmark::BenchmarkReporter* display, std::string spec) {
    if (auto n = tare::gbench::serve_if_wanted(reinterpret_cast<const void*>(
            &__real__ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE)))
        return *n;
    return __real__ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE(
        display, std::move(spec));
}

size_t __wrap__ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterES1_(
    ::benchmark::BenchmarkReporter* display, ::benchmark::BenchmarkReporter* file) {
    if (auto n = tare::gbench::serve_if_wanted(reinterpret_cast<const void*>(
            &__real__ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterES1_)))
        return *n;
    return __real__ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterES1_(display, file);
}

size_t
__wrap__ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterES1_NSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE(
    ::benchmark::BenchmarkReporter* display, ::benchmark::BenchmarkReporter* file, std::string spec) {
    if (auto n = tare::gbench::serve_if_wanted(reinterpret_cast<const void*>(
            &__real__ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterES1_NSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE)))
        return *n;
    return __real__ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterES1_NSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE(
        display, file, std::move(spec));
}

}  // extern "C"
