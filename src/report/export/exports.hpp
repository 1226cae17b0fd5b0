#pragma once
// Exports for the services and tools a team already runs (docs/exports.md): Bencher's metric
// format (BMF), github-action-benchmark's custom formats and CSV. Pure, like every reporter:
// results in, bytes out. Each exports the same measures (measures_of), so a figure has one name
// and one unit whichever service reads it.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/comparison.hpp"
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

/// The same for one side of a comparison: latency (the side's time and interval as the
/// comparison shows them), allocations, bytes, peak live heap and page faults.
std::vector<measure> measures_of(const side_figures& side);

/// The change of a comparison row as a measure: `latency-change`, in %, head against base, with
/// its interval at the comparison's level; nothing when the row has no change.
std::optional<measure> change_measure_of(const compare_row& row);

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

/// Which side of a comparison the BMF and the action's exports carry (CSV carries both).
enum class compare_side { base, head };

/// The export reporter of a comparison (docs/exports.md, "Comparisons"): BMF and the action's
/// formats carry `side`'s figures, BMF adds each row's `latency-change`; CSV has one record per
/// row with the change, its interval and verdict, then both sides' figures.
std::unique_ptr<reporter<compare_results>> make_compare_export_reporter(export_format f, compare_side side);

/// Bencher refuses a whole file for one benchmark name longer than this many bytes.
inline constexpr std::size_t bmf_name_limit = 1024;

/// `name` as BMF carries it: unchanged up to bmf_name_limit bytes; a longer one keeps its first
/// bytes (whole UTF-8 characters) and ends with "~" and 16 hex digits of a hash of the whole
/// name, so it stays within the limit, stays the same from run to run, and two long names that
/// share their beginning stay apart.
std::string bmf_name(const std::string& name);

/// Whether `rendered`, an export in format `f`, holds nothing a service would take:
/// github-action-benchmark fails a step on an empty list, so an empty one is not written.
bool nothing_to_export(const std::string& rendered, export_format f);

/// The names of `results`' benchmarks that an export leaves out (error rows: BMF and the action's
/// formats have no place for an error; CSV keeps them, with the error in its last column).
std::vector<std::string> rows_left_out(const run_results& results, export_format f);
/// The same for a comparison: rows whose exported side failed (CSV keeps every row).
std::vector<std::string> rows_left_out(const compare_results& results, export_format f, compare_side side);

}  // namespace tare::report
