#pragma once
// The end of what a child writes to its standard error, kept in memory within a bound.

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace tare::os {

/// What a capture kept: the last bytes written, and how many came before them and were dropped.
struct captured_tail {
    std::string text;
    std::uint64_t dropped = 0;
};

/// The last line of `t` (at most 300 characters), with how many bytes before the kept ones were
/// dropped when some were (`keep_bytes`: what the capture kept); empty when `t` has no text. What
/// a failed child's message quotes as its last words.
std::string last_words(const captured_tail& t, std::size_t keep_bytes);

/// A pipe whose write end a child gets (as its standard error), drained by a thread of this
/// process into a ring of at most `keep_bytes`: however much the child writes, tare holds the
/// last `keep_bytes` of it and a count of the rest, and no file grows.
/// Rejected: the child writing to a temporary file that tare reads afterwards (what a benchmark
/// writes fills the disk: 1.5 GB of standard error is 1.5 GB of `$TMPDIR` per worker), and a
/// file size limit (RLIMIT_FSIZE kills the child with SIGXFSZ, turning chatter into a crash).
class tail_capture {
public:
    /// How much of a child's standard error is kept: the end is where a failing program says
    /// why, and a few MiB hold any message, a sanitizer's report or a stack trace included,
    /// while bounding what a benchmark that floods its standard error costs (docs/cli.md).
    static constexpr std::size_t default_keep_bytes = std::size_t{4} << 20;

    explicit tail_capture(std::size_t keep_bytes = default_keep_bytes);
    tail_capture(const tail_capture&) = delete;
    tail_capture& operator=(const tail_capture&) = delete;
    tail_capture(tail_capture&&) = delete;
    tail_capture& operator=(tail_capture&&) = delete;
    /// Stops draining (whether or not every writer has closed) and closes the pipe.
    ~tail_capture();

    /// The end to give the child (close-on-exec here; dup2 it onto the child's descriptor);
    /// -1 when no pipe could be made, and then error() says why.
    int child_end() const noexcept { return child_end_; }
    const std::string& error() const noexcept { return error_; }
    /// Closes this process's copy of the child's end: once the child and everything it started
    /// have closed theirs, the drain sees the end of the stream.
    void close_child_end() noexcept;
    /// What was kept so far, after waiting at most `wait_seconds` for the end of the stream
    /// (a descendant that detached may hold the pipe open forever: it is not waited for).
    captured_tail tail(double wait_seconds) const;

private:
    void drain();
    void keep(const char* data, std::size_t n);  // mutex_ held

    std::size_t keep_bytes_;
    int read_end_ = -1;
    int child_end_ = -1;
    int stop_[2] = {-1, -1};  // a byte written to stop_[1] ends the drain
    std::string error_;

    mutable std::mutex mutex_;
    mutable std::condition_variable ended_cv_;
    bool ended_ = false;       // the stream ended (every writer closed) or failed
    std::string ring_;         // grows to keep_bytes_, then overwritten from next_
    std::size_t next_ = 0;     // where the next byte goes once ring_ is full
    std::uint64_t total_ = 0;  // bytes read in all
    std::thread thread_;
};

}  // namespace tare::os
