#pragma once
/// \file
/// Declared allocations: memory tare's allocation hook cannot see, reported by the program.
///
/// tare counts every call of the malloc family and of operator new/delete. A pool or an arena
/// that carves blocks out of memory it already holds, or an allocator's own API that does not
/// pass through malloc, makes allocations tare does not see. Reporting them puts them in every
/// memory figure of the timed region, as if they were malloc's:
///
///     void* arena::allocate(std::size_t n) {
///         void* p = carve(n);
///         tare::report_alloc(p, n);
///         return p;
///     }
///     void arena::release(void* p, std::size_t n) {
///         tare::report_free(p, n);
///         give_back(p, n);
///     }
///
/// Inside a timed region a report counts like an allocation: one in allocations, `bytes` in
/// bytes and in the live heap (and its peak), and its call site in --alloc-sites. Outside a
/// region, and in builds without allocation accounting (sanitizer builds), a report does
/// nothing. A Google Benchmark suite linked with tare::gbench reports the same way.
/// docs/accounting.md, "Declared allocations", has the rules and a memory pool's wrapper.

#include <cstddef>

namespace tare {

/// Declares that the block at `p`, of `bytes` bytes, was just allocated by a pool the
/// allocation hook cannot see. Pair it with report_free() with the same `bytes`.
void report_alloc(const void* p, std::size_t bytes) noexcept;

/// Declares that the block at `p`, reported with report_alloc(p, bytes), is being freed.
void report_free(const void* p, std::size_t bytes) noexcept;

}  // namespace tare
