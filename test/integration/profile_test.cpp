// --profile end to end (docs/profiles.md): the instruction profile of a counted region whose
// callees' costs are known (instrument_bench.cpp's calls_two: 3,000 no-ops in one callee and
// 1,000 in the other, each iteration), in the results and in the files viewers open; and the
// allocation stacks of a timed run.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "run_process.hpp"
#include "scratch.hpp"
#include "text_helpers.hpp"

namespace tare {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const json* row_named(const json& doc, const std::string& name) {
    for (const json& b : doc["benchmarks"])
        if (b["name"] == name)
            return &b;
    return nullptr;
}

// The function of the profile whose name contains `part`, and its own instructions per iteration.
double self_of(const json& profile, const std::string& part) {
    for (const json& f : profile["functions"])
        if (f["function"].get<std::string>().find(part) != std::string::npos)
            return f["self"].get<double>();
    return -1;
}

TEST(profile, a_counted_region_is_profiled_by_function_and_stack) {
    if (TARE_SANITIZED)
        GTEST_SKIP() << "a sanitizer build cannot run under Valgrind";
    const fs::path dir = test::scratch("profile-counted");
    auto r = test::run_process({TARE_INSTRUMENT_BENCH, "--instrument=instructions", "--filter=^calls_two$",
                                "--profile=" + dir.string(), "--json=-"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json doc = json::parse(r.out);
    const json* row = row_named(doc, "calls_two");
    ASSERT_NE(row, nullptr) << r.out;
    ASSERT_TRUE(row->contains("instruction_profile")) << row->dump();
    const json& p = (*row)["instruction_profile"];

    // Each function's own instructions: exactly its no-ops, a call's return and little else.
    const double heavy = self_of(p, "heavy_work");
    const double light = self_of(p, "light_work");
    EXPECT_GE(heavy, 3000);
    EXPECT_LE(heavy, 3004);
    EXPECT_GE(light, 1000);
    EXPECT_LE(light, 1004);
    EXPECT_NE(p["functions"][0]["function"].get<std::string>().find("heavy_work"), std::string::npos);

    // The stacks begin at the body (the harness above it is cut) and add up to the region.
    double total = 0;
    double under_body = 0;
    std::map<std::string, double> by_leaf;
    for (const json& s : p["stacks"]) {
        const double self = s["self"].get<double>();
        total += self;
        const std::string first = p["frames"][s["frames"][0].get<std::size_t>()];
        if (first.find("calls_two") != std::string::npos)
            under_body += self;
        by_leaf[p["frames"][s["frames"].back().get<std::size_t>()]] += self;
    }
    const double counted = (*row)["instructions_per_iter"].get<double>();
    // Profiling simulates more of the process, and counts the region the same, to the instruction.
    auto plain = test::run_process(
        {TARE_INSTRUMENT_BENCH, "--instrument=instructions", "--filter=^calls_two$", "--json=-"});
    ASSERT_EQ(plain.exit_code, 0) << plain.err;
    const json plain_doc = json::parse(plain.out);
    EXPECT_EQ(row_named(plain_doc, "calls_two")->at("instructions_per_iter"), counted);
    EXPECT_NEAR(total, counted, counted * 1e-9);
    EXPECT_GE(under_body, 0.999 * counted);
    EXPECT_GE(self_of(p, "calls_two"), 1);  // the loop's own compare and branch
    bool heavy_under_body = false;
    for (const json& s : p["stacks"]) {
        if (s["frames"].size() == 2 && p["frames"][s["frames"][1].get<std::size_t>()].get<std::string>().find(
                                           "heavy_work") != std::string::npos) {
            heavy_under_body = true;
            EXPECT_NEAR(s["self"].get<double>(), heavy, 1e-6);
        }
    }
    EXPECT_TRUE(heavy_under_body) << p.dump();

    // The folded stacks: whole counts over the counted iterations, one stack a line.
    const std::string folded = slurp(dir / "calls_two.instructions.folded");
    ASSERT_FALSE(folded.empty());
    double folded_total = 0;
    std::istringstream lines(folded);
    for (std::string line; std::getline(lines, line);) {
        const auto space = line.rfind(' ');
        ASSERT_NE(space, std::string::npos) << line;
        EXPECT_EQ(line.rfind("(anonymous namespace)::calls_two(tare::State&)", 0), 0u) << line;
        folded_total += std::stod(line.substr(space + 1));
    }
    const double iterations = (*row)["instrument_iterations"].get<double>();
    EXPECT_NEAR(folded_total, counted * iterations, 0.5 * static_cast<double>(p["stacks"].size()));

    // speedscope's file: one sampled profile of the same stacks per iteration.
    const json speedscope = json::parse(slurp(dir / "calls_two.speedscope.json"));
    EXPECT_EQ(speedscope["$schema"], "https://www.speedscope.app/file-format-schema.json");
    ASSERT_EQ(speedscope["profiles"].size(), 1u);
    const json& sampled = speedscope["profiles"][0];
    EXPECT_EQ(sampled["type"], "sampled");
    EXPECT_EQ(sampled["samples"].size(), sampled["weights"].size());
    double weights = 0;
    for (const json& w : sampled["weights"])
        weights += w.get<double>();
    EXPECT_NEAR(weights, counted, counted * 1e-9);
    EXPECT_NEAR(sampled["endValue"].get<double>(), counted, counted * 1e-9);

    // The console names where the instructions went.
    auto table = test::run_process({TARE_INSTRUMENT_BENCH, "--instrument=instructions",
                                    "--filter=^calls_two$", "--profile=" + dir.string()});
    ASSERT_EQ(table.exit_code, 0) << table.err;
    EXPECT_NE(table.out.find("profile: calls_two: own instructions/iter: heavy_work() 3,00"),
              std::string::npos)
        << table.out;
}

// A counted run's profile has the region's allocation stacks too, from a sites pass after the
// count; the counted figures are the count's.
TEST(profile, a_counted_run_has_the_allocation_stacks_too) {
    if (TARE_SANITIZED)
        GTEST_SKIP() << "a sanitizer build cannot run under Valgrind";
    const fs::path dir = test::scratch("profile-counted-allocations");
    auto r = test::run_process({TARE_INSTRUMENT_BENCH, "--instrument=instructions",
                                "--filter=^one_allocation$", "--profile=" + dir.string(), "--json=-"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json doc = json::parse(r.out);
    const json* row = row_named(doc, "one_allocation");
    ASSERT_NE(row, nullptr) << r.out;
    ASSERT_TRUE(row->contains("instruction_profile")) << row->dump();
    if ((*row)["allocs_per_iter"].is_null())
        GTEST_SKIP() << "allocation accounting is off in this build";
    EXPECT_EQ((*row)["allocs_per_iter"], 1.0);
    ASSERT_EQ((*row)["alloc_sites"].size(), 1u) << row->dump();
    EXPECT_NEAR((*row)["alloc_sites"][0]["allocs_per_iter"].get<double>(), 1.0, 1e-9);
    EXPECT_EQ((*row)["alloc_sites"][0]["stack"][0]["function"], "(anonymous namespace)::one_allocation");
    const json speedscope = json::parse(slurp(dir / "one_allocation.speedscope.json"));
    ASSERT_EQ(speedscope["profiles"].size(), 4u);  // instructions, allocations, bytes, retained
    EXPECT_TRUE(fs::exists(dir / "one_allocation.instructions.folded"));
    EXPECT_TRUE(fs::exists(dir / "one_allocation.bytes.folded"));
}

TEST(profile, hw_instructions_are_refused_with_the_reason) {
    auto r = test::run_process({TARE_INSTRUMENT_BENCH, "--instrument=hw-instructions", "--filter=^calls_two$",
                                "--profile=" + test::scratch("profile-hw").string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--profile counts by call stack under Callgrind only"), std::string::npos) << r.err;
}

TEST(profile, a_timed_run_writes_its_allocation_stacks) {
    // The sites pass captures stacks inside the allocation hook: not in a sanitizer's build, whose
    // runtime intercepts both (ThreadSanitizer's backtrace is its own frame and nothing below).
    if (TARE_SANITIZED)
        GTEST_SKIP() << "no allocation sites in a sanitizer build";
    const fs::path dir = test::scratch("profile-timed");
    auto r = test::run_process({TARE_INSTRUMENT_BENCH, "--filter=^one_allocation$", "--min-time=0.05",
                                "--profile=" + dir.string(), "--json=-"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json doc = json::parse(r.out);
    const json* row = row_named(doc, "one_allocation");
    ASSERT_NE(row, nullptr);
    if ((*row)["allocs_per_iter"].is_null())
        GTEST_SKIP() << "allocation accounting is off in this build";
    ASSERT_FALSE((*row)["alloc_sites"].empty()) << row->dump();
    const std::string folded = slurp(dir / "one_allocation.allocations.folded");
    // Whole allocations over the sites pass: one an iteration.
    const auto pass = (*row)["alloc_sites_pass"]["iterations"].get<std::uint64_t>();
    EXPECT_EQ(folded, "(anonymous namespace)::one_allocation " + std::to_string(pass) + "\n");
    const json speedscope = json::parse(slurp(dir / "one_allocation.speedscope.json"));
    ASSERT_EQ(speedscope["profiles"].size(), 3u);
    EXPECT_EQ(speedscope["profiles"][1]["unit"], "bytes");
    double allocations = 0;
    for (const json& w : speedscope["profiles"][0]["weights"])
        allocations += w.get<double>();
    EXPECT_NEAR(allocations, 1.0, 1e-9);  // one allocation an iteration, all at one site
}

}  // namespace
}  // namespace tare
