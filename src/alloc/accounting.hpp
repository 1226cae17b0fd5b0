#pragma once
// Allocation accounting of the timed region. This layer depends on nothing else of tare.
//
// Model (docs/accounting.md has the full text):
// - region_begin() opens a region: a new epoch, counters at zero, the calling thread its
//   owner. While the region is counting, every allocation call by any thread adds to
//   `allocs` and `bytes` (the size the caller requested) and the block's usable size (what the
//   allocator gave) to `live`.
// - `live` is the region's net level in usable bytes: what it allocated less what was freed
//   while it was open, by any thread, of any block but one allocated while the region was
//   paused. It may be negative: a body that drains what setup built. Blocks allocated while
//   paused are in no figure, freed or not. Setup's allocations are never counted.
// - `peak` is the highest `live` reached while counting, from 0 (the level the region began at).
// - pause()/resume() bracket the harness's own work between samples: allocations made while
//   paused are not counted, and their frees lower nothing.
// - The owner calls pause(), resume() and region_end(): on jemalloc the owner's level is read
//   off its own per-thread counters while it counts, and these calls fold them in and out.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace tare::alloc {

struct counters {
    std::uint64_t allocs = 0;  // allocation calls while counting
    std::uint64_t bytes = 0;   // bytes requested by those calls
    /// The region's net level, in the allocator's usable bytes: what its allocations added less
    /// what the frees while it was open took off.
    std::int64_t live = 0;
    std::int64_t peak = 0;  // the highest `live` seen while counting, never below 0
    /// Bytes passed to memcpy, memmove and mempcpy while counting, and to memset: counted only
    /// with tare::copies linked (copies_counted()), 0 otherwise.
    std::uint64_t copied = 0;
    std::uint64_t set = 0;
    /// Bytes of anonymous mappings the program made while counting (mmap, and mremap's growth),
    /// in whole pages, outside the allocator's own: counted only when mappings_counted().
    std::uint64_t mapped = 0;
    /// Blocks allocated while paused that the paused set had no room for: their frees while
    /// counting lowered `live` as older blocks' do (paused.hpp). 0 in any ordinary run.
    std::uint64_t untracked = 0;
};

/// True when tare::copies is linked into this executable: its memcpy, memmove, mempcpy and
/// memset (and their _FORTIFY_SOURCE forms) count the bytes of calls that reach them from the
/// executable and its shared libraries (docs/accounting.md, "Bytes copied").
bool copies_counted() noexcept;

/// True when the interposer counts the program's anonymous mappings (docs/accounting.md,
/// "Direct mappings"): accounting is available and the build is not a TSan build.
bool mappings_counted() noexcept;

/// True when the allocation interposer is linked into this process and forwarding to the
/// allocator underneath (false in sanitizer builds, where the sanitizer owns malloc, and when
/// availability_status() says why not).
bool available() noexcept;

/// Why available() answers as it does.
enum class availability {
    active,            ///< this process's malloc and operator new are the interposer's
    not_built,         ///< built without the interposer (sanitizer builds: interpose_none.cpp)
    shadowed,          ///< linked, but another malloc wins the dynamic lookup (e.g. this library
                       ///< was linked into a shared object instead of the executable)
    static_allocator,  ///< an allocator (jemalloc, mimalloc, tcmalloc) is linked statically into
                       ///< the executable: tare would forward past it to another allocator
};
/// One line that says why accounting is off, and the fix ("" for active).
const char* availability_message(availability a) noexcept;
/// available(), with the reason; the first call resolves it (it may allocate), later calls
/// read the cached answer.
availability availability_status() noexcept;

/// The allocator the interposer forwards to, and what tare counts of it, in one line for
/// people: "jemalloc 5.3.0: malloc family, new/delete, declared pools; not its mallocx family
/// (declare those blocks with tare::report_alloc)". Empty when accounting is off. Resolved on
/// the first call, which may allocate: call it outside any region.
const std::string& allocator_in_use();

