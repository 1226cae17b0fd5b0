// Linux implementation of src/os/channel.hpp.
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "os/channel.hpp"
#include "os/interrupt.hpp"
#include "os/layout.hpp"
#include "os/os.hpp"

namespace tare::os {

namespace {

double now_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The descriptors the forked worker starts from, all open in the parent before fork.
struct child_fds {
    int down_read;     // the parent's messages
    int up_write;      // the worker's replies
    int null;          // its standard output
    int err;           // its standard error
    int status_write;  // closed on exec; written with errno when exec fails
};

// The forked child's side, async-signal-safe calls only: its own group, death with the
// controller, the channel's pipes on their fixed descriptors, then exec.
[[noreturn]] void become_worker(const exec_plan& plan, pid_t parent, const std::vector<int>& cpus,
                                const child_fds& fds) {
    setpgid(0, 0);                     // its own group (os/interrupt.hpp)
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // and it dies with the controller, as run_child's children
    if (getppid() != parent) {
        _exit(126);
    }
    if (!cpus.empty()) {
        pin_to_cpus(cpus);
    }
    // dup2 clears close-on-exec on the new descriptors; the originals close on exec.
    // Move every source above the target numbers first so no dup2 clobbers another's source
    // (a standard error pipe made in the parent may well be descriptor 3 or 4).
    int r = fcntl(fds.down_read, F_DUPFD_CLOEXEC, 10);
    int w = fcntl(fds.up_write, F_DUPFD_CLOEXEC, 10);
    int out = fds.null >= 0 ? fcntl(fds.null, F_DUPFD_CLOEXEC, 10) : -1;
    int err = fds.err >= 0 ? fcntl(fds.err, F_DUPFD_CLOEXEC, 10) : -1;
    if (r < 0 || w < 0 || dup2(r, child_read_fd) < 0 || dup2(w, child_write_fd) < 0) {
        _exit(126);
    }
    if (out >= 0) {
        dup2(out, 1);
    }
    if (err >= 0) {
        dup2(err, 2);
    }
    plan.exec();
    int e = errno;
    ssize_t ignored = write(fds.status_write, &e, sizeof e);
    (void)ignored;
    _exit(127);
}

}  // namespace

channel_child spawn_with_channel(const std::vector<std::string>& argv,
                                 const std::optional<std::string>& stderr_path, const std::vector<int>& cpus,
                                 std::optional<std::uint64_t> layout_seed,
                                 const std::vector<std::string>& extra_env) {
    if (!stderr_path) {
        return spawn_with_channel(argv, -1, cpus, layout_seed, extra_env);
    }
    // A fresh name in the private directory (os::temp_file_name): O_EXCL and O_NOFOLLOW refuse
    // anything already there rather than write through it.
    const int err_fd = open(stderr_path->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (err_fd < 0) {
        channel_child c;
        c.error = "cannot create " + *stderr_path + ": " + std::strerror(errno);
        return c;
    }
    channel_child c = spawn_with_channel(argv, err_fd, cpus, layout_seed, extra_env);
    close(err_fd);
    return c;
}

channel_child spawn_with_channel(const std::vector<std::string>& argv, int stderr_fd,
                                 const std::vector<int>& cpus, std::optional<std::uint64_t> layout_seed,
                                 const std::vector<std::string>& extra_env) {
    channel_child c;
    const exec_plan plan(argv, layout_seed, extra_env);
    if (!plan.error().empty()) {
        c.error = plan.error();
        return c;
    }
    int down[2] = {-1, -1};    // parent -> child
    int up[2] = {-1, -1};      // child -> parent
    int status[2] = {-1, -1};  // closed on exec: tells the parent whether exec failed, and why
    int null_fd = -1;
    auto fail = [&](const char* what) {
        c.error = std::string(what) + ": " + std::strerror(errno);
        for (int* fd : {&down[0], &down[1], &up[0], &up[1], &status[0], &status[1], &null_fd}) {
            close_fd(*fd);
        }
        return c;
    };
    if (pipe2(down, O_CLOEXEC) != 0 || pipe2(up, O_CLOEXEC) != 0 || pipe2(status, O_CLOEXEC) != 0) {
        return fail("pipe");
    }
    // Opened before fork: the child may only make async-signal-safe calls.
    null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    const int err_fd = stderr_fd >= 0 ? stderr_fd : null_fd;
    const pid_t parent = getpid();
    pid_t pid = fork_child();
    if (pid < 0) {
        return fail("fork");
    }
    if (pid == 0) {
        become_worker(plan, parent, cpus, {down[0], up[1], null_fd, err_fd, status[1]});
    }
    close(down[0]);
    close(up[1]);
    close(status[1]);
    if (null_fd >= 0) {
        close(null_fd);
    }
    int exec_errno = 0;
    ssize_t n = 0;
    do {
        n = read(status[0], &exec_errno, sizeof exec_errno);
    } while (n < 0 && errno == EINTR);
    close(status[0]);
    if (n == static_cast<ssize_t>(sizeof exec_errno)) {
        int st = 0;
        waitpid(pid, &st, 0);
        forget_child(pid);
        close(down[1]);
        close(up[0]);
        c.error = argv[0] + ": cannot execute: " + std::strerror(exec_errno);
        return c;
    }
    setpgid(pid, pid);
    c.pid = pid;
    c.watch_slot = watch_group(pid, on_interrupt::wait);
    c.to_child = down[1];
    c.from_child = up[0];
    return c;
}

read_status line_reader::fill(double seconds_left) {
    pollfd p{fd_, POLLIN, 0};
    int ms = seconds_left < 0 ? -1 : static_cast<int>(seconds_left * 1000) + 1;
    int ready = poll(&p, 1, ms);
    if (ready == 0) {
        return read_status::timeout;
    }
    if (ready < 0) {
        return errno == EINTR ? read_status::ok : read_status::error;
    }
    char buf[4096];
    ssize_t n = read(fd_, buf, sizeof buf);
    if (n == 0) {
        return read_status::eof;
    }
    if (n < 0) {
        return errno == EINTR || errno == EAGAIN ? read_status::ok : read_status::error;
    }
    buffer_.append(buf, static_cast<std::size_t>(n));
    return read_status::ok;
}

read_status line_reader::read_line(std::string& line, double timeout_seconds) {
    const double deadline = now_seconds() + timeout_seconds;
    for (;;) {
        auto nl = buffer_.find('\n', scanned_);
        if (nl != std::string::npos) {
            line.assign(buffer_, 0, nl);
            buffer_.erase(0, nl + 1);
            scanned_ = 0;
            return read_status::ok;
        }
        scanned_ = buffer_.size();
        if (scanned_ > max_line_bytes) {
            return read_status::too_long;
        }
        double left = timeout_seconds < 0 ? -1 : deadline - now_seconds();
        if (timeout_seconds >= 0 && left <= 0) {
            return read_status::timeout;
        }
        if (read_status s = fill(left); s != read_status::ok) {
            return s;
        }
    }
}

read_status line_reader::read_bytes(std::size_t n, std::string& out, double timeout_seconds) {
    const double deadline = now_seconds() + timeout_seconds;
    while (buffer_.size() < n) {
        double left = timeout_seconds < 0 ? -1 : deadline - now_seconds();
        if (timeout_seconds >= 0 && left <= 0) {
            return read_status::timeout;
        }
        if (read_status s = fill(left); s != read_status::ok) {
            return s;
        }
    }
    out.assign(buffer_, 0, n);
    buffer_.erase(0, n);
    scanned_ = 0;
    return read_status::ok;
}

bool write_all(int fd, std::string_view data) noexcept {
    while (!data.empty()) {
        ssize_t n = write(fd, data.data(), data.size());
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return false;
        }
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

child_result finish_child(channel_child& child, double grace_seconds) {
    child_result r;
    close_fd(child.to_child);  // EOF on its command pipe: a well-behaved worker exits
    close_fd(child.from_child);
    if (child.pid <= 0) {
        r.error = child.error;
        return r;
    }
    r.started = true;
    const double deadline = now_seconds() + grace_seconds;
    int status = 0;
    rusage ru{};
    for (;;) {
        pid_t done = wait4(child.pid, &status, WNOHANG, &ru);
        if (done == child.pid) {
            break;
        }
        if (done < 0 && errno != EINTR) {
            r.error = std::string("wait4: ") + std::strerror(errno);
            forget_child(child.pid);
            child.pid = -1;
            return r;
        }
        if (!r.timed_out && now_seconds() > deadline) {
            r.timed_out = true;
            kill_group(child.pid, SIGKILL);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    forget_child(child.pid);
    kill_group(child.pid, SIGKILL);  // what it left running in its group,
    end_orphans();                   // and what it left outside it
    unwatch_group(child.watch_slot);
    child.watch_slot = -1;
    child.pid = -1;
    if (WIFEXITED(status)) {
        r.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        r.signal = WTERMSIG(status);
    }
    return r;
}

void ignore_sigpipe() noexcept {
    signal(SIGPIPE, SIG_IGN);
}

}  // namespace tare::os
