#pragma once
// tare-exec/1, the results of `tare exec` (every field in docs/json-schema.md): written and read
// through one mapping per model type, so what the writer emits the reader takes back.

#include <string>
#include <variant>

#include "io/results_reader.hpp"
#include "model/exec.hpp"

namespace tare::io {

/// The tare-exec/1 document of `results`; strict: no NaN or infinity literal. Each side's
/// `summary` is written from its `summaries`, not recomputed.
std::string write_exec_json(const exec_results& results);

/// Parses `text` (the contents of `origin`, used in messages) as a tare-exec/1 document.
std::variant<exec_results, read_error> parse_exec_json(const std::string& text, const std::string& origin);

}  // namespace tare::io
