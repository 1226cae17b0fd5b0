#pragma once
// FNV-1a (Fowler, Noll and Vo), the hash of a name or a document wherever it must be the same in
// every build, on every machine and in every version of tare: the shard a benchmark falls in, a
// stored run's digest, the suffix of a shortened exported name, a flame graph's colours.
// std::hash promises none of that. Here, below every layer, as it is part of what those figures
// mean.

#include <cstdint>
#include <string_view>

namespace tare {

/// FNV-1a, 64 bits, over the bytes of `s`.
constexpr std::uint64_t fnv1a_64(std::string_view s) noexcept {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const char c : s) {
        h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    }
    return h;
}

/// FNV-1a, 32 bits, over the bytes of `s`.
constexpr std::uint32_t fnv1a_32(std::string_view s) noexcept {
    std::uint32_t h = 2166136261U;
    for (const char c : s) {
        h = (h ^ static_cast<unsigned char>(c)) * 16777619U;
    }
    return h;
}

}  // namespace tare
