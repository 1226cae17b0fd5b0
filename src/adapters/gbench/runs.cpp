// One run of one instance of the suite at a fixed iteration count, and the suite's list of
// instances: what the worker mode (worker.cpp) and the counted mode (counted.cpp) run. A run is a
// call of Google Benchmark's RunSpecifiedBenchmarks with an exact regular expression, the
// family's iteration count set to the sample's size for the call; its time is what Google
// Benchmark reports, its memory figures the region hooks' counters (region_hooks.cpp).
#include "adapters/gbench/runs.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "protocol/worker_protocol.hpp"

using benchmark_family = ::benchmark::internal::Benchmark;

// The real function, resolved by the --wrap options (weak, as region_hooks.cpp explains).
extern "C" {
size_t
__real__ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE(
    ::benchmark::BenchmarkReporter*, std::string) __attribute__((weak));
}

namespace tare::gbench {
namespace {

// A family's name and fixed iteration count are private members of Benchmark with no public
// reader in 1.7; the explicit instantiation below names them, which the language allows (access
// is not checked in the arguments of an explicit instantiation), and the compiler checks the
// names and types against the installed header.
template <typename Tag, typename Tag::type Member>
struct member_access {
    friend typename Tag::type member_of(Tag /*unused*/) { return Member; }
};
struct iterations_member {
    using type = ::benchmark::IterationCount benchmark_family::*;
    friend type member_of(iterations_member);
};
struct name_member {
    using type = std::string benchmark_family::*;
    friend type member_of(name_member);
};
template struct member_access<iterations_member, &benchmark_family::iterations_>;
template struct member_access<name_member, &benchmark_family::name_>;

// Collects the runs of one call of RunSpecifiedBenchmarks; prints nothing.
class collector final : public ::benchmark::BenchmarkReporter {
public:
    collector() {
        SetOutputStream(&out_);
        SetErrorStream(&err_);
    }
    bool ReportContext(const Context& /*context*/) override { return true; }
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const Run& r : runs) {
            if (r.run_type == Run::RT_Iteration) {
                runs_.push_back(r);
            }
        }
    }
    const std::vector<Run>& runs() const { return runs_; }
    std::string printed() const { return out_.str(); }
    std::string errors() const { return err_.str(); }

private:
    std::vector<Run> runs_;
    std::ostringstream out_;
    std::ostringstream err_;
};

size_t run_spec(collector& c, const std::string& spec) {
    return __real__ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE(
        &c, spec);
}

void set_list_tests(bool on) {
    // Through Google Benchmark's own flag parser: the flag variable is not in the header.
    std::string arg0 = "tare";
    std::string flag = on ? "--benchmark_list_tests=true" : "--benchmark_list_tests=false";
    char* argv[] = {arg0.data(), flag.data(), nullptr};
    int argc = 2;
    ::benchmark::Initialize(&argc, argv);
}

using protocol::gbench_literal;

// The families an instance named `name` may belong to: those whose name is `name` or a prefix
// of it ending at a '/' (family names may hold '/' themselves).
std::vector<benchmark_family*> families_of(const std::string& name) {
    std::vector<benchmark_family*> out;
    for (benchmark_family* f : families()) {
        const std::string& n = f->*member_of(name_member{});
        if (name.compare(0, n.size(), n) == 0 && (name.size() == n.size() || name[n.size()] == '/')) {
            out.push_back(f);
        }
    }
    return out;
}

// Instance `name` once its family's count is fixed to `iterations`: Google Benchmark puts
// "iterations:N" among the name's '/'-separated parts (after the arguments and min_time, before
// repeats, the time type and threads); rather than copy that order, every place is allowed, and
// run_one() checks that exactly one instance ran.
std::string fixed_spec(const std::string& name, ::benchmark::IterationCount iterations) {
    const std::string part = "/iterations:" + std::to_string(iterations);
    std::string spec = "^(";
    bool first = true;
    for (std::size_t i = 0; i <= name.size(); ++i) {
        if (i == name.size() || name[i] == '/') {
            spec += (first ? "" : "|") + gbench_literal(name.substr(0, i)) + gbench_literal(part) +
                    gbench_literal(name.substr(i));
            first = false;
        }
    }
    return spec + ")$";
}

double counter_of(const ::benchmark::BenchmarkReporter::Run& r, const char* key) {
    auto it = r.counters.find(key);
    return it == r.counters.end() ? 0.0 : it->second.value;
}

// Adds `weight` times each of the suite's own counters of `r` (not tare's region counters) to
// `sums`, by name.
void add_user_counters(const ::benchmark::BenchmarkReporter::Run& r, double weight,
                       std::vector<std::pair<std::string, double>>& sums) {
    for (const auto& [key, counter] : r.counters) {
        if (key.starts_with("tare_")) {
            continue;
        }
        auto it = std::find_if(sums.begin(), sums.end(),
                               [&name = key](const auto& kv) { return kv.first == name; });
        if (it == sums.end()) {
            sums.emplace_back(key, 0.0);
            it = sums.end() - 1;
        }
        it->second += weight * counter.value;
    }
}

