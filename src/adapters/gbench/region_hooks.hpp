#pragma once
// Private to tare::gbench: the region hooks (region_hooks.cpp) as the MemoryManager sees them.

#include <cstdint>
#include <string>
#include <vector>

#include "alloc/accounting.hpp"

namespace tare::gbench {

/// Google Benchmark's memory run is on (the MemoryManager's Start to Stop): the hooks stand
/// aside, or its window and theirs would be one region opened twice.
void set_memory_run(bool active) noexcept;

/// The suite was linked with tare::gbench's --wrap options, so the hooks see every loop.
bool hooks_linked() noexcept;

/// The members of benchmark::State the hooks wrap that the installed header declares but the
/// linked library does not define (a Google Benchmark release the adapter does not know): the
/// suite's calls of them would pass the hooks by. Empty when every one is there. Meaningful only
/// in a suite linked with the --wrap options.
std::vector<std::string> missing_members();

/// Counted mode (--instrument; docs/instructions.md): each thread's loop switches Callgrind's
/// counting on as it starts or resumes and off as it pauses or ends, right around Google
/// Benchmark's own calls, so only the suite's loop body is counted.
void set_counting(bool on) noexcept;

/// What the sites pass's loop recorded (sites_pass.cpp): `opened` when a loop ran as a sites
/// region, with its iterations and the loop's wall time (the capture included).
struct sites_loop {
    bool opened = false;
    std::uint64_t iterations = 0;
    double elapsed_ns = 0;
};

/// The sites pass (docs/profiles.md): the next single-threaded loop opens a sites region
/// (alloc::region_begin_sites) into `buffers` instead of a plain one, and the loops after it in
/// the same run (its other repetitions) open none. Call outside any region: it makes the stack
/// capture ready (alloc::prepare_site_capture), which allocates on its first use.
void arm_sites(alloc::site_buffers buffers) noexcept;

/// Ends the sites pass: the hooks open plain regions again. What its loop recorded.
sites_loop disarm_sites() noexcept;

}  // namespace tare::gbench
