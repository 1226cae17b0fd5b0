// What one per-allocator executable was built for (allocator_setup.hpp), from its compile
// definitions: the only source compiled once per executable.
#include "allocator_setup.hpp"

namespace tare::alloc::test {

const char* const allocator_name = TARE_TEST_ALLOCATOR;
#if defined(TARE_TEST_PRELOADED)
const bool allocator_preloaded = true;
#else
const bool allocator_preloaded = false;
#endif
#if defined(TARE_TEST_ALLOCATOR_ABSENT)
const char* const allocator_absent = TARE_TEST_ALLOCATOR_ABSENT;
#else
const char* const allocator_absent = nullptr;
#endif

}  // namespace tare::alloc::test
