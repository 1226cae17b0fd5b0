#pragma once
// Running a child process and collecting how it ended and what it used.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "os/interrupt.hpp"
#include "os/os.hpp"

namespace tare::os {

struct child_options {
    bool discard_stdout = false;             // else inherited
    std::optional<std::string> stdout_path;  // write its standard output to this file instead
    bool discard_stderr = false;             // else inherited
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

/// A human description of how the child ended: "exited with 3", "killed by SIGSEGV", ...
std::string describe_end(const child_result& r);

}  // namespace tare::os
