// Bodies whose copied and set bytes are known, for copies_test.cpp. Linked with tare::copies
// (copies_bench) and without it (copies_bench_plain, whose figures must be absent).
#include <tare/tare.hpp>

#include <cstring>
#include <thread>
#include <vector>

extern "C" void tare_test_copy_in_library(void* dest, const void* src, std::size_t n);

namespace {

// The sizes come from a volatile, so no compiler can expand a call inline or drop it: each one
// reaches the C library's function, as a copy of a runtime size does.
volatile std::size_t mib = std::size_t{1} << 20;
volatile std::size_t four_kib = 4096;

// Setup copies 8 MiB (outside the region); the body memcpy's 1 MiB and memmove's 4 KiB:
// 1,052,672 bytes an iteration, none set.
void copy_and_move(tare::State& state) {
    std::vector<char> a(8 << 20, 1);
    std::vector<char> b(8 << 20);
    std::memcpy(b.data(), a.data(), a.size());
    for (auto _ : state) {
        std::memcpy(b.data(), a.data(), mib);
        std::memmove(b.data() + 1, b.data(), four_kib);
        tare::do_not_optimize(b.data());
    }
}
TARE_BENCHMARK(copy_and_move)->iterations(20)->samples(4);

// A std::vector<int> of 1,000 elements copied: 4,000 bytes (through memmove), one allocation.
void vector_copy(tare::State& state) {
    const std::vector<int> source(1000, 7);
    for (auto _ : state) {
        std::vector<int> copy(source);
        tare::do_not_optimize(copy.data());
    }
}
TARE_BENCHMARK(vector_copy)->iterations(100)->samples(4);

// A shared library's memcpy (copies_library.cpp): 4,096 bytes an iteration, counted all the same.
void library_copy(tare::State& state) {
    std::vector<char> a(4096, 1);
    std::vector<char> b(4096);
    for (auto _ : state) {
        tare_test_copy_in_library(b.data(), a.data(), four_kib);
        tare::do_not_optimize(b.data());
    }
}
TARE_BENCHMARK(library_copy)->iterations(50)->samples(4);

// memset of 64 KiB an iteration: set, not copied.
void set_64k(tare::State& state) {
    std::vector<char> buffer(64 << 10);
    volatile std::size_t n = buffer.size();
    for (auto _ : state) {
        std::memset(buffer.data(), 0, n);
        tare::do_not_optimize(buffer.data());
    }
}
TARE_BENCHMARK(set_64k)->iterations(50)->samples(4);

// Another thread copies 64 KiB an iteration inside the region: counted as well.
void copy_in_a_thread(tare::State& state) {
    std::vector<char> a(64 << 10, 1);
    std::vector<char> b(64 << 10);
    volatile std::size_t n = a.size();
    for (auto _ : state) {
        std::thread t([&] { std::memcpy(b.data(), a.data(), n); });
        t.join();
        tare::do_not_optimize(b.data());
    }
}
TARE_BENCHMARK(copy_in_a_thread)->iterations(10)->samples(3);

}  // namespace
