// What the allocation hook's paths cost, against the same loops calling the allocator underneath
// directly (the next definitions after the executable, as the interposer finds them: glibc's, or
// a linked jemalloc's). Two bodies: one malloc(32) + free pair, and a mixed-size one, a map of 100
// strings built and destroyed (about 200 allocations of 8 sizes, by operator new and a sized
// delete). Each runs counting (a region open on this thread), outside any region (the forwarding
// alone), and for the pair paused (open, not counting: the paused set's insert and removal).
// Rounds interleave the loops, so a machine's changes of speed hit each alike; per-round ratios to
// the direct loop are the figures to read (bench/README.md, "Allocation accounting's cost").
// Linked with tare::tare, as a benchmark executable is; built once per allocator
// (tare_accounting_paths, tare_accounting_paths_jemalloc).
//
// The direct map calls what a program without tare calls: the allocator's own operator new and
// sized delete when the allocator defines them (jemalloc does; its sized delete skips the lookup
// of the block's size), malloc and free otherwise (glibc, where libstdc++'s operator new calls
// malloc).
//
// Usage: tare_accounting_paths [ROUNDS]   (default 101; pin it: taskset -c 1)
#include <dlfcn.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "alloc/accounting.hpp"

namespace {

using malloc_fn = void* (*)(std::size_t);
using free_fn = void (*)(void*);
using sized_free_fn = void (*)(void*, std::size_t);
using usable_fn = std::size_t (*)(void*);

/// The allocator underneath, looked up once before the rounds.
struct next_allocator {
    malloc_fn malloc = nullptr;
    free_fn free = nullptr;
    malloc_fn new_block = nullptr;         // its operator new, or malloc
    sized_free_fn sized_delete = nullptr;  // its sized operator delete, or null: free
    usable_fn usable_size = nullptr;       // malloc_usable_size
    usable_fn sallocx = nullptr;           // jemalloc's sallocx(p, 0), through a wrapper
    const char* module = "";
};
next_allocator next;

const void* module_of(const void* f) {
    Dl_info info{};
    return f != nullptr && dladdr(f, &info) != 0 ? info.dli_fbase : nullptr;
}

template <class F>
F next_definition(const char* name) {
    return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

std::size_t (*je_sallocx)(const void*, int) = nullptr;
std::size_t sallocx_0(void* p) {
    return je_sallocx(p, 0);
}

void find_next_allocator() {
    next.malloc = next_definition<malloc_fn>("malloc");
    next.free = next_definition<free_fn>("free");
    next.usable_size = next_definition<usable_fn>("malloc_usable_size");
    const void* home = module_of(reinterpret_cast<const void*>(next.malloc));
    const auto new_block = next_definition<malloc_fn>("_Znwm");
    const auto sized_delete = next_definition<sized_free_fn>("_ZdlPvm");
    const bool own_new = module_of(reinterpret_cast<const void*>(new_block)) == home &&
                         module_of(reinterpret_cast<const void*>(sized_delete)) == home;
    next.new_block = own_new ? new_block : next.malloc;
    next.sized_delete = own_new ? sized_delete : nullptr;
    je_sallocx = next_definition<std::size_t (*)(const void*, int)>("sallocx");
    if (je_sallocx != nullptr && module_of(reinterpret_cast<const void*>(je_sallocx)) == home)
        next.sallocx = sallocx_0;
    Dl_info info{};
    if (dladdr(reinterpret_cast<const void*>(next.malloc), &info) != 0 && info.dli_fname != nullptr)
        next.module = info.dli_fname;
}

/// An allocator for the standard containers that calls the allocator underneath directly.
template <class T>
struct direct_allocator {
    using value_type = T;
    direct_allocator() = default;
    template <class U>
    direct_allocator(const direct_allocator<U>&) noexcept {}
    T* allocate(std::size_t n) { return static_cast<T*>(next.new_block(n * sizeof(T))); }
    void deallocate(T* p, std::size_t n) noexcept {
        if (next.sized_delete != nullptr)
            next.sized_delete(p, n * sizeof(T));
        else
            next.free(p);
    }
    friend bool operator==(direct_allocator, direct_allocator) noexcept { return true; }
};

constexpr long pairs = 1000000;
constexpr long maps = 5000;
constexpr int entries = 100;

void escape(const void* p) {
    asm volatile("" : : "r"(p) : "memory");
}

double thread_ns() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

double pair_through_the_hook() {
    const double t0 = thread_ns();
    for (long i = 0; i < pairs; ++i) {
        void* p = std::malloc(32);
        escape(p);
        std::free(p);
    }
    return (thread_ns() - t0) / pairs;
}

double pair_direct() {
    const double t0 = thread_ns();
    for (long i = 0; i < pairs; ++i) {
        void* p = next.malloc(32);
        escape(p);
        next.free(p);
    }
    return (thread_ns() - t0) / pairs;
}

/// ns per map of `entries` strings (16 to 136 characters) built and destroyed, allocating with `A`.
template <template <class> class A>
double map_of_strings() {
    using text = std::basic_string<char, std::char_traits<char>, A<char>>;
    using map = std::map<int, text, std::less<int>, A<std::pair<const int, text>>>;
    static const std::vector<std::string> texts = [] {
        std::vector<std::string> v;
        for (int i = 0; i < entries; ++i)
            v.emplace_back(static_cast<std::size_t>(16 + i % 7 * 20), static_cast<char>('a' + i % 26));
        return v;
    }();
    const double t0 = thread_ns();
    for (long r = 0; r < maps; ++r) {
        map m;
        for (int i = 0; i < entries; ++i) {
            const std::string& s = texts[static_cast<std::size_t>(i)];
            m.emplace(i * 7919 % entries, text(s.data(), s.size()));
        }
        escape(&m);
    }
    return (thread_ns() - t0) / maps;
}

/// ns per call of `usable` on one live 32-byte block (null: not available).
double usable_read(usable_fn usable) {
    if (usable == nullptr)
        return 0;
    void* p = next.malloc(32);
    std::size_t sum = 0;
    const double t0 = thread_ns();
    for (long i = 0; i < pairs; ++i) {
        escape(p);
        sum += usable(p);
    }
    const double ns = (thread_ns() - t0) / pairs;
    escape(&sum);
    next.free(p);
    return ns;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/// One path's times over the rounds, and their ratios to the direct loop's, round by round.
struct path {
    const char* name;
    std::vector<double> ns;
    std::vector<double> ratio;
    void add(double t, double direct_ns) {
        ns.push_back(t);
        ratio.push_back(t / direct_ns);
    }
    void print() const {
        std::vector<double> r = ratio;
        std::sort(r.begin(), r.end());
        const double min_ns = *std::min_element(ns.begin(), ns.end());
        std::printf("  %-9s %8.2f (%.2f)", name, median(ns), min_ns);
        if (!r.empty())
            std::printf("  x%.3f [%.3f, %.3f]", r[r.size() / 2], r[r.size() / 4], r[r.size() * 3 / 4]);
        std::printf("\n");
    }
};

}  // namespace

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 101;
    if (!tare::alloc::available()) {
        std::fprintf(stderr, "accounting is off: %s\n",
                     tare::alloc::availability_message(tare::alloc::availability_status()));
        return 1;
    }
    find_next_allocator();
    path pair[] = {{"direct", {}, {}}, {"counting", {}, {}}, {"paused", {}, {}}, {"outside", {}, {}}};
    path map[] = {{"direct", {}, {}}, {"counting", {}, {}}, {"outside", {}, {}}};
    path reader[] = {{"usable", {}, {}}, {"sallocx", {}, {}}};
    for (int r = 0; r < rounds; ++r) {
        const double d = pair_direct();
        pair[0].ns.push_back(d);
        tare::alloc::region_begin();
        pair[1].add(pair_through_the_hook(), d);
        tare::alloc::pause();
        pair[2].add(pair_through_the_hook(), d);
        tare::alloc::region_end();
        pair[3].add(pair_through_the_hook(), d);

        const double dm = map_of_strings<direct_allocator>();
        map[0].ns.push_back(dm);
        tare::alloc::region_begin();
        map[1].add(map_of_strings<std::allocator>(), dm);
        tare::alloc::region_end();
        map[2].add(map_of_strings<std::allocator>(), dm);

        reader[0].ns.push_back(usable_read(next.usable_size));
        reader[1].ns.push_back(usable_read(next.sallocx));
    }
    std::printf("allocator underneath: %s; %d rounds\n", next.module, rounds);
    std::printf("ns per malloc(32)+free, median (min); ratio to direct, median [quartiles] of rounds\n");
    for (const path& p : pair)
        p.print();
    std::printf("ns per map of %d strings built and destroyed (direct: %s)\n", entries,
                next.sized_delete != nullptr ? "the allocator's operator new, sized delete" : "malloc, free");
    for (const path& p : map)
        p.print();
    std::printf("ns per usable-size read of a live 32-byte block\n");
    for (const path& p : reader)
        if (p.ns.front() > 0)
            p.print();
    return 0;
}
