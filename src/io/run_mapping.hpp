#pragma once
// tare/1, the results of a benchmark executable (every field in
// docs/json-schema.md): written and read through one mapping per model type, so what the
// writer emits the reader takes back.

#include <string>
#include <variant>

#include "io/results_reader.hpp"
#include "model/run.hpp"

namespace tare::io {

/// The tare/1 document of `results`; strict: no NaN or infinity literal.
std::string write_run_json(const run_results& results);

/// Parses `text` (the contents of `origin`, used in messages) as a tare/1 document.
std::variant<run_results, read_error> parse_run_json(const std::string& text, const std::string& origin);

}  // namespace tare::io
