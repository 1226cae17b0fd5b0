#pragma once
// tare/1, the results of a benchmark executable (every field in
// docs/json-schema.md): written and read through one mapping per model type, so what the
// writer emits the reader takes back.

#include <functional>
#include <string>
#include <string_view>
#include <variant>

#include "io/results_reader.hpp"
#include "model/run.hpp"

namespace tare::io {

/// The tare/1 document of `results`; strict: no NaN or infinity literal.
std::string write_run_json(const run_results& results);
/// The same document handed to `put` a piece at a time (a row each), for a caller that writes
/// a large one to a file without holding it whole.
void write_run_json(const run_results& results, const std::function<void(std::string_view)>& put);

/// Parses `text` (the contents of `origin`, used in messages) as a tare/1 document.
std::variant<run_results, read_error> parse_run_json(const std::string& text, const std::string& origin);

}  // namespace tare::io
