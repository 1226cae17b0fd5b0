#pragma once
// Allocation accounting of the timed region. This layer depends on nothing else of tare.
//
// Model (docs/accounting.md has the full text):
// - region_begin() opens a region: a new epoch, counters at zero, the calling thread its
//   owner. While the region is counting, every allocation call by any thread adds to
//   `allocs` and `bytes` (the size the caller requested) and is tagged with the epoch.
// - `live` is the region's net level: the bytes it allocated less the bytes freed, counting
//   the frees of its own blocks wherever and whenever they happen (a free during pause() still
//   lowers it) and the frees of older blocks (setup's) while it counts. It may be negative: a
//   body that drains what setup built. Blocks allocated while paused are in no figure, freed or
//   not. Setup's allocations are never counted, so setup is in no figure either.
// - `peak` is the highest `live` reached while counting, from 0 (the level the region began at).
// - pause()/resume() bracket the harness's own work between samples: allocations made while
//   paused are not counted and are not tagged.

#include <cstdint>

namespace tare::alloc {

struct counters {
    std::uint64_t allocs = 0;  // allocation calls while counting
    std::uint64_t bytes = 0;   // bytes requested by those calls
    std::int64_t live = 0;     // the region's net level: bytes allocated less bytes freed
    std::int64_t peak = 0;     // the highest `live` seen while counting, never below 0
};

/// True when the allocation interposer is linked into this process and forwarding to the C
/// library's allocator (false in sanitizer builds, where the sanitizer owns malloc).
bool available() noexcept;

/// Why available() answers as it does.
enum class availability {
    active,     ///< this process's malloc and operator new are the interposer's
    not_built,  ///< built without the interposer (sanitizer builds: interpose_none.cpp)
    shadowed,   ///< linked, but another malloc wins the dynamic lookup (e.g. this library
                ///< was linked into a shared object instead of the executable)
};
/// available(), with the reason; the first call resolves it (it may allocate), later calls
/// read the cached answer.
availability availability_status() noexcept;

/// Opens a new region owned by the calling thread and starts counting.
void region_begin() noexcept;
/// Stops counting allocations (frees of region blocks still lower `live`).
void pause() noexcept;
/// Resumes counting.
void resume() noexcept;
/// The region's counters so far. Exact when called by the owner while paused or after the
/// other threads that allocated inside the region have finished their calls.
counters snapshot() noexcept;
/// Closes the region: later frees of its blocks are ignored.
void region_end() noexcept;

/// Opens a member region: like region_begin(), except that only member threads count, each
/// from its join() to its leave(), and the region has no owner (docs/accounting.md, "Member
/// regions"). For a harness that runs copies of one loop on threads of its own, each pausing on
/// its own (Google Benchmark's ->Threads(n)): a thread's setup, teardown and pauses are then
/// outside the figures while the others count. pause()/resume() still stop and restart all.
void region_begin_members() noexcept;
/// The calling thread counts in the open member region, until leave() or the region's end.
void join() noexcept;
/// The calling thread stops counting in the member region: its later allocations are in no
/// figure, and it frees its own region's blocks as a paused region does.
void leave() noexcept;

}  // namespace tare::alloc
