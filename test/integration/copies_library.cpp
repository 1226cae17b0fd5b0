// A shared library that copies, for copies_bench: its memcpy call is a call from a shared
// object, which tare::copies must count as it counts the executable's own.
#include <cstddef>
#include <cstring>

extern "C" __attribute__((visibility("default"))) void tare_test_copy_in_library(void* dest, const void* src,
                                                                                 std::size_t n) {
    std::memcpy(dest, src, n);
}
