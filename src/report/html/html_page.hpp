#pragma once
// Private to src/report: the shell every HTML report shares (doctype, title, the one inline
// style sheet), and the HTML form of a table-engine document for the reports that are a
// document and nothing more (comparisons, exec runs).

#include <string>
#include <string_view>

#include "report/table/document.hpp"

namespace tare::report::detail {

/// A whole self-contained page: `title` (escaped here) and `body` (HTML already). With
/// `sortable`, the page carries the one inline script that sorts a `table.sortable` by a
/// clicked `th[data-sort]` header (cells' `data-v` numbers, else their text); without the
/// script the table reads the same, in its own order.
/// `more_style`: rules of this page alone, after the shared ones.
std::string html_page(std::string_view title, std::string_view body, bool sortable = false,
                      std::string_view more_style = {});

/// html_page() in two parts, for a body made a piece at a time: everything before the body...
std::string html_page_head(std::string_view title, std::string_view more_style = {});
/// ...and everything after it.
std::string html_page_tail(bool sortable = false);

/// One line of marked prose as HTML (code, strong, em), every text escaped.
std::string render_html(const table::line& l);

/// `doc` as HTML: paragraphs with line breaks, tables (names in code, alignment kept), findings
/// as a list. Every text is escaped.
std::string render_html(const table::document& doc);

}  // namespace tare::report::detail
