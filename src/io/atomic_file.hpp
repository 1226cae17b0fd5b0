#pragma once
// Writing result files so that a reader never sees half a file and nothing that is not a file is
// replaced: a regular file (or a new path) gets a temporary file in the same directory, with no
// name until it is complete and flushed where the file system allows, then renamed over it
// (rename is atomic within a file system on POSIX); a symbolic link that no
// other user could have planted is followed to its target, any other refused; a device, a FIFO
// or a descriptor of this process (/dev/stdout) is written through. Rejected: renaming over whatever is at
// the path, which as root turned /dev/null into a regular file. docs/cli.md, "Output files".

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tare::io {

/// Writes `content` to `path` atomically. Returns an error message, or nothing on success.
std::optional<std::string> write_file_atomically(const std::string& path, std::string_view content);

/// Takes the pieces of a file's content in order.
using piece_sink = std::function<void(std::string_view)>;
/// Makes a file's content by handing its pieces, in order, to the sink it is given.
using content_source = std::function<void(const piece_sink&)>;

/// Writes what `source` makes to `path` atomically, as the overload above, piece by piece: the
/// whole content is never in memory (an HTML page of a large suite is hundreds of megabytes).
/// After a failed write the rest of the pieces are made and dropped, and the error returned.
std::optional<std::string> write_file_atomically(const std::string& path, const content_source& source);

/// Makes the directory `dir` (and its parents) where missing, then writes each (name, content)
/// into it atomically. Returns the first error, naming the file, or nothing on success.
std::optional<std::string> write_files_into(const std::string& dir,
                                            const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace tare::io
