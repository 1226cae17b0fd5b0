// The console reporter: an aligned plain-text table for a terminal, findings listed under it.
//
// Alignment is by display width (units.hpp), never by bytes: "µs", "±", "×" and "—" are
// multi-byte in UTF-8 and would otherwise skew every column they appear in. Multi-part cells
// ("1.25 µs ±  0.8%", "8 × 16k") are aligned part by part so the separators form a straight
// line down the column; that is what lets a reader compare rows at a glance. No colour: the
// output is also what lands in CI logs and golden files, and colour belongs to the caller that
// knows whether stdout is a terminal.

#include <algorithm>
#include <string>
#include <vector>

#include "report/columns.hpp"
#include "report/reporter.hpp"
#include "report/units.hpp"

namespace tare::report {
namespace {

using detail::align;
using detail::column;

constexpr std::string_view column_gap = "  ";
constexpr std::string_view rule_mark = "─";

// A column's geometry: the width of each part of the cells that have every part, and the
// column's total width (header and spanning cells included).
struct layout {
    std::vector<std::size_t> part_widths;
    std::size_t width = 0;
};

layout measure(const column& c) {
    layout l;
    std::size_t parts = 0;
    for (const auto& cell : c.cells)
        parts = std::max(parts, cell.size());
    l.part_widths.assign(parts, 0);
    for (const auto& cell : c.cells) {
        if (cell.size() != parts)
            continue;
        for (std::size_t i = 0; i < parts; ++i) {
            l.part_widths[i] = std::max(l.part_widths[i], display_width(cell[i]));
        }
    }
    std::size_t composed = 0;
    for (const std::size_t w : l.part_widths)
        composed += w;
    if (parts > 1)
        composed += (parts - 1) * display_width(c.separator);
    l.width = std::max(composed, display_width(c.header));
    for (const auto& cell : c.cells) {
        if (cell.size() == 1)
            l.width = std::max(l.width, display_width(cell.front()));
    }
    return l;
}

std::string place(std::string_view text, align alignment, std::size_t width) {
    return alignment == align::left ? pad_right(text, width) : pad_left(text, width);
}

std::string render_cell(const column& c, const layout& l, const std::vector<std::string>& cell) {
    if (cell.size() != l.part_widths.size() || cell.size() < 2) {
        return place(cell.empty() ? std::string() : cell.front(), c.alignment, l.width);
    }
    // Every part is a number with its unit, so every part is right-aligned within its slot.
    std::string composed;
    for (std::size_t i = 0; i < cell.size(); ++i) {
        if (i > 0)
            composed += c.separator;
        composed += pad_left(cell[i], l.part_widths[i]);
    }
    return place(composed, c.alignment, l.width);
}

std::string rule(std::size_t width) {
    std::string line;
    for (std::size_t i = 0; i < width; ++i)
        line += rule_mark;
    return line;
}

// Joins a row's cells; trailing blanks are cut so no line ends in spaces (a left-aligned last
// column, or blank figures of an error row, would otherwise leave them).
std::string join_row(const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (i > 0)
            line += column_gap;
        line += cells[i];
    }
    while (!line.empty() && line.back() == ' ')
        line.pop_back();
    return line + "\n";
}

std::string render_table(const std::vector<column>& columns, std::size_t rows) {
    std::vector<layout> layouts;
    layouts.reserve(columns.size());
    for (const auto& c : columns)
        layouts.push_back(measure(c));

    std::vector<std::string> header;
    std::vector<std::string> rules;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        header.push_back(place(columns[i].header, columns[i].alignment, layouts[i].width));
        rules.push_back(rule(layouts[i].width));
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

class console_reporter final : public reporter {
public:
    std::string render(const run_results& results) const override {
        std::string out;
        for (const auto& line : detail::context_lines(results.context))
            out += line + "\n";
        out += "\n";
        if (results.benchmarks.empty()) {
            out += "no benchmarks ran\n";
            return out;
        }
        out += render_table(detail::build_columns(results), results.benchmarks.size());
        if (!results.comparisons.empty()) {
            out += "\n" + render_table(detail::build_comparison_columns(results), results.comparisons.size());
            if (const std::string note = detail::comparison_note(results); !note.empty())
                out += note + "\n";
        }
        const auto findings = detail::collect_findings(results);
        if (!findings.empty())
            out += "\n";
        for (const auto& f : findings) {
            out += (f.is_error ? "error: " : "warning: ") + f.benchmark + ": " + f.text + "\n";
        }
        return out;
    }
};

}  // namespace

std::unique_ptr<reporter> make_console_reporter() {
    return std::make_unique<console_reporter>();
}

}  // namespace tare::report
