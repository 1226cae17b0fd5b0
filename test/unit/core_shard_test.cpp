// core/shard.hpp: --shard=K/N parsing and the stable split of names into shards.
#include "core/shard.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace tare::core {
namespace {

TEST(core_shard, parses_k_of_n_and_refuses_the_rest) {
    auto s = parse_shard("2/4");
    ASSERT_TRUE(std::holds_alternative<shard>(s));
    EXPECT_EQ(std::get<shard>(s).index, 1U);
    EXPECT_EQ(std::get<shard>(s).count, 4U);
    EXPECT_TRUE(std::holds_alternative<shard>(parse_shard("1/1")));
    for (const char* bad :
         {"", "/", "0/4", "5/4", "1/0", "2", "a/4", "2/4x", " 2/4", "-1/4", "1/1000001", "2//4"}) {
        EXPECT_TRUE(std::holds_alternative<std::string>(parse_shard(bad))) << bad;
    }
}

// The hash is FNV-1a 64 by definition, so a name's shard never depends on tare's version.
TEST(core_shard, the_hash_is_fnv1a_64) {
    EXPECT_EQ(name_hash(""), 0xcbf29ce484222325ULL);
    EXPECT_EQ(name_hash("a"), 0xaf63dc4c8601ec8cULL);
    EXPECT_EQ(name_hash("foobar"), 0x85944171f73967e8ULL);
}

std::vector<std::string> names(std::size_t n) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n; ++i) {
        out.push_back("bench/" + std::to_string(i) + "/case");
    }
    return out;
}

TEST(core_shard, the_shards_cover_every_name_once_and_about_evenly) {
    const auto all = names(3000);
    for (std::uint64_t n = 1; n <= 7; ++n) {
        std::vector<std::size_t> sizes(n, 0);
        for (const auto& name : all) {
            int in = 0;
            for (std::uint64_t k = 0; k < n; ++k) {
                if (in_shard(name, shard{k, n})) {
                    ++in;
                    ++sizes[k];
                }
            }
            EXPECT_EQ(in, 1) << name << " in " << n;
        }
        for (std::size_t size : sizes) {
            EXPECT_NEAR(static_cast<double>(size), 3000.0 / static_cast<double>(n),
                        0.2 * 3000.0 / static_cast<double>(n));
        }
    }
}

TEST(core_shard, adding_a_benchmark_moves_no_other) {
    auto all = names(200);
    std::map<std::string, std::uint64_t> before;
    const std::uint64_t n = 4;
    const auto where = [&](const std::string& name) {
        for (std::uint64_t k = 0; k < n; ++k) {
            if (in_shard(name, shard{k, n}))
                return k;
        }
        return n;
    };
    for (const auto& name : all)
        before[name] = where(name);
    all.push_back(std::string("a/new/") + "benchmark");
    for (const auto& [name, k] : before)
        EXPECT_EQ(where(name), k) << name;
}

}  // namespace
}  // namespace tare::core
