#pragma once
// Counting the instructions of a region rather than timing it (docs/instructions.md): the client
// requests of Valgrind's Callgrind, which a process running under it obeys, and the kernel's
// hardware instruction counter. One implementation file per OS (counters_linux.cpp).

#include <cstdint>
#include <optional>
#include <string>

namespace tare::os {

/// Valgrind's Callgrind, seen from the program it runs. Each request is a few instructions that
/// do nothing outside Valgrind (valgrind/callgrind.h), and nothing in a build without that header.
namespace callgrind {

/// Whether the client requests were compiled in (valgrind/callgrind.h was found at build time).
bool built() noexcept;
/// Whether this process runs under Valgrind.
bool running() noexcept;
/// Simulation on or off for the whole process (each switch discards Valgrind's translations).
void start_instrumentation() noexcept;
void stop_instrumentation() noexcept;
/// Counting on or off for the calling thread alone (Callgrind keeps the state per thread).
void toggle_collect() noexcept;
/// Writes the counts so far to the next dump file (`<out-file>.<n>`, n = 1, 2, ...) and sets them
/// back to 0.
void dump(const char* reason) noexcept;

}  // namespace callgrind

/// The kernel's count of the instructions the calling thread retires in user mode
/// (perf_event_open, PERF_COUNT_HW_INSTRUCTIONS), started and stopped around a region.
class hw_instruction_counter {
public:
    /// Opens the counter, stopped at 0; error() says why it cannot be (no such counter in this
    /// machine or VM, or perf_event_paranoid forbids it).
    hw_instruction_counter();
    hw_instruction_counter(const hw_instruction_counter&) = delete;
    hw_instruction_counter& operator=(const hw_instruction_counter&) = delete;
    hw_instruction_counter(hw_instruction_counter&&) = delete;
    hw_instruction_counter& operator=(hw_instruction_counter&&) = delete;
    ~hw_instruction_counter();

    const std::optional<std::string>& error() const noexcept { return error_; }
    void start() noexcept;
    void stop() noexcept;
    /// The count so far (0 after an error).
    std::uint64_t read() noexcept;
    void reset() noexcept;

private:
    int fd_ = -1;
    std::optional<std::string> error_;
};

}  // namespace tare::os
