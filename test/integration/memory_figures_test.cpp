// The memory figures of real bodies whose truth is known (memory_bench.cpp): exact counts
// and bytes through every entry point, setup excluded, true peaks, retained growth, page
// faults, threads. One run of the executable serves every test.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "heap.hpp"
#include "run_process.hpp"

namespace tare {
namespace {

using nlohmann::json;

class memory_figures : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        auto r = test::run_process({TARE_MEMORY_BENCH, "--json=-"});
        exit_code_ = r.exit_code;
        stderr_ = r.err;
        json doc = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
        if (doc.is_discarded()) {
            return;
        }
        for (const json& b : doc["benchmarks"]) {
            results_[b["name"].get<std::string>()] = b;
        }
    }

    static const json& get(const std::string& name) {
        static const json missing;
        auto it = results_.find(name);
        if (it == results_.end()) {
            ADD_FAILURE() << "no result for " << name;
            return missing;
        }
        return it->second;
    }

    static bool has_warning(const json& b, const std::string& kind) {
        for (const json& w : b["warnings"]) {
            if (w["kind"] == kind) {
                return true;
            }
        }
        return false;
    }

    // A memory finding; "noisy" and the like are about time, which these tests do not judge.
    // Under a sanitizer, page faults include the sanitizer's own shadow memory, so only
    // retained growth is judged there.
    static bool has_memory_warning(const json& b) {
        return has_warning(b, "retained_growth") ||
               (!TARE_SANITIZED && (has_warning(b, "fresh_memory") || has_warning(b, "unseen_memory")));
    }

    static inline int exit_code_ = -1;
    static inline std::string stderr_;
    static inline std::map<std::string, json> results_;
};

TEST_F(memory_figures, the_executable_ran_every_benchmark) {
    EXPECT_EQ(exit_code_, 0) << stderr_;
    EXPECT_GT(results_.size(), 200U);
    for (const auto& [name, b] : results_) {
        EXPECT_TRUE(b["error"].is_null()) << name << ": " << b["error"].dump();
    }
}

#if TARE_ACCOUNTING_EXPECTED

// aligned_alloc's sizes are rounded up to its alignment by the bench (C11 requires it).
int rounded(const std::string& entry, int s) {
    return entry == "aligned_alloc" ? (s + 63) / 64 * 64 : s;
}

TEST_F(memory_figures, exact_counts_and_bytes_through_every_entry_point) {
    const std::map<std::string, std::pair<int, int>> per_block = {
        {"malloc", {1, 0}},
        {"calloc", {1, 0}},
        {"realloc_null", {1, 0}},
        {"realloc_grow", {2, 1}},
        {"aligned_alloc", {1, 0}},
        {"posix_memalign", {1, 0}},
        {"memalign", {1, 0}},
        {"valloc", {1, 0}},
        {"new", {1, 0}},
        {"new_array", {1, 0}},
        {"new_nothrow", {1, 0}},
        {"new_aligned", {1, 0}},
        {"new_array_aligned", {1, 0}},
    };
    for (const auto& [entry, cost] : per_block) {
        for (int k : {0, 1, 3, 17}) {
            for (int s : {1, 24, 4096, 1 << 20}) {
                const std::string name = "alloc_" + entry + "/" + std::to_string(k) + "/" + std::to_string(s);
                const json& b = get(name);
                if (b.is_null()) {
                    continue;
                }
                EXPECT_EQ(b["allocs_per_iter"].get<double>(), k * cost.first) << name;
                EXPECT_EQ(b["bytes_per_iter"].get<double>(),
                          static_cast<double>(k) * (rounded(entry, s) + cost.second))
                    << name;
                EXPECT_EQ(b["retained_bytes_per_iter"].get<double>(), 0.0) << name;
                EXPECT_FALSE(has_memory_warning(b)) << name << ": " << b["warnings"].dump();
            }
        }
    }
}

TEST_F(memory_figures, setup_memory_is_in_no_figure) {
    const json& b = get("setup_128mib");
    EXPECT_EQ(b["allocs_per_iter"], 1.0);
    EXPECT_EQ(b["bytes_per_iter"], 24.0);
    tare::test::expect_blocks_of(b["peak_live_bytes"].get<double>(), 1, 24);
    if (!TARE_SANITIZED) {
        EXPECT_LT(b["page_faults_per_iter"].get<double>(), 1.0);
    }
    EXPECT_FALSE(has_memory_warning(b)) << b["warnings"].dump();
}