/// Opens a new region owned by the calling thread and starts counting.
void region_begin() noexcept;
/// Stops counting allocations (frees of blocks allocated before the pause still lower `live`).
void pause() noexcept;
/// Resumes counting.
void resume() noexcept;
/// The region's counters so far. Exact when called by the owner while paused or after the
/// other threads that allocated inside the region have finished their calls.
counters snapshot() noexcept;
/// Closes the region: later frees are in no figure.
void region_end() noexcept;

/// Opens a member region: like region_begin(), except that only member threads count, each
/// from its join() to its leave(), and the region has no owner (docs/accounting.md, "Member
/// regions"). For a harness that runs copies of one loop on threads of its own, each pausing on
/// its own (Google Benchmark's ->Threads(n)): a thread's setup, teardown and pauses are then
/// outside the figures while the others count. pause()/resume() still stop and restart all.
void region_begin_members() noexcept;
/// The calling thread counts in the open member region, until leave() or the region's end.
void join() noexcept;
/// The calling thread stops counting in the member region for a pause inside its loop: its
/// allocations are in no figure until it joins again, and its frees lower the level as a
/// paused region's do.
void leave() noexcept;
/// The calling thread's loop is over: from here its allocations and frees are in no figure of
/// the member region (its teardown, as a single-threaded region's ends with its loop).
void finish() noexcept;

// ---- Allocation sites (docs/accounting.md, "Allocation sites") -----------------------------

/// The most return addresses a site record keeps, innermost first.
inline constexpr std::size_t max_site_frames = 40;

/// One allocation counted in a sites region, with the call stack that made it.
struct site_record {
    const void* block = nullptr;  // the pointer the caller received
    std::uint64_t size = 0;       // bytes requested
    std::uint64_t thread = 0;     // 0: the region's owner; else the allocating thread's pthread_t
    std::uint64_t seq = 0;        // order among the region's recorded allocations and frees
    std::uint32_t depth = 0;      // frames[0, depth) are valid
    void* frames[max_site_frames] = {};
};

/// A free (or the release half of a realloc) of a block a sites region recorded.
struct free_record {
    const void* block = nullptr;
    std::uint64_t seq = 0;
};

/// Where a sites region writes its records: caller-owned memory, allocated before the region
/// opens, so that recording allocates nothing.
struct site_buffers {
    std::span<site_record> allocs;
    std::span<free_record> frees;
    /// The allocations recorded after sites_growth_only(): each bigger than every one before.
    std::span<site_record> growth = {};
};

/// How many records a sites region made; past a buffer's capacity the rest are counted only.
struct site_totals {
    std::size_t allocs = 0;
    std::size_t frees = 0;
    std::size_t dropped_allocs = 0;
    std::size_t dropped_frees = 0;
    std::size_t growth = 0;  // records in site_buffers::growth
};

/// Makes the stack capture ready: its first use loads the unwinder (glibc's backtrace() opens
/// libgcc_s, which allocates), so it must happen before a sites region opens, not inside one.
void prepare_site_capture() noexcept;

/// Opens a region like region_begin() in which every counted allocation also records its call
/// stack (site_record) into `buffers`, and every free of such a block a free_record. The
/// figures count as in any region; recording costs microseconds an allocation, so a sites
/// region is a diagnostic pass, never a timed sample.
void region_begin_sites(site_buffers buffers) noexcept;

/// Narrows the open sites region's recording to what a buffer that grows leaves behind: from
/// here an allocation is recorded (into site_buffers::growth) only when it is bigger than every
/// allocation the region recorded before it, and a free only when its block is one of `live`
/// (the recorded blocks still live, which the caller finds from the records) or a growth
/// record's. Called while the region is paused. It lets the pass run on, at the cost of a
/// compare an allocation and a bit test a free, until a buffer grown geometrically (a vector
/// appended to and never cleared) reallocates, however far that is: each of its reallocations is
/// bigger than the last, where the body's temporaries repeat their sizes.
void sites_growth_only(std::span<const void* const> live) noexcept;

/// The records of the last sites region (read after it ended, or while paused with the other
/// threads' calls finished, as snapshot()).
site_totals sites_recorded() noexcept;

}  // namespace tare::alloc
