#include "core/probes.hpp"

#include "os/os.hpp"

namespace tare::core {

bool system_probe::accounting() const noexcept {
    return alloc::available();
}

void system_probe::region_begin() noexcept {
    alloc::region_begin();
    alloc::pause();
}

void system_probe::resume() noexcept {
    alloc::resume();
}
void system_probe::pause() noexcept {
    alloc::pause();
}
bool system_probe::copies() const noexcept {
    return alloc::copies_counted();
}

bool system_probe::mappings() const noexcept {
    return alloc::mappings_counted();
}
alloc::counters system_probe::counters() noexcept {
    return alloc::snapshot();
}
void system_probe::region_end() noexcept {
    alloc::region_end();
}

bool system_probe::region_begin_sites(alloc::site_buffers buffers) noexcept {
    if (!alloc::available()) {
        return false;
    }
    alloc::prepare_site_capture();
    alloc::region_begin_sites(buffers);
    alloc::pause();
    return true;
}

alloc::site_totals system_probe::sites_recorded() noexcept {
    return alloc::sites_recorded();
}

void system_probe::sites_growth_only(std::span<const void* const> live) noexcept {
    alloc::sites_growth_only(live);
}

std::uint64_t system_probe::page_faults() noexcept {
    os::usage u = os::self_usage();
    return u.minor_faults + u.major_faults;
}

process_reading system_probe::read_process() noexcept {
    // One getrusage for both: the faults were read at every chunk's edges already.
    const os::usage u = os::self_usage();
    return {u.minor_faults + u.major_faults, (u.user_seconds + u.system_seconds) * 1e9};
}

}  // namespace tare::core
