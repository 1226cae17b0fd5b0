#pragma once
// Whether standard output took everything printed to it. A table or `--json=-` sent to a full
// disk or a closed pipe would otherwise end with status 0 and nothing written; checked once, at
// the end, since stdio keeps the first error (ferror) until then. docs/cli.md, exit statuses.

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace tare::cli {

/// `status`, or `failure` (when higher) after a message, if standard output failed.
inline int check_standard_output(int status, int failure) {
    const bool flushed = std::fflush(stdout) == 0;
    const int error = errno;
    if (flushed && std::ferror(stdout) == 0)
        return status;
    std::fprintf(stderr, "error: cannot write standard output%s%s\n", flushed ? "" : ": ",
                 flushed ? "" : std::strerror(error));
    return status > failure ? status : failure;
}

}  // namespace tare::cli
