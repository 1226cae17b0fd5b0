#pragma once
// Reading results files back. Errors are values that name the file and, for malformed JSON, the
// line and column. The tare/1 mapping itself is io/run_mapping.hpp; Google Benchmark JSON is
// io/gbench_reader.hpp.

#include <cstddef>
#include <optional>
#include <string>
#include <variant>

#include "model/run.hpp"

namespace tare::io {

struct read_error {
    std::string message;  // "FILE:LINE:COLUMN: ..." or "FILE: ..."

    /// The message without its leading "FILE: " when FILE is `origin`: "3:4: malformed JSON: …",
    /// "no such file". For a file of tare's own (a child's results in the private temporary
    /// directory), whose path means nothing to the user and must not appear in a message.
    std::string without_origin(const std::string& origin) const {
        if (message.rfind(origin, 0) != 0 || message.size() == origin.size() || message[origin.size()] != ':')
            return message;
        const std::size_t rest = message.find_first_not_of(": ", origin.size());
        return rest == std::string::npos ? std::string() : message.substr(rest);
    }
};

/// "LINE:COLUMN" (1-based; columns in bytes) of byte offset `byte` in `text`.
std::string text_position(const std::string& text, std::size_t byte);

/// The byte offset of the value at `path` ("benchmarks[3].iterations", as the reader's errors
/// name it) in the JSON `text`, which parsed; nullopt when the path is not found there.
std::optional<std::size_t> value_offset(const std::string& text, std::string_view path);

/// The error for a JSON parse failure in `text` (from `origin`): "ORIGIN:LINE:COLUMN: malformed
/// JSON: ...", from nlohmann's message `what` and its byte offset `byte`.
read_error malformed_json(const std::string& text, const std::string& origin, const std::string& what,
                          std::size_t byte);

/// The error for JSON nlohmann rejects without an offset (a number beyond any double, 1e400):
/// "ORIGIN:LINE:COLUMN: malformed JSON: ...", from its message `what`, the position that of the
/// token the message names in `text` ("ORIGIN: ..." when it names none).
read_error unreadable_json(const std::string& text, const std::string& origin, const std::string& what);

/// Arrays and objects nested deeper than this are refused before parsing: nlohmann parses any
/// depth, but the mapping and nlohmann's own copies and destructors of a value recurse, so a
/// value 200,000 levels deep overflows the stack. tare's and Google Benchmark's documents are
/// under ten levels deep.
inline constexpr std::size_t max_json_depth = 256;

/// What makes `text` (from `origin`) unreadable before it is parsed, if anything: "ORIGIN: empty
/// file" (nothing but blanks), or "ORIGIN:LINE:COLUMN: nested too deeply ..." at the bracket
/// that opens level max_json_depth + 1.
std::optional<read_error> check_json_text(const std::string& text, const std::string& origin);

/// The most read_text_file() reads. Read into tare's model a file takes about three times its
/// size in memory besides its text (bench/README.md, "Big inputs"). 2 GiB: the comparison
/// `tare compare --json` writes of two runs of a million benchmarks is 1.4 GB, and every command
/// must read back what another wrote. Rejected: 512 MiB, which refused that comparison; no limit,
/// which reads a device without end (/dev/zero) until memory runs out.
inline constexpr std::size_t max_results_file_bytes = std::size_t{2} << 30;

/// Why the file at `path` cannot be opened, in the words of every command that reads or runs one
/// (docs/cli.md): "PATH: no such file" (`err` ENOENT or ENOTDIR), "PATH: is a directory" (EISDIR),
/// else "PATH: cannot open: " and the system's words for `err` ("Permission denied").
read_error open_error(const std::string& path, int err);

/// The whole contents of the file at `path` ("-": standard input), or an error naming it (one
/// larger than max_results_file_bytes, too). Read once, in chunks: a pipe or a device works as a
/// regular file does, as long as the caller keeps the text rather than reading the path again.
std::variant<std::string, read_error> read_text_file(const std::string& path,
                                                     std::size_t limit = max_results_file_bytes);

/// The "schema" string of `text` when it is a JSON object that names one ("tare/1",
/// "tare-compare/1", ...); empty for anything else (a Google Benchmark file, malformed JSON
/// before the schema: the reader that gets it names what is wrong). Reads only up to the
/// schema's value, so JSON malformed after it is left to the reader too.
std::optional<std::string> document_schema(const std::string& text);

/// Parses `text` (the contents of `origin`, used in messages) as a tare/1 results document.
std::variant<run_results, read_error> parse_results(const std::string& text, const std::string& origin);

/// Reads and parses the file at `path`.
std::variant<run_results, read_error> read_results_file(const std::string& path);

}  // namespace tare::io
