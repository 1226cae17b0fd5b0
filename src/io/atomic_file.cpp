#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
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

// Writes what `source` makes to `fd`: small pieces gathered into writes of at least 64 KiB
// (a page's thousands of sections would otherwise be as many system calls), a large one as it
// is. After an error the rest is made and dropped: a source has no way to stop.
std::optional<std::string> write_all(int fd, const content_source& source, const std::string& path) {
    constexpr std::size_t batch = std::size_t{64} << 10;
    std::optional<std::string> error;
    std::string pending;
    const auto flush = [&] {
        if (!error && !pending.empty())
            error = write_all(fd, pending, path);
        pending.clear();
    };
    source([&](std::string_view piece) {
        if (error)
            return;
        if (piece.size() >= batch) {
            flush();
            if (!error)
                error = write_all(fd, piece, path);
            return;
        }
        pending.append(piece);
        if (pending.size() >= batch)
            flush();
    });
    flush();
    return error;
}

std::string directory_of(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// The process's file mode creation mask, read without changing it: umask() can only be read by
// setting it, which would race with another thread creating a file.
mode_t current_umask() {
    const int fd = ::open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        char buffer[4096];
        const ssize_t n = ::read(fd, buffer, sizeof buffer - 1);
        ::close(fd);
        if (n > 0) {
            buffer[n] = '\0';
            if (const char* at = std::strstr(buffer, "\nUmask:"))
                return static_cast<mode_t>(std::strtoul(at + 7, nullptr, 8) & 0777);
        }
    }
    return 022;  // the usual default, where /proc is not mounted
}

// The content's file, not yet published. Where the file system supports it (ext4, xfs, btrfs,
// tmpfs) it has no name until it is complete: a tare killed with SIGKILL in the middle of a big
// write leaves nothing behind, where a named temporary would stay beside the user's file.
// Rejected: a named temporary removed by a signal handler, which SIGKILL never runs.
struct unpublished {
    int fd = -1;
    std::string name;  // empty while the file is anonymous
};

// A name in `dir` that does not exist yet, for the link that publishes an anonymous file: 12
// random letters and digits, as mkstemp's six would be too few for a loop that must end.
std::string fresh_name(const std::string& dir) {
    static constexpr char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    unsigned char random[12] = {};
    if (::getentropy(random, sizeof random) != 0) {
        const auto seed =
            static_cast<unsigned long>(::getpid()) ^ static_cast<unsigned long>(::time(nullptr));
        for (std::size_t i = 0; i < sizeof random; ++i)
            random[i] = static_cast<unsigned char>(seed >> (i % 8 * 8));
    }
    std::string name = dir + "/.tare-";
    for (unsigned char r : random)
        name += letters[r % (sizeof letters - 1)];
    return name;
}

std::optional<std::string> create_beside(const std::string& path, const std::string& shown,
                                         unpublished& out) {
    const std::string dir = directory_of(path);
    // The link that names it goes through /proc: without /proc mounted, a named temporary.
    if (::access("/proc/self/fd", X_OK) == 0) {
        out.fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
        if (out.fd >= 0)
            return std::nullopt;
    }
    // EOPNOTSUPP (or EISDIR on kernels older than O_TMPFILE): a named temporary instead.
    std::string tmpl = dir + "/.tare-XXXXXX";
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    out.fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (out.fd < 0) {
        // The file is written beside its path, but that is tare's business: the user's path is named.
        if (errno == ENOENT || errno == ENOTDIR)
            return "cannot write '" + shown + "': its directory '" + dir + "' does not exist";
        return "cannot write '" + shown + "': " + errno_text();
    }
    out.name = name.data();
    return std::nullopt;
}

// Gives an anonymous file a name beside `path`: linking it through /proc (linkat with
// AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH), at a fresh name, since a link never replaces.
std::optional<std::string> name_it(const std::string& path, unpublished& file) {
    if (!file.name.empty())
        return std::nullopt;
    const std::string self = "/proc/self/fd/" + std::to_string(file.fd);
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::string name = fresh_name(directory_of(path));
        if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) {
            file.name = std::move(name);
            return std::nullopt;
        }
        if (errno != EEXIST)
            return errno_text();
    }
    return "no free temporary name";
}

