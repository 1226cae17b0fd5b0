#pragma once
// One measured sample: the record tare's loop, a worker and the Google Benchmark adapter make.

#include <cstdint>

namespace tare {

/// One sample: `iterations` consecutive iterations timed as one block.
struct sample {
    std::uint64_t iterations = 0;
    double elapsed_ns = 0;
    std::uint64_t allocs = 0;             // allocation calls inside the sample
    std::uint64_t bytes = 0;              // bytes requested inside the sample
    std::uint64_t page_faults = 0;        // minor + major
    std::uint64_t copied_bytes = 0;       // through memcpy, memmove, mempcpy (tare::copies)
    std::uint64_t set_bytes = 0;          // through memset (tare::copies)
    std::uint64_t mapped_bytes = 0;       // anonymous mappings the body made (mmap, mremap)
    std::int64_t live_bytes_end = 0;      // live heap of the region at the sample's end
    std::uint64_t iterations_before = 0;  // loop iterations that ran before this sample

    friend bool operator==(const sample&, const sample&) = default;
};

}  // namespace tare
