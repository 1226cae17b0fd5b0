// Every entry point of the interposer against ground truth: bodies that make exactly k
// allocations of s bytes, for k in {0, 1, 3, 17} and s in {1, 24, 4096, 1 MiB}. Everything
// between region_begin() and snapshot() allocates only what it means to count.
#include <gtest/gtest.h>
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "alloc/tally.hpp"
#include "unit/alloc_test_support.hpp"

namespace {

namespace alloc = tare::alloc;
using namespace tare::alloc::test;

// ---- The entry points, each as "allocate s bytes" + "free it" ------------------------------

template <std::size_t S>
struct blob {
    unsigned char bytes[S];
};

// `new T` needs the size at compile time: one instantiation per tested size.
template <std::size_t... S>
struct blob_sizes {
    static void* make(std::size_t s, bool nothrow) {
        void* p = nullptr;
        ((s == S ? (p = nothrow ? new (std::nothrow) blob<S> : new blob<S>) : nullptr), ...);
        return p;
    }
    static void destroy(void* p, std::size_t s) {
        ((s == S ? (delete static_cast<blob<S>*>(p), 0) : 0), ...);
    }
};
using tested_blobs = blob_sizes<1, 24, 4 * kib, mib>;

struct entry_point {
    const char* name;
    std::size_t align;  // what the returned pointer must be aligned to
    /// Made before the region (realloc's input block), or nullptr.
    void* (*prepare)(std::size_t s);
    void* (*allocate)(std::size_t s, void* prepared);
    void (*release)(void* p, std::size_t s);
};

void c_free(void* p, std::size_t) {
    std::free(p);
}
void delete_array(void* p, std::size_t) {
    delete[] static_cast<unsigned char*>(p);
}
void delete_aligned(void* p, std::size_t s) {
    ::operator delete (p, s, std::align_val_t{64});
}
void delete_aligned_array(void* p, std::size_t) {
    ::operator delete[](p, std::align_val_t{64});
}

const entry_point entry_points[] = {
    {"malloc", 16, nullptr, [](std::size_t s, void*) { return std::malloc(s); }, c_free},
    {"calloc", 16, nullptr, [](std::size_t s, void*) { return std::calloc(s, 1); }, c_free},
    {"realloc_from_null", 16, nullptr, [](std::size_t s, void*) { return std::realloc(nullptr, s); }, c_free},
    // Grows a block made while the region was paused: one allocation of s, and the old block
    // was never in a figure, so nothing is released.
    {"realloc_grow", 16, [](std::size_t s) { return std::malloc(s / 2); },
     [](std::size_t s, void* prepared) { return std::realloc(prepared, s); }, c_free},
    {"aligned_alloc", 64, nullptr, [](std::size_t s, void*) { return aligned_alloc(64, s); }, c_free},
    {"posix_memalign", 256, nullptr,
     [](std::size_t s, void*) {
         void* p = nullptr;
         return posix_memalign(&p, 256, s) == 0 ? p : nullptr;
     },
     c_free},
    {"memalign", 128, nullptr, [](std::size_t s, void*) { return memalign(128, s); }, c_free},
    {"valloc", page, nullptr, [](std::size_t s, void*) { return valloc(s); }, c_free},
    {"pvalloc", page, nullptr, [](std::size_t s, void*) { return pvalloc(s); }, c_free},
    {"new", 16, nullptr, [](std::size_t s, void*) { return tested_blobs::make(s, false); },
     tested_blobs::destroy},
    {"new_array", 16, nullptr, [](std::size_t s, void*) -> void* { return new unsigned char[s]; },
     delete_array},
    {"nothrow_new", 16, nullptr, [](std::size_t s, void*) { return tested_blobs::make(s, true); },
     tested_blobs::destroy},
    {"nothrow_new_array", 16, nullptr,
     [](std::size_t s, void*) -> void* { return new (std::nothrow) unsigned char[s]; }, delete_array},
    {"aligned_new", 64, nullptr,
     [](std::size_t s, void*) { return ::operator new (s, std::align_val_t{64}); }, delete_aligned},
    {"aligned_new_array", 64, nullptr,
     [](std::size_t s, void*) { return ::operator new[](s, std::align_val_t{64}); }, delete_aligned_array},
};

struct body_case {
    const entry_point* entry;
    std::size_t count;
    std::size_t size;
};

std::string case_name(const testing::TestParamInfo<body_case>& info) {
    return std::string(info.param.entry->name) + "_" + std::to_string(info.param.count) + "x" +
           std::to_string(info.param.size);
}

std::vector<body_case> all_cases() {
    std::vector<body_case> cases;
    for (const entry_point& e : entry_points) {
        for (std::size_t k : {0U, 1U, 3U, 17U}) {
            for (std::size_t s : {std::size_t{1}, std::size_t{24}, 4 * kib, mib}) {
                cases.push_back({&e, k, s});
            }
        }
    }
    return cases;
}

class entry_point_test : public testing::TestWithParam<body_case> {};

// k allocations of s bytes, all live at the snapshot.
TEST_P(entry_point_test, counts_exactly_k_allocations_of_s_bytes) {
    const body_case c = GetParam();
    std::array<void*, 17> prepared{};
    std::array<void*, 17> blocks{};
    // The blocks a realloc grows are made inside the region while it is paused, so they are
    // in no figure, freed or not (a setup block's free would lower the level: tested apart).
    alloc::region_begin();
    alloc::pause();
    for (std::size_t i = 0; i < c.count; ++i) {
        if (c.entry->prepare != nullptr)
            prepared[i] = c.entry->prepare(c.size);
    }
    alloc::resume();
    for (std::size_t i = 0; i < c.count; ++i) {
        blocks[i] = c.entry->allocate(c.size, prepared[i]);
        escape(blocks[i]);
    }
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();

    std::int64_t held = 0;
    for (std::size_t i = 0; i < c.count; ++i) {
        ASSERT_NE(blocks[i], nullptr);
        EXPECT_TRUE(aligned_to(blocks[i], c.entry->align)) << blocks[i];
        EXPECT_GE(malloc_usable_size(blocks[i]), c.size);
        held += usable(blocks[i]);
        std::memset(blocks[i], 0xa5, c.size);  // the whole request is writable
        c.entry->release(blocks[i], c.size);
    }
    EXPECT_EQ(got.allocs, c.count);
    EXPECT_EQ(got.bytes, c.count * c.size);
    EXPECT_EQ(got.live, held);  // the allocator's usable sizes
    EXPECT_EQ(got.peak, held);
}

// The same, each block freed before the next is made: live back to 0, peak one block.
TEST_P(entry_point_test, freeing_inside_the_region_brings_live_back_to_zero) {
    const body_case c = GetParam();
    std::array<void*, 17> prepared{};
    std::array<void*, 17> blocks{};
    // The blocks a realloc grows are made inside the region while it is paused, so they are
    // in no figure, freed or not (a setup block's free would lower the level: tested apart).
    alloc::region_begin();
    alloc::pause();
    for (std::size_t i = 0; i < c.count; ++i) {
        if (c.entry->prepare != nullptr)
            prepared[i] = c.entry->prepare(c.size);
    }
    alloc::resume();
    std::int64_t largest = 0;  // asking the usable size allocates nothing
    for (std::size_t i = 0; i < c.count; ++i) {
        blocks[i] = c.entry->allocate(c.size, prepared[i]);
        escape(blocks[i]);
        const std::int64_t u = usable(blocks[i]);
        largest = u > largest ? u : largest;
        c.entry->release(blocks[i], c.size);
    }
    const alloc::counters got = alloc::snapshot();
    alloc::region_end();

    EXPECT_EQ(got.allocs, c.count);
    EXPECT_EQ(got.bytes, c.count * c.size);
    EXPECT_EQ(got.live, 0);
    EXPECT_EQ(got.peak, largest);
}

INSTANTIATE_TEST_SUITE_P(every_entry_point, entry_point_test, testing::ValuesIn(all_cases()), case_name);

}  // namespace
