#pragma once
// Shared by the sources of each per-allocator executable (test/alloc/CMakeLists.txt).

#include <gtest/gtest.h>

#include "alloc/accounting.hpp"

namespace tare::alloc::test {

/// Every test's set-up: skipped, saying why, when the executable was built without its allocator
/// (TARE_TEST_ALLOCATOR_ABSENT); otherwise the interposer must be what the process calls.
inline void require_the_allocator() {
#if defined(TARE_TEST_ALLOCATOR_ABSENT)
    GTEST_SKIP() << TARE_TEST_ALLOCATOR_ABSENT;
#else
    ASSERT_TRUE(available()) << availability_message(availability_status());
#endif
}

}  // namespace tare::alloc::test
