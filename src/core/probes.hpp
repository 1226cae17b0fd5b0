#pragma once
// The memory and OS seam of the runner: allocation accounting and page faults are read
// only through region_probe, so the sample loop is testable without real allocations.

#include <cstdint>
#include <optional>

#include "alloc/accounting.hpp"

namespace tare::core {

/// The process's page faults and CPU time at one moment, from one reading.
struct process_reading {
    std::uint64_t page_faults = 0;  // minor plus major, so far
    std::optional<double> cpu_ns;   // user plus system CPU time so far; none when not measured
};

class region_probe {
public:
    region_probe() = default;
    region_probe(const region_probe&) = delete;
    region_probe& operator=(const region_probe&) = delete;
    region_probe(region_probe&&) = delete;
    region_probe& operator=(region_probe&&) = delete;
    virtual ~region_probe() = default;

    /// Whether allocation figures are real (false: they are reported as null).
    virtual bool accounting() const noexcept = 0;
    /// Whether copied and set bytes are counted (tare::copies linked; false: reported as null).
    virtual bool copies() const noexcept { return false; }
    /// Whether the body's anonymous mappings are counted (false: reported as null).
    virtual bool mappings() const noexcept { return false; }
    virtual void region_begin() noexcept = 0;  // opens the window, paused
    virtual void resume() noexcept = 0;
    virtual void pause() noexcept = 0;
    virtual alloc::counters counters() noexcept = 0;
    virtual void region_end() noexcept = 0;
    /// Minor plus major page faults of the process so far.
    virtual std::uint64_t page_faults() noexcept = 0;
    /// The page faults and, where this probe measures it, the CPU time of the process so far.
    virtual process_reading read_process() noexcept { return {page_faults(), std::nullopt}; }
    /// Opens a region, paused, that records every counted allocation's stack into `buffers`
    /// (alloc::region_begin_sites); false when this probe cannot (no accounting, a test's probe).
    virtual bool region_begin_sites(alloc::site_buffers buffers) noexcept {
        (void)buffers;
        return false;
    }
    /// The records of the last sites region.
    virtual alloc::site_totals sites_recorded() noexcept { return {}; }
    /// Narrows the open sites region to allocations bigger than any before (alloc::sites_growth_only).
    virtual void sites_growth_only(std::span<const void* const> live) noexcept { (void)live; }
};

/// The real probe: src/alloc's interposer and getrusage.
class system_probe final : public region_probe {
public:
    bool accounting() const noexcept override;
    bool copies() const noexcept override;
    bool mappings() const noexcept override;
    void region_begin() noexcept override;
    void resume() noexcept override;
    void pause() noexcept override;
    alloc::counters counters() noexcept override;
    void region_end() noexcept override;
    std::uint64_t page_faults() noexcept override;
    process_reading read_process() noexcept override;
    bool region_begin_sites(alloc::site_buffers buffers) noexcept override;
    alloc::site_totals sites_recorded() noexcept override;
    void sites_growth_only(std::span<const void* const> live) noexcept override;
};

}  // namespace tare::core
