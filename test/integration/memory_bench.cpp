// Bodies whose memory behaviour is known exactly; memory_figures_test checks that tare
// reports precisely that. Every figure here is ground truth, not an estimate.
#include <malloc.h>
#include <sys/mman.h>
#include <tare/tare.hpp>

#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <new>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace {

using alloc_fn = void* (*)(std::size_t);
using free_fn = void (*)(void*);

struct entry_point {
    const char* name;
    alloc_fn make;
    free_fn release;
    int allocs_per_block;     // allocation calls one block costs
    std::size_t extra_bytes;  // bytes requested beyond the block's size
};

void c_free(void* p) {
    std::free(p);
}

const entry_point entry_points[] = {
    {"malloc", [](std::size_t s) { return std::malloc(s); }, c_free, 1, 0},
    {"calloc", [](std::size_t s) { return std::calloc(1, s); }, c_free, 1, 0},
    {"realloc_null", [](std::size_t s) { return std::realloc(nullptr, s); }, c_free, 1, 0},
    // malloc(1) then realloc to s: two calls, 1 + s bytes.
    {"realloc_grow",
     [](std::size_t s) {
         void* p = std::malloc(1);
         tare::do_not_optimize(p);
         return std::realloc(p, s);
     },
     c_free, 2, 1},
    // C11 requires aligned_alloc's size to be a multiple of the alignment (ASan enforces it):
    // the size is rounded up here, and the test expects the rounded size.
    {"aligned_alloc", [](std::size_t s) { return std::aligned_alloc(64, (s + 63) / 64 * 64); }, c_free, 1, 0},
    {"posix_memalign",
     [](std::size_t s) {
         void* p = nullptr;
         return posix_memalign(&p, 64, s) == 0 ? p : nullptr;
     },
     c_free, 1, 0},
    {"memalign", [](std::size_t s) { return memalign(128, s); }, c_free, 1, 0},
    {"valloc", [](std::size_t s) { return valloc(s); }, c_free, 1, 0},
    {"new", [](std::size_t s) { return ::operator new(s); }, [](void* p) { ::operator delete(p); }, 1, 0},
    {"new_array", [](std::size_t s) { return static_cast<void*>(new char[s]); },
     [](void* p) { delete[] static_cast<char*>(p); }, 1, 0},
    {"new_nothrow", [](std::size_t s) { return ::operator new(s, std::nothrow); },
     [](void* p) { ::operator delete(p, std::nothrow); }, 1, 0},
    {"new_aligned", [](std::size_t s) { return ::operator new (s, std::align_val_t{256}); },
     [](void* p) { ::operator delete (p, std::align_val_t{256}); }, 1, 0},
    {"new_array_aligned", [](std::size_t s) { return ::operator new[](s, std::align_val_t{64}); },
     [](void* p) { ::operator delete[](p, std::align_val_t{64}); }, 1, 0},
};

void register_entry_points() {
    for (const entry_point& e : entry_points) {
        auto* b = tare::register_benchmark(std::string("alloc_") + e.name, [e](tare::State& state) {
            const auto k = static_cast<std::size_t>(state.arg(0));
            const auto s = static_cast<std::size_t>(state.arg(1));
            std::vector<void*> blocks(k);  // setup: not counted
            for (auto _ : state) {
                for (std::size_t i = 0; i < k; ++i) {
                    blocks[i] = e.make(s);
                    tare::do_not_optimize(blocks[i]);
                }
                for (std::size_t i = 0; i < k; ++i) {
                    e.release(blocks[i]);
                }
            }
        });
        for (std::int64_t k : {0, 1, 3, 17}) {
            for (std::int64_t s : {1, 24, 4096, 1 << 20}) {
                b->args({k, s});
            }
        }
        b->iterations(8)->samples(3);
    }
}

[[maybe_unused]] const bool registered = (register_entry_points(), true);

// Setup allocates and touches 128 MiB; the body makes one 24-byte allocation.
void setup_128mib(tare::State& state) {
    std::vector<char> big(std::size_t{128} << 20, 1);
    for (auto _ : state) {
        void* p = std::malloc(24);
        tare::do_not_optimize(p);
        std::free(p);
    }
    tare::do_not_optimize(big.data());
}
TARE_BENCHMARK(setup_128mib)->iterations(50)->samples(5);

// Frees memory the setup allocated: each free lowers the region's level (docs/accounting.md,
// "What a free lowers"), so the level falls by 4096 B per iteration and never rises above the
// level the region began at.
void frees_setup_memory(tare::State& state) {
    std::vector<void*> setup(2000);
    for (auto& p : setup) {
        p = std::malloc(4096);
    }
    std::size_t next = 0;
    for (auto _ : state) {
        std::free(setup[next++]);
        void* p = std::malloc(100);
        tare::do_not_optimize(p);
        std::free(p);
    }
    for (; next < setup.size(); ++next) {
        std::free(setup[next]);
    }
}
TARE_BENCHMARK(frees_setup_memory)->iterations(100)->samples(5);

