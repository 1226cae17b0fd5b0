// The `tare compare` table for a terminal: aligned columns, the mode stated above the table,
// the notes, one-sided benchmarks and findings under it. Laid out as the run table is
// (src/report/console.cpp): by display width, multi-part cells aligned part by part, a rule
// under the header, no trailing blanks, no colour.

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "report/compare/compare_columns.hpp"
#include "report/compare/compare_report.hpp"
#include "report/units.hpp"

namespace tare::report {

namespace {

using detail::align;
using detail::compare_column;

constexpr std::string_view column_gap = "  ";
constexpr std::string_view rule_mark = "─";

// A column's geometry: the width of each part among the cells that have every part, and the
// column's total width (header and spanning cells included).
struct layout {
    std::vector<std::size_t> part_widths;
    std::size_t width = 0;
};

layout measure(const compare_column& c) {
    layout l;
    std::size_t parts = 0;
    for (const auto& cell : c.cells) {
        parts = std::max(parts, cell.size());
    }
    l.part_widths.assign(parts, 0);
    for (const auto& cell : c.cells) {
        if (cell.size() != parts) {
            continue;
        }
        for (std::size_t i = 0; i < parts; ++i) {
            l.part_widths[i] = std::max(l.part_widths[i], display_width(cell[i]));
        }
    }
    std::size_t composed = 0;
    for (std::size_t i = 0; i < parts; ++i) {
        composed += l.part_widths[i];
        if (i > 0) {
            composed += display_width(i - 1 < c.separators.size() ? c.separators[i - 1] : " ");
        }
    }
    l.width = std::max(composed, display_width(c.header));
    for (const auto& cell : c.cells) {
        if (cell.size() != parts || parts < 2) {
            l.width = std::max(l.width, display_width(detail::join_cell(c, cell)));
        }
    }
    return l;
}

std::string place(std::string_view text, align alignment, std::size_t width) {
    return alignment == align::left ? pad_right(text, width) : pad_left(text, width);
}

std::string render_cell(const compare_column& c, const layout& l, const std::vector<std::string>& cell) {
    if (cell.size() != l.part_widths.size() || cell.size() < 2) {
        return place(detail::join_cell(c, cell), c.alignment, l.width);
    }
    // Every part is a number with its unit, so each is right-aligned within its slot.
    std::vector<std::string> padded;
    for (std::size_t i = 0; i < cell.size(); ++i) {
        padded.push_back(pad_left(cell[i], l.part_widths[i]));
    }
    return place(detail::join_cell(c, padded), c.alignment, l.width);
}

std::string rule(std::size_t width) {
    std::string line;
    for (std::size_t i = 0; i < width; ++i) {
        line += rule_mark;
    }
    return line;
}

// Trailing blanks are cut so no line ends in spaces (the blank memory cells of an error row, a
// left-aligned last column).
std::string join_row(const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        line += (i > 0 ? std::string(column_gap) : std::string()) + cells[i];
    }
    while (!line.empty() && line.back() == ' ') {
        line.pop_back();
    }
    return line + "\n";
}

std::string render_table(const std::vector<compare_column>& columns, std::size_t rows) {
    std::vector<layout> layouts;
    std::vector<std::string> header;
    std::vector<std::string> rules;
    for (const auto& c : columns) {
        layouts.push_back(measure(c));
        header.push_back(place(c.header, c.alignment, layouts.back().width));
        rules.push_back(rule(layouts.back().width));
    }
    std::string out = join_row(header) + join_row(rules);
    for (std::size_t row = 0; row < rows; ++row) {
        std::vector<std::string> cells;
        for (std::size_t i = 0; i < columns.size(); ++i) {
            cells.push_back(render_cell(columns[i], layouts[i], columns[i].cells[row]));
        }
        out += join_row(cells);
    }
    return out;
}

std::string as_is(std::string_view text) {
    return std::string(text);
}

std::string render_console(const compare_results& r) {
    const detail::text_style style{as_is, as_is, as_is};
    std::string out;
    for (const auto& line : detail::compare_header_lines(r, style)) {
        out += line + "\n";
    }
    out += "\n";
    if (r.rows.empty()) {
        out += "no benchmark is on both sides\n";
    } else {
        out += render_table(detail::build_compare_columns(r), r.rows.size()) + "\n";
        for (const auto& line : detail::compare_note_lines(r, style)) {
            out += line + "\n";
        }
    }
    const auto presence = detail::compare_presence_lines(r, style);
    const auto findings = detail::collect_compare_findings(r);
    if (!presence.empty() || !findings.empty()) {
        out += "\n";
    }
    for (const auto& line : presence) {
        out += line + "\n";
    }
    for (const auto& f : findings) {
        out += (f.is_error ? "error: " : "warning: ") + f.benchmark + " (" + f.side + ", " + f.kind + ")" +
               (f.message.empty() ? "" : ": " + f.message) + "\n";
    }
    return out;
}

}  // namespace

std::string render_compare_table(const compare_results& r, bool markdown) {
    return markdown ? detail::render_compare_markdown(r) : render_console(r);
}

}  // namespace tare::report
