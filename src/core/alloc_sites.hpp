#pragma once
// From the diagnostic pass's records to the sites a user reads (docs/accounting.md,
// "Allocation sites"): each record's stack symbolized, the allocation path folded away, cut at
// the benchmark's body, grouped, and the top ones kept. Pure but for the symbolizer, which is
// a seam: the unit tests give one that knows the answer.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "alloc/accounting.hpp"
#include "model/run.hpp"
#include "os/symbolize.hpp"

namespace tare::core {

/// The sites of a pass of `iterations` iterations: `alloc_sites`, the `top` stacks by
/// allocations and the `top` by bytes (their union, most allocations first); `retained_sites`,
/// the stacks of the blocks the pass allocated and did not free, by bytes (the top `top`).
struct site_summary {
    std::vector<alloc_site> alloc_sites;
    std::vector<alloc_site> retained_sites;
    std::size_t stacks = 0;  // the distinct stacks (and threads) the pass's allocations came from
};

/// The records of a pass that ran on after its `iterations` (alloc::sites_growth_only): only the
/// allocations bigger than every one before, over `iterations` of the whole pass. They name
/// what a buffer grown geometrically leaves live, and take no part in `alloc_sites`.
struct growth_records {
    std::span<const alloc::site_record> records;
    std::uint64_t iterations = 0;
};

/// A retained site's per-iteration figures divide each block by the iterations over which its
/// kind of record was made: `iterations` for the pass's records, the whole pass for growth's.
site_summary summarize_sites(std::span<const alloc::site_record> allocs,
                             std::span<const alloc::free_record> frees, std::uint64_t iterations,
                             std::size_t top, os::symbolizer& symbols, growth_records growth = {});

/// The blocks of `allocs` still live after `frees`: the records replayed in the order they were
/// made (seq).
std::vector<const void*> live_blocks(std::span<const alloc::site_record> allocs,
                                     std::span<const alloc::free_record> frees);

/// The logical frames of one recorded stack as a user reads them: the frames of tare's hook
/// and of the allocation path (malloc and its family, operator new, the standard library's
/// allocators and container internals) dropped from the inner end, and the stack cut where the
/// harness called the body (tare's frames and std::function's), or where a thread began.
std::vector<stack_frame> user_stack(std::span<void* const> frames, os::symbolizer& symbols);

/// The process's symbolizer, made on first use and kept (its caches serve every benchmark).
os::symbolizer& process_symbolizer();

}  // namespace tare::core
