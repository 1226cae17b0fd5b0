// Allocation sites with known answers, for sites_test.cpp: each allocation is made by a
// function of its own, on a line marked "site:" that the test finds in this file. Built with
// debug information (-g), as docs/accounting.md tells users to for files and lines.
#include <tare/tare.hpp>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

// noinline, and the block used after the call: a tail call would leave no frame of these.
__attribute__((noinline)) void* one_block() {
    void* p = ::operator new(48);  // site: one_block
    tare::do_not_optimize(p);
    return p;
}

__attribute__((noinline)) void three_blocks(void** out) {
    for (int i = 0; i < 3; ++i) {
        out[i] = ::operator new(16);  // site: three_blocks
        tare::do_not_optimize(out[i]);
    }
}

// Setup allocates 1,000 blocks and the loop one at one site and three at another; one of the
// loop's is made and freed between pause() and resume(), in no figure.
void two_sites(tare::State& state) {
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
    }
    for (void* p : setup) {
        std::free(p);
    }
}
TARE_BENCHMARK(two_sites);

__attribute__((noinline)) void* worker_block() {
    void* p = std::malloc(100);  // site: worker_block
    tare::do_not_optimize(p);
    return p;
}

// A thread started in setup makes one allocation for each iteration of the loop, which waits
// for it: the allocation is the region's, made by another thread.
void other_thread(tare::State& state) {
    std::atomic<int> asked{0};
    std::atomic<int> done{0};
    std::atomic<bool> stop{false};
    std::thread worker([&] {
        int seen = 0;
        while (!stop.load()) {
            if (asked.load() != seen) {
                ++seen;
                std::free(worker_block());
                done.store(seen);
            }
        }
    });
    int n = 0;
    for (auto _ : state) {
        asked.store(++n);
        while (done.load() != n) {
        }
    }
    stop.store(true);
    worker.join();
}
TARE_BENCHMARK(other_thread)->min_time(0.02);

// Two workers run the same line for each iteration, as a pool's do: one site, two threads.
void two_workers(tare::State& state) {
    std::atomic<int> asked{0};
    std::atomic<int> done[2] = {0, 0};
    std::atomic<bool> stop{false};
    auto work = [&](std::atomic<int>& mine) {
        int seen = 0;
        while (!stop.load()) {
            if (asked.load() != seen) {
                ++seen;
                std::free(worker_block());
                mine.store(seen);
            }
        }
    };
    std::thread a(work, std::ref(done[0]));
    std::thread b(work, std::ref(done[1]));
    int n = 0;
    for (auto _ : state) {
        asked.store(++n);
        while (done[0].load() != n || done[1].load() != n) {
        }
    }
    stop.store(true);
    a.join();
    b.join();
}
TARE_BENCHMARK(two_workers)->min_time(0.02);

struct node {
    node* next;
    char payload[56];
};

__attribute__((noinline)) node* keep_block(node* head) {
    node* n = new node{head, {}};  // site: keep_block
    tare::do_not_optimize(n);
    return n;
}

// Each iteration keeps a 64-byte node: the heap grows by 64 B an iteration, all of it from one
// site.
void grows(tare::State& state) {
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
TARE_BENCHMARK(grows);

__attribute__((noinline)) void append(std::vector<std::uint64_t>& kept, std::uint64_t i) {
    kept.push_back(i);  // site: append
}

// A fast loop that appends to a vector it never clears, beside three temporary strings an
// iteration: the vector reallocates only when it doubles, long after the iterations whose every
// allocation the pass can record, yet its site is the one that grows.
void grows_fast(tare::State& state) {
    std::vector<std::uint64_t> kept;
    std::uint64_t i = 0;
    for (auto _ : state) {
        std::string a(40, 'a');
        std::string b(50, 'b');
        std::string c(60, 'c');
        tare::do_not_optimize(a.data());
        tare::do_not_optimize(b.data());
        tare::do_not_optimize(c.data());
        append(kept, ++i);
    }
}
TARE_BENCHMARK(grows_fast);

// No allocation in the loop: no pass, no site.
void none(tare::State& state) {
    int x = 0;
    for (auto _ : state) {
        tare::do_not_optimize(++x);
    }
}
TARE_BENCHMARK(none);

}  // namespace
