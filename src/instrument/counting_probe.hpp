#pragma once
// The clock and the probe of a counted run (docs/instructions.md): what runs inside the
// instrument's window on every chunk, so its instructions are in the exact counts. Its functions
// are defined out of line in counting_probe.cpp, compiled with the project's own flags as the
// sample loop is (CMakeLists.txt, TARE_COLD_CODE_FLAGS): a subproject and a top-level build of
// one program then count alike.

#include <cstdint>

#include "core/clock.hpp"
#include "core/probes.hpp"
#include "instrument/counted_run.hpp"
#include "os/counters.hpp"

namespace tare::instrument {

/// A clock that does not move: under counting, time is no figure, and a real clock read inside
/// the switched-on window would add its own varying instructions (a vDSO retry loop).
class still_clock final : public core::clock_source {
public:
    std::int64_t now_ns() noexcept override;
};

/// The real probe, with the counter switched on and off where the memory window resumes and
/// pauses: on last thing before the body runs, off first thing after.
class counting_probe final : public core::region_probe {
public:
    counting_probe(core::region_probe& inner, counter how, os::hw_instruction_counter* hw)
        : inner_(inner), how_(how), hw_(hw) {}

    void set_counting(bool on) noexcept { counting_ = on; }

    bool accounting() const noexcept override;
    bool copies() const noexcept override;
    void region_begin() noexcept override;
    void resume() noexcept override;
    void pause() noexcept override;
    alloc::counters counters() noexcept override;
    void region_end() noexcept override;
    std::uint64_t page_faults() noexcept override;  // the simulator's, not the body's: 0

private:
    core::region_probe& inner_;
    counter how_;
    os::hw_instruction_counter* hw_;
    bool counting_ = false;
    bool on_ = false;
};

}  // namespace tare::instrument