// A steady state over data built in setup: each iteration allocates one 10,000 B block and
// frees one of setup's. The process's heap is flat, so is the region's level.
void replaces_setup_blocks(tare::State& state) {
    std::vector<void*> blocks(4000);
    for (auto& p : blocks) {
        p = std::malloc(10000);
    }
    std::size_t next = 0;
    for (auto _ : state) {
        void* fresh = std::malloc(10000);
        tare::do_not_optimize(fresh);
        std::free(blocks[next]);
        blocks[next] = fresh;
        next = (next + 1) % blocks.size();
    }
    for (void* p : blocks) {
        std::free(p);
    }
}
TARE_BENCHMARK(replaces_setup_blocks)->iterations(100)->samples(20);

// An LRU cache filled to capacity in setup; each iteration inserts one new key and evicts the
// oldest: one list node and one hash node in, one of each out (buckets reserved in setup, so
// the table never rehashes). The level is flat; the peak is one iteration's two nodes.
void lru_steady(tare::State& state) {
    constexpr int capacity = 20000;
    std::list<int> order;
    std::unordered_map<int, std::list<int>::iterator> where;
    where.reserve(4 * capacity);
    int next = 0;
    for (; next < capacity; ++next) {
        order.push_front(next);
        where.emplace(next, order.begin());
    }
    for (auto _ : state) {
        order.push_front(next);
        where.emplace(next, order.begin());
        ++next;
        where.erase(order.back());
        order.pop_back();
        tare::do_not_optimize(order.front());
    }
}
TARE_BENCHMARK(lru_steady)->iterations(200)->samples(20);

// Untimed inputs, each a 200-byte buffer made outside the window and destroyed inside it: the
// body takes the input over. Neither the input's allocation nor its free is in any figure.
void consume_inputs(tare::State& state) {
    auto inputs = state.with_inputs([] { return std::vector<char>(200, 'x'); });
    for (auto& v : inputs) {
        std::vector<char> taken = std::move(v);
        tare::do_not_optimize(taken.data());
    }
}
TARE_BENCHMARK(consume_inputs)->iterations(1000)->samples(10);

// The same with 40,000 inputs alive at once: more than the accounting keeps apart.
void consume_many_inputs(tare::State& state) {
    consume_inputs(state);
}
TARE_BENCHMARK(consume_many_inputs)->iterations(40000)->samples(2)->input_chunk(40000);

// Holds 3 x 1 MiB live at once.
void peak_3mib(tare::State& state) {
    for (auto _ : state) {
        void* a = std::malloc(1 << 20);
        void* b = std::malloc(1 << 20);
        void* c = std::malloc(1 << 20);
        tare::do_not_optimize(a);
        tare::do_not_optimize(b);
        tare::do_not_optimize(c);
        std::free(a);
        std::free(b);
        std::free(c);
    }
}
TARE_BENCHMARK(peak_3mib)->iterations(10)->samples(5);

// Keeps a 4096-byte block per iteration on an intrusive list: retained 4096 B/iter exactly.
void leak_list(tare::State& state) {
    void* head = nullptr;
    for (auto _ : state) {
        void* block = std::malloc(4096);
        std::memcpy(block, &head, sizeof head);
        head = block;
    }
    while (head != nullptr) {
        void* next = nullptr;
        std::memcpy(&next, head, sizeof next);
        std::free(head);
        head = next;
    }
}
TARE_BENCHMARK(leak_list)->iterations(100)->samples(20);

// Seed case 000's bug: the buffer is cleared outside the loop, so it grows forever.
void vector_never_cleared(tare::State& state) {
    std::vector<char> out;
    const std::string chunk(4096, 'x');
    out.clear();  // the bug: outside the loop
    for (auto _ : state) {
        out.insert(out.end(), chunk.begin(), chunk.end());
        tare::do_not_optimize(out.data());
    }
}
TARE_BENCHMARK(vector_never_cleared)->iterations(100)->samples(20);

// A memo cache capped at 2 MiB: each iteration memoises one new 400-byte result and, once the
// cache is full, evicts the oldest. It fills over 5,243 iterations, more than the 2,000 measured:
// the samples see it grow at 400 B an iteration and more; the check after them sees it stop.
void memo_cache_2mib(tare::State& state) {
    constexpr std::size_t entry = 400;
    constexpr std::size_t capacity = (std::size_t{2} << 20) / entry;
    std::list<std::unique_ptr<char[]>> cache;
    for (auto _ : state) {
        cache.push_back(std::make_unique<char[]>(entry));
        tare::do_not_optimize(cache.back().get());
        if (cache.size() > capacity)
            cache.pop_front();
    }
}
TARE_BENCHMARK(memo_cache_2mib)->iterations(100)->samples(20);

// A write batch of 13-byte records, written out and reused (cleared, its capacity kept) every
// 8,192 records: more than the 2,000 measured, so the samples see only its buffer grow.
void batch_flushed_8192(tare::State& state) {
    std::vector<char> batch;
    const char record[13] = "record-bytes";
    std::size_t records = 0;
    for (auto _ : state) {
        batch.insert(batch.end(), record, record + sizeof record);
        if (++records == 8192) {
            tare::do_not_optimize(batch.data());
            batch.clear();
            records = 0;
        }
    }
}
TARE_BENCHMARK(batch_flushed_8192)->iterations(100)->samples(20);

