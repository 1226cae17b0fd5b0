#pragma once
// What `tare exec`'s console and Markdown reports show (exec_table.cpp).

#include "model/exec.hpp"
#include "report/table/document.hpp"

namespace tare::report::detail {

/// The command(s) and run count; one row per metric with each side's mean ± the relative
/// half-width of its 95 % Student t interval, and with a base the change [95 % interval] and the
/// verdict on wall time, then how to read them.
table::document exec_document(const exec_results& results);

}  // namespace tare::report::detail
