#pragma once
// --isolate: each benchmark instance runs in a child process of this same executable, so a
// crash, an abort or a hang becomes that benchmark's error row and the others still run.

#include <optional>
#include <string>

#include "model/run.hpp"

namespace tare::driver {

/// The hidden flag a child is started with: run exactly the instance named, nothing else.
inline constexpr const char* exact_flag = "--tare-exact";

struct isolate_options {
    double min_time = 0.5;
    std::optional<double> timeout_seconds;
    std::optional<std::size_t> alloc_sites;  // --alloc-sites=N for the child
};

/// Runs the instance `name` in a child of this executable and returns its result, or an
/// error row (kind "signal", "timeout", "crash") naming how the child ended.
benchmark_result run_isolated(const std::string& name, const isolate_options& options);

/// Runs the step `name` (a comparison group's instance: "contexts/64") in one child and returns
/// a row for each of `members`, in that order, and the group's comparisons; when the child ends
/// badly (--timeout, a signal, a crash), every member gets the error row and no comparison comes
/// back (docs/variants.md).
run_results run_isolated_group(const std::string& name, const std::vector<std::string>& members,
                               const isolate_options& options);

}  // namespace tare::driver
