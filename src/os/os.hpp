#pragma once
// What tare asks of the operating system. One implementation file per OS (linux.cpp).

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tare::os {

/// Resource usage of this process so far (all threads).
struct usage {
    std::uint64_t minor_faults = 0;
    std::uint64_t major_faults = 0;
    double user_seconds = 0;
    double system_seconds = 0;
    std::int64_t max_rss_kib = 0;
};

usage self_usage() noexcept;
/// Resource usage of the calling thread alone (its faults and CPU time; max_rss_kib is the
/// process's, as the kernel keeps no other).
usage thread_usage() noexcept;
std::string host_name();
/// The CPU's model name ("" when unknown).
std::string cpu_model();
unsigned cpu_count() noexcept;
/// The CPUs this process may run on (its affinity mask), ascending; empty when unknown.
std::vector<int> allowed_cpus();
/// The size of a memory page in bytes.
std::size_t page_size() noexcept;
/// The absolute path of the running executable ("" when unknown).
std::string executable_path();
/// The current UTC time as ISO-8601 ("2026-11-30T05:00:00Z").
std::string utc_now_iso8601();

/// Is the file descriptor `fd` a terminal?
bool is_terminal(int fd) noexcept;
/// Closes `fd` when it is open (not negative) and marks it closed (-1).
void close_fd(int& fd) noexcept;
/// The width in columns of the terminal at `fd`: $COLUMNS when it is a positive number (what
/// shells export, and what a user sets to ask for another width), else the terminal's own size;
/// empty when `fd` is not a terminal or its size is unknown.
std::optional<std::size_t> terminal_columns(int fd);
/// Seconds on a monotonic clock, for telling a user how long a run has taken (never for a
/// measurement: those go through core/clock.hpp).
double monotonic_seconds() noexcept;

/// A fresh file name in this process's private temporary directory, or why there is none.
struct temp_name {
    std::string path;   // empty on failure
    std::string error;  // "cannot make a private temporary directory in '/tmp': ..." on failure
};

/// A name no other process can predict or plant anything at: "<dir>/<stem>-<n><suffix>" inside
/// a directory made once per process with mkdtemp in $TMPDIR (else /tmp), mode 0700, owned by
/// this process's user (docs/cli.md, "Files"). Rejected: names built from the process id in
/// $TMPDIR itself, which another local user can guess and turn into links to their victim's
/// files before tare opens them. The directory and everything in it are removed when the
/// process exits (exit() or a return from main) and on an interrupt's immediate exit; the name
/// is never handed out twice. Thread-safe.
temp_name temp_file_name(std::string_view stem, std::string_view suffix = {});

/// Removes the private temporary directory and what is in it, if this process made one.
/// Async-signal-safe (open, getdents64, unlinkat, rmdir on a path fixed when it was made), for
/// the interrupt handler's path to _exit; a no-op in a forked child that did not make it.
void remove_temp_dir() noexcept;

}  // namespace tare::os
