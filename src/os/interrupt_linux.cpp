#include "os/interrupt.hpp"

#include <errno.h>
#include <semaphore.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>

#include "os/os.hpp"
#include "os/process.hpp"

namespace tare::os {

namespace {

// Slots the handler reads, each one word: 4 x the process group id + the on_interrupt action;
// 0: free. Lock-free atomics of int are async-signal-safe; a mutex would not be.
constexpr int max_groups = 64;
std::atomic<int> groups[max_groups];
std::atomic<int> received{0};
// Posted by the first signal (sem_post is async-signal-safe; a condition variable is not).
sem_t arrived;

void on_signal(int signal) {
    // kill() may set errno (the group has just exited); the interrupted code may be reading it.
    const int saved_errno = errno;
    const int first = received.exchange(signal);
    if (first == 0)
        ::sem_post(&arrived);
    for (int i = 0; i < max_groups; ++i) {
        const int word = groups[i].load();
        const int pgid = word / 4;
        if (pgid <= 0)
            continue;
        const auto action = static_cast<on_interrupt>(word % 4);
        if (first != 0 || action == on_interrupt::kill)
            ::kill(-pgid, SIGKILL);
        else if (action == on_interrupt::forward)
            ::kill(-pgid, signal);
    }
    if (first != 0) {
        kill_orphans_now();
        remove_temp_dir();                    // _exit runs no atexit handler
        ::_exit(interrupted_status(signal));  // the second: at once
    }
    errno = saved_errno;
}

}  // namespace

void handle_interrupts() {
    static const bool installed = [] {
        ::sem_init(&arrived, 0, 0);
        struct sigaction sa {};
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        // SA_RESTART: a signal that arrives in a blocking call the code does not expect to fail
        // (a write of the table to a pipe) is no error. ThreadSanitizer runs a handler at the
        // next intercepted call instead of when the signal comes, so there a wait4() on a child
        // that never ends would be restarted for ever with the handler still pending: without
        // SA_RESTART the wait returns EINTR, and the loop around it calls in again.
#if defined(__SANITIZE_THREAD__)
        sa.sa_flags = 0;
#else
        sa.sa_flags = SA_RESTART;
#endif
        // A signal the process was started with ignored stays ignored: nohup's SIGHUP, and the
        // SIGINT of a shell's background job, are the user's choice.
        for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
            struct sigaction old {};
            if (::sigaction(signal, nullptr, &old) == 0 && old.sa_handler == SIG_IGN)
                continue;
            ::sigaction(signal, &sa, nullptr);
        }
        return true;
    }();
    (void)installed;
}

void wait_for_interrupt() noexcept {
    while (::sem_wait(&arrived) != 0 && errno == EINTR) {
    }
    ::sem_post(&arrived);  // for the next waiter
}

int interrupted() noexcept {
    return received.load();
}

void kill_group(pid_t pgid, int signal) noexcept {
    if (pgid > 0)
        ::kill(-pgid, signal);
}

int watch_group(pid_t pgid, on_interrupt action) noexcept {
    const int word = 4 * static_cast<int>(pgid) + static_cast<int>(action);
    for (int i = 0; i < max_groups; ++i) {
        int expected = 0;
        if (groups[i].compare_exchange_strong(expected, word)) {
            // A signal that came before the slot was filled has not reached this child.
            if (const int signal = received.load(); signal != 0 && action != on_interrupt::wait)
                ::kill(-pgid, action == on_interrupt::kill ? SIGKILL : signal);
            return i;
        }
    }
    return -1;
}

void unwatch_group(int slot) noexcept {
    if (slot >= 0 && slot < max_groups)
        groups[slot].store(0);
}

watched_group::watched_group(pid_t pgid, on_interrupt action) noexcept : slot_(watch_group(pgid, action)) {}

watched_group::~watched_group() {
    unwatch_group(slot_);
}

}  // namespace tare::os
