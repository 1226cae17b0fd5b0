#pragma once
// The reporters of `tare compare`: pure functions from a comparison's results to text (the
// aligned console table, GitHub-flavoured Markdown, and JSON "tare-compare/1", documented in
// docs/json-schema.md). No I/O and no probing here: the CLI writes the returned text.

#include <string>

#include "model/comparison.hpp"

namespace tare::report {

/// Per benchmark: both sides' time ± the relative half-width of its 95 % interval, the change of
/// head against base with its family-adjusted interval, the verdict, and (when some row has any)
/// allocations, bytes and peak heap as "base → head". Above the table, what the mode means for
/// the interval; under it, benchmarks on one side only, warnings and errors. `markdown` picks a
/// GitHub-flavoured Markdown table (names in code spans, "|" escaped) over aligned columns.
std::string render_compare_table(const compare_results& r, bool markdown);

/// JSON "tare-compare/1" (docs/json-schema.md); strict: every non-finite number becomes null.
std::string render_compare_json(const compare_results& r);

}  // namespace tare::report
