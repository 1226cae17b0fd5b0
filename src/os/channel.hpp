#pragma once
// A child process that talks to its parent over a pair of pipes, and line-oriented reads with
// a deadline: what `tare compare` needs to drive benchmark workers without ever hanging.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "os/process.hpp"

namespace tare::os {

/// The file descriptors a worker child finds its channel on (its end of each pipe).
inline constexpr int child_read_fd = 3;
inline constexpr int child_write_fd = 4;

/// A running child with a channel: the parent writes to `to_child` and reads `from_child`.
struct channel_child {
    int pid = -1;  // > 0 when started
    int to_child = -1;
    int from_child = -1;
    std::string error;    // why it did not start ("PATH: cannot execute: ...")
    int watch_slot = -1;  // its process group, known to the interrupt handlers (os/interrupt.hpp)
};

/// Starts argv[0] (a path) with a pipe pair on child_read_fd / child_write_fd. Its standard
/// output goes to /dev/null (a benchmark's prints must not corrupt anything) and its standard
/// error to `stderr_path` when given, else to /dev/null. The parent's ends are close-on-exec.
/// With `cpus`, the child runs on those CPUs alone (affinity set before exec); with
/// `layout_seed`, in that seed's address-space layout (src/os/layout.hpp); `extra_env`
/// ("NAME=value" entries) is added to its environment.
channel_child spawn_with_channel(const std::vector<std::string>& argv,
                                 const std::optional<std::string>& stderr_path = std::nullopt,
                                 const std::vector<int>& cpus = {},
                                 std::optional<std::uint64_t> layout_seed = std::nullopt,
                                 const std::vector<std::string>& extra_env = {});

/// The same, with the child's standard error on `stderr_fd` (a descriptor of this process, such
/// as the end of an os::tail_capture; it stays open here), or /dev/null when it is negative.
channel_child spawn_with_channel(const std::vector<std::string>& argv, int stderr_fd,
                                 const std::vector<int>& cpus = {},
                                 std::optional<std::uint64_t> layout_seed = std::nullopt,
                                 const std::vector<std::string>& extra_env = {});

/// `too_long`: a line past line_reader::max_line_bytes (the other side does not speak the
/// protocol, or has gone wrong).
enum class read_status { ok, eof, timeout, error, too_long };

/// Buffered reader of one descriptor with deadlines.
class line_reader {
public:
    /// The longest line read_line() takes: the protocol's lines are a few dozen bytes, a list of
    /// names some kilobytes. Without a bound, a peer that never sends '\n' grows the buffer until
    /// memory runs out.
    static constexpr std::size_t max_line_bytes = std::size_t{1} << 20;

    explicit line_reader(int fd) noexcept : fd_(fd) {}
    /// The next line without its '\n'; waits at most `timeout_seconds` (negative: forever).
    /// Linear in the bytes read, however they arrive: each byte is searched for '\n' once.
    read_status read_line(std::string& line, double timeout_seconds);
    /// Exactly `n` bytes; same waiting rule.
    read_status read_bytes(std::size_t n, std::string& out, double timeout_seconds);

private:
    read_status fill(double deadline_seconds_left);
    int fd_;
    std::string buffer_;
    std::size_t scanned_ = 0;  // bytes of buffer_ known to hold no '\n'
};

/// Writes all of `data`; false when the reader is gone (EPIPE; SIGPIPE is ignored by the caller).
bool write_all(int fd, std::string_view data) noexcept;

/// Closes the parent's ends and waits for the child, killing it (SIGKILL) if it has not ended
/// within `grace_seconds`; then kills what is left of its process group. How it ended, with its
/// own rusage. The child leads a group of its own, and an interrupt is not passed on to it: a
/// worker finishes its round, and its controller stops it.
child_result finish_child(channel_child& child, double grace_seconds);

/// Ignores SIGPIPE in this process, so a dead worker is an EPIPE, not a dead controller.
void ignore_sigpipe() noexcept;

}  // namespace tare::os
