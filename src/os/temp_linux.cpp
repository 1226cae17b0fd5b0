// Linux implementation of os.hpp's private temporary directory.
//
// Every temporary file tare or a benchmark executable makes (a child's results, a worker's
// standard error, a counted run's files) lives in one directory per process, made by mkdtemp
// with mode 0700. Nobody else can create, replace or link anything inside it, so the names in it
// may be predictable. Rejected: anonymous files (O_TMPFILE, memfd_create) for every purpose; a
// child that writes its results by path (Google Benchmark's --benchmark_out, Callgrind's out
// file) needs a name, and one scheme for all is easier to keep right than two.
//
// A process killed outright (SIGKILL, the OOM killer) runs no handler, so a child of its own —
// the janitor — removes the directory then: it waits for the end of a pipe whose writing end
// only the owner holds, which the kernel closes however the owner ends. Rejected: a sweep of
// stale directories by the next tare to run, which leaves the files until then and cannot tell
// a dead owner's directory from that of a live one in another PID namespace.

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <string>

#include "os/directory_linux.hpp"
#include "os/os.hpp"
#include "os/process.hpp"

namespace tare::os {

namespace {

// The directory's path, written once before `dir_owner` is published; read by the remover,
// which may run in a signal handler and so reads no std::string.
char dir_path[PATH_MAX];
// The process that made the directory; 0 when none was made (or it failed).
std::atomic<pid_t> dir_owner{0};
std::once_flag made;
std::string made_error;
std::atomic<unsigned long long> next_index{0};
// The janitor's process and the writing end of its pipe; 0 and -1 when there is none.
std::atomic<pid_t> janitor{0};
int janitor_pipe = -1;

// Removes everything below the directory open at `dir`, `depth` levels deep at most (tare makes
// one level of subdirectories). Async-signal-safe: system calls and a buffer on the stack. Each
// pass reads the directory from its start again, since removing entries while reading moves the
// rest; a pass that removes nothing ends it.
void empty_directory(int dir, int depth) noexcept {
    for (int pass = 0; pass < 64; ++pass) {
        if (::lseek(dir, 0, SEEK_SET) != 0)
            return;
        bool removed = false;
        for_each_entry(dir, [&](const char* name) {
            if (::unlinkat(dir, name, 0) == 0) {
                removed = true;
                return;
            }
            if (errno != EISDIR || depth == 0)
                return;
            const int sub = ::openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0) {
                empty_directory(sub, depth - 1);
                ::close(sub);
            }
            removed = ::unlinkat(dir, name, AT_REMOVEDIR) == 0 || removed;
        });
        if (!removed)
            return;
    }
}

void remove_directory() noexcept {
    const int dir = ::open(dir_path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dir >= 0) {
        empty_directory(dir, 2);
        ::close(dir);
    }
    ::rmdir(dir_path);
}

// Closes every descriptor from 3 up but `keep`: the janitor must hold no end of another pipe,
// or a reader waiting for that pipe's end would wait for the janitor too.
void close_all_but(int keep) noexcept {
#if defined(SYS_close_range)
    const bool below = keep <= 3 || ::syscall(SYS_close_range, 3u, static_cast<unsigned>(keep - 1), 0u) == 0;
    if (below && ::syscall(SYS_close_range, static_cast<unsigned>(keep + 1), ~0u, 0u) == 0)
        return;
#endif
    // An older kernel: one by one, up to the descriptor limit.
    struct rlimit limit {};
    rlim_t top = 65536;
    if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < top)
        top = limit.rlim_cur;
    for (int fd = 3; static_cast<rlim_t>(fd) < top; ++fd)
        if (fd != keep)
            ::close(fd);
}

// The janitor's whole life, in a child forked from a process that may run other threads: only
// async-signal-safe calls. It ignores the signals a terminal or a CI service sends to the whole
// group, so it is there to clean up after an owner they killed, and leaves the group, so that a
// SIGKILL sent to the group does not take it too.
[[noreturn]] void janitor_main(int pipe_end) noexcept {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU})
        ::sigaction(signal, &ignore, nullptr);
    ::setpgid(0, 0);
    ::prctl(PR_SET_NAME, "tare-janitor", 0, 0, 0);
    const int null = ::open("/dev/null", O_RDWR);
    for (int fd = 0; fd < 3 && null >= 0; ++fd)
        if (fd != null)
            ::dup2(null, fd);
    close_all_but(pipe_end);
    char byte = 0;
    for (;;) {
        const ssize_t n = ::read(pipe_end, &byte, 1);
        if (n == 0 || (n < 0 && errno != EINTR))
            break;
    }
    remove_directory();
    ::_exit(0);
}

void start_janitor() {
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) != 0)
        return;  // no janitor: the directory goes as before, at every end but SIGKILL
    // A noted child: ending orphans leaves it alone.
    const pid_t pid = fork_child();
    if (pid == 0)
        janitor_main(ends[0]);
    ::close(ends[0]);
    if (pid < 0) {
        ::close(ends[1]);
        return;
    }
    janitor_pipe = ends[1];
    janitor.store(pid);
}

// Tells the janitor its work is done (its pipe closed) and waits for it, so that when this
// process has exited nothing of it is left. Async-signal-safe; whoever takes the pid waits.
void end_janitor() noexcept {
    const pid_t pid = janitor.exchange(0);
    if (pid == 0)
        return;
    ::close(janitor_pipe);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    forget_child(pid);
}

void remove_at_exit() {
    remove_temp_dir();
}

void make_directory() {
    std::error_code ec;
    std::filesystem::path base = std::filesystem::temp_directory_path(ec);
    if (ec)
        base = "/tmp";
    base = std::filesystem::absolute(base, ec);  // a child may run elsewhere than this process
    std::string tmpl = (base / "tare-XXXXXX").string();
    if (tmpl.size() >= sizeof dir_path) {
        made_error =
            "cannot make a private temporary directory in '" + base.string() + "': its path is too long";
        return;
    }
    if (::mkdtemp(tmpl.data()) == nullptr) {
        const int e = errno;
        made_error =
            "cannot make a private temporary directory in '" + base.string() + "': " + std::strerror(e);
        if (e == ENOSPC || e == EDQUOT || e == EACCES || e == EROFS)
            made_error += " (set TMPDIR to a writable directory with room)";
        return;
    }
    std::memcpy(dir_path, tmpl.c_str(), tmpl.size() + 1);
    start_janitor();
    dir_owner.store(::getpid());
    std::atexit(remove_at_exit);
}

}  // namespace

temp_name temp_file_name(std::string_view stem, std::string_view suffix) {
    std::call_once(made, make_directory);
    if (dir_owner.load() == 0)
        return {"", made_error};
    // The index has a fixed width, so every name of one stem has the same length: a counted
    // child's argv[0] lies in it, and what the program copies of it must not change its counts.
    char index[24];
    std::snprintf(index, sizeof index, "%06llu", next_index.fetch_add(1));
    std::string path = dir_path;
    path += '/';
    path += stem;
    path += '-';
    path += index;
    path += suffix;
    return {std::move(path), ""};
}

void remove_temp_dir() noexcept {
    const pid_t owner = dir_owner.load();
    if (owner == 0 || owner != ::getpid())
        return;  // none made, or a forked child of the process that made it
    const int saved_errno = errno;
    remove_directory();
    end_janitor();
    errno = saved_errno;
}

}  // namespace tare::os
