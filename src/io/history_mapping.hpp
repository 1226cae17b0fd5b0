#pragma once
// tare-history-check/1: what `tare history check --json` writes (docs/json-schema.md), and its
// reader, for scripts and for the tests. The mapping is io/json_codec.hpp's.

#include <string>
#include <variant>

#include "io/results_reader.hpp"
#include "model/history.hpp"

namespace tare::io {

std::string write_history_check_json(const history_check& check);

/// Parses `text` (the contents of `origin`, used in messages) as a tare-history-check/1 document.
std::variant<history_check, read_error> parse_history_check_json(const std::string& text,
                                                                 const std::string& origin);

}  // namespace tare::io
