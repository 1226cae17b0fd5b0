#pragma once
// What `tare exec` measured, and its reporters: pure functions from these results to text (the
// aligned console table, Markdown, and JSON "tare-exec/1", documented in docs/json-schema.md).

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/exec.hpp"

namespace tare::report {

/// The table: one row per metric; mean and the half-width of its 95 % Student t interval per
/// side, and with a base the change [95 % interval] and the verdict. `markdown` picks a
/// GitHub-flavoured Markdown table over aligned columns.
std::string render_exec_table(const exec_results& results, bool markdown);

/// JSON "tare-exec/1"; strict: every non-finite number becomes null.
std::string render_exec_json(const exec_results& results);

}  // namespace tare::report
