#pragma once
// Running a child process and collecting how it ended and what it used.

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "os/interrupt.hpp"
#include "os/os.hpp"

namespace tare::os {

struct child_options {
    bool discard_stdout = false;  // else inherited
    /// A descriptor its standard output goes to instead (a capture's end); -1: none.
    int stdout_fd = -1;
    bool discard_stderr = false;  // else inherited
    /// A descriptor its standard error goes to instead (a capture's end); -1: none.
    int stderr_fd = -1;
    std::optional<double> timeout_seconds;
    /// Run the child on these CPUs alone (its affinity mask, set before exec); empty: inherited.
    std::vector<int> cpus;
    /// Start it in this seed's address-space layout (src/os/layout.hpp); none: the kernel's.
    std::optional<std::uint64_t> layout_seed;
    /// The child's whole environment ("NAME=value" entries); none: this process's. Not with a
    /// layout_seed.
    std::optional<std::vector<std::string>> environment;
    /// What a SIGINT or SIGTERM this process receives does to the child (os/interrupt.hpp).
    on_interrupt interrupt = on_interrupt::forward;
};

struct child_result {
    bool started = false;  // false: could not be executed (message in `error`)
    std::string error;
    int exit_code = -1;      // when it exited
    int signal = 0;          // when a signal ended it
    bool timed_out = false;  // killed after the timeout
    double wall_seconds = 0;
    usage resources;  // of this child alone (wait4), not RUSAGE_CHILDREN
};

/// Runs argv[0] (a path) with argv and waits for it. The child leads a process group of its own;
/// a timeout kills the group, and whatever is left of the group when the child has ended is
/// killed too: nothing it started outlives it.
child_result run_child(const std::vector<std::string>& argv, const child_options& options = {});

/// What run_child_capturing() read of a child's standard output.
struct captured_child {
    child_result result;
    std::string output;  // all of it, when not `over`
    bool over = false;   // it wrote more than the limit: `output` is not all of it
};

/// Runs argv as run_child() does, its standard output read through a pipe, never a file: at most
/// `limit` bytes are kept (a program that prints without end fills neither memory nor a disk).
captured_child run_child_capturing(const std::vector<std::string>& argv, child_options options,
                                   std::size_t limit);

/// The path execv() is given for `name`: `name` itself when it contains a '/', else the first
/// executable regular file `dir/name` of the ':'-separated `path_list` (an empty entry is the
/// current directory), as a shell looks it up; empty when there is none.
std::optional<std::string> find_in_path(const std::string& name, std::string_view path_list);

/// Restricts the calling process to `cpus` (its affinity mask); false when refused or empty.
/// Allocates nothing: safe between fork and exec.
bool pin_to_cpus(std::span<const int> cpus) noexcept;

/// Pins the calling thread to `cpus` while it lives and then gives back the CPUs it had; with
/// no CPUs, does nothing.
class thread_pin {
public:
    explicit thread_pin(std::span<const int> cpus);
    thread_pin(const thread_pin&) = delete;
    thread_pin& operator=(const thread_pin&) = delete;
    thread_pin(thread_pin&&) = delete;
    thread_pin& operator=(thread_pin&&) = delete;
    ~thread_pin();

private:
    std::vector<int> before_;  // empty: not pinned
};

/// Makes this process the reaper of what its children leave behind (PR_SET_CHILD_SUBREAPER): a
/// descendant that detaches (setsid, a daemon's double fork) is given to it when its parent ends,
/// rather than to init, so end_orphans() can end it. Also ends them at exit. Idempotent.
/// Rejected: a cgroup per child, which needs a writable cgroup tree that CI containers lack.
void adopt_orphans() noexcept;

/// Ends every process this one was given as an orphan (adopt_orphans): reaps those that ended,
/// kills the rest — another process's temporary-directory janitor ("tare-janitor",
/// temp_linux.cpp) is given 2 s to finish first — and does so again for what they leave, until
/// none is left. Children this process started (fork_child) are left alone. Called when a child
/// ends and at exit; a no-op unless adopt_orphans() was called.
void end_orphans() noexcept;

/// As end_orphans(), for a process about to _exit from a signal handler: async-signal-safe, it
/// kills every orphan but a janitor and waits for none.
void kill_orphans_now() noexcept;

/// fork(), with the child noted in the parent as one this process started and will wait for, so
/// that end_orphans() never takes it for an orphan (the fork and the note happen under one lock,
/// which end_orphans() holds too). forget_child() once it has been waited for.
pid_t fork_child() noexcept;
void forget_child(pid_t pid) noexcept;

/// A human description of how the child ended: "exited with 3", "killed by SIGSEGV", ...
std::string describe_end(const child_result& r);

}  // namespace tare::os
