// tare::gbench's sites pass: where a Google Benchmark suite's timed loop allocates
// (docs/profiles.md, "The allocation profile"; docs/accounting.md, "Allocation sites"). After a
// benchmark's measured samples (worker.cpp) or its count (counted.cpp), the instance runs once
// more, unmeasured, with the region hooks opening a sites region for its loop instead of a plain
// one (region_hooks.cpp, arm_sites): every allocation of the loop is recorded with its call stack,
// and the records become the row's sites exactly as tare's own sample driver's pass does
// (core::add_sites), so the reporters, --alloc-sites and --profile's files read them unchanged.
//
// The pass is a run of its own, at a fixed count: Google Benchmark's loop is inline in the suite,
// so no hook can turn recording on after some iterations of a measured run, as tare's own driver
// does between chunks. Its length is what the record buffer holds (as tare's own pass's recorded
// part), never more than the samples ran. Rejected: recording inside the measured samples, which
// would put the capture's microseconds an allocation into their time; and tare's growth-only
// stretch after the recorded iterations, which needs the loop paused between the two, where a
// Google Benchmark run cannot be paused from outside.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "adapters/gbench/region_hooks.hpp"
#include "adapters/gbench/runs.hpp"
#include "alloc/accounting.hpp"
#include "core/runner.hpp"
#include "core/sample_driver.hpp"

namespace tare::gbench {

void add_sites_pass(const std::string& name, const sites_request& request, benchmark_result& row) {
    if (!hooks_linked() || !alloc::available()) {
        return;  // no hooks to open the region, or no interposer to record
    }
    detail::loop_outcome::sites_pass pass;
    if (!(request.allocs_per_iteration > 0)) {
        core::add_sites(pass, request.top, row);  // nothing to locate: an empty pass, not none
        return;
    }
    const std::size_t capacity = detail::sample_plan{}.site_capacity;
    const auto fit = static_cast<std::uint64_t>(static_cast<double>(capacity) /
                                                std::max(request.allocs_per_iteration, 1.0));
    std::uint64_t n = std::min(request.ran, fit);
    if (request.ns_per_iteration > 0) {
        // About a second of loop at most: the pass is one more reply the controller waits for,
        // within the time a sample may take.
        n = std::min(n, static_cast<std::uint64_t>(std::max(1e9 / request.ns_per_iteration, 1.0)));
    }
    n = std::clamp<std::uint64_t>(n, 1, max_iterations);
    // The buffers are allocated here, before the region opens: recording allocates nothing.
    pass.allocs.resize(capacity);
    pass.frees.resize(4 * capacity);
    arm_sites({pass.allocs, pass.frees});
    const run_outcome ran = run_one(name, n);  // a suite's own ->Iterations(K) keeps K
    const sites_loop loop = disarm_sites();
    if (ran.error || !loop.opened || loop.iterations == 0) {
        return;  // an error row is the samples' to report; ->Threads(n) has no sites region
    }
    pass.totals = alloc::sites_recorded();
    // The figures per iteration are over the iterations whose allocations were recorded. A loop
    // of more (a suite's ->Iterations(K), or a pass that allocated more than the samples did)
    // filled the buffer part way through: its recorded share of the iterations, as if each
    // allocates alike. Rejected: dividing by all of them, which made a site of one allocation an
    // iteration show 0.16 for ->Iterations(100000).
    pass.iterations = loop.iterations;
    if (pass.totals.dropped_allocs > 0) {
        const double recorded = static_cast<double>(pass.totals.allocs) /
                                static_cast<double>(pass.totals.allocs + pass.totals.dropped_allocs);
        pass.iterations = std::max<std::uint64_t>(
            1, static_cast<std::uint64_t>(static_cast<double>(loop.iterations) * recorded));
    }
    pass.elapsed_ns = loop.elapsed_ns;
    pass.allocs.resize(pass.totals.allocs);
    pass.frees.resize(pass.totals.frees);
    core::add_sites(pass, request.top, row);
}

}  // namespace tare::gbench
