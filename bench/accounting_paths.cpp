// What one malloc(32) + free pair costs on each path of the allocation hook, against the same
// loop calling glibc's __libc_malloc / __libc_free past it: counting (a region open on this
// thread), paused (open, not counting: the paused set's insert and removal) and outside any
// region. Rounds interleave the four loops, so a machine's changes of speed hit each alike;
// per-round ratios to the direct loop are the figures to read (bench/README.md, "Allocation
// accounting's cost"). Linked with tare::tare, as a benchmark executable is.
//
// Usage: tare_accounting_paths [ROUNDS]   (default 101; pin it: taskset -c 1)
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "alloc/accounting.hpp"

extern "C" void* __libc_malloc(std::size_t size) noexcept;
extern "C" void __libc_free(void* p) noexcept;

namespace {

constexpr long pairs = 1000000;

void escape(void* p) {
    asm volatile("" : : "r"(p) : "memory");
}

double thread_ns() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

double through_the_hook() {
    const double t0 = thread_ns();
    for (long i = 0; i < pairs; ++i) {
        void* p = std::malloc(32);
        escape(p);
        std::free(p);
    }
    return (thread_ns() - t0) / pairs;
}

double direct() {
    const double t0 = thread_ns();
    for (long i = 0; i < pairs; ++i) {
        void* p = __libc_malloc(32);
        escape(p);
        __libc_free(p);
    }
    return (thread_ns() - t0) / pairs;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 101;
    if (!tare::alloc::available()) {
        std::fprintf(stderr, "accounting is off: %s\n",
                     tare::alloc::availability_message(tare::alloc::availability_status()));
        return 1;
    }
    std::vector<double> raw;
    std::vector<double> counting;
    std::vector<double> paused;
    std::vector<double> outside;
    std::vector<double> ratio_counting;
    std::vector<double> ratio_paused;
    std::vector<double> ratio_outside;
    for (int r = 0; r < rounds; ++r) {
        raw.push_back(direct());
        tare::alloc::region_begin();
        counting.push_back(through_the_hook());
        tare::alloc::pause();
        paused.push_back(through_the_hook());
        tare::alloc::region_end();
        outside.push_back(through_the_hook());
        ratio_counting.push_back(counting.back() / raw.back());
        ratio_paused.push_back(paused.back() / raw.back());
        ratio_outside.push_back(outside.back() / raw.back());
    }
    std::printf("ns per malloc(32)+free, median (min) of %d rounds; ratio to direct, median of rounds\n",
                rounds);
    std::printf("  direct    %6.2f (%.2f)\n", median(raw), *std::min_element(raw.begin(), raw.end()));
    std::printf("  counting  %6.2f (%.2f)  x%.3f\n", median(counting),
                *std::min_element(counting.begin(), counting.end()), median(ratio_counting));
    std::printf("  paused    %6.2f (%.2f)  x%.3f\n", median(paused),
                *std::min_element(paused.begin(), paused.end()), median(ratio_paused));
    std::printf("  outside   %6.2f (%.2f)  x%.3f\n", median(outside),
                *std::min_element(outside.begin(), outside.end()), median(ratio_outside));
    return 0;
}
