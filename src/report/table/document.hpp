#pragma once
// The one table engine every console and Markdown output is laid out by: a reporter builds a
// `document` (paragraphs, tables of cells with parts, lists of findings) from its results, and
// render_console() or render_markdown() turns it into text. Builders decide what is shown; the
// engine alone decides how (alignment, rules, escaping), so the run, variant, compare and exec
// tables cannot drift apart.

#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace tare::report::table {

/// How a piece of prose is marked. A terminal shows every style as plain text; Markdown escapes
/// `plain`, puts `code` in a code span (names, commands), `strong` in bold, and writes a `note`
/// ("no benchmarks ran") as an italic sentence ("_No benchmarks ran._").
enum class style { plain, code, strong, note };

struct span {
    std::string text;
    table::style style = style::plain;
};

/// One line of prose, as marked spans.
using line = std::vector<span>;

/// Lines that belong together: one per line on a terminal, one paragraph with hard line breaks
/// in Markdown.
struct paragraph {
    std::vector<line> lines;
};

enum class align { left, right };

/// What a cell says of its row, for a terminal's colour: a verdict or an error (`bad`), an
/// improvement (`good`), a warning (`warn`). Text alone carries the meaning; colour repeats it.
enum class tone { none, good, bad, warn };

/// A cell is a list of parts that the layout aligns part by part down its column, so
/// "1.25 µs ±  0.8%" lines up on its "±"; a cell with fewer parts than the column's widest (an
/// error, a "—") is one text that spans the column.
using cell = std::vector<std::string>;

/// A cell of one part.
inline cell single(std::string text) {
    return cell{std::move(text)};
}

/// A column's cells, one per row, stored compactly: every part's text in one string, and where
/// each part and each cell ends. A vector of strings a cell took about a hundred bytes beside its
/// few bytes of text, so that the table of a million benchmarks held over a gigabyte.
class cell_list {
public:
    /// One cell's parts, as views into the list (valid while the list is not changed).
    class parts {
    public:
        parts(const cell_list& list, std::size_t first, std::size_t last) noexcept
            : list_(&list), first_(first), last_(last) {}
        [[nodiscard]] std::size_t size() const noexcept { return last_ - first_; }
        std::string_view operator[](std::size_t i) const { return list_->part(first_ + i); }

    private:
        const cell_list* list_;
        std::size_t first_;
        std::size_t last_;
    };

    class const_iterator {
    public:
        // An input iterator: a cell is a view made on reading, not a reference into the list.
        using iterator_category = std::input_iterator_tag;
        using value_type = parts;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = parts;
        const_iterator(const cell_list& list, std::size_t row) noexcept : list_(&list), row_(row) {}
        parts operator*() const { return (*list_)[row_]; }
        const_iterator& operator++() noexcept {
            ++row_;
            return *this;
        }
        bool operator==(const const_iterator& o) const noexcept { return row_ == o.row_; }
        bool operator!=(const const_iterator& o) const noexcept { return row_ != o.row_; }

    private:
        const cell_list* list_;
        std::size_t row_;
    };

    cell_list() = default;
    cell_list(std::initializer_list<cell> cells) {
        for (const cell& c : cells)
            push_back(c);
    }

    void push_back(const cell& c) {
        for (const std::string& part : c) {
            text_ += part;
            part_ends_.push_back(text_.size());
        }
        cell_ends_.push_back(part_ends_.size());
    }
    void reserve(std::size_t rows) { cell_ends_.reserve(rows); }
    [[nodiscard]] std::size_t size() const noexcept { return cell_ends_.size(); }
    parts operator[](std::size_t row) const {
        return {*this, row == 0 ? 0 : cell_ends_[row - 1], cell_ends_[row]};
    }
    [[nodiscard]] const_iterator begin() const noexcept { return {*this, 0}; }
    [[nodiscard]] const_iterator end() const noexcept { return {*this, size()}; }

private:
    [[nodiscard]] std::string_view part(std::size_t i) const {
        const std::size_t from = i == 0 ? 0 : part_ends_[i - 1];
        return std::string_view(text_).substr(from, part_ends_[i] - from);
    }

