#pragma once
// Running registered benchmarks: instances, selection, one instance's result.

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "core/clock.hpp"
#include "core/probes.hpp"
#include "core/sample_driver.hpp"
#include "model/run.hpp"
#include "tare/benchmark.hpp"

namespace tare::core {

/// One runnable instance of a registered benchmark: "name" or "name/arg/arg".
struct instance {
    std::string name;
    const benchmark* bench = nullptr;
    std::vector<std::int64_t> args;
};

/// --filter: names that contain a match of an ECMAScript regular expression (std::regex_search,
/// as Google Benchmark's --benchmark_filter).
///
/// Why a class with the regular expression behind it: std::regex is all templates, and every
/// file that took one compiled its whole machinery again (one regex and one search: 28 s under
/// ASan at -O2 -g, against 0.7 s without; ten files did); runner.cpp alone compiles it now.
/// Rejected: std::regex parameters (what it was).
class name_filter {
public:
    /// Matches every name.
    name_filter() = default;
    /// The filter for `pattern`, or why not ("'PATTERN' is not a valid regular expression: …",
    /// or beyond the bounds that keep std::regex's recursion and expansion small; docs/cli.md).
    static std::variant<name_filter, std::string> parse(const std::string& pattern);
    /// Whether `name` contains a match.
    bool matches(const std::string& name) const;
    /// `name` with every match replaced by `replacement`, in which $1 to $99 are the groups and
    /// $& the whole match (ECMAScript's format); `name` itself when nothing matches.
    std::string replaced(const std::string& name, const std::string& replacement) const;

private:
    struct compiled;
    std::shared_ptr<const compiled> compiled_;  // null: every name matches
};

/// Every instance of `benchmarks`, in registration then argument order.
std::vector<instance> expand(const std::vector<benchmark*>& benchmarks);

/// Why the instances' names cannot be run, or "" when they can. A name is printed in tables,
/// written in JSON, matched by --filter and sent to workers one a line (docs/writing.md,
/// "Names"): it must not be empty, hold a control character (a newline would split a worker's
/// command and desynchronise tare compare), begin or end with a space, or be another's.
std::string check_names(const std::vector<instance>& all);

/// The instances whose name `filter` matches.
std::vector<instance> select(const std::vector<instance>& all, const name_filter& filter);

/// Runs one instance and turns its samples into a result (statistics, memory, warnings).
/// `loop_overhead_ns` (the harness's cost per empty iteration) is used only to warn when a
/// body is too small to tell apart from the harness; nothing is ever subtracted.
/// With `controller`, the measured samples are sized by it (tare compare's worker mode).
benchmark_result run_instance(const instance& inst, clock_source& clock, region_probe& probe,
                              detail::sample_plan plan, double loop_overhead_ns,
                              detail::sample_controller* controller = nullptr);

/// The sites of a diagnostic pass into `result` (sites, alloc_sites, retained_sites): the top
/// `top` of each (docs/accounting.md, "Allocation sites").
void add_sites(const detail::loop_outcome::sites_pass& pass, std::size_t top, benchmark_result& result);

/// `plan` with the benchmark's own settings (->min_time, ->iterations, ->samples, ->input_chunk).
detail::sample_plan plan_for(const benchmark& b, detail::sample_plan plan);

/// The optimized_away and near_overhead warnings of a measured result (docs/timing.md).
void add_harness_warnings(bool optimized_away, double loop_overhead_ns, benchmark_result& result);

/// Host, CPU, date, version and the measured overheads.
run_context make_context(double clock_overhead_ns, double loop_overhead_ns, bool accounting);

}  // namespace tare::core
