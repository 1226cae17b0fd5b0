#pragma once
// What a run's console and Markdown reports show, built once as a document of the table engine
// (report/table/document.hpp), so the two formats show the same columns and words by
// construction; the HTML report reuses the columns and the findings.

#include <string>
#include <string_view>
#include <vector>

#include "model/run.hpp"
#include "report/table/document.hpp"

namespace tare::report::detail {

using table::align;
using table::column;

/// The whole report of a run: its context, the benchmark table, the comparison groups' table
/// with its note, then every warning and error.
table::document run_document(const run_results& results);

/// A function's name as a line of text shows it: "(anonymous namespace)::" dropped, and a
/// template argument list longer than 30 characters as "<…>" (the JSON keeps the whole name).
std::string short_function(std::string_view name);

/// An allocation stack (innermost first) as one line from the body in: "body → helper", at most
/// four frames (the body, "…", the two innermost).
std::string stack_text(const std::vector<stack_frame>& stack);

/// Where a site is, as "file.cpp:61" (the file's name without its directory), or "" without
/// debug information.
std::string site_location(const alloc_site& site);

/// The columns for `results`, in display order: benchmark, time/iter (mean ± half-width of the
/// 95 % interval, relative), samples × iterations per sample, allocs/iter, bytes/iter, peak heap,
/// faults/iter, then throughput only if some row declares it, then a column per user counter
/// name (first-seen order) only if some row has counters, then the kinds of each row's warnings
/// only if some row has warnings. Error rows show their kind in the time column and leave the
/// figures blank: nothing was measured.
std::vector<column> build_columns(const run_results& results);

/// The comparison groups' table (docs/variants.md), a row per comparison: its name, baseline
/// and member, blocks × samples per block, both members' time per iteration, the member's
/// change against the baseline with its interval ("+4.0% [+1.2%, +6.9%]"), the verdict, and
/// allocs/iter, bytes/iter and peak heap as "baseline → member (+difference)". Figures come from
/// the members' ordinary rows, looked up by name; a missing or failed row shows "—".
std::vector<column> build_comparison_columns(const run_results& results);

/// What a terminal too narrow for the comparison table shows in place of columns: one memory
/// column naming only the figures that changed ("allocs +2, peak +1.25 MiB", "=" when none
/// did) for the memory columns, and the change without its interval.
std::vector<table::stand_in> comparison_stand_ins(const run_results& results,
                                                  const std::vector<column>& columns);

/// The line under the comparison table that says what the intervals are: their level, and the
/// Bonferroni family they belong to. Empty when no comparison has an interval.
std::string comparison_note(const run_results& results);

/// The run's context as display lines: tool version, executable, date; host, cpu, clock and loop
/// overhead; whether allocation accounting was on. Empty fields are left out, not faked.
std::vector<std::string> context_lines(const run_context& context);

/// A warning or an error to list under the table.
struct finding {
    bool is_error = false;
    std::string benchmark;
    std::string text;  // a warning's message, or "<kind>: <message>" for an error
};

/// Every warning in benchmark order, then every error: errors last, where a reader's eye lands.
std::vector<finding> collect_findings(const run_results& results);

}  // namespace tare::report::detail
