// The `tare compare` table as GitHub-flavoured Markdown, ready to paste into a pull request:
// the console's columns and words (compare_columns.hpp), with the source padded to aligned
// columns too, because reviewers read PR text raw as often as rendered.
//
// Escaping follows src/report/markdown.cpp (whose helpers are private to that file): names and
// labels go in code spans, where "|" must still be escaped inside a table (GFM spec, "Tables"
// extension); prose escapes the characters GFM gives meaning to, only where they would act.

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "report/compare/compare_columns.hpp"
#include "report/units.hpp"

namespace tare::report::detail {
namespace {

bool is_word_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

// "_" between word characters is never emphasis ("retained_growth") and "<" opens HTML only
// before a letter, "/", "!" or "?", so those stay as written and the raw text stays legible.
std::string escape_text(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const char next = i + 1 < text.size() ? text[i + 1] : '\0';
        const bool inert_underscore = c == '_' && i > 0 && is_word_char(text[i - 1]) && is_word_char(next);
        const bool inert_angle = c == '<' && !(std::isalpha(static_cast<unsigned char>(next)) ||
                                               std::string_view("/!?").find(next) != std::string_view::npos);
        const bool special = std::string_view("\\`*_<[]|~").find(c) != std::string_view::npos;
        if (special && !inert_underscore && !inert_angle) {
            out += '\\';
        }
        out += c;
    }
    return out;
}

// A code span with a fence longer than any backtick run inside (CommonMark, "Code spans").
std::string code(std::string_view text) {
    std::size_t longest = 0;
    std::size_t run = 0;
    for (const char c : text) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const std::string fence(longest + 1, '`');
    const bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
    std::string body;
    for (const char c : text) {
        body += c == '|' ? std::string("\\|") : std::string(1, c);
    }
    return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

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

std::string render_compare_markdown(const compare::compare_results& r) {
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