// A regular file (or none yet) at `path`: the content written to an unpublished file beside it,
// flushed, then named and renamed over it (rename is atomic within a file system on POSIX). The
// temporary's name is short, so a target whose name is as long as a name may be still works (a
// suffix on the target's own name would pass NAME_MAX). The new file keeps the old one's mode
// (and, for root, its owner); a new one gets 0666 less the umask, as `>` would give.
std::optional<std::string> replace_atomically(const std::string& path, const content_source& content,
                                              const std::string& shown, const struct stat* old) {
    unpublished file;
    if (auto e = create_beside(path, shown, file))
        return e;
    const auto fail = [&](std::string why) {
        ::close(file.fd);
        if (!file.name.empty())
            ::unlink(file.name.c_str());
        return std::optional<std::string>(std::move(why));
    };
    std::optional<std::string> written;
    try {
        written = write_all(file.fd, content, shown);
    } catch (...) {  // the source failed (bad_alloc while making a page): nothing is left behind
        (void)fail({});
        throw;
    }
    if (written)
        return fail(*written);
    // Both kinds of temporary are made 0600; a results file is an ordinary document.
    if (old != nullptr) {
        if (::geteuid() == 0)
            (void)::fchown(file.fd, old->st_uid, old->st_gid);
        ::fchmod(file.fd, old->st_mode & 07777);
    } else {
        ::fchmod(file.fd, 0666 & ~current_umask());
    }
    if (::fsync(file.fd) != 0)
        return fail("cannot write '" + shown + "': " + errno_text());
    if (auto e = name_it(path, file))
        return fail("cannot write '" + shown + "': " + *e);
    if (::close(file.fd) != 0) {
        std::string why = errno_text();
        ::unlink(file.name.c_str());
        return "cannot write '" + shown + "': " + why;
    }
    if (::rename(file.name.c_str(), path.c_str()) != 0) {
        std::string why = errno_text();
        ::unlink(file.name.c_str());
        return "cannot write '" + shown + "': " + why;
    }
    return std::nullopt;
}

// A device, a FIFO, a socket or a descriptor of this process (/dev/stdout): written through,
// as a shell's `>` would, since there is no file to replace. Appending, so that `--json=/dev/stdout`
// with standard output on a file follows what was printed before instead of overwriting it.
std::optional<std::string> write_through(const std::string& path, const content_source& content,
                                         const std::string& shown) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return "cannot write '" + shown + "': " + errno_text();
    std::optional<std::string> e;
    try {
        e = write_all(fd, content, shown);
    } catch (...) {
        ::close(fd);
        throw;
    }
    if (::close(fd) != 0 && !e)
        e = "cannot write '" + shown + "': " + errno_text();
    return e;
}

bool is_descriptor_link(const std::string& path) {
    return path.rfind("/proc/", 0) == 0 || path.rfind("/dev/fd/", 0) == 0;
}

// May the link `link` (lstat'ed as `st`) be followed? Only when no other user could have made
// or replaced it: it belongs to this user or root, and its directory is writable by no one but
// this user and root — or is sticky (/tmp) and the link is this user's own, which nobody else
// may then remove. Rejected: following every link, as open() does. The kernel's own guard
// (fs.protected_symlinks) protects open() in sticky directories, but a file replaced by rename
// is reached through readlink, which it does not cover; a link another user planted at a
// predictable path in /tmp would have tare, run as root, replace the file it names.
bool may_follow(const std::string& link, const struct stat& st) {
    const uid_t me = ::geteuid();
    if (st.st_uid != me && st.st_uid != 0)
        return false;
    struct stat dir {};
    if (::stat(directory_of(link).c_str(), &dir) != 0)
        return false;
    const bool others_write = (dir.st_mode & (S_IWGRP | S_IWOTH)) != 0;
    if ((dir.st_uid == me || dir.st_uid == 0) && !others_write)
        return true;
    return (dir.st_mode & S_ISVTX) != 0 && st.st_uid == me;
}

}  // namespace

std::optional<std::string> write_file_atomically(const std::string& path, std::string_view content) {
    return write_file_atomically(path, [content](const piece_sink& put) { put(content); });
}

std::optional<std::string> write_file_atomically(const std::string& path, const content_source& content) {
    // Follow symbolic links to what they name: the link stays, its target is written.
    std::string at = path;
    for (int hops = 0; hops < 40; ++hops) {
        struct stat st {};
        if (::lstat(at.c_str(), &st) != 0) {
            if (errno == ENOENT)
                return replace_atomically(at, content, path, nullptr);
            return "cannot write '" + path + "': " + errno_text();
        }
        if (S_ISREG(st.st_mode))
            return replace_atomically(at, content, path, &st);
        if (S_ISDIR(st.st_mode))
            return "cannot write '" + path + "': it is a directory";
        if (!S_ISLNK(st.st_mode))
            return write_through(at, content, path);
        if (is_descriptor_link(at))  // /proc/self/fd/1 names an open file, not a path
            return write_through(at, content, path);
        if (!may_follow(at, st))
            return "cannot write '" + path + "': '" + at +
                   "' is a symbolic link that another user could have made or replaced (it is not yours, or "
                   "its directory is writable by others), and tare does not follow it: remove it, or name "
                   "the file it points to";
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

std::optional<std::string> write_files_into(const std::string& dir,
                                            const std::vector<std::pair<std::string, std::string>>& files) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
        return "cannot make the directory " + dir + ": " + ec.message();
    }
    for (const auto& [name, content] : files) {
        if (auto e = write_file_atomically((std::filesystem::path(dir) / name).string(), content)) {
            return e;
        }
    }
    return std::nullopt;
}

}  // namespace tare::io
