#pragma once
// Shared by the allocation tests of test/unit and test/alloc: code that grows into its slack.

#include <cstddef>

namespace tare::alloc::test {

/// How many times a buffer that grows a byte at a time into its usable slack (an sds-style
/// string) reallocates on its way to `target` bytes, through `grow`, `usable_size` and `release`:
/// the program's own allocator's functions, or tare's.
template <typename Grow, typename Usable, typename Release>
int reallocations_to_grow(std::size_t target, Grow grow, Usable usable_size, Release release) {
    void* p = nullptr;
    std::size_t capacity = 0;
    int calls = 0;
    for (std::size_t size = 1; size <= target; ++size) {
        if (size > capacity) {
            p = grow(p, size);
            capacity = usable_size(p);
            ++calls;
        }
    }
    release(p);
    return calls;
}

}  // namespace tare::alloc::test
