// Slow rows whose every run starts cold, for warm samples (src/adapters/gbench/runs.cpp,
// run_warm): a loop that touches memory its setup mapped fresh, so a run's first iteration takes a
// page fault per page and the later ones none; and a setup that takes far longer than the loop.
// Neither loop allocates.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>

namespace {

constexpr std::size_t page = 4096;
constexpr std::size_t fresh_bytes = std::size_t{16} << 20;  // 4096 pages of 4 KiB

// Setup maps 16 MiB (never touched: each run's first iteration faults every page in); each
// iteration writes one byte a page.
void BM_fresh_pages(benchmark::State& state) {
    void* m = mmap(nullptr, fresh_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        state.SkipWithError("mmap failed");
        return;
    }
    auto* bytes = static_cast<volatile char*>(m);
    std::uint64_t n = 0;
    for (auto _ : state) {
        for (std::size_t i = 0; i < fresh_bytes; i += page) {
            bytes[i] = static_cast<char>(n + i);
        }
        ++n;
    }
    munmap(m, fresh_bytes);
}
BENCHMARK(BM_fresh_pages);

// With TARE_TEST_CALLS naming a file, every call of a function appends a line to it: the
// process and the iterations Google Benchmark runs, so a test counts the setups a comparison pays
// without timing anything. One write of O_APPEND a line: the two sides' processes share the file.
void log_call(const benchmark::State& state) {
    const char* path = std::getenv("TARE_TEST_CALLS");
    if (path == nullptr || *path == '\0') {
        return;
    }
    const int fd = ::open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0) {
        return;
    }
    const std::string line = std::to_string(::getpid()) + " " + std::to_string(state.max_iterations) + "\n";
    const ssize_t written = ::write(fd, line.data(), line.size());
    (void)written;
    ::close(fd);
}

// 20 ms of setup (a sleep: it needs no CPU of a loaded machine) around a loop of about 50 us.
void BM_slow_setup(benchmark::State& state) {
    log_call(state);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    for (auto _ : state) {
        std::uint64_t x = 0;
        for (std::uint64_t i = 0; i < 50000; ++i) {
            benchmark::DoNotOptimize(x += i);
        }
    }
}
BENCHMARK(BM_slow_setup);

}  // namespace

BENCHMARK_MAIN();
