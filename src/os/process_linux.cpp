// Linux implementation of src/os/process.hpp.
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <utility>

#include "os/capture.hpp"
#include "os/directory_linux.hpp"
#include "os/interrupt.hpp"
#include "os/layout.hpp"
#include "os/os.hpp"
#include "os/process.hpp"

namespace tare::os {

bool pin_to_cpus(std::span<const int> cpus) noexcept {
    cpu_set_t set;
    CPU_ZERO(&set);
    bool any = false;
    for (int c : cpus) {
        if (c >= 0 && c < CPU_SETSIZE) {
            CPU_SET(static_cast<std::size_t>(c), &set);
            any = true;
        }
    }
    return any && sched_setaffinity(0, sizeof set, &set) == 0;
}

thread_pin::thread_pin(std::span<const int> cpus) {
    if (!cpus.empty()) {
        std::vector<int> before = allowed_cpus();
        if (pin_to_cpus(cpus)) {
            before_ = std::move(before);
        }
    }
}

thread_pin::~thread_pin() {
    if (!before_.empty()) {
        pin_to_cpus(before_);
    }
}

namespace {

// The children started and not yet waited for: one pid a slot, 0 when free. Lock-free atomics,
// read by kill_orphans_now() in a signal handler. A child past the slots turns the ending of
// orphans off (`untracked`) rather than risk taking a child for one.
constexpr int max_children = 1024;
std::atomic<pid_t> children[max_children];
std::atomic<bool> untracked{false};
// Held from a fork to the noting of its child, and while orphans are ended.
std::mutex spawning;
// The process that made itself the subreaper: a forked child inherits this variable, not the
// kernel's setting, and must not end orphans it was never given (it may exit() through atexit).
std::atomic<pid_t> adopting{0};

bool is_adopting() noexcept {
    const pid_t owner = adopting.load();
    return owner != 0 && owner == ::getpid() && !untracked.load();
}

bool is_noted(pid_t pid) noexcept {
    for (const auto& slot : children)
        if (slot.load() == pid)
            return true;
    return false;
}

// What /proc/PID/stat says of `pid`: its parent, and whether it is a temporary directory's
// janitor. System calls and a buffer on the stack only: async-signal-safe.
bool read_stat(pid_t pid, pid_t* parent, bool* janitor) noexcept {
    char path[32] = "/proc/";
    char digits[16];
    int n = 0;
    for (auto v = static_cast<std::uint32_t>(pid); v != 0 || n == 0; v /= 10)
        digits[n++] = static_cast<char>('0' + v % 10);
    int at = 6;
    while (n > 0)
        path[at++] = digits[--n];
    for (const char c : {'/', 's', 't', 'a', 't', '\0'})
        path[at++] = c;
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    char stat[512];
    const ssize_t got = ::read(fd, stat, sizeof stat - 1);
    ::close(fd);
    if (got <= 0)
        return false;
    stat[got] = '\0';
    // "PID (COMM) STATE PPID ...": the name may hold spaces and parentheses, so the last ')'.
    const char* open_paren = std::strchr(stat, '(');
    const char* close_paren = std::strrchr(stat, ')');
    if (open_paren == nullptr || close_paren == nullptr || close_paren < open_paren)
        return false;
    const std::string_view comm(open_paren + 1, static_cast<std::size_t>(close_paren - open_paren - 1));
    *janitor = comm == "tare-janitor";
    const char* c = close_paren + 1;
    for (int spaces = 0; *c != '\0' && spaces < 2; ++c)  // past " STATE "
        spaces += *c == ' ' ? 1 : 0;
    pid_t p = 0;
    for (; *c >= '0' && *c <= '9' && p < 100000000; ++c)
        p = p * 10 + (*c - '0');
    *parent = p;
    return true;
}

// Calls visit(pid, janitor) for each orphan given to this process: a child it did not note.
// Rejected: /proc/self/task/*/children, which kernels built without CONFIG_PROC_CHILDREN lack.
template <class Visit>
void for_each_orphan(Visit visit) noexcept {
    const int proc = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (proc < 0)
        return;
    const pid_t self = ::getpid();
    for_each_entry(proc, [&](const char* name) {
        pid_t pid = 0;
        for (const char* c = name; *c != '\0' && pid >= 0; ++c)
            pid = *c >= '0' && *c <= '9' && pid < 100000000 ? pid * 10 + (*c - '0') : -1;
        pid_t parent = 0;
        bool janitor = false;
        if (pid <= 0 || !read_stat(pid, &parent, &janitor) || parent != self || is_noted(pid))
            return;
        visit(pid, janitor);
    });
    ::close(proc);
}

void end_orphans_at_exit() {
    end_orphans();
}

}  // namespace

pid_t fork_child() noexcept {
    const std::lock_guard<std::mutex> lock(spawning);
    const pid_t pid = ::fork();
    if (pid <= 0)
        return pid;
    for (auto& slot : children) {
        pid_t free = 0;
        if (slot.compare_exchange_strong(free, pid))
            return pid;
    }
    untracked.store(true);
    return pid;
}

void forget_child(pid_t pid) noexcept {
    for (auto& slot : children) {
        pid_t expected = pid;
        if (slot.compare_exchange_strong(expected, 0))
            return;
    }
}

void adopt_orphans() noexcept {
    if (adopting.load() == ::getpid() || ::prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
        return;
    adopting.store(::getpid());
    static const bool registered = std::atexit(end_orphans_at_exit) == 0;
    (void)registered;
}

void end_orphans() noexcept {
    if (!is_adopting())
        return;
    const std::lock_guard<std::mutex> lock(spawning);
    // A janitor ends by itself as soon as its owner has: it is waited for, for 2 s at most.
    const auto janitors_until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    // Each pass ends what the last one left; a killed orphan's own children come to this
    // process next. The bound stops a fork bomb from holding tare for ever.
    for (int pass = 0; pass < 10000; ++pass) {
        const bool patient = std::chrono::steady_clock::now() < janitors_until;
        int left = 0;
        for_each_orphan([&](pid_t pid, bool janitor) {
            if (::waitpid(pid, nullptr, WNOHANG) == pid)
                return;  // it had ended: reaped
            ++left;
            if (janitor && patient)
                return;
            ::kill(pid, SIGKILL);
            while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
            }
        });
        if (left == 0)
            return;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

void kill_orphans_now() noexcept {
    if (!is_adopting())
        return;
    const int saved_errno = errno;
    for_each_orphan([](pid_t pid, bool janitor) {
        if (!janitor)
            ::kill(pid, SIGKILL);
    });
    errno = saved_errno;
}

namespace {

/// The child's side of run_child(), from fork() to exec: its own process group, death with its
/// parent, its CPUs and its output; on a failed exec, errno down `status_fd` and status 127.
[[noreturn]] void become_child(const exec_plan& plan, const child_options& options, int status_fd,
                               pid_t parent) {
    setpgid(0, 0);  // its own group: a timeout or an interrupt reaches what it starts
    // Killed with its parent, even one killed by SIGKILL, which no handler sees; the parent
    // may have died before the request, so check it.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) {
        _exit(126);
    }
    if (!options.cpus.empty()) {
        pin_to_cpus(options.cpus);
    }
    if (options.discard_stdout || options.discard_stderr) {
        int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (devnull >= 0) {
            if (options.discard_stdout) {
                dup2(devnull, 1);
            }
            if (options.discard_stderr) {
                dup2(devnull, 2);
            }
        }
    }
    if (options.stdout_fd >= 0) {
        dup2(options.stdout_fd, 1);
    }
    if (options.stderr_fd >= 0) {
        dup2(options.stderr_fd, 2);
    }
    plan.exec();
    int err = errno;
    ssize_t ignored = write(status_fd, &err, sizeof err);
    (void)ignored;
    _exit(127);
}

/// Waits for `pid` to end, killing its group once it outlives the timeout; false (and the
/// error in `r`) when waiting itself failed.
bool wait_for_child(pid_t pid, const child_options& options, std::chrono::steady_clock::time_point start,
                    int& status, rusage& ru, child_result& r) {
    for (;;) {
        pid_t done = wait4(pid, &status, options.timeout_seconds ? WNOHANG : 0, &ru);
        if (done == pid) {
            return true;
        }
        if (done < 0 && errno != EINTR) {
            r.error = std::string("wait4: ") + std::strerror(errno);
            return false;
        }
        if (options.timeout_seconds) {
            double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (elapsed > *options.timeout_seconds && !r.timed_out) {
                r.timed_out = true;
                kill_group(pid, SIGKILL);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }
}

/// How the child ended, and what it used.
void fill_ending(int status, const rusage& ru, child_result& r) {
    if (WIFEXITED(status)) {
        r.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        r.signal = WTERMSIG(status);
    }
    r.resources.minor_faults = static_cast<std::uint64_t>(ru.ru_minflt);
    r.resources.major_faults = static_cast<std::uint64_t>(ru.ru_majflt);
    r.resources.user_seconds =
        static_cast<double>(ru.ru_utime.tv_sec) + static_cast<double>(ru.ru_utime.tv_usec) * 1e-6;
    r.resources.system_seconds =
        static_cast<double>(ru.ru_stime.tv_sec) + static_cast<double>(ru.ru_stime.tv_usec) * 1e-6;
    r.resources.max_rss_kib = ru.ru_maxrss;
}

}  // namespace

child_result run_child(const std::vector<std::string>& argv, const child_options& options) {
    child_result r;
    const exec_plan plan(argv, options.layout_seed,
                         options.environment ? *options.environment : std::vector<std::string>{},
                         options.environment.has_value());
    if (!plan.error().empty()) {
        r.error = plan.error();
        return r;
    }
    // A pipe closed on exec tells the parent whether exec itself failed, and why.
    int status_pipe[2];
    if (pipe2(status_pipe, O_CLOEXEC) != 0) {
        r.error = std::string("pipe: ") + std::strerror(errno);
        return r;
    }
    auto start = std::chrono::steady_clock::now();
    const pid_t parent = getpid();
    pid_t pid = fork_child();
    if (pid < 0) {
        r.error = std::string("fork: ") + std::strerror(errno);
        return r;
    }
    if (pid == 0) {
        close(status_pipe[0]);
        become_child(plan, options, status_pipe[1], parent);
    }
    setpgid(pid, pid);  // as the child does: whichever runs first, the group exists before exec
    const watched_group watch(pid, options.interrupt);
    close(status_pipe[1]);
    int exec_errno = 0;
    ssize_t n = 0;
    do {
        n = read(status_pipe[0], &exec_errno, sizeof exec_errno);
    } while (n < 0 && errno == EINTR);
    close(status_pipe[0]);
    int status = 0;
    rusage ru{};
    if (n == static_cast<ssize_t>(sizeof exec_errno)) {
        wait4(pid, &status, 0, &ru);
        forget_child(pid);
        r.error = argv[0] + ": cannot execute: " + std::strerror(exec_errno);
        return r;
    }
    r.started = true;
    if (!wait_for_child(pid, options, start, status, ru, r)) {
        forget_child(pid);
        return r;
    }
    r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    forget_child(pid);
    kill_group(pid, SIGKILL);  // what it left running in its group,
    end_orphans();             // and what it left outside it
    fill_ending(status, ru, r);
    return r;
}

// execv() takes a path; a bare name is looked up as a shell would, so `tare exec -- sleep 0.1`
// works without a shell in between.
std::optional<std::string> find_in_path(const std::string& name, std::string_view path_list) {
    namespace fs = std::filesystem;
    if (name.find('/') != std::string::npos) {
        return name;
    }
    std::size_t start = 0;
    while (start <= path_list.size()) {
        std::size_t end = path_list.find(':', start);
        end = end == std::string_view::npos ? path_list.size() : end;
        const std::string_view dir = path_list.substr(start, end - start);
        const fs::path candidate = fs::path(dir.empty() ? std::string_view(".") : dir) / name;
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) {
            return candidate.string();
        }
        start = end + 1;
    }
    return std::nullopt;
}

std::string describe_end(const child_result& r) {
    if (!r.started) {
        return r.error;
    }
    if (r.timed_out) {
        return "timed out and was killed";
    }
    if (r.signal != 0) {
        const char* name = sigabbrev_np(r.signal);
        return std::string("killed by SIG") + (name != nullptr ? name : std::to_string(r.signal));
    }
    return "exited with " + std::to_string(r.exit_code);
}

captured_child run_child_capturing(const std::vector<std::string>& argv, child_options options,
                                   std::size_t limit) {
    captured_child out;
    // One byte past the limit kept tells a full output from a longer one. Rejected: a temporary
    // file (what a program prints without end fills the disk) and RLIMIT_FSIZE (SIGXFSZ turns
    // a long output into a crash).
    tail_capture capture(limit + 1);
    if (capture.child_end() < 0) {
        out.result.error = capture.error();
        return out;
    }
    options.stdout_fd = capture.child_end();
    options.discard_stdout = false;
    out.result = run_child(argv, options);
    capture.close_child_end();
    // A descendant that detached may hold the pipe: what came is kept, without waiting for it.
    captured_tail t = capture.tail(1.0);
    out.over = t.dropped > 0 || t.text.size() > limit;
    if (!out.over) {
        out.output = std::move(t.text);
    }
    return out;
}

}  // namespace tare::os
