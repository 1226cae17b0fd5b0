// The terminal form of a document (table/document.hpp).
//
// Alignment is by display width (units.hpp), never by bytes: "µs", "±", "×" and "—" are
// multi-byte in UTF-8 and would otherwise skew every column they appear in. Multi-part cells
// ("1.25 µs ±  0.8%", "8 × 16k") are aligned part by part so the separators form a straight
// line down the column; that is what lets a reader compare rows at a glance.
//
// Colour and width are the caller's (console_style): it knows whether the output is a terminal.
// By default neither, which is what CI logs and golden files get. Colour only repeats what the
// text says (a verdict, "warning:"), so nothing is lost without it. A table too wide drops whole
// columns by rank rather than wrapping rows: a wrapped row is read as two. Where a table gives a
// stand-in for some columns (one "memory" column naming only what changed), the stand-in takes
// their place instead, so what matters in them is told briefly rather than lost. The names are then
// shortened in the middle, where "skip_records_bench/…/BatchSize:1000" keeps both the suite and
// the argument that tell rows apart.

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "report/table/document.hpp"
#include "report/table/units.hpp"

namespace tare::report::table {
namespace {

constexpr std::string_view column_gap = "  ";
constexpr std::string_view rule_mark = "─";
constexpr std::size_t min_name_width = 16;  // a name shortened below this is no longer a name
constexpr std::size_t min_cut_width = 24;   // "allocs -1, peak -512 B, …": a figure or two still read

constexpr std::string_view reset = "\033[0m";

std::string_view colour_of(tone t) {
    switch (t) {
    case tone::good:
        return "\033[32m";
    case tone::bad:
        return "\033[31m";
    case tone::warn:
        return "\033[33m";
    case tone::none:
        break;
    }
    return "";
}

// `text` in `code`, the blanks that pad it left outside the colour (so rows still end without
// trailing blanks and widths still count only what shows).
std::string paint(const std::string& text, std::string_view code) {
    if (code.empty())
        return text;
    const std::size_t first = text.find_first_not_of(' ');
    if (first == std::string::npos)
        return text;
    const std::size_t last = text.find_last_not_of(' ');
    return text.substr(0, first) + std::string(code) + text.substr(first, last - first + 1) +
           std::string(reset) + text.substr(last + 1);
}

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
    for (const auto x : c.cells)
        parts = std::max(parts, x.size());
    l.part_widths.assign(parts, 0);
    for (const auto x : c.cells) {
        if (x.size() != parts)
            continue;
        for (std::size_t i = 0; i < parts; ++i)
            l.part_widths[i] = std::max(l.part_widths[i], display_width(x[i]));
    }
    std::size_t composed = 0;
    for (std::size_t i = 0; i < parts; ++i)
        composed += l.part_widths[i] + (i > 0 ? display_width(separator(c, i - 1)) : 0);
    l.width = std::max(composed, display_width(c.header));
    for (const auto x : c.cells) {
        if (x.size() != parts || parts < 2)
            l.width = std::max(l.width, display_width(join_cell(c, x)));
    }
    return l;
}

std::string place(std::string_view text, align alignment, std::size_t width) {
    return alignment == align::left ? pad_right(text, width) : pad_left(text, width);
}

std::string render_cell(const column& c, const layout& l, cell_list::parts x) {
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

// `text` broken at blanks into lines of at most `width` display columns, the lines after the
// first indented by `indent` (0 width: one line). A word longer than a line stays whole.
std::string wrap(const std::string& text, std::size_t width, std::size_t indent) {
    if (width == 0 || display_width(text) <= width)
        return text + "\n";
    std::string out;
    std::string line;
    std::size_t at = 0;
    while (at <= text.size()) {
        std::size_t end = text.find(' ', at);
        if (end == std::string::npos)
            end = text.size();
        const std::string word = text.substr(at, end - at);
        const std::string candidate = line.empty() ? word : line + " " + word;
        if (!line.empty() && display_width(candidate) > width) {
            out += line + "\n";
            line = std::string(indent, ' ') + word;
        } else {
            line = candidate;
        }
        at = end + 1;
    }
    return out + line + "\n";
}

std::size_t table_width(const std::vector<layout>& layouts) {
    std::size_t width = 0;
    for (const layout& l : layouts)
        width += l.width;
    return width + column_gap.size() * (layouts.empty() ? 0 : layouts.size() - 1);
}

// What a narrow terminal made of a table: the headers of the columns it left out, and the notes
// of the stand-ins it put in place of others.
struct narrowing {
    std::vector<std::string> dropped;
    std::vector<std::string> notes;
};

bool replaces(const stand_in& s, const std::string& header) {
    return std::find(s.replaces.begin(), s.replaces.end(), header) != s.replaces.end();
}

// The columns a terminal shows, in order: the grid's own, its stand-ins', and copies of those
// it shortened. Views, so that laying out a table of a million rows never copies its cells.
struct shown {
    std::vector<const column*> columns;
    std::vector<std::unique_ptr<column>> shortened;  // what columns[] points to when shortened
};

// Columns of `s` left out, or replaced by their stand-in, by rank until the table fits `width`
// or nothing more can go. A stand-in takes the place of the first column it replaces that is
// still there, and all of them go: they are each told in it, so keeping one would say it twice.
narrowing drop_columns(const std::vector<stand_in>& stand_ins, shown& s, std::vector<layout>& layouts,
                       std::size_t width) {
    narrowing out;
    auto& cols = s.columns;
    std::vector<bool> placed(stand_ins.size(), false);
    const auto erase = [&](std::size_t i) {
        cols.erase(cols.begin() + static_cast<std::ptrdiff_t>(i));
        layouts.erase(layouts.begin() + static_cast<std::ptrdiff_t>(i));
    };
    while (width > 0 && table_width(layouts) > width) {
        // The highest rank goes first; among equals the rightmost.
        std::size_t victim = cols.size();
        for (std::size_t i = 0; i < cols.size(); ++i) {
            if (cols[i]->drop_rank > 0 &&
                (victim == cols.size() || cols[i]->drop_rank >= cols[victim]->drop_rank))
                victim = i;
        }
        if (victim == cols.size())
            break;
        std::size_t k = 0;
        while (k < stand_ins.size() && (placed[k] || !replaces(stand_ins[k], cols[victim]->header)))
            ++k;
        if (k == stand_ins.size()) {
            out.dropped.push_back(cols[victim]->header);
            erase(victim);
            continue;
        }
        placed[k] = true;
        std::size_t at = cols.size();
        for (std::size_t i = cols.size(); i-- > 0;) {
            if (replaces(stand_ins[k], cols[i]->header)) {
                erase(i);
                at = i;
            }
        }
        cols.insert(cols.begin() + static_cast<std::ptrdiff_t>(at), &stand_ins[k].replacement);
        layouts.insert(layouts.begin() + static_cast<std::ptrdiff_t>(at), measure(stand_ins[k].replacement));
        out.notes.push_back(stand_ins[k].note);
    }
    return out;
}

// "(samples, throughput not shown at 80 columns; memory shows only what changed: widen …)".
std::string narrowing_note(const narrowing& n, std::size_t width) {
    std::string said = n.dropped.empty()
                           ? fmt::format("at {} columns", width)
                           : fmt::format("{} not shown at {} columns", fmt::join(n.dropped, ", "), width);
    if (!n.notes.empty())
        said += fmt::format("{}{}", n.dropped.empty() ? " " : "; ", fmt::join(n.notes, "; "));
    return wrap("(" + said + ": widen the terminal, or pipe the output for every column)", width, 1);
}

// The widest column that `which` marks is shortened, as far as the overflow or `floor` allows,
// until the table fits `width` or every such column is at its floor.
void shorten_columns(shown& s, std::vector<layout>& layouts, std::size_t width, bool column::*which,
                     std::size_t floor, cut where) {
    auto& cols = s.columns;
    while (width > 0 && table_width(layouts) > width) {
        std::size_t widest = cols.size();
        for (std::size_t i = 0; i < cols.size(); ++i) {
            if (cols[i]->*which && layouts[i].width > floor &&
                (widest == cols.size() || layouts[i].width > layouts[widest].width))
                widest = i;
        }
        if (widest == cols.size())
            break;
        const std::size_t over = table_width(layouts) - width;
        const std::size_t target =
            std::max(floor, layouts[widest].width - std::min(over, layouts[widest].width));
        cell_list cut_cells;
        cut_cells.reserve(cols[widest]->cells.size());
        for (const auto x : cols[widest]->cells) {
            cell parts;
            for (std::size_t i = 0; i < x.size(); ++i)
                parts.push_back(shorten(x[i], target, where));
            cut_cells.push_back(parts);
        }
        // Every member of the column but its cells: a member added to `column` is added here too.
        const column& was = *cols[widest];
        auto cut_column =
            std::make_unique<column>(column{was.header, was.alignment, was.separators, std::move(cut_cells),
                                            was.names, was.drop_rank, was.tones, was.cut_at_end});
        // A column shortened again replaces its earlier copy, which nothing else shows.
        const auto earlier = std::find_if(s.shortened.begin(), s.shortened.end(),
                                          [&](const auto& p) { return p.get() == cols[widest]; });
        cols[widest] = cut_column.get();
        if (earlier != s.shortened.end())
            *earlier = std::move(cut_column);
        else
            s.shortened.push_back(std::move(cut_column));
        const std::size_t before = layouts[widest].width;
        layouts[widest] = measure(*cols[widest]);
        if (layouts[widest].width >= before)
            break;  // the header is wider than the cells: nothing more to gain here
    }
}

std::string render(const grid& whole, const console_style& style) {
    shown g;
    std::vector<layout> layouts;
    for (const column& c : whole.columns) {
        g.columns.push_back(&c);
        layouts.push_back(measure(c));
    }
    narrowing narrowed = drop_columns(whole.stand_ins, g, layouts, style.width);
    // Named in the table's order, not in the order they went.
    const auto place_of = [&](const std::string& header) {
        return std::find_if(whole.columns.begin(), whole.columns.end(),
                            [&](const column& c) { return c.header == header; }) -
               whole.columns.begin();
    };
    std::stable_sort(narrowed.dropped.begin(), narrowed.dropped.end(),
                     [&](const std::string& a, const std::string& b) { return place_of(a) < place_of(b); });
    // Then the names are shortened, and last the cells that may be cut at their end.
    shorten_columns(g, layouts, style.width, &column::names, min_name_width, cut::middle);
    shorten_columns(g, layouts, style.width, &column::cut_at_end, min_cut_width, cut::end);
    std::vector<std::string> header;
    std::vector<std::string> rules;
    for (std::size_t i = 0; i < g.columns.size(); ++i) {
        header.push_back(place(g.columns[i]->header, g.columns[i]->alignment, layouts[i].width));
        rules.push_back(rule(layouts[i].width));
    }
    std::string out = join_row(header) + join_row(rules);
    // No rows when every column was left out, as for a grid without columns.
    const std::size_t rows = g.columns.empty() ? 0 : whole.rows();
    for (std::size_t row = 0; row < rows; ++row) {
        std::vector<std::string> cells;
        for (std::size_t i = 0; i < g.columns.size(); ++i) {
            const column& c = *g.columns[i];
            std::string text = render_cell(c, layouts[i], c.cells[row]);
            if (style.colour && row < c.tones.size())
                text = paint(text, colour_of(c.tones[row]));
            cells.push_back(std::move(text));
        }
        out += join_row(cells);
    }
    if (!narrowed.dropped.empty() || !narrowed.notes.empty())
        out += narrowing_note(narrowed, style.width);
    return out;
}

std::string plain(const line& l) {
    std::string out;
    for (const span& s : l)
        out += s.text;
    return out;
}

// Bold for strong spans; only when the line fits unwrapped (a wrapped line is plain text, so a
// break never falls inside a colour).
std::string render(const line& l, const console_style& style) {
    const std::string text = plain(l);
    if (style.width > 0 && display_width(text) > style.width)
        return wrap(text, style.width, 0);
    if (!style.colour)
        return text + "\n";
    std::string out;
    for (const span& s : l)
        out += s.style == style::strong ? "\033[1m" + s.text + std::string(reset) : s.text;
    return out + "\n";
}

std::string render(const paragraph& p, const console_style& style) {
    std::string out;
    for (const line& l : p.lines)
        out += render(l, style);
    return out;
}

std::string render(const item_list& list, const console_style& style) {
    std::string out;
    for (const item& i : list.items) {
        std::string text = wrap(i.label + ": " + plain(i.text), style.width, 2);
        if (style.colour) {
            const std::string_view code = i.label == "error"     ? "\033[1;31m"
                                          : i.label == "warning" ? "\033[33m"
                                                                 : "";
            text = paint(i.label, code) + text.substr(i.label.size());
        }
        out += text;
    }
    return out;
}

}  // namespace

namespace {

template <class Parts>
std::string joined(const column& c, const Parts& parts) {
    std::string text;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0)
            text += separator(c, i - 1);
        text += parts[i];
    }
    return text;
}

}  // namespace

std::string join_cell(const column& c, cell_list::parts parts) {
    return joined(c, parts);
}

std::string join_cell(const column& c, const cell& parts) {
    return joined(c, parts);
}

std::string render_console(const document& doc, const console_style& style) {
    std::string out;
    for (std::size_t i = 0; i < doc.blocks.size(); ++i) {
        if (i > 0 && !doc.blocks[i].joined)
            out += "\n";
        std::string block =
            std::visit([&](const auto& content) { return render(content, style); }, doc.blocks[i].content);
        // A table alone is taken as it is: a million rows' text is not copied once more.
        if (out.empty())
            out = std::move(block);
        else
            out += block;
    }
    return out;
}

}  // namespace tare::report::table
