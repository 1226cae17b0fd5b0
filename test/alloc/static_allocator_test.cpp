// An allocator linked statically into the executable: this executable defines mimalloc's
// mi_malloc itself, as mimalloc's object or archive would. tare's malloc replaced that
// allocator's at link time, and forwarding would reach glibc: accounting must refuse, saying
// how to link the allocator instead, rather than run the program on a second allocator.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <string>

#include "alloc/accounting.hpp"

extern "C" __attribute__((visibility("default"), noinline)) void* mi_malloc(std::size_t n) {
    return std::malloc(n);
}

namespace {

namespace alloc = tare::alloc;

TEST(static_allocator, is_refused_with_the_fix) {
    void* p = mi_malloc(8);
    std::free(p);
    EXPECT_EQ(alloc::availability_status(), alloc::availability::static_allocator);
    EXPECT_FALSE(alloc::available());
    const std::string message = alloc::availability_message(alloc::availability_status());
    EXPECT_NE(message.find("shared library"), std::string::npos) << message;
    EXPECT_NE(message.find("LD_PRELOAD"), std::string::npos) << message;
}

}  // namespace
