#pragma once
// Private to tare::gbench: the region hooks (region_hooks.cpp) as the MemoryManager sees them.

#include <string>
#include <vector>

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

}  // namespace tare::gbench
