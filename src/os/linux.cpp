// Linux implementation of src/os/os.hpp.
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>

#include "os/os.hpp"

namespace tare::os {

namespace {

usage usage_of(int who) noexcept {
    rusage ru{};
    usage u;
    if (getrusage(who, &ru) != 0) {
        return u;
    }
    u.minor_faults = static_cast<std::uint64_t>(ru.ru_minflt);
    u.major_faults = static_cast<std::uint64_t>(ru.ru_majflt);
    u.user_seconds =
        static_cast<double>(ru.ru_utime.tv_sec) + static_cast<double>(ru.ru_utime.tv_usec) * 1e-6;
    u.system_seconds =
        static_cast<double>(ru.ru_stime.tv_sec) + static_cast<double>(ru.ru_stime.tv_usec) * 1e-6;
    u.max_rss_kib = ru.ru_maxrss;
    return u;
}

}  // namespace

usage self_usage() noexcept {
    return usage_of(RUSAGE_SELF);
}

usage thread_usage() noexcept {
    return usage_of(RUSAGE_THREAD);
}

std::string host_name() {
    char buf[HOST_NAME_MAX + 1] = {};
    if (gethostname(buf, sizeof buf - 1) != 0) {
        return "";
    }
    return buf;
}

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) {
            auto colon = line.find(':');
            if (colon != std::string::npos) {
                auto start = line.find_first_not_of(" \t", colon + 1);
                return start == std::string::npos ? "" : line.substr(start);
            }
        }
    }
    return "";
}

unsigned cpu_count() noexcept {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? static_cast<unsigned>(n) : std::thread::hardware_concurrency();
}

std::vector<int> allowed_cpus() {
    std::vector<int> cpus;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) {
        return cpus;
    }
    for (std::size_t c = 0; c < CPU_SETSIZE; ++c) {
        if (CPU_ISSET(c, &set)) {
            cpus.push_back(static_cast<int>(c));
        }
    }
    return cpus;
}

std::size_t page_size() noexcept {
    long n = sysconf(_SC_PAGESIZE);
    return n > 0 ? static_cast<std::size_t>(n) : 4096;
}

std::string executable_path() {
    char buf[PATH_MAX + 1] = {};
    ssize_t n = readlink("/proc/self/exe", buf, PATH_MAX);
    if (n <= 0) {
        return "";
    }
    return std::string(buf, static_cast<std::size_t>(n));
}

std::string utc_now_iso8601() {
    std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

bool is_terminal(int fd) noexcept {
    return ::isatty(fd) != 0;
}

void close_fd(int& fd) noexcept {
    if (fd >= 0) {
        ::close(fd);
        fd = -1;
    }
}

std::optional<std::size_t> terminal_columns(int fd) {
    if (!is_terminal(fd))
        return std::nullopt;
    if (const char* env = std::getenv("COLUMNS"); env != nullptr && *env != '\0') {
        char* end = nullptr;
        const unsigned long value = std::strtoul(env, &end, 10);
        if (*end == '\0' && value > 0 && value < 100000)
            return static_cast<std::size_t>(value);
    }
    winsize size{};
    if (::ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
        return static_cast<std::size_t>(size.ws_col);
    return std::nullopt;
}

double monotonic_seconds() noexcept {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace tare::os
