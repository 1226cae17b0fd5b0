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

// Two passes over the cells, the widths and then the lines, each cell made in each: rather than
// every cell held as text at once, which for a million rows was a copy of the whole table.
std::string render(const grid& g) {
    const auto text_of = [](const column& c, std::size_t row) {
        const std::string text = join_cell(c, c.cells[row]);
        return c.names ? code(text) : escape_text(text);
    };
    std::vector<std::size_t> widths(g.columns.size(), 3);  // "---" is the shortest delimiter
    for (std::size_t i = 0; i < g.columns.size(); ++i) {
        widths[i] = std::max(widths[i], display_width(escape_text(g.columns[i].header)));
        for (std::size_t row = 0; row < g.rows(); ++row)
            widths[i] = std::max(widths[i], display_width(text_of(g.columns[i], row)));
    }
    const auto add = [&](std::string& out, std::size_t i, std::string_view text) {
        const bool left = g.columns[i].alignment == align::left;
        out += " " + (left ? pad_right(text, widths[i]) : pad_left(text, widths[i])) + " |";
    };
    std::string out = "|";
    for (std::size_t i = 0; i < g.columns.size(); ++i)
        add(out, i, escape_text(g.columns[i].header));
    out += "\n|";
    for (std::size_t i = 0; i < g.columns.size(); ++i) {
        const std::string dashes(widths[i] - 1, '-');
        out += g.columns[i].alignment == align::left ? " :" + dashes + " |" : " " + dashes + ": |";
    }
    out += "\n";
    for (std::size_t row = 0; row < g.rows(); ++row) {
        out += "|";
        for (std::size_t i = 0; i < g.columns.size(); ++i)
            add(out, i, text_of(g.columns[i], row));
        out += "\n";
    }
    return out;
}

}  // namespace

std::string render_markdown(const document& doc) {
    std::string out;
    for (std::size_t i = 0; i < doc.blocks.size(); ++i) {
        if (i > 0)
            out += "\n";
        std::string block =
            std::visit([](const auto& content) { return render(content); }, doc.blocks[i].content);
        // A table alone is taken as it is: a million rows' text is not copied once more.
        if (out.empty())
            out = std::move(block);
        else
            out += block;
    }
    return out;
}

}  // namespace tare::report::table
