// The `tare compare` table as GitHub-flavoured Markdown, ready to paste into a pull request:
// the console's columns and words (compare_columns.hpp), with the source padded to aligned
// columns too, because reviewers read PR text raw as often as rendered.
//
// Escaping: src/report/markdown_text.hpp, shared with the run table's Markdown.

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "report/compare/compare_columns.hpp"
#include "report/markdown_text.hpp"
#include "report/units.hpp"

namespace tare::report::detail {
namespace {

using markdown_text::code;
using markdown_text::escape_text;

std::string strong(std::string_view text) {
    return "**" + escape_text(text) + "**";
}

std::string render_table(const std::vector<compare_column>& columns, std::size_t rows) {
    // cells[0] is the header row; benchmark names (column 0) become code spans.
    std::vector<std::vector<std::string>> cells(rows + 1);
    std::vector<std::size_t> widths(columns.size(), 3);  // "---" is the shortest delimiter
    for (std::size_t i = 0; i < columns.size(); ++i) {
        cells[0].push_back(escape_text(columns[i].header));
        for (std::size_t row = 0; row < rows; ++row) {
            const std::string text = join_cell(columns[i], columns[i].cells[row]);
            cells[row + 1].push_back(i == 0 ? code(text) : escape_text(text));
        }
        for (const auto& line : cells) {
            widths[i] = std::max(widths[i], display_width(line[i]));
        }
    }
    const auto line = [&](const std::vector<std::string>& row) {
        std::string out = "|";
        for (std::size_t i = 0; i < row.size(); ++i) {
            const bool left = columns[i].alignment == align::left;
            out += " " + (left ? pad_right(row[i], widths[i]) : pad_left(row[i], widths[i])) + " |";
        }
        return out + "\n";
    };
    std::string out = line(cells[0]) + "|";
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const std::string dashes(widths[i] - 1, '-');
        out += columns[i].alignment == align::left ? " :" + dashes + " |" : " " + dashes + ": |";
    }
    out += "\n";
    for (std::size_t row = 1; row < cells.size(); ++row) {
        out += line(cells[row]);
    }
    return out;
}

// Lines of one paragraph, held together by hard line breaks ("\" at a line's end, GFM), which
// unlike two trailing spaces survive editors that trim.
std::string paragraph(const std::vector<std::string>& lines) {
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        out += lines[i] + (i + 1 < lines.size() ? "\\\n" : "\n");
    }
    return out;
}

}  // namespace

std::string render_compare_markdown(const compare_results& r) {
    const text_style style{escape_text, code, strong};
    std::string out = paragraph(compare_header_lines(r, style)) + "\n";
    if (r.rows.empty()) {
        out += "_No benchmark is on both sides._\n";
    } else {
        out += render_table(build_compare_columns(r), r.rows.size()) + "\n";
        out += paragraph(compare_note_lines(r, style));
    }
    const auto presence = compare_presence_lines(r, style);
    if (!presence.empty()) {
        out += "\n" + paragraph(presence);
    }
    const auto findings = collect_compare_findings(r);
    if (!findings.empty()) {
        out += "\n";
    }
    for (const auto& f : findings) {
        out += std::string("- **") + (f.is_error ? "error" : "warning") + "** " + code(f.benchmark) + " (" +
               f.side + ", " + code(f.kind) + ")" + (f.message.empty() ? "" : ": " + escape_text(f.message)) +
               "\n";
    }
    return out;
}

}  // namespace tare::report::detail