    std::string text_;
    std::vector<std::size_t> part_ends_;  // past each part's text, in order
    std::vector<std::size_t> cell_ends_;  // past each cell's last part
};

struct column {
    std::string header;
    align alignment = align::right;
    /// separators[i] is printed between parts i and i + 1 (one blank past the last given).
    std::vector<std::string> separators;
    cell_list cells;
    /// The cells are names: code spans in Markdown (a name like "sort<int>/64" would otherwise
    /// be read as an HTML tag); on a narrow terminal they are shortened in the middle.
    bool names = false;
    /// On a terminal too narrow for the table, columns go in order of rank, highest first; 0:
    /// never (the names, time, change, verdict, allocations).
    int drop_rank = 0;
    std::vector<table::tone> tones = {};  // one per row, or empty: no colour
    /// On a terminal still too narrow once the names are shortened, the cells may be cut at
    /// their end ("allocs -1, peak -4.00 KiB, …"): a list whose first items matter most.
    bool cut_at_end = false;
};

/// A shorter column a terminal too narrow for a table shows in place of some of its columns,
/// so what they say is told briefly rather than left out: one "memory" column naming only the
/// figures that changed, in place of a column per figure; a change without its interval. It is
/// placed when the first column it replaces would be left out, where the first of them stood,
/// and all of them go (they are each in it). Markdown and a terminal wide enough never show it.
struct stand_in {
    std::vector<std::string> replaces;  // the headers of the columns it takes the place of
    column replacement;                 // its drop rank counts once it is placed
    std::string note;                   // said under the table: "memory shows only what changed"
};

struct grid {
    std::vector<column> columns;  // every column has the same number of cells
    std::vector<stand_in> stand_ins = {};
    std::size_t rows() const noexcept { return columns.empty() ? 0 : columns.front().cells.size(); }
};

/// A finding: "warning: NAME: text" on a terminal, "- **warning** `NAME`: text" in Markdown,
/// where a list's warnings are folded under one `<details>` line ("3 warnings") and its other
/// items (errors) follow in view.
struct item {
    std::string label;  // "warning", "error"
    line text;
};

struct item_list {
    std::vector<item> items;
};

/// A block of the document. Markdown separates every block by a blank line (a table must end
/// before a paragraph starts); on a terminal `joined` blocks follow the previous one directly.
struct block {
    std::variant<paragraph, grid, item_list> content;
    bool joined = false;
};

struct document {
    std::vector<block> blocks;

    void add(paragraph p, bool joined = false) { blocks.push_back({std::move(p), joined}); }
    void add(grid g, bool joined = false) { blocks.push_back({std::move(g), joined}); }
    void add(item_list l, bool joined = false) { blocks.push_back({std::move(l), joined}); }
};

/// The parts of `c`'s cell joined with the column's separators, as one text.
std::string join_cell(const column& c, cell_list::parts parts);
std::string join_cell(const column& c, const cell& parts);

/// How a terminal is written to. The default, no colour and no width, is what a pipe, a log
/// and a golden file get.
struct console_style {
    bool colour = false;    // ANSI colours: verdicts, warnings and errors, bold for strong
    std::size_t width = 0;  // display columns a line must fit; 0: any
};

/// Aligned text for a terminal: columns padded by display width (units.hpp), a rule under the
/// header, no trailing blanks. With a width, a table too wide for it loses its columns of
/// highest drop rank first (or puts their stand-in in their place), then shortens its names, and
/// says which columns it left out and which it shortened; prose and findings wrap at blanks.
std::string render_console(const document& doc, const console_style& style = {});

/// GitHub-flavoured Markdown, its source padded to aligned columns too.
std::string render_markdown(const document& doc);

}  // namespace tare::report::table