// A run that did not measure: Google Benchmark 1.7 has error_occurred and error_message; 1.8
// replaced them with `skipped` (an error, SkipWithError, or a skip, SkipWithMessage) and
// skip_message. As the reader words the same rows of a JSON file (io/gbench_reader.cpp).
template <typename Run>
std::optional<error_info> not_measured(const Run& r) {
    if constexpr (requires { r.error_occurred; }) {
        if (r.error_occurred) {
            return error_info{"gbench_error", r.error_message};
        }
    } else {
        using skipped = std::remove_cvref_t<decltype(r.skipped)>;  // benchmark::internal::Skipped
        if (r.skipped == skipped::SkippedWithError) {
            return error_info{"gbench_error", r.skip_message};
        }
        if (r.skipped != skipped::NotSkipped) {
            return error_info{"skipped", r.skip_message};
        }
    }
    return std::nullopt;
}

// `longer`'s figures less `shorter`'s, in `longer`: a count that came out lower in the longer run
// (an allocation the body makes only sometimes) is 0, never a wrapped-around count.
void subtract(run_outcome& longer, const run_outcome& shorter) {
    const auto less = [](std::uint64_t a, std::uint64_t b) { return a > b ? a - b : 0; };
    tare::sample& s = longer.sample;
    const tare::sample& t = shorter.sample;
    s.iterations -= t.iterations;
    s.elapsed_ns -= t.elapsed_ns;
    s.allocs = less(s.allocs, t.allocs);
    s.bytes = less(s.bytes, t.bytes);
    s.page_faults = less(s.page_faults, t.page_faults);
    s.mapped_bytes = less(s.mapped_bytes, t.mapped_bytes);
    s.live_bytes_end -= t.live_bytes_end;
    // The peak is a level, not a sum: the longer run's, or the shorter's if it was higher.
    longer.peak = std::max(longer.peak, shorter.peak);
    longer.cpu_seconds = std::max(0.0, longer.cpu_seconds - shorter.cpu_seconds);
}

}  // namespace

bool run_spec_linked() noexcept {
    return &__real__ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE !=
           nullptr;
}

std::vector<benchmark_family*>& families() {
    static std::vector<benchmark_family*> all;  // first use may be any TU's static initialiser
    return all;
}

std::vector<std::string> instance_names() {
    set_list_tests(true);
    collector c;
    run_spec(c, ".");
    set_list_tests(false);
    std::vector<std::string> names;
    std::istringstream in(c.printed());
    for (std::string line; std::getline(in, line);) {
        if (!line.empty()) {
            names.push_back(line);
        }
    }
    return names;
}

run_outcome run_one(const std::string& name, std::uint64_t iterations) {
    run_outcome out;
    // Families of one name may differ in their own count (BENCHMARK(f); BENCHMARK(f)->Iterations(4)):
    // an instance of a family that fixes K carries "/iterations:K" in its name and keeps K.
    const std::vector<benchmark_family*> candidates = families_of(name);
    bool fixed_by_suite = false;
    for (benchmark_family* f : candidates) {
        const auto k = f->*member_of(iterations_member{});
        const std::string part = "/iterations:" + std::to_string(k);
        fixed_by_suite = fixed_by_suite ||
                         (k != 0 && (name.find(part + "/") != std::string::npos || name.ends_with(part)));
    }
    std::vector<benchmark_family*> changed;
    std::string spec = "^" + gbench_literal(name) + "$";
    if (!fixed_by_suite) {
        for (benchmark_family* f : candidates) {
            auto& k = f->*member_of(iterations_member{});
            if (k == 0) {
                k = static_cast<::benchmark::IterationCount>(iterations);
                changed.push_back(f);
            }
        }
        spec = fixed_spec(name, static_cast<::benchmark::IterationCount>(iterations));
    }
    out.fixed_by_suite = fixed_by_suite;
    collector c;
    run_spec(c, spec);
    for (benchmark_family* f : changed) {
        f->*member_of(iterations_member{}) = 0;
    }
    const auto& runs = c.runs();
    if (runs.empty()) {
        std::string why = c.errors();
        while (!why.empty() && (why.back() == '\n' || why.back() == '\r')) {
            why.pop_back();
        }
        out.error = error_info{"not_found", "Google Benchmark ran nothing for this name" +
                                                (why.empty() ? std::string() : ": " + why)};
        return out;
    }
    const std::string ran = runs.front().benchmark_name();
    out.threads = static_cast<int>(runs.front().threads);
    out.label = runs.front().report_label;
    // Repetitions (->Repetitions(R)): R runs of the same instance, one sample of all of them.
    double seconds = 0;
    for (const auto& r : runs) {
        if (r.benchmark_name() != ran) {
            out.error = error_info{
                "ambiguous", "more than one instance ran for this name: " + ran + ", " + r.benchmark_name()};
            return out;
        }
        if (auto why = not_measured(r)) {
            out.error = std::move(why);
            return out;
        }
        const auto n = static_cast<double>(r.iterations);
        tare::sample& s = out.sample;
        s.iterations += static_cast<std::uint64_t>(r.iterations);
        seconds += r.real_accumulated_time;  // manual time when the benchmark uses it
        s.allocs += static_cast<std::uint64_t>(std::llround(counter_of(r, "tare_allocs_per_iter") * n));
        s.bytes += static_cast<std::uint64_t>(std::llround(counter_of(r, "tare_bytes_per_iter") * n));
        s.page_faults += static_cast<std::uint64_t>(std::llround(counter_of(r, "tare_faults_per_iter") * n));
        s.live_bytes_end += std::llround(counter_of(r, "tare_retained_per_iter") * n);
        s.mapped_bytes += static_cast<std::uint64_t>(std::llround(counter_of(r, "tare_mapped_per_iter") * n));
        out.peak = std::max<std::int64_t>(out.peak, std::llround(counter_of(r, "tare_peak_live_bytes")));
        out.cpu_seconds += r.cpu_accumulated_time;
        add_user_counters(r, 1.0 / static_cast<double>(runs.size()), out.counters);
    }
    out.sample.elapsed_ns = seconds * 1e9;
    return out;
}

