// Linux implementation of src/os/counters.hpp.
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "os/counters.hpp"

#if defined(TARE_HAVE_CALLGRIND)
#include <valgrind/callgrind.h>
#endif

namespace tare::os {

namespace callgrind {

#if defined(TARE_HAVE_CALLGRIND)
bool built() noexcept {
    return true;
}
bool running() noexcept {
    return RUNNING_ON_VALGRIND != 0;
}
void start_instrumentation() noexcept {
    CALLGRIND_START_INSTRUMENTATION;
}
void stop_instrumentation() noexcept {
    CALLGRIND_STOP_INSTRUMENTATION;
}
void toggle_collect() noexcept {
    CALLGRIND_TOGGLE_COLLECT;
}
void dump(const char* reason) noexcept {
    CALLGRIND_DUMP_STATS_AT(reason);
}
#else
bool built() noexcept {
    return false;
}
bool running() noexcept {
    return false;
}
void start_instrumentation() noexcept {}
void stop_instrumentation() noexcept {}
void toggle_collect() noexcept {}
void dump(const char* /*reason*/) noexcept {}
#endif

}  // namespace callgrind

hw_instruction_counter::hw_instruction_counter() {
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_HARDWARE;
    attr.config = PERF_COUNT_HW_INSTRUCTIONS;
    attr.disabled = 1;
    attr.exclude_kernel = 1;  // the region's own instructions, not the kernel's work for it
    attr.exclude_hv = 1;
    // This thread, any CPU.
    const long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
    if (fd < 0) {
        const int err = errno;
        if (err == ENOENT || err == EOPNOTSUPP || err == ENODEV) {
            error_ =
                "this machine exposes no hardware instruction counter (perf_event_open: " +
                std::string(std::strerror(err)) +
                "); virtual machines often hide it. Use --instrument=instructions, which simulates the CPU";
        } else if (err == EACCES || err == EPERM) {
            error_ = "the kernel refuses the hardware instruction counter (perf_event_open: " +
                     std::string(std::strerror(err)) +
                     "); lower /proc/sys/kernel/perf_event_paranoid to 2 or less, or use "
                     "--instrument=instructions";
        } else {
            error_ = "the hardware instruction counter cannot be opened (perf_event_open: " +
                     std::string(std::strerror(err)) + ")";
        }
        return;
    }
    fd_ = static_cast<int>(fd);
}

hw_instruction_counter::~hw_instruction_counter() {
    if (fd_ >= 0) {
        close(fd_);
    }
}

void hw_instruction_counter::start() noexcept {
    if (fd_ >= 0) {
        ioctl(fd_, PERF_EVENT_IOC_ENABLE, 0);
    }
}

void hw_instruction_counter::stop() noexcept {
    if (fd_ >= 0) {
        ioctl(fd_, PERF_EVENT_IOC_DISABLE, 0);
    }
}

std::uint64_t hw_instruction_counter::read() noexcept {
    std::uint64_t v = 0;
    if (fd_ < 0 || ::read(fd_, &v, sizeof v) != static_cast<ssize_t>(sizeof v)) {
        return 0;
    }
    return v;
}

void hw_instruction_counter::reset() noexcept {
    if (fd_ >= 0) {
        ioctl(fd_, PERF_EVENT_IOC_RESET, 0);
    }
}

}  // namespace tare::os
