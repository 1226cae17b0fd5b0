#pragma once
// Test doubles for the runner's seams: a clock that moves only when told, and a region probe
// whose allocations and page faults are whatever the test body declares.

#include <cstdint>

#include "core/clock.hpp"
#include "core/probes.hpp"

namespace tare::test {

/// Time moves by `read_cost` at each read and by whatever the body advances it by.
class manual_clock final : public core::clock_source {
public:
    explicit manual_clock(std::int64_t read_cost = 0) : read_cost_(read_cost) {}
    std::int64_t now_ns() noexcept override {
        ++reads_;
        std::int64_t t = now_;
        now_ += read_cost_;
        return t;
    }
    void advance(std::int64_t ns) noexcept { now_ += ns; }
    std::uint64_t reads() const noexcept { return reads_; }

private:
    std::int64_t now_ = 1000000;
    std::int64_t read_cost_;
    std::uint64_t reads_ = 0;
};

/// Counts only while resumed, as the real accounting does; `live` is tracked throughout.
class manual_probe final : public core::region_probe {
public:
    bool accounting() const noexcept override { return true; }
    void region_begin() noexcept override {
        c_ = {};
        counting_ = false;
        ++regions_;
    }
    void resume() noexcept override { counting_ = true; }
    void pause() noexcept override { counting_ = false; }
    alloc::counters counters() noexcept override { return c_; }
    void region_end() noexcept override {
        counting_ = false;
        ++regions_ended_;
    }
    std::uint64_t page_faults() noexcept override { return faults_; }
    /// With the CPU time a test declares (measure_cpu(), then cpu()), as the real probe reads the
    /// process's; none before measure_cpu().
    core::process_reading read_process() noexcept override {
        if (!cpu_measured_) {
            return {faults_, std::nullopt};
        }
        return {faults_, cpu_ns_};
    }
    void measure_cpu() noexcept { cpu_measured_ = true; }
    /// The process spends `ns` on a CPU.
    void cpu(double ns) noexcept { cpu_ns_ += ns; }

    void allocate(std::int64_t bytes) noexcept {
        if (!counting_) {
            return;
        }
        ++c_.allocs;
        c_.bytes += static_cast<std::uint64_t>(bytes);
        c_.live += bytes;
        if (c_.live > c_.peak) {
            c_.peak = c_.live;
        }
    }
    void release(std::int64_t bytes) noexcept { c_.live -= bytes; }
    void fault(std::uint64_t n) noexcept { faults_ += n; }
    bool counting() const noexcept { return counting_; }
    int regions() const noexcept { return regions_; }
    int regions_ended() const noexcept { return regions_ended_; }

private:
    alloc::counters c_;
    bool counting_ = false;
    std::uint64_t faults_ = 0;
    bool cpu_measured_ = false;
    double cpu_ns_ = 0;
    int regions_ = 0;
    int regions_ended_ = 0;
};

}  // namespace tare::test
