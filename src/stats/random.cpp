// Transcriptions of published reference implementations; see random.hpp for the choices.

#include "stats/random.hpp"

#include <cmath>
#include <numbers>

namespace tare::stats {

std::uint64_t splitmix64(std::uint64_t& state) noexcept {
    // Vigna's splitmix64.c: a Weyl sequence passed through a variant of the MurmurHash3
    // finaliser (the "Mix13" constants of Stafford 2011).
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

xoshiro256ss::xoshiro256ss(std::uint64_t seed) noexcept {
    // Blackman & Vigna: "we suggest to use a SplitMix64 to initialize the state". The
    // splitmix64 outputs of consecutive states are never all zero, so the state is valid.
    for (auto& word : state_) {
        word = splitmix64(seed);
    }
}

xoshiro256ss xoshiro256ss::from_state(const std::array<std::uint64_t, 4>& state) noexcept {
    xoshiro256ss rng;
    rng.state_ = state;
    return rng;
}

wide_product multiply_wide_portable(std::uint64_t a, std::uint64_t b) noexcept {
    // Schoolbook multiplication on 32-bit halves (Knuth, TAOCP vol. 2, 4.3.1, algorithm M
    // with base 2^32); no partial sum can overflow 64 bits.
    constexpr std::uint64_t mask = 0xffffffffULL;
    const std::uint64_t a_lo = a & mask;
    const std::uint64_t a_hi = a >> 32;
    const std::uint64_t b_lo = b & mask;
    const std::uint64_t b_hi = b >> 32;

    const std::uint64_t lo_lo = a_lo * b_lo;
    const std::uint64_t hi_lo = a_hi * b_lo;
    const std::uint64_t lo_hi = a_lo * b_hi;
    const std::uint64_t hi_hi = a_hi * b_hi;

    const std::uint64_t cross = (lo_lo >> 32) + (hi_lo & mask) + lo_hi;
    wide_product product;
    product.high = hi_hi + (hi_lo >> 32) + (cross >> 32);
    product.low = (cross << 32) | (lo_lo & mask);
    return product;
}

double uniform01(xoshiro256ss& rng) noexcept {
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

std::array<double, 2> standard_normal_pair(xoshiro256ss& rng) noexcept {
    // 1 - u lies in (0, 1], so the logarithm is finite. Rejected: Marsaglia's polar method
    // (avoids the trigonometric calls, but its rejection loop makes the number of draws per
    // variate data-dependent, which complicates reasoning about seeded streams in tests).
    const double u1 = 1.0 - uniform01(rng);
    const double u2 = uniform01(rng);
    const double radius = std::sqrt(-2.0 * std::log(u1));
    const double angle = 2.0 * std::numbers::pi * u2;
    return {radius * std::cos(angle), radius * std::sin(angle)};
}

}  // namespace tare::stats
