#pragma once
// Writing result files so that a reader never sees half a file: write a temporary file in
// the same directory, flush it to disk, then rename it over the target (rename is atomic
// within a file system on POSIX).

#include <optional>
#include <string>
#include <string_view>

namespace tare::io {

/// Writes `content` to `path` atomically. Returns an error message, or nothing on success.
std::optional<std::string> write_file_atomically(const std::string& path, std::string_view content);

}  // namespace tare::io