// The fix: cleared inside the loop.
void vector_cleared_inside(tare::State& state) {
    std::vector<char> out;
    const std::string chunk(4096, 'x');
    for (auto _ : state) {
        out.clear();
        out.insert(out.end(), chunk.begin(), chunk.end());
        tare::do_not_optimize(out.data());
    }
}
TARE_BENCHMARK(vector_cleared_inside)->iterations(100)->samples(20);

// A fresh 64 MiB buffer filled each iteration, against a resident one.
void fresh_64mib(tare::State& state) {
    const std::size_t size = std::size_t{64} << 20;
    for (auto _ : state) {
        char* p = static_cast<char*>(std::malloc(size));
        std::memset(p, 1, size);
        tare::do_not_optimize(p);
        std::free(p);
    }
}
TARE_BENCHMARK(fresh_64mib)->iterations(2)->samples(3);

void resident_64mib(tare::State& state) {
    const std::size_t size = std::size_t{64} << 20;
    std::vector<char> buffer(size, 0);
    for (auto _ : state) {
        std::memset(buffer.data(), 1, size);
        tare::do_not_optimize(buffer.data());
    }
}
TARE_BENCHMARK(resident_64mib)->iterations(2)->samples(3);

// A pool tare does not see: pages of one mapping made before the loop, filled each iteration
// and given back to the kernel after it, as an allocator that purges does. Every iteration
// faults 16 MiB in that no counted allocation asked for; declared, the same pool is explained.
class purging_pool {
public:
    static constexpr std::size_t size = std::size_t{16} << 20;
    purging_pool()
        : base_(static_cast<char*>(
              mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))) {
        if (base_ == MAP_FAILED)
            std::abort();
    }
    ~purging_pool() { munmap(base_, size); }
    purging_pool(const purging_pool&) = delete;
    purging_pool& operator=(const purging_pool&) = delete;
    char* fill() {
        std::memset(base_, 1, size);
        tare::do_not_optimize(base_);
        return base_;
    }
    void purge() { madvise(base_, size, MADV_DONTNEED); }

private:
    char* base_;
};

void unseen_pool_16mib(tare::State& state) {
    purging_pool pool;
    for (auto _ : state) {
        pool.fill();
        pool.purge();
    }
}
TARE_BENCHMARK(unseen_pool_16mib)->iterations(2)->samples(3);

void declared_pool_16mib(tare::State& state) {
    purging_pool pool;
    for (auto _ : state) {
        char* block = pool.fill();
        tare::report_alloc(block, purging_pool::size);
        tare::report_free(block, purging_pool::size);
        pool.purge();
    }
}
TARE_BENCHMARK(declared_pool_16mib)->iterations(2)->samples(3);

// A buffer the body maps itself each iteration: 16 MiB mapped, nothing allocated.
void mapped_16mib(tare::State& state) {
    for (auto _ : state) {
        void* p =
            mmap(nullptr, purging_pool::size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            std::abort();
        std::memset(p, 1, purging_pool::size);
        tare::do_not_optimize(p);
        munmap(p, purging_pool::size);
    }
}
TARE_BENCHMARK(mapped_16mib)->iterations(2)->samples(3);

// glibc allocates TLS bookkeeping the first time a thread stack is created and caches the
// stack after the thread ends; setup starts and joins n threads so that both bodies below
// run on cached stacks and differ only in what their threads allocate.
void prime_thread_stacks(std::size_t n) {
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < n; ++t) {
        threads.emplace_back([] {});
    }
    for (auto& t : threads) {
        t.join();
    }
}

// Threads started inside the loop: each makes 10 allocations of 32 bytes.
void threads_allocating(tare::State& state) {
    const auto n = static_cast<std::size_t>(state.arg(0));
    prime_thread_stacks(n);
    std::vector<std::thread> threads;
    threads.reserve(n);
    for (auto _ : state) {
        for (std::size_t t = 0; t < n; ++t) {
            threads.emplace_back([] {
                for (int i = 0; i < 10; ++i) {
                    void* p = std::malloc(32);
                    tare::do_not_optimize(p);
                    std::free(p);
                }
            });
        }
        for (auto& t : threads) {
            t.join();
        }
        threads.clear();
    }
}
TARE_BENCHMARK(threads_allocating)->arg(4)->arg(8)->iterations(5)->samples(3);

void threads_idle(tare::State& state) {
    const auto n = static_cast<std::size_t>(state.arg(0));
    prime_thread_stacks(n);
    std::vector<std::thread> threads;
    threads.reserve(n);
    for (auto _ : state) {
        for (std::size_t t = 0; t < n; ++t) {
            threads.emplace_back([] {});
        }
        for (auto& t : threads) {
            t.join();
        }
        threads.clear();
    }
}
TARE_BENCHMARK(threads_idle)->arg(4)->arg(8)->iterations(5)->samples(3);

}  // namespace
