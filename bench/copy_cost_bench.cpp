// What tare::copies costs a memcpy call: the same copy-heavy bodies built without it
// (copy_cost_plain) and with it (copy_cost_counted), compared by `tare compare` in rounds of
// fresh processes (bench/README.md, "Bytes copied").
#include <tare/tare.hpp>

#include <cstring>
#include <vector>

namespace {

// Runtime sizes from a volatile: every call reaches the C library's function, none is
// expanded inline.
volatile std::size_t small = 64;
volatile std::size_t large = 64 << 10;

// 100 calls of 64 bytes an iteration: the per-call cost dominates.
void memcpy_64(tare::State& state) {
    std::vector<char> a(64, 1);
    std::vector<char> b(64);
    const std::size_t n = small;
    for (auto _ : state) {
        for (int i = 0; i < 100; ++i) {
            std::memcpy(b.data(), a.data(), n);
            tare::do_not_optimize(b.data());
        }
    }
}
TARE_BENCHMARK(memcpy_64);

// One call of 64 KiB: the cost is lost in the copy itself.
void memcpy_64k(tare::State& state) {
    std::vector<char> a(64 << 10, 1);
    std::vector<char> b(64 << 10);
    const std::size_t n = large;
    for (auto _ : state) {
        std::memcpy(b.data(), a.data(), n);
        tare::do_not_optimize(b.data());
    }
}
TARE_BENCHMARK(memcpy_64k);

// 100 vector<int> copies of 16 elements: an allocation and a memmove each, the shape of copying
// small objects around.
void vector_copy_16(tare::State& state) {
    const std::vector<int> source(16, 7);
    for (auto _ : state) {
        for (int i = 0; i < 100; ++i) {
            std::vector<int> v(source);
            tare::do_not_optimize(v.data());
        }
    }
}
TARE_BENCHMARK(vector_copy_16);

}  // namespace
