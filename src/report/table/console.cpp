// The terminal form of a document (table/document.hpp).
//
// Alignment is by display width (units.hpp), never by bytes: "µs", "±", "×" and "—" are
// multi-byte in UTF-8 and would otherwise skew every column they appear in. Multi-part cells
// ("1.25 µs ±  0.8%", "8 × 16k") are aligned part by part so the separators form a straight
// line down the column; that is what lets a reader compare rows at a glance. No colour: the
// output is also what lands in CI logs and golden files, and colour belongs to the caller that
// knows whether stdout is a terminal.

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "report/table/document.hpp"
#include "report/table/units.hpp"

namespace tare::report::table {
namespace {

constexpr std::string_view column_gap = "  ";
constexpr std::string_view rule_mark = "─";

std::string_view separator(const column& c, std::size_t i) {
    return i < c.separators.size() ? std::string_view(c.separators[i]) : std::string_view(" ");
}

// A column's geometry: the width of each part among the cells that have every part, and the
// column's total width (header and spanning cells included).
struct layout {
    std::vector<std::size_t> part_widths;
    std::size_t width = 0;
};

layout measure(const column& c) {
    layout l;
    std::size_t parts = 0;
    for (const cell& x : c.cells)
        parts = std::max(parts, x.size());
    l.part_widths.assign(parts, 0);
    for (const cell& x : c.cells) {
        if (x.size() != parts)
            continue;
        for (std::size_t i = 0; i < parts; ++i)
            l.part_widths[i] = std::max(l.part_widths[i], display_width(x[i]));
    }
    std::size_t composed = 0;
    for (std::size_t i = 0; i < parts; ++i)
        composed += l.part_widths[i] + (i > 0 ? display_width(separator(c, i - 1)) : 0);
    l.width = std::max(composed, display_width(c.header));
    for (const cell& x : c.cells) {
        if (x.size() != parts || parts < 2)
            l.width = std::max(l.width, display_width(join_cell(c, x)));
    }
    return l;
}

std::string place(std::string_view text, align alignment, std::size_t width) {
    return alignment == align::left ? pad_right(text, width) : pad_left(text, width);
}

std::string render_cell(const column& c, const layout& l, const cell& x) {
    if (x.size() != l.part_widths.size() || x.size() < 2)
        return place(join_cell(c, x), c.alignment, l.width);
    // Every part is a number with its unit, so each is right-aligned within its slot.
    cell padded;
    for (std::size_t i = 0; i < x.size(); ++i)
        padded.push_back(pad_left(x[i], l.part_widths[i]));
    return place(join_cell(c, padded), c.alignment, l.width);
}

std::string rule(std::size_t width) {
    std::string line;
    for (std::size_t i = 0; i < width; ++i)
        line += rule_mark;
    return line;
}

// Trailing blanks are cut so no line ends in spaces (a left-aligned last column, or the blank
// figures of an error row, would otherwise leave them).
std::string join_row(const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i)
        line += (i > 0 ? std::string(column_gap) : std::string()) + cells[i];
    while (!line.empty() && line.back() == ' ')
        line.pop_back();
    return line + "\n";
}

std::string render(const grid& g) {
    std::vector<layout> layouts;
    std::vector<std::string> header;
    std::vector<std::string> rules;
    for (const column& c : g.columns) {
        layouts.push_back(measure(c));
        header.push_back(place(c.header, c.alignment, layouts.back().width));
        rules.push_back(rule(layouts.back().width));
    }
    std::string out = join_row(header) + join_row(rules);
    for (std::size_t row = 0; row < g.rows(); ++row) {
        std::vector<std::string> cells;
        for (std::size_t i = 0; i < g.columns.size(); ++i)
            cells.push_back(render_cell(g.columns[i], layouts[i], g.columns[i].cells[row]));
        out += join_row(cells);
    }
    return out;
}

std::string render(const line& l) {
    std::string out;
    for (const span& s : l)
        out += s.text;
    return out;
}

std::string render(const paragraph& p) {
    std::string out;
    for (const line& l : p.lines)
        out += render(l) + "\n";
    return out;
}

std::string render(const item_list& list) {
    std::string out;
    for (const item& i : list.items)
        out += i.label + ": " + render(i.text) + "\n";
    return out;
}

}  // namespace

std::string join_cell(const column& c, const cell& parts) {
    std::string text;
    for (std::size_t i = 0; i < parts.size(); ++i)
        text += (i > 0 ? std::string(separator(c, i - 1)) : std::string()) + parts[i];
    return text;
}

std::string render_console(const document& doc) {
    std::string out;
    for (std::size_t i = 0; i < doc.blocks.size(); ++i) {
        if (i > 0 && !doc.blocks[i].joined)
            out += "\n";
        out += std::visit([](const auto& content) { return render(content); }, doc.blocks[i].content);
    }
    return out;
}

}  // namespace tare::report::table
