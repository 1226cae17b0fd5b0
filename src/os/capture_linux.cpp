// Linux implementation of src/os/capture.hpp.
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string_view>

#include "os/capture.hpp"
#include "os/os.hpp"

namespace tare::os {

tail_capture::tail_capture(std::size_t keep_bytes) : keep_bytes_(keep_bytes > 0 ? keep_bytes : 1) {
    int data[2] = {-1, -1};
    if (pipe2(data, O_CLOEXEC) != 0 || pipe2(stop_, O_CLOEXEC) != 0) {
        error_ = std::string("pipe: ") + std::strerror(errno);
        close_fd(data[0]);
        close_fd(data[1]);
        return;
    }
    read_end_ = data[0];
    child_end_ = data[1];
    thread_ = std::thread([this] { drain(); });
}

tail_capture::~tail_capture() {
    if (thread_.joinable()) {
        const char byte = 0;
        while (write(stop_[1], &byte, 1) < 0 && errno == EINTR) {
        }
        thread_.join();
    }
    for (int* fd : {&read_end_, &child_end_, &stop_[0], &stop_[1]}) {
        close_fd(*fd);
    }
}

void tail_capture::close_child_end() noexcept {
    close_fd(child_end_);
}

void tail_capture::keep(const char* data, std::size_t n) {
    total_ += n;
    if (n >= keep_bytes_) {  // the chunk alone fills the ring: its end is all that stays
        ring_.assign(data + (n - keep_bytes_), keep_bytes_);
        next_ = 0;
        return;
    }
    if (ring_.size() < keep_bytes_) {  // still filling
        const std::size_t room = keep_bytes_ - ring_.size();
        const std::size_t first = n < room ? n : room;
        if (ring_.size() + first > ring_.capacity()) {  // grow by doubling, never past the bound
            const std::size_t want = std::max(ring_.capacity() * 2, ring_.size() + first);
            ring_.reserve(std::min(want, keep_bytes_));
        }
        ring_.append(data, first);
        data += first;
        n -= first;
        next_ = 0;
    }
    while (n > 0) {  // at most two pieces: up to the ring's end, then from its start
        const std::size_t piece = n < keep_bytes_ - next_ ? n : keep_bytes_ - next_;
        ring_.replace(next_, piece, data, piece);
        next_ = (next_ + piece) % keep_bytes_;
        data += piece;
        n -= piece;
    }
}

void tail_capture::drain() {
    // PERF: 64 KiB a read, the size of a pipe's buffer: a child flooding its standard error
    // costs this thread one read and one copy per 64 KiB.
    std::string buffer(std::size_t{64} << 10, '\0');
    for (;;) {
        pollfd fds[2] = {{read_end_, POLLIN, 0}, {stop_[0], POLLIN, 0}};
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        if (fds[1].revents != 0) {
            break;
        }
        const ssize_t n = read(read_end_, buffer.data(), buffer.size());
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        const std::lock_guard<std::mutex> lock(mutex_);
        keep(buffer.data(), static_cast<std::size_t>(n));
    }
    const std::lock_guard<std::mutex> lock(mutex_);
    ended_ = true;
    ended_cv_.notify_all();
}

captured_tail tail_capture::tail(double wait_seconds) const {
    std::unique_lock<std::mutex> lock(mutex_);
    if (thread_.joinable() && wait_seconds > 0) {
        ended_cv_.wait_for(lock, std::chrono::duration<double>(wait_seconds), [this] { return ended_; });
    }
    captured_tail t;
    t.dropped = total_ - ring_.size();
    t.text.reserve(ring_.size());
    t.text.append(ring_, next_, std::string::npos);
    t.text.append(ring_, 0, next_);
    return t;
}

std::string last_words(const captured_tail& t, std::size_t keep_bytes) {
    std::string_view text = t.text;
    while (!text.empty() && text.back() == '\n') {
        text.remove_suffix(1);
    }
    const std::size_t newline = text.rfind('\n');
    std::string last(text.substr(newline == std::string_view::npos ? 0 : newline + 1));
    if (last.size() > 300) {
        last = last.substr(0, 300) + "...";
    }
    if (t.dropped > 0 && !last.empty()) {
        last += " (" + std::to_string(t.dropped) +
                " earlier bytes of its standard error were dropped: tare keeps the last " +
                (keep_bytes >= (std::size_t{1} << 20) ? std::to_string(keep_bytes >> 20) + " MiB)"
                                                      : std::to_string(keep_bytes >> 10) + " KiB)");
    }
    return last;
}

}  // namespace tare::os
