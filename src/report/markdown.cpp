// The Markdown reporter: a GitHub-flavoured table with the console's columns, for pasting into
// a pull request. The source is padded to aligned columns too, because people read PR text
// raw in review tools and terminals as often as rendered.
//
// Escaping: benchmark names go in code spans (a name like "sort<int>/64" would otherwise be
// eaten as an HTML tag); free text escapes the characters GFM gives meaning to. In a table,
// "|" must be escaped even inside a code span (GFM spec, "Tables" extension).

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "report/columns.hpp"
#include "report/markdown_text.hpp"
#include "report/reporter.hpp"
#include "report/units.hpp"

namespace tare::report {
namespace {

using detail::align;
using detail::column;
using markdown_text::code;
using markdown_text::escape_text;

std::string join_parts(const column& c, const std::vector<std::string>& parts) {
    std::string text;
    for (std::size_t i = 0; i < parts.size(); ++i)
        text += (i > 0 ? c.separator : "") + parts[i];
    return text;
}

std::string render_table(const std::vector<column>& columns, std::size_t rows) {
    // cells[0] is the header row; benchmark names (column 0) become code spans.
    std::vector<std::vector<std::string>> cells(rows + 1);
    std::vector<std::size_t> widths(columns.size(), 3);  // "---" is the shortest delimiter
    for (std::size_t i = 0; i < columns.size(); ++i) {
        cells[0].push_back(escape_text(columns[i].header));
        for (std::size_t row = 0; row < rows; ++row) {
            const std::string text = join_parts(columns[i], columns[i].cells[row]);
            cells[row + 1].push_back(i == 0 ? code(text) : escape_text(text));
        }
        for (const auto& line : cells)
            widths[i] = std::max(widths[i], display_width(line[i]));
    }
    const auto line = [&](const std::vector<std::string>& row) {
        std::string out = "|";
        for (std::size_t i = 0; i < row.size(); ++i) {
            const bool left = columns[i].alignment == align::left;
            out += " " + (left ? pad_right(row[i], widths[i]) : pad_left(row[i], widths[i])) + " |";
        }
        return out + "\n";
    };
    std::string out = line(cells[0]);
    out += "|";
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const std::string dashes(widths[i] - 1, '-');
        out += columns[i].alignment == align::left ? " :" + dashes + " |" : " " + dashes + ": |";
    }
    out += "\n";
    for (std::size_t row = 1; row < cells.size(); ++row)
        out += line(cells[row]);
    return out;
}

class markdown_reporter final : public reporter {
public:
    std::string render(const run_results& results) const override {
        // The context lines form one paragraph, held together by hard line breaks ("\" at the
        // end of a line, GFM), which unlike two trailing spaces survive editors that trim.
        const auto context = detail::context_lines(results.context);
        std::string out;
        for (std::size_t i = 0; i < context.size(); ++i) {
            out += escape_text(context[i]) + (i + 1 < context.size() ? "\\\n" : "\n");
        }
        out += "\n";
        if (results.benchmarks.empty()) {
            out += "_No benchmarks ran._\n";
            return out;
        }
        out += render_table(detail::build_columns(results), results.benchmarks.size());
        if (!results.comparisons.empty()) {
            out += "\n" + render_table(detail::build_comparison_columns(results), results.comparisons.size());
            if (const std::string note = detail::comparison_note(results); !note.empty())
                out += "\n" + escape_text(note) + "\n";
        }
        const auto findings = detail::collect_findings(results);
        if (!findings.empty())
            out += "\n";
        for (const auto& f : findings) {
            out += std::string("- **") + (f.is_error ? "error" : "warning") + "** " + code(f.benchmark) +
                   ": " + escape_text(f.text) + "\n";
        }
        return out;
    }
};

}  // namespace

std::unique_ptr<reporter> make_markdown_reporter() {
    return std::make_unique<markdown_reporter>();
}

}  // namespace tare::report
