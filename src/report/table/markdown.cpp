// The Markdown form of a document (table/document.hpp): GitHub-flavoured, with the source padded
// to aligned columns too, because people read pull-request text raw in review tools and
// terminals as often as rendered. Escaping rules: table/markdown_text.hpp.

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "report/table/document.hpp"
#include "report/table/markdown_text.hpp"
#include "report/table/units.hpp"

namespace tare::report::table {
namespace {

using markdown_text::code;
using markdown_text::escape_text;

// "no benchmarks ran" -> "_No benchmarks ran._"
std::string note(std::string_view text) {
    std::string sentence(text);
    if (!sentence.empty())
        sentence.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(sentence.front())));
    return "_" + escape_text(sentence) + "._";
}

std::string render(const line& l) {
    std::string out;
    for (const span& s : l) {
        switch (s.style) {
        case style::plain:
            out += escape_text(s.text);
            break;
        case style::code:
            out += code(s.text);
            break;
        case style::strong:
            out += "**" + escape_text(s.text) + "**";
            break;
        case style::note:
            out += note(s.text);
            break;
        }
    }
    return out;
}

// Lines of one paragraph, held together by hard line breaks ("\" at a line's end, GFM), which
// unlike two trailing spaces survive editors that trim.
std::string render(const paragraph& p) {
    std::string out;
    for (std::size_t i = 0; i < p.lines.size(); ++i)
        out += render(p.lines[i]) + (i + 1 < p.lines.size() ? "\\\n" : "\n");
    return out;
}

std::string render(const item& i) {
    return "- **" + escape_text(i.label) + "** " + render(i.text) + "\n";
}

// Warnings folded under one <details> line, so a pull request's comment shows the table first and
// a suite's dozen `noisy` lines only on a click; errors and every other item stay in view.
std::string render(const item_list& list) {
    std::string folded;
    std::string shown;
    std::size_t warnings = 0;
    for (const item& i : list.items) {
        if (i.label == "warning") {
            folded += render(i);
            ++warnings;
        } else {
            shown += render(i);
        }
    }
    if (warnings == 0)
        return shown;
    std::string out = "<details><summary>" + std::to_string(warnings) +
                      (warnings == 1 ? " warning" : " warnings") + "</summary>\n\n" + folded +
                      "\n</details>\n";
    return shown.empty() ? out : out + "\n" + shown;
}

std::string render(const grid& g) {
    // cells[0] is the header row.
    std::vector<std::vector<std::string>> cells(g.rows() + 1);
    std::vector<std::size_t> widths(g.columns.size(), 3);  // "---" is the shortest delimiter
    for (std::size_t i = 0; i < g.columns.size(); ++i) {
        const column& c = g.columns[i];
        cells[0].push_back(escape_text(c.header));
        for (std::size_t row = 0; row < g.rows(); ++row) {
            const std::string text = join_cell(c, c.cells[row]);
            cells[row + 1].push_back(c.names ? code(text) : escape_text(text));
        }
        for (const auto& row : cells)
            widths[i] = std::max(widths[i], display_width(row[i]));
    }
    const auto line_of = [&](const std::vector<std::string>& row) {
        std::string out = "|";
        for (std::size_t i = 0; i < row.size(); ++i) {
            const bool left = g.columns[i].alignment == align::left;
            out += " " + (left ? pad_right(row[i], widths[i]) : pad_left(row[i], widths[i])) + " |";
        }
        return out + "\n";
    };
    std::string out = line_of(cells[0]) + "|";
    for (std::size_t i = 0; i < g.columns.size(); ++i) {
        const std::string dashes(widths[i] - 1, '-');
        out += g.columns[i].alignment == align::left ? " :" + dashes + " |" : " " + dashes + ": |";
    }
    out += "\n";
    for (std::size_t row = 1; row < cells.size(); ++row)
        out += line_of(cells[row]);
    return out;
}

}  // namespace

std::string render_markdown(const document& doc) {
    std::string out;
    for (std::size_t i = 0; i < doc.blocks.size(); ++i) {
        if (i > 0)
            out += "\n";
        out += std::visit([](const auto& content) { return render(content); }, doc.blocks[i].content);
    }
    return out;
}

}  // namespace tare::report::table