// A warm sample. Google Benchmark's loop is inline (the range-for's iterator counts down in the
// suite's own code), so one run cannot be split into a cold first iteration and warm ones; but
// two runs can be subtracted. Whatever one run pays once — its first iteration's cold caches,
// the page faults of touching memory setup just allocated, a buffer or cache the first
// iteration fills — is in both runs and cancels, and what is left is `iterations` iterations
// that each followed another, as nearly all of Google Benchmark's own run's iterations do.
// The shorter run goes first and is run anew for every sample, so samples stay independent
// (docs/statistics.md): a shorter run shared by all samples would put its one error into every
// sample alike, which no interval over the samples could see; even within one round of tare
// compare, whose interval rests on the rounds, it makes the round's every pair carry that one
// error (measured: a wider interval for a setup saved a sample). Only the calibration shares
// one (`shared`), as it only estimates. The difference's variance is the sum of both runs'.
// Rejected: a warm-up iteration inside the run (needs a hook per iteration, which the inline
// loop has not); longer samples alone (a cold iteration still in every sample, only diluted, and
// a slow row would need hundreds of iterations a sample to dilute it to a few percent).
run_outcome run_warm(const std::string& name, std::uint64_t iterations, std::optional<run_outcome>* shared) {
    std::optional<run_outcome> own;
    std::optional<run_outcome>& shorter = shared != nullptr ? *shared : own;
    if (!shorter) {
        shorter = run_one(name, warm_iterations);
    }
    if (shorter->error || shorter->fixed_by_suite) {
        run_outcome r = *shorter;
        shorter.reset();  // an error ends the benchmark; a fixed count is a sample of its own
        return r;
    }
    // Rarely, the shorter run is slowed (preempted) by more than the longer run's extra
    // iterations take, and the difference is no time. Such a pair is run again (a shared shorter
    // run too: its figure was the outlier); after a few (a body of a few nanoseconds asked for a
    // handful of iterations: noise either way), the sample's time is the longer run's per
    // iteration, its first iteration included, as every sample's was before warm samples. Its
    // counts are the difference still.
    for (int attempt = 0;; ++attempt) {
        run_outcome longer = run_one(name, iterations + warm_iterations);
        if (longer.error || longer.fixed_by_suite) {
            return longer;
        }
        const double whole_ns = longer.sample.elapsed_ns;
        const auto whole_iterations = static_cast<double>(longer.sample.iterations);
        if (longer.sample.iterations <= shorter->sample.iterations) {
            return longer;  // cannot happen at a count the suite does not fix; kept whole if it does
        }
        const bool timed = whole_ns > shorter->sample.elapsed_ns;
        if (timed || attempt == 3) {
            subtract(longer, *shorter);
            longer.shorter_ns = shorter->sample.elapsed_ns;
            if (!timed) {
                longer.sample.elapsed_ns =
                    whole_ns * static_cast<double>(longer.sample.iterations) / whole_iterations;
            }
            return longer;
        }
        shorter = run_one(name, warm_iterations);
        if (shorter->error) {
            run_outcome r = *shorter;
            shorter.reset();
            return r;
        }
    }
}

}  // namespace tare::gbench
