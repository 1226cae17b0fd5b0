#pragma once
// What `tare history check`'s console and Markdown reports show, built once as a document of the
// table engine (report/table/document.hpp); the history page shows it too.

#include <string>

#include "model/history.hpp"
#include "report/table/document.hpp"

namespace tare::report::detail {

/// The whole report: the runs checked and how; one row per measure that changed, newest first;
/// how to read it, and the regressions at the head.
table::document history_document(const history_check& r);

/// A measure's name as the tables say it: "time", "allocs/iter", a counter's own name.
std::string history_measure_label(const std::string& measure);

/// A measure's value in its unit: a duration, bytes, a rate, or a count (exact: every digit).
std::string history_value(const std::string& measure, double value, bool exact);

/// A commit as the tables show it: git's default abbreviation, 7 characters.
std::string short_commit(const std::string& commit);

}  // namespace tare::report::detail