// The live heap is the region's net level: frees of setup's blocks lower it.
TEST_F(memory_figures, frees_of_setup_memory_lower_the_level) {
    const json& f = get("frees_setup_memory");
    EXPECT_EQ(f["allocs_per_iter"], 1.0);
    EXPECT_EQ(f["bytes_per_iter"], 100.0);
    EXPECT_EQ(f["peak_live_bytes"], 0);
    tare::test::expect_blocks_of(f["retained_bytes_per_iter"].get<double>(), -1, 4096);
    EXPECT_FALSE(has_memory_warning(f)) << f["warnings"].dump();
}

TEST_F(memory_figures, a_steady_state_over_setup_data_holds_a_flat_heap) {
    const json& r = get("replaces_setup_blocks");
    EXPECT_EQ(r["allocs_per_iter"], 1.0);
    EXPECT_EQ(r["bytes_per_iter"], 10000.0);
    tare::test::expect_blocks_of(r["peak_live_bytes"].get<double>(), 1, 10000);
    EXPECT_EQ(r["retained_bytes_per_iter"], 0.0);
    EXPECT_FALSE(has_memory_warning(r)) << r["warnings"].dump();

    const json& lru = get("lru_steady");
    EXPECT_EQ(lru["allocs_per_iter"], 2.0);
    // Flat, to within the odd setup node that holds a bigger chunk than the new ones (heap.hpp):
    // a fraction of a byte an iteration, where keeping one node an iteration would be 24 B.
    EXPECT_LT(std::abs(lru["retained_bytes_per_iter"].get<double>()), 1.0);
    // One list node and one hash node, both of a few pointers: the figure is the iteration's
    // own, not the cache's size.
    EXPECT_GT(lru["peak_live_bytes"].get<double>(), 0);
    EXPECT_LE(lru["peak_live_bytes"].get<double>(), lru["bytes_per_iter"].get<double>());
    EXPECT_FALSE(has_memory_warning(lru)) << lru["warnings"].dump();
}

// Inputs made outside the window and freed inside it are in no figure; past what the accounting
// can keep apart, the row says so.
TEST_F(memory_figures, untimed_inputs_freed_in_the_window_are_in_no_figure) {
    const json& b = get("consume_inputs");
    EXPECT_EQ(b["allocs_per_iter"], 0.0);
    EXPECT_EQ(b["peak_live_bytes"], 0);
    EXPECT_EQ(b["retained_bytes_per_iter"], 0.0);
    EXPECT_FALSE(has_warning(b, "untracked_inputs")) << b["warnings"].dump();
    const json& many = get("consume_many_inputs");
    EXPECT_TRUE(has_warning(many, "untracked_inputs")) << many["warnings"].dump();
}

TEST_F(memory_figures, peak_is_the_true_high_water_mark) {
    const json& b = get("peak_3mib");
    EXPECT_NEAR(b["peak_live_bytes"].get<double>(), 3 << 20, 64 << 10);
    EXPECT_EQ(b["allocs_per_iter"], 3.0);
}

TEST_F(memory_figures, retained_growth_of_a_leaking_list) {
    const json& b = get("leak_list");
    EXPECT_NEAR(b["retained_bytes_per_iter"].get<double>(), 4096.0, 0.25 * 4096);
    EXPECT_TRUE(has_warning(b, "retained_growth")) << b["warnings"].dump();
}

// A bounded structure filling for longer than the samples is not a leak: the check after the
// samples sees its growth stop. The leaks above kept growing through it.
TEST_F(memory_figures, a_cache_or_batch_filling_is_growth_that_levels_off_not_a_leak) {
    for (const char* name : {"memo_cache_2mib", "batch_flushed_8192"}) {
        const json& b = get(name);
        EXPECT_FALSE(has_warning(b, "retained_growth")) << name << ": " << b["warnings"].dump();
        EXPECT_TRUE(has_warning(b, "growth_levelled")) << name << ": " << b["warnings"].dump();
    }
    for (const char* name : {"leak_list", "vector_never_cleared"}) {
        const json& b = get(name);
        bool checked = false;
        for (const json& w : b["warnings"])
            checked = checked || (w["kind"] == "retained_growth" &&
                                  w["message"].get<std::string>().find("kept growing") != std::string::npos);
        EXPECT_TRUE(checked) << name << ": " << b["warnings"].dump();
    }
}

TEST_F(memory_figures, seed_000_bug_is_flagged_and_its_fix_is_not) {
    const json& bug = get("vector_never_cleared");
    EXPECT_TRUE(has_warning(bug, "retained_growth")) << bug["warnings"].dump();
    EXPECT_GT(bug["retained_bytes_per_iter"].get<double>(), 2048.0);
    const json& fixed = get("vector_cleared_inside");
    EXPECT_FALSE(has_warning(fixed, "retained_growth")) << fixed["warnings"].dump();
    EXPECT_EQ(fixed["retained_bytes_per_iter"], 0.0);
    // One allocation in all: the buffer's first growth, in the first of 2,000 iterations.
    EXPECT_EQ(fixed["allocs_per_iter"], 1.0 / 2000);
}

