#pragma once
// A small deterministic random source for the bootstrap and for the statistical tests.
//
// Why not <random>: the engines are specified bit for bit, but every distribution
// (uniform_int_distribution, normal_distribution, ...) is implementation-defined, so the same
// seed gives different bootstrap intervals with libstdc++, libc++ and MSVC. A report must be
// reproducible wherever it is computed, so the generator and the bounded draw are written
// out here from their published definitions and pinned by reference vectors in the tests.
//
// Why xoshiro256** rather than mt19937_64 or a PCG: it is tiny (32 bytes of state), among the
// fastest generators that pass BigCrush, and its authors publish the seeding procedure
// (splitmix64) with it. Rejected: mt19937_64 (2.5 KiB of state and slower, for no gain here);
// PCG64 (needs 128-bit multiplies, which MSVC lacks as a type).

#include <array>
#include <cstdint>
#include <limits>

namespace tare::stats {

/// One step of splitmix64 (Steele, Lea & Flood 2014, "Fast splittable pseudorandom number
/// generators", OOPSLA; constants from Vigna's reference splitmix64.c). Advances `state`.
std::uint64_t splitmix64(std::uint64_t& state) noexcept;

/// xoshiro256** 1.0 (Blackman & Vigna 2021, "Scrambled linear pseudorandom number
/// generators", ACM TOMS 47(4); reference xoshiro256starstar.c). Meets the standard's
/// UniformRandomBitGenerator requirements, so std::shuffle etc. accept it.
class xoshiro256ss {
public:
    using result_type = std::uint64_t;

    /// Seeds the four state words with four splitmix64 outputs, as the authors recommend: any
    /// 64-bit seed, including 0, yields a state that is not all zero.
    explicit xoshiro256ss(std::uint64_t seed) noexcept;

    /// Starts from a raw state (used to check the published test vectors). The state must
    /// not be all zero.
    static xoshiro256ss from_state(const std::array<std::uint64_t, 4>& state) noexcept;

    static constexpr result_type min() noexcept { return 0; }
    static constexpr result_type max() noexcept { return std::numeric_limits<result_type>::max(); }

    result_type operator()() noexcept {
        const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
        const std::uint64_t t = state_[1] << 17;
        state_[2] ^= state_[0];
        state_[3] ^= state_[1];
        state_[1] ^= state_[2];
        state_[0] ^= state_[3];
        state_[2] ^= t;
        state_[3] = rotl(state_[3], 45);
        return result;
    }

    const std::array<std::uint64_t, 4>& state() const noexcept { return state_; }

private:
    xoshiro256ss() = default;
    static constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept {
        return (x << k) | (x >> (64 - k));
    }

    std::array<std::uint64_t, 4> state_{};
};

/// The full 128-bit product of two 64-bit words.
struct wide_product {
    std::uint64_t high = 0;
    std::uint64_t low = 0;
};

/// The same product from 32-bit halves only, for compilers without a 128-bit type (MSVC);
/// exposed so the tests can check that both paths agree.
wide_product multiply_wide_portable(std::uint64_t a, std::uint64_t b) noexcept;

/// a * b in 128 bits; uses the compiler's 128-bit integer where there is one. Inline, with
/// bounded(), because the bootstrap calls them ~10^7 times per interval: out of line, the
/// call alone doubled the cost of an interval.
inline wide_product multiply_wide(std::uint64_t a, std::uint64_t b) noexcept {
#if defined(__SIZEOF_INT128__)
    // `__extension__` keeps -Wpedantic quiet: the type is a GCC/Clang extension, used only
    // because it compiles to one MUL instruction on x86-64 and AArch64.
    __extension__ using u128 = unsigned __int128;
    const u128 full = static_cast<u128>(a) * static_cast<u128>(b);
    return {static_cast<std::uint64_t>(full >> 64), static_cast<std::uint64_t>(full)};
#else
    return multiply_wide_portable(a, b);
#endif
}

/// A uniform integer in [0, range), without bias, by Lemire's multiply-and-reject method
/// (Lemire 2019, "Fast random integer generation in an interval", ACM TOMACS 29(1)).
/// Rejected: `x % range` (biased toward small values unless range divides 2^64) and the
/// classic reject-then-modulo loop (one division per draw; Lemire needs one only on the rare
/// slow path). Returns 0 when range is 0.
inline std::uint64_t bounded(xoshiro256ss& rng, std::uint64_t range) noexcept {
    if (range == 0) {
        return 0;
    }
    // The high word of x * range is uniform over [0, range) except for the 2^64 mod range
    // values of x whose low word falls below that threshold; reject those. The division that
    // computes the threshold runs only when the low word is below `range`, which for the
    // small ranges of a bootstrap (n samples) almost never happens.
    wide_product m = multiply_wide(rng(), range);
    if (m.low < range) {
        const std::uint64_t threshold = (std::uint64_t{0} - range) % range;
        while (m.low < threshold) {
            m = multiply_wide(rng(), range);
        }
    }
    return m.high;
}

/// A uniform double in [0, 1) from the top 53 bits (Vigna's recommended conversion; every
/// value is a multiple of 2^-53, so the result is exact on every platform).
double uniform01(xoshiro256ss& rng) noexcept;

/// Two independent standard normal variates by the Box–Muller transform (Box & Muller 1958,
/// "A note on the generation of random normal deviates", Ann. Math. Stat. 29). For tests and
/// simulations only: it calls std::log/std::cos, whose last bit may differ between C
/// libraries, so no reported figure depends on it.
std::array<double, 2> standard_normal_pair(xoshiro256ss& rng) noexcept;

}  // namespace tare::stats
