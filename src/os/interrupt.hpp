#pragma once
// SIGINT, SIGTERM and SIGHUP: a run that is interrupted keeps what it finished and leaves no child
// running (docs/cli.md, "Interrupting a run"). The first signal is recorded, for the run's own
// loop to stop at its next step, and passed on to the children that should stop with it (a
// benchmark executable run by `tare run`); the second ends the process at once, after killing
// every child's process group. Every child runs in a process group of its own, so a timeout
// (kill_group) stops its grandchildren too.

#include <sys/types.h>

namespace tare::os {

/// Installs the handlers (idempotent). Without it the signals keep their default action.
void handle_interrupts();

/// The signal (SIGINT, SIGTERM or SIGHUP: a closed terminal, a cancelled CI job) that
/// interrupted this process, or 0.
int interrupted() noexcept;

/// Blocks the calling thread until the first interrupting signal has come (at once if it has).
/// For a watchdog thread: it sleeps on a semaphore the handler posts, costing nothing until then.
/// handle_interrupts() must have been called.
void wait_for_interrupt() noexcept;

/// The exit status of a process that stopped because of `signal`: 128 + signal (130, 143, 129).
constexpr int interrupted_status(int signal) noexcept {
    return 128 + signal;
}

/// "SIGINT", "SIGTERM", "SIGHUP": the name messages give the signal that interrupted the run.
inline const char* interrupt_name(int signal) noexcept {
    return signal == 2 ? "SIGINT" : signal == 1 ? "SIGHUP" : "SIGTERM";  // the only three the handlers take
}

/// Kills the process group `pgid` (a child started in a group of its own) with `signal`.
void kill_group(pid_t pgid, int signal) noexcept;

/// What the first signal does to a child's process group; a second kills every group.
enum class on_interrupt {
    wait,     // nothing: its caller stops it after the step in progress (a compare worker)
    forward,  // the same signal: it stops and writes what it finished (a benchmark executable)
    kill,     // SIGKILL at once: what it was doing is lost anyway (an --isolate child)
};

/// The handlers know of the child process group `pgid` until unwatch_group(the slot returned);
/// -1 when every slot is taken. For a child whose life spans calls (a worker).
int watch_group(pid_t pgid, on_interrupt action) noexcept;
void unwatch_group(int slot) noexcept;

/// While it lives, the handlers know of the child process group `pgid`. Async-signal-safe
/// slots, a fixed number of them: a child beyond them is killed only by its own timeout.
class watched_group {
public:
    watched_group(pid_t pgid, on_interrupt action) noexcept;
    watched_group(const watched_group&) = delete;
    watched_group& operator=(const watched_group&) = delete;
    watched_group(watched_group&&) = delete;
    watched_group& operator=(watched_group&&) = delete;
    ~watched_group();

private:
    int slot_ = -1;
};

}  // namespace tare::os
