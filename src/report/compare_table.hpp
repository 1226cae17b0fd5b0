#pragma once
// What `tare compare`'s console and Markdown reports show, built once as a document of the table
// engine (report/table/document.hpp), so the two formats show the same columns and the same
// words by construction.

#include <string>
#include <vector>

#include "model/comparison.hpp"
#include "report/table/document.hpp"

namespace tare::report::detail {

/// The whole report: what was compared and what the mode makes of the interval; the table;
/// how to read it; benchmarks on one side only; every warning, then every error.
table::document compare_document(const compare_results& r);

/// The columns of `r`, in display order: benchmark, base and head (time ± relative half-width
/// of the 95 % interval, or the side's error), change [interval at the family level], verdict,
/// then allocs/iter, bytes/iter, peak heap and copied/iter, each only if some row has that figure on some
/// side.
std::vector<table::column> build_compare_columns(const compare_results& r);

/// The whole comparison in one line: "2 faster, 1 slower, 9 no change; memory: 3 rows changed"
/// ("not judged" and "failed" counts added when there are any). A row's memory changed when
/// allocations or bytes differ, or the peak heap by more than 1 % and 64 bytes (the allocator may
/// hand the same request a slightly bigger block from one process to the next).
table::line compare_summary_line(const compare_results& r);

/// The lines above the table: what was compared; tool, host and date; and what the mode makes
/// of the interval (rounds and balanced order, processes, or TIME NOT JUDGED and why), with the family
/// level 1 - alpha/m.
std::vector<table::line> compare_header_lines(const compare_results& r);

/// The lines under the table: how to read the change and the verdict (with the threshold band,
/// if any), and the memory columns' notation when they are shown.
std::vector<table::line> compare_note_lines(const compare_results& r);

/// The rows paired under another name ("paired by --rename: head's a as b"), then "only in base:
/// a, b" and "only in head: c", each name with the closest one the other side alone has, if one
/// is close (compare_presence.cpp); each line only if it has names.
std::vector<table::line> compare_presence_lines(const compare_results& r);

/// A warning or an error of one side of one benchmark.
struct compare_finding {
    bool is_error = false;
    std::string benchmark;
    std::string side;  // "base" or "head"
    std::string kind;
    std::string message;
};

/// Every warning in row order (base before head), then every error: errors last, where the eye
/// lands. Text is on one line already.
std::vector<compare_finding> collect_compare_findings(const compare_results& r);

}  // namespace tare::report::detail
