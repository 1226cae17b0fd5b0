#pragma once
// Reading results files back. Errors are values that name the file and, for malformed JSON, the
// line and column. The tare/1 mapping itself is io/run_mapping.hpp; Google Benchmark JSON is
// io/gbench_reader.hpp.

#include <cstddef>
#include <string>
#include <variant>

#include "model/run.hpp"

namespace tare::io {

struct read_error {
    std::string message;  // "FILE:LINE:COLUMN: ..." or "FILE: ..."
};

/// "LINE:COLUMN" (1-based; columns in bytes) of byte offset `byte` in `text`.
std::string text_position(const std::string& text, std::size_t byte);

/// The error for a JSON parse failure in `text` (from `origin`): "ORIGIN:LINE:COLUMN: malformed
/// JSON: ...", from nlohmann's message `what` and its byte offset `byte`.
read_error malformed_json(const std::string& text, const std::string& origin, const std::string& what,
                          std::size_t byte);

/// The error for JSON nlohmann rejects without an offset (a number beyond any double, 1e400):
/// "ORIGIN: malformed JSON: ...", from its message `what`.
read_error unreadable_json(const std::string& origin, const std::string& what);

/// The whole contents of the file at `path`, or an error naming it.
std::variant<std::string, read_error> read_text_file(const std::string& path);

/// Parses `text` (the contents of `origin`, used in messages) as a tare/1 results document.
std::variant<run_results, read_error> parse_results(const std::string& text, const std::string& origin);

/// Reads and parses the file at `path`.
std::variant<run_results, read_error> read_results_file(const std::string& path);

}  // namespace tare::io
