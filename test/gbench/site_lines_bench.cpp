// Allocation sites with known answers in a Google Benchmark suite linked with tare::gbench, for
// gbench_sites_test.cpp: each allocation of a loop is made by a function of its own, on a line
// marked "site:" that the test finds in this file. Built with debug information (-g), as
// docs/accounting.md tells users to for files and lines.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <new>
#include <vector>

namespace {

// noinline, and the block used after the call: a tail call would leave no frame of these.
__attribute__((noinline)) void* one_block() {
    void* p = ::operator new(48);  // site: one_block
    benchmark::DoNotOptimize(p);
    return p;
}

__attribute__((noinline)) void three_blocks(void** out) {
    for (int i = 0; i < 3; ++i) {
        out[i] = ::operator new(16);  // site: three_blocks
        benchmark::DoNotOptimize(out[i]);
    }
}

// Setup allocates 1,000 blocks, the loop one at one site and three at another, and one more
// between PauseTiming() and ResumeTiming(), which is in no figure and at no site.
void BM_two_sites(benchmark::State& state) {
    std::vector<void*> setup;
    for (int i = 0; i < 1000; ++i) {
        setup.push_back(std::malloc(8));
    }
    void* blocks[3];
    for (auto _ : state) {
        void* a = one_block();
        three_blocks(blocks);
        ::operator delete(a);
        for (void* b : blocks) {
            ::operator delete(b);
        }
        state.PauseTiming();
        void* paused = std::malloc(64);
        benchmark::DoNotOptimize(paused);
        std::free(paused);
        state.ResumeTiming();
    }
    for (void* p : setup) {
        std::free(p);
    }
}
BENCHMARK(BM_two_sites);
// Three repetitions in every run: the pass records the first loop alone, and counts per iteration
// of that loop.
BENCHMARK(BM_two_sites)->Repetitions(3);

// A fixture's body is its BenchmarkCase, which Fixture::Run calls: the stack ends there.
class with_setup : public benchmark::Fixture {};
BENCHMARK_DEFINE_F(with_setup, BM_fixture_site)(benchmark::State& state) {
    for (auto _ : state) {
        ::operator delete(one_block());
    }
}
BENCHMARK_REGISTER_F(with_setup, BM_fixture_site);

// A fixed count past the pass's record buffer (16,384 allocations): one block an iteration for
// 20,000 iterations. The site's figure is per iteration of the recorded part: 1, not 0.82.
void BM_fixed_count(benchmark::State& state) {
    for (auto _ : state) {
        ::operator delete(one_block());
    }
}
BENCHMARK(BM_fixed_count)->Iterations(20000);

// A loop that allocates nothing: an empty pass, as a tare executable's, not none.
void BM_no_allocation(benchmark::State& state) {
    std::uint64_t x = 1;
    for (auto _ : state) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        benchmark::DoNotOptimize(x);
    }
}
BENCHMARK(BM_no_allocation);

struct node {
    node* next;
    char payload[24];
};

__attribute__((noinline)) node* keep_block(node* head) {
    node* n = new node{head, {}};  // site: keep_block
    benchmark::DoNotOptimize(n);
    return n;
}

// One 32-byte node an iteration, kept until after the loop: a retained site.
void BM_keeps(benchmark::State& state) {
    node* head = nullptr;
    for (auto _ : state) {
        head = keep_block(head);
    }
    while (head != nullptr) {
        node* next = head->next;
        delete head;
        head = next;
    }
}
BENCHMARK(BM_keeps);

}  // namespace

BENCHMARK_MAIN();
