#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace tare::io {

namespace {

std::string errno_text() {
    return std::strerror(errno);
}

}  // namespace

std::optional<std::string> write_file_atomically(const std::string& path, std::string_view content) {
    std::string tmpl = path + ".tmp-XXXXXX";
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    int fd = mkstemp(name.data());
    if (fd < 0) {
        return "cannot create a temporary file beside '" + path + "': " + errno_text();
    }
    const char* p = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            std::string why = errno_text();
            ::close(fd);
            ::unlink(name.data());
            return "cannot write '" + path + "': " + why;
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    // mkstemp makes the file 0600; a results file is an ordinary document.
    ::fchmod(fd, 0644);
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        std::string why = errno_text();
        ::unlink(name.data());
        return "cannot write '" + path + "': " + why;
    }
    if (::rename(name.data(), path.c_str()) != 0) {
        std::string why = errno_text();
        ::unlink(name.data());
        return "cannot write '" + path + "': " + why;
    }
    return std::nullopt;
}

}  // namespace tare::io
