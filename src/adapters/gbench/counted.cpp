// tare::gbench's counted mode: a Google Benchmark suite's instance counted under Callgrind, its
// loop alone (docs/instructions.md, "Google Benchmark suites").
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <variant>

#include "adapters/gbench/region_hooks.hpp"
#include "adapters/gbench/runs.hpp"
#include "alloc/accounting.hpp"
#include "core/runner.hpp"
#include "instrument/counted_run.hpp"
#include "io/atomic_file.hpp"
#include "os/counters.hpp"
#include "os/os.hpp"
#include "protocol/worker_protocol.hpp"
#include "report/reporter.hpp"

namespace tare::gbench {
namespace {

// --instrument (docs/instructions.md, "Google Benchmark suites"): started by tare under Callgrind
// with an instance's name in the environment, the suite counts that instance alone. A run of one
// iteration sizes the pass (and warms it), a run of instrument::counted_iterations() is counted;
// the region hooks switch counting at the loop's edges, so setup, fixtures and pauses are outside,
// and they count the loop's memory as always. The tare/1 row goes to the file named.
std::optional<std::string> counted_run(const std::string& name, const char* out_file, benchmark_result& row) {
    if (!hooks_linked()) {
        return "the suite was linked without tare::gbench's link options: its loop cannot be found";
    }
    if (!os::callgrind::running()) {
        return "not running under Valgrind's Callgrind";
    }
    instrument::callgrind_session session{out_file, 0};
    set_counting(true);
    os::callgrind::start_instrumentation();
    const run_outcome first = run_one(name, 1);
    auto first_counts = instrument::take_dump(session, "first iteration");
    if (first.error) {
        row.error = first.error;
        return std::nullopt;
    }
    if (auto* e = std::get_if<std::string>(&first_counts)) {
        return *e;
    }
    const double per_iteration =
        static_cast<double>(std::get<instrument::callgrind_totals>(first_counts).get("Ir").value_or(0)) /
        static_cast<double>(std::max<std::uint64_t>(first.sample.iterations, 1));
    const std::uint64_t n = instrument::counted_iterations(per_iteration);
    const double started = os::monotonic_seconds();
    const run_outcome measured = run_one(name, n);  // a suite's own ->Iterations(K) keeps K
    auto totals = instrument::take_dump(session, "measured");
    const double seconds = os::monotonic_seconds() - started;
    os::callgrind::stop_instrumentation();
    set_counting(false);
    if (measured.error) {
        row.error = measured.error;
        return std::nullopt;
    }
    if (auto* e = std::get_if<std::string>(&totals)) {
        return *e;
    }
    const std::uint64_t iterations = std::max<std::uint64_t>(measured.sample.iterations, 1);
    const auto f = instrument::per_iteration(std::get<instrument::callgrind_totals>(totals), iterations);
    row.iterations = iterations;
    row.counts = instruction_counts{"callgrind", iterations,  f.instructions,     f.data_reads, f.data_writes,
                                    f.l1_misses, f.ll_misses, f.estimated_cycles, seconds};
    if (alloc::available()) {
        const auto per = [&](std::uint64_t v) {
            return static_cast<double>(v) / static_cast<double>(iterations);
        };
        row.allocs_per_iter = per(measured.sample.allocs);
        row.bytes_per_iter = per(measured.sample.bytes);
        row.peak_live_bytes = measured.peak;
        // --profile: the allocation stacks, from a sites pass after the count, out of Callgrind's
        // counting (its last dump, the count's, is the instruction profile). The pass's length
        // is bounded by the counted iterations, which counts fix: the same program gives the same
        // stacks every run, as a tare executable's counted pass (instrument/counted_run.cpp).
        const char* sites = std::getenv(instrument::gbench_counted_sites_env);
        if (sites != nullptr && std::string(sites) == "1") {
            add_sites_pass(name, {5, iterations, *row.allocs_per_iter, 0}, row);
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::size_t> count_if_wanted() {
    const char* out_file = std::getenv(instrument::gbench_counted_env);
    if (out_file == nullptr) {
        return std::nullopt;
    }
    const char* name = std::getenv(instrument::gbench_counted_name_env);
    const char* json = std::getenv(instrument::gbench_counted_json_env);
    if (name == nullptr || json == nullptr) {
        std::fprintf(stderr, "%s: counted mode without the instance or the file to write\n",
                     protocol::gbench_worker_marker.data());
        std::exit(2);
    }
    run_results results;
    benchmark_result row;
    row.name = name;
    if (auto why = counted_run(name, out_file, row)) {
        row.error = error_info{"instrument", *why};
    }
    results.benchmarks.push_back(std::move(row));
    results.context = instrument::counted_context(hooks_linked() && alloc::available());
    if (auto err =
            io::write_file_atomically(json, report::make_json_reporter<run_results>()->render(results))) {
        std::fprintf(stderr, "%s: %s\n", protocol::gbench_worker_marker.data(), err->c_str());
        std::exit(1);
    }
    return 0;
}

}  // namespace tare::gbench
