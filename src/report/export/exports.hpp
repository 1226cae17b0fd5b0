#pragma once
// Exports for the services and tools a team already runs (docs/exports.md): Bencher's metric
// format (BMF), github-action-benchmark's custom formats and CSV. Pure, like every reporter:
// results in, bytes out. Each exports the same measures (measures_of), so a figure has one name
// and one unit whichever service reads it.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/run.hpp"
#include "report/reporter.hpp"

namespace tare::report {

/// One figure of one benchmark as the exports carry it.
struct measure {
    std::string slug;  // stable identifier: the BMF measure, the CSV column stem
    std::string unit;  // "ns", "allocs/iter", "B", ...
    double value = 0;
    std::optional<double> lower;  // the 95 % interval, where the figure has one
    std::optional<double> upper;
    bool bigger_is_better = false;  // throughput; every time and memory figure is smaller-is-better
};

/// The measures of `r`, in a fixed order: latency (the mean per iteration, ns, with its
/// interval), then the memory figures and throughput that were measured. A figure that is
/// missing or not finite is left out, never written as 0; an error row has none.
std::vector<measure> measures_of(const benchmark_result& r);

enum class export_format {
    bmf,         // Bencher Metric Format: {benchmark: {measure: {value, lower_value, upper_value}}}
    gab,         // github-action-benchmark, customSmallerIsBetter: time and memory
    gab_bigger,  // github-action-benchmark, customBiggerIsBetter: throughput
    csv,         // one row per benchmark, one column per figure, units in the header
};

/// The format named `name` ("bmf", "gab", "gab-bigger", "csv"), if it is one.
std::optional<export_format> parse_export_format(const std::string& name);

/// The export reporter for `f`.
std::unique_ptr<reporter<run_results>> make_export_reporter(export_format f);

/// The names of `results`' benchmarks that an export leaves out (error rows: BMF and the action's
/// formats have no place for an error; CSV keeps them, with the error in its last column).
std::vector<std::string> rows_left_out(const run_results& results, export_format f);

}  // namespace tare::report
