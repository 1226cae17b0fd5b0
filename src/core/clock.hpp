#pragma once
// The clock seam. The runner reads time only through clock_source, so calibration and
// sampling are tested exactly with a manual clock (Catch2's benchmark clock is the model;
// a virtual call rather than a template parameter because the clock is read once per chunk,
// never per iteration, and a virtual keeps the runner a normal, non-template translation unit).

#include <chrono>
#include <cstdint>

namespace tare::core {

class clock_source {
public:
    clock_source() = default;
    clock_source(const clock_source&) = delete;
    clock_source& operator=(const clock_source&) = delete;
    clock_source(clock_source&&) = delete;
    clock_source& operator=(clock_source&&) = delete;
    virtual ~clock_source() = default;
    /// Monotonic time in ns from an arbitrary origin.
    virtual std::int64_t now_ns() noexcept = 0;
};

/// std::chrono::steady_clock (CLOCK_MONOTONIC on Linux; about 20-30 ns a read on small VMs).
class steady_clock_source final : public clock_source {
public:
    /// Out of line, in clock.cpp: the one definition, and so the one vtable, every executable
    /// gets is compiled with the project's flags, as the rest of the timed region's edges are
    /// (CMakeLists.txt, TARE_COLD_CODE_FLAGS). An inline body was emitted by whichever file
    /// constructed the clock, the executable's main among them.
    std::int64_t now_ns() noexcept override;
};

/// The cost of one read of `clock`, in ns: the median over many back-to-back pairs, so a
/// preempted pair does not inflate it. Calibration sizes samples against this cost, not
/// against the clock's nominal 1 ns resolution.
double measure_clock_overhead(clock_source& clock);

}  // namespace tare::core