TEST_F(memory_figures, threads_started_inside_the_region_count) {
    for (int n : {4, 8}) {
        const json& busy = get("threads_allocating/" + std::to_string(n));
        const json& idle = get("threads_idle/" + std::to_string(n));
        EXPECT_EQ(busy["allocs_per_iter"].get<double>() - idle["allocs_per_iter"].get<double>(), 10.0 * n);
        EXPECT_EQ(busy["bytes_per_iter"].get<double>() - idle["bytes_per_iter"].get<double>(), 320.0 * n);
    }
}

// Fresh pages that no counted allocation explains are named, with the fix; declared, or
// allocated through malloc, the same pages are explained.
TEST_F(memory_figures, memory_tare_does_not_see_is_named) {
    if (TARE_SANITIZED)
        GTEST_SKIP() << "a sanitizer's shadow memory adds page faults of its own";
    const json& unseen = get("unseen_pool_16mib");
    EXPECT_GE(unseen["page_faults_per_iter"].get<double>(), 2000.0);
    EXPECT_TRUE(has_warning(unseen, "unseen_memory")) << unseen["warnings"].dump();
    std::string message;
    for (const json& w : unseen["warnings"]) {
        if (w["kind"] == "unseen_memory")
            message = w["message"].get<std::string>();
    }
    EXPECT_NE(message.find("tare::report_alloc"), std::string::npos) << message;
    EXPECT_NE(message.find("an allocator or pool"), std::string::npos) << message;
    const json& declared = get("declared_pool_16mib");
    EXPECT_EQ(declared["bytes_per_iter"].get<double>(), 16.0 * 1024 * 1024);
    EXPECT_FALSE(has_warning(declared, "unseen_memory")) << declared["warnings"].dump();
    EXPECT_FALSE(has_warning(get("fresh_64mib"), "unseen_memory")) << get("fresh_64mib")["warnings"].dump();
    EXPECT_FALSE(has_warning(get("resident_64mib"), "unseen_memory"));
}

// A buffer the body maps itself is counted as mapped bytes, exactly, and explains its pages.
TEST_F(memory_figures, a_mapping_the_body_makes_is_counted) {
    const json& mapped = get("mapped_16mib");
    if (TARE_SANITIZED || !mapped.contains("mapped_bytes_per_iter"))
        GTEST_SKIP() << "mappings are not counted in this build";
    EXPECT_EQ(mapped["mapped_bytes_per_iter"].get<double>(), 16.0 * 1024 * 1024);
    EXPECT_EQ(mapped["allocs_per_iter"].get<double>(), 0.0);
    EXPECT_FALSE(has_warning(mapped, "unseen_memory")) << mapped["warnings"].dump();
    // Every other body maps nothing of its own: their allocators' mappings are their heaps.
    for (const auto& [name, b] : results_) {
        if (name != "mapped_16mib" && b.contains("mapped_bytes_per_iter")) {
            EXPECT_EQ(b["mapped_bytes_per_iter"].get<double>(), 0.0) << name;
        }
    }
}

#endif  // TARE_ACCOUNTING_EXPECTED

TEST_F(memory_figures, fresh_memory_faults_and_resident_does_not) {
    if (TARE_SANITIZED) {
        GTEST_SKIP() << "a sanitizer's shadow memory adds page faults of its own";
    }
    const json& fresh = get("fresh_64mib");
    EXPECT_GE(fresh["page_faults_per_iter"].get<double>(), 8000.0);
    EXPECT_TRUE(has_warning(fresh, "fresh_memory")) << fresh["warnings"].dump();
    const json& resident = get("resident_64mib");
    EXPECT_LT(resident["page_faults_per_iter"].get<double>(), 1.0);
    EXPECT_FALSE(has_warning(resident, "fresh_memory"));
}

TEST_F(memory_figures, no_false_memory_warnings_on_flat_bodies) {
    int flat = 0;
    for (const auto& [name, b] : results_) {
        if (name.rfind("flat_", 0) != 0) {
            continue;
        }
        ++flat;
        EXPECT_FALSE(has_warning(b, "retained_growth")) << name << ": " << b["warnings"].dump();
        EXPECT_FALSE(!TARE_SANITIZED && has_warning(b, "fresh_memory"))
            << name << ": " << b["warnings"].dump();
        EXPECT_FALSE(!TARE_SANITIZED && has_warning(b, "unseen_memory"))
            << name << ": " << b["warnings"].dump();
    }
    EXPECT_EQ(flat, 20);
}

}  // namespace
}  // namespace tare
