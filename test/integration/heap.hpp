#pragma once
// The allocator's usable size of a request, as the figures of the live heap count it: asked in
// this process, whose allocator is the one the benchmark executables under test run on (glibc,
// or the sanitizer's in a sanitizer build).
//
// A block's usable size is not always the same for one request: glibc hands out the whole free
// chunk it takes a block from when the rest would be smaller than its smallest chunk (32 B), so
// a malloc(64) is now and then 88 usable bytes where it is usually 72 (malloc.c, _int_malloc).
// The figures count what the allocator gave; a test that cannot see the blocks of another
// process expects the usual size, or up to block_slack more per block.

#include <gtest/gtest.h>
#include <malloc.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace tare::test {

/// The most a block may exceed its usual usable size (glibc's MINSIZE less one).
inline constexpr double block_slack = 31;

/// The usual usable size of `n` bytes: the least of several blocks held at once, since any one
/// block may be a whole free chunk with up to block_slack more (one such block, measured here,
/// once made the expected range miss the figures of a benchmark whose blocks were usual).
inline double usable_of(std::size_t n) {
    void* blocks[8];
    std::size_t least = SIZE_MAX;
    for (void*& p : blocks) {
        p = std::malloc(n);
        least = std::min(least, malloc_usable_size(p));
    }
    for (void* p : blocks)
        std::free(p);
    return static_cast<double>(least);
}

/// Checks that `got` is what `blocks` blocks of `n` bytes hold: each its usual usable size, or up
/// to block_slack more. A negative `blocks` is that many blocks freed.
inline void expect_blocks_of(double got, double blocks, std::size_t n, const std::string& what = "") {
    const double low = blocks * usable_of(n);
    const double high = blocks * (usable_of(n) + block_slack);
    EXPECT_GE(got, std::min(low, high)) << what;
    EXPECT_LE(got, std::max(low, high)) << what;
}

}  // namespace tare::test
