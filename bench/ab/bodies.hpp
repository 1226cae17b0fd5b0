// The bodies of the A/B study (bench/ab/README.md). One header, built several ways:
// TARE_AB_SLOWDOWN_PERMILLE = 0 (the A side, built twice), 10, 20, 50 (B sides: 1 %, 2 %, 5 %).
// The slowdown is real, proportional work: every body processes scaled(n) = n (1000 + p) / 1000
// elements instead of n, with the same code. For sort (n log n) and the map (log n per insert)
// the time grows a little more than the element count; study.py --calibrate measures the real
// injected ratio of each body.
//
// Each body is a struct: setup in the constructor (never timed), `run()` is one iteration and
// returns a value the harness passes to do_not_optimize. The harness also passes the body
// itself to do_not_optimize each iteration, so the compiler must assume its inputs changed and
// cannot hoist the work out of the loop.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#ifndef TARE_AB_SLOWDOWN_PERMILLE
#define TARE_AB_SLOWDOWN_PERMILLE 0
#endif

namespace ab {

// The injected share is data, not code: it is read at run time from this one variable, so
// every build has the same machine code at the same addresses and differs only in the
// variable's value. A compile-time constant (the first version) put different immediates into
// the constructors, moved every later function, and made the slowdown a property of the layout:
// sort_2k measured -0.2 % in its 1 % build and +21 % in its 5 % build (bench/studies.md).
// (1000 + the share, so it is never 0: a zero would move it to .bss and its address with it.)
inline volatile std::size_t element_permille = 1000 + TARE_AB_SLOWDOWN_PERMILLE;

// n elements, plus the injected share.
inline std::size_t scaled(std::size_t n) {
    return n * element_permille / 1000;
}

// Deterministic inputs: the same bytes in every build and every process.
inline std::uint64_t splitmix(std::uint64_t& s) {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// FNV-1a, 64 bit, over a 64 KiB buffer: a serial multiply chain, one byte at a time.
struct hash_64k {
    std::vector<unsigned char> buf;
    std::size_t n = scaled(64 * 1024);
    hash_64k() : buf(scaled(64 * 1024)) {
        std::uint64_t s = 1;
        for (auto& b : buf)
            b = static_cast<unsigned char>(splitmix(s));
    }
    std::uint64_t run() const {
        std::uint64_t h = 0xcbf29ce484222325ULL;
        const unsigned char* p = buf.data();
        for (std::size_t i = 0; i < n; ++i) {
            h ^= p[i];
            h *= 0x100000001b3ULL;
        }
        return h;
    }
};

// Copy 2,000 random 32-bit keys into a reused vector and sort them (no allocation per iteration).
struct sort_2k {
    std::vector<std::uint32_t> input;
    std::vector<std::uint32_t> work;
    sort_2k() : input(scaled(2000)) {
        std::uint64_t s = 2;
        for (auto& v : input)
            v = static_cast<std::uint32_t>(splitmix(s));
        work.reserve(input.size());
    }
    std::uint64_t run() {
        work.assign(input.begin(), input.end());
        std::sort(work.begin(), work.end());
        return work[work.size() / 2];
    }
};

// Parse a comma-separated line of 4,000 integers with std::from_chars and sum them.
struct parse_csv {
    std::string text;
    parse_csv() {
        std::uint64_t s = 3;
        const std::size_t n = scaled(4000);
        for (std::size_t i = 0; i < n; ++i) {
            text += std::to_string(splitmix(s) % 1000000);
            text += ',';
        }
    }
    std::uint64_t run() const {
        std::uint64_t sum = 0;
        const char* p = text.data();
        const char* end = p + text.size();
        while (p < end) {
            std::uint64_t v = 0;
            auto r = std::from_chars(p, end, v);
            sum += v;
            p = r.ptr + 1;  // skip the comma
        }
        return sum;
    }
};

// Allocation-heavy: build a std::map of 500 random keys (one node allocation each), then free it.
struct map_500 {
    std::vector<std::uint32_t> keys;
    map_500() : keys(scaled(500)) {
        std::uint64_t s = 4;
        for (auto& k : keys)
            k = static_cast<std::uint32_t>(splitmix(s));
    }
    std::uint64_t run() const {
        std::map<std::uint32_t, std::uint32_t> m;
        for (std::uint32_t k : keys)
            m.emplace(k, k ^ 0x5bd1e995U);
        return m.size() + m.begin()->second;
    }
};

}  // namespace ab
