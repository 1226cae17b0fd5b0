#pragma once
// Private to src/report/compare: the compare table and the text around it, built once as plain
// cells and lines so the console and Markdown reporters show the same columns and the same
// words by construction (as report/columns.hpp does for run tables); each reporter only lays
// them out and, for Markdown, escapes.

#include <string>
#include <string_view>
#include <vector>

#include "model/comparison.hpp"
#include "report/columns.hpp"

namespace tare::report::detail {

/// One column of the compare table. A cell is a list of parts aligned part by part down the
/// column ("1.25 µs ± 0.8%" on its "±", "+12.3% [+10.1%, +14.5%]" on its brackets), with
/// `separators[i]` printed between parts i and i + 1. A cell with fewer parts than the
/// column's widest ("error: signal", "—", "= 0 B") is one text that spans the column.
struct compare_column {
    std::string header;
    align alignment = align::right;
    std::vector<std::string> separators;
    std::vector<std::vector<std::string>> cells;
};

/// The columns of `r`, in display order: benchmark, base and head (time ± relative half-width
/// of the 95 % interval, or the side's error), change [interval at the family level], verdict,
/// then allocs/iter, bytes/iter and peak heap, each only if some row has that figure on some
/// side.
std::vector<compare_column> build_compare_columns(const compare_results& r);

/// The parts of a cell joined with the column's separators, as one text (Markdown, spanning).
std::string join_cell(const compare_column& c, const std::vector<std::string>& cell);

/// How the prose around the table marks its pieces: identity for a terminal, escaping and code
/// spans for Markdown. The shared prose is written once against this.
struct text_style {
    std::string (*text)(std::string_view);    // prose
    std::string (*code)(std::string_view);    // labels, names, commands
    std::string (*strong)(std::string_view);  // what must not be missed (UNPAIRED)
};

/// The lines above the table: what was compared; tool, host and date; and what the mode makes
/// of the interval (rounds and balanced order, or UNPAIRED with its caveat), with the family
/// level 1 - alpha/m.
std::vector<std::string> compare_header_lines(const compare_results& r, const text_style& style);

/// The lines under the table: how to read the change and the verdict (with the threshold band,
/// if any), and the memory columns' notation when they are shown.
std::vector<std::string> compare_note_lines(const compare_results& r, const text_style& style);

/// "only in base: a, b" and "only in head: c", each only if not empty.
std::vector<std::string> compare_presence_lines(const compare_results& r, const text_style& style);

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

/// The Markdown form of render_compare_table (compare_markdown.cpp).
std::string render_compare_markdown(const compare_results& r);

/// The level of each change's interval: 1 - alpha / m, or 1 - alpha with no comparisons.
double family_level(const compare_results& r);

}  // namespace tare::report::detail
