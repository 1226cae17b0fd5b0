#pragma once
// --shard=K/N (docs/cli.md, "Shards"): a deterministic 1/N of a suite's benchmarks, so that N CI
// runners split one suite. A benchmark's shard is a stable hash of its name (a comparison
// group's: of the group's name, so the group stays whole), never its position: adding or
// renaming one benchmark moves no other to another shard. Rejected: round-robin over the list
// order, which reshuffles every shard when one benchmark is added.

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "model/hash.hpp"

namespace tare::core {

struct shard {
    std::uint64_t index = 0;  // 0-based: "--shard=1/4" is index 0
    std::uint64_t count = 1;
};

/// "K/N" with 1 <= K <= N <= 1,000,000, or why not.
inline std::variant<shard, std::string> parse_shard(std::string_view text) {
    const auto slash = text.find('/');
    std::uint64_t k = 0;
    std::uint64_t n = 0;
    const auto number = [](std::string_view s, std::uint64_t& v) {
        auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        return !s.empty() && ec == std::errc{} && end == s.data() + s.size();
    };
    if (slash == std::string_view::npos || !number(text.substr(0, slash), k) ||
        !number(text.substr(slash + 1), n) || k < 1 || n < 1 || k > n || n > 1000000) {
        return "--shard=" + std::string(text) + ": expected K/N with 1 <= K <= N (at most 1000000), as 2/4";
    }
    return shard{k - 1, n};
}

/// FNV-1a, 64 bits, over the name's bytes: fixed by its definition, so every build, platform and
/// version of tare puts a name in the same shard.
inline std::uint64_t name_hash(std::string_view name) noexcept {
    return fnv1a_64(name);
}

/// Whether the benchmark (or group) named `name` is in `s`.
inline bool in_shard(std::string_view name, const shard& s) noexcept {
    return name_hash(name) % s.count == s.index;
}

}  // namespace tare::core
