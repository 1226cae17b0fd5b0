// Linux implementation of src/os/process.hpp.
#include <fcntl.h>
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
#include <utility>

#include "os/interrupt.hpp"
#include "os/layout.hpp"
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
    // Opened before fork: the child may only make async-signal-safe calls.
    // A fresh name in the private directory (os::temp_file_name): O_EXCL and O_NOFOLLOW refuse
    // anything already there rather than write through it.
    const int out_fd = options.stdout_path ? open(options.stdout_path->c_str(),
                                                  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600)
                                           : -1;
    if (options.stdout_path && out_fd < 0) {
        r.error = "cannot create " + *options.stdout_path + ": " + std::strerror(errno);
        close(status_pipe[0]);
        close(status_pipe[1]);
        return r;
    }
    auto start = std::chrono::steady_clock::now();
    const pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        r.error = std::string("fork: ") + std::strerror(errno);
        if (out_fd >= 0) {
            close(out_fd);
        }
        return r;
    }
    if (pid == 0) {
        setpgid(0, 0);  // its own group: a timeout or an interrupt reaches what it starts
        // Killed with its parent, even one killed by SIGKILL, which no handler sees; the parent
        // may have died before the request, so check it.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) {
            _exit(126);
        }
        close(status_pipe[0]);
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
        if (out_fd >= 0) {
            dup2(out_fd, 1);
        }
        plan.exec();
        int err = errno;
        ssize_t ignored = write(status_pipe[1], &err, sizeof err);
        (void)ignored;
        _exit(127);
    }
    setpgid(pid, pid);  // as the child does: whichever runs first, the group exists before exec
    const watched_group watch(pid, options.interrupt);
    close(status_pipe[1]);
    if (out_fd >= 0) {
        close(out_fd);
    }
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
        r.error = argv[0] + ": cannot execute: " + std::strerror(exec_errno);
        return r;
    }
    r.started = true;
    for (;;) {
        pid_t done = wait4(pid, &status, options.timeout_seconds ? WNOHANG : 0, &ru);
        if (done == pid) {
            break;
        }
        if (done < 0 && errno != EINTR) {
            r.error = std::string("wait4: ") + std::strerror(errno);
            return r;
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
    r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    kill_group(pid, SIGKILL);  // what it left running
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
    return r;
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

}  // namespace tare::os
