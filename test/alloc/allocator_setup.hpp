#pragma once
// Shared by the sources of each per-allocator executable (test/alloc/CMakeLists.txt).

#include <gtest/gtest.h>

#include "alloc/accounting.hpp"

namespace tare::alloc::test {

/// What the executable was built for, defined in its own allocator_facts.cpp (compiled per
/// executable, while the test sources are compiled once for all of them): the allocator's name
/// ("glibc", "jemalloc", "mimalloc", "tcmalloc"); whether it is LD_PRELOADed rather than linked;
/// and, when the library is not installed, why (the executable then runs on glibc), else null.
extern const char* const allocator_name;
extern const bool allocator_preloaded;
extern const char* const allocator_absent;

/// Every test's set-up: skipped, saying why, when the executable was built without its allocator;
/// otherwise the interposer must be what the process calls.
inline void require_the_allocator() {
    if (allocator_absent != nullptr) {
        GTEST_SKIP() << allocator_absent;
    }
    ASSERT_TRUE(available()) << availability_message(availability_status());
}

}  // namespace tare::alloc::test
