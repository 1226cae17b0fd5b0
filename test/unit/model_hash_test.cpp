// src/model/hash.hpp: FNV-1a against the published test vectors of its definition, so that a
// shard, a stored digest, an exported name's suffix and a flame graph's colours never move.
#include <gtest/gtest.h>

#include "model/hash.hpp"

namespace tare {
namespace {

TEST(fnv1a, gives_the_published_values) {
    EXPECT_EQ(fnv1a_64(""), 0xcbf29ce484222325ULL);
    EXPECT_EQ(fnv1a_64("a"), 0xaf63dc4c8601ec8cULL);
    EXPECT_EQ(fnv1a_64("foobar"), 0x85944171f73967e8ULL);
    EXPECT_EQ(fnv1a_32(""), 0x811c9dc5U);
    EXPECT_EQ(fnv1a_32("a"), 0xe40c292cU);
    EXPECT_EQ(fnv1a_32("foobar"), 0xbf9cf968U);
    static_assert(fnv1a_64("a") == 0xaf63dc4c8601ec8cULL, "usable at compile time");
}

}  // namespace
}  // namespace tare
