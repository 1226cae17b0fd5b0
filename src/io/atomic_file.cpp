#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace tare::io {

namespace {

std::string errno_text() {
    return std::strerror(errno);
}

std::optional<std::string> write_all(int fd, std::string_view content, const std::string& path) {
    const char* p = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return "cannot write '" + path + "': " + errno_text();
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    return std::nullopt;
}

std::string directory_of(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// A regular file (or none yet) at `path`: a temporary file beside it, flushed, renamed over it.
// The temporary's name is short, so a target whose name is as long as a name may be still
// works (a suffix on the target's own name would pass NAME_MAX).
std::optional<std::string> replace_atomically(const std::string& path, std::string_view content,
                                              const std::string& shown) {
    std::string tmpl = directory_of(path) + "/.tare-XXXXXX";
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    const int fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd < 0)
        return "cannot create a temporary file beside '" + shown + "': " + errno_text();
    if (auto e = write_all(fd, content, shown)) {
        ::close(fd);
        ::unlink(name.data());
        return e;
    }
    // mkstemp makes the file 0600; a results file is an ordinary document.
    ::fchmod(fd, 0644);
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        std::string why = errno_text();
        ::unlink(name.data());
        return "cannot write '" + shown + "': " + why;
    }
    if (::rename(name.data(), path.c_str()) != 0) {
        std::string why = errno_text();
        ::unlink(name.data());
        return "cannot write '" + shown + "': " + why;
    }
    return std::nullopt;
}

// A device, a FIFO, a socket or a descriptor of this process (/dev/stdout): written through,
// as a shell's `>` would, since there is no file to replace. Appending, so that `--json=/dev/stdout`
// with standard output on a file follows what was printed before instead of overwriting it.
std::optional<std::string> write_through(const std::string& path, std::string_view content,
                                         const std::string& shown) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return "cannot write '" + shown + "': " + errno_text();
    auto e = write_all(fd, content, shown);
    if (::close(fd) != 0 && !e)
        e = "cannot write '" + shown + "': " + errno_text();
    return e;
}

bool is_descriptor_link(const std::string& path) {
    return path.rfind("/proc/", 0) == 0 || path.rfind("/dev/fd/", 0) == 0;
}

}  // namespace

std::optional<std::string> write_file_atomically(const std::string& path, std::string_view content) {
    // Follow symbolic links to what they name: the link stays, its target is written.
    std::string at = path;
    for (int hops = 0; hops < 40; ++hops) {
        struct stat st {};
        if (::lstat(at.c_str(), &st) != 0) {
            if (errno == ENOENT)
                return replace_atomically(at, content, path);
            return "cannot write '" + path + "': " + errno_text();
        }
        if (S_ISREG(st.st_mode))
            return replace_atomically(at, content, path);
        if (S_ISDIR(st.st_mode))
            return "cannot write '" + path + "': it is a directory";
        if (!S_ISLNK(st.st_mode))
            return write_through(at, content, path);
        if (is_descriptor_link(at))  // /proc/self/fd/1 names an open file, not a path
            return write_through(at, content, path);
        std::vector<char> target(PATH_MAX + 1);
        const ssize_t n = ::readlink(at.c_str(), target.data(), PATH_MAX);
        if (n < 0)
            return "cannot write '" + path + "': " + errno_text();
        std::string next(target.data(), static_cast<std::size_t>(n));
        if (next.empty() || next[0] != '/')
            next = directory_of(at) + "/" + next;
        if (is_descriptor_link(next))  // /dev/stdout -> /proc/self/fd/1
            return write_through(at, content, path);
        at = std::move(next);
    }
    return "cannot write '" + path + "': too many levels of symbolic links";
}

}  // namespace tare::io
