// The Google Benchmark JSON reader on real GB 1.7.1 output (data/, see its README): golden
// readings as tare/1 and as tare's table, and the mapping rules one by one.
#include "io/gbench_reader.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>

#include "golden/golden.hpp"
#include "report/export/exports.hpp"
#include "report/reporter.hpp"

namespace tare {
namespace {

namespace fs = std::filesystem;

std::string data(const std::string& name) {
    return std::string(TARE_GBENCH_DATA) + "/" + name;
}

run_results read_ok(const std::string& name) {
    auto r = io::read_any_results_file(data(name));
    if (auto* e = std::get_if<io::read_error>(&r)) {
        ADD_FAILURE() << e->message;
        return {};
    }
    return std::get<run_results>(r);
}

const benchmark_result* find(const run_results& r, const std::string& name) {
    for (const auto& b : r.benchmarks) {
        if (b.name == name) {
            return &b;
        }
    }
    ADD_FAILURE() << "no benchmark " << name;
    return nullptr;
}

std::optional<double> counter(const benchmark_result& b, const std::string& name) {
    for (const auto& [k, v] : b.counters) {
        if (k == name) {
            return v;
        }
    }
    return std::nullopt;
}

class gbench_golden : public testing::TestWithParam<std::string> {};

TEST_P(gbench_golden, reading_matches_approved) {
    const std::string stem = GetParam();
    const run_results r = read_ok(stem + ".json");
    golden::expect_matches_approved("gbench_" + stem + ".json",
                                    golden::scrub(report::make_json_reporter<run_results>()->render(r)));
    golden::expect_matches_approved("gbench_" + stem + ".console.txt",
                                    golden::scrub(report::make_console_reporter<run_results>()->render(r)));
}

INSTANTIATE_TEST_SUITE_P(data, gbench_golden, testing::Values("fixture", "aggregates_only", "skipped_gb18"));

TEST(gbench_reader, non_finite_counters_are_kept) {
    const run_results r = read_ok("fixture.json");
    const benchmark_result* b = find(r, "BM_non_finite");
    ASSERT_NE(b, nullptr);
    EXPECT_TRUE(std::isnan(counter(*b, "nan").value_or(0)));
    EXPECT_EQ(counter(*b, "inf"), std::numeric_limits<double>::infinity());
    EXPECT_EQ(counter(*b, "minus_inf"), -std::numeric_limits<double>::infinity());
    EXPECT_EQ(counter(*b, "plain"), 42.0);
}

// Numbers out of any count's range (NaN, 1e300, a string where a number belongs) once went
// through a cast: undefined behaviour, a NaN peak read as INT64_MIN ("-8.00 EiB"). Found by
// fuzz/results_fuzz.cpp.
TEST(gbench_reader, counts_out_of_range_are_clamped_or_dropped_never_cast) {
    const std::string text = R"({"context": {"num_cpus": "<num_cpus>", "mhz_per_cpu": 1e300},
        "benchmarks": [{"name": "BM_x", "run_name": "BM_x", "run_type": "iteration", "iterations": 1e300,
                        "real_time": 5, "cpu_time": 5, "time_unit": "ns", "max_bytes_used": NaN,
                        "allocs_per_iter": 1, "total_allocated_bytes": 10}]})";
    auto read = io::parse_gbench_results(text, "gb.json");
    ASSERT_TRUE(std::holds_alternative<run_results>(read)) << std::get<io::read_error>(read).message;
    const run_results& r = std::get<run_results>(read);
    EXPECT_EQ(r.context.num_cpus, 0U);
    ASSERT_EQ(r.benchmarks.size(), 1U);
    EXPECT_EQ(r.benchmarks[0].iterations, std::uint64_t{std::numeric_limits<std::int64_t>::max()});
    EXPECT_FALSE(r.benchmarks[0].peak_live_bytes.has_value());
}

// A row whose CPU time is under 70 % of its real time waited (a busy machine): contended. Not
// under manual time, whose real time is the body's own figure, nor ->Threads(n), whose CPU time
// is the threads' together.
TEST(gbench_reader, a_row_that_waited_for_the_cpu_is_contended) {
    const std::string text = R"({"context": {}, "benchmarks": [
        {"name": "BM_busy", "run_name": "BM_busy", "run_type": "iteration", "iterations": 10000,
         "real_time": 1000, "cpu_time": 400, "time_unit": "ns"},
        {"name": "BM_idle", "run_name": "BM_idle", "run_type": "iteration", "iterations": 10000,
         "real_time": 1000, "cpu_time": 990, "time_unit": "ns"},
        {"name": "BM_manual/manual_time", "run_name": "BM_manual/manual_time", "run_type": "iteration",
         "iterations": 10000, "real_time": 1000, "cpu_time": 10, "time_unit": "ns"},
        {"name": "BM_pool/threads:4", "run_name": "BM_pool/threads:4", "run_type": "iteration",
         "iterations": 10000, "real_time": 1000, "cpu_time": 100, "time_unit": "ns", "threads": 4}]})";
    auto read = io::parse_gbench_results(text, "gb.json");
    ASSERT_TRUE(std::holds_alternative<run_results>(read)) << std::get<io::read_error>(read).message;
    const run_results& r = std::get<run_results>(read);
    const auto contended = [&](const std::string& name) {
        const benchmark_result* b = find(r, name);
        return b != nullptr && std::any_of(b->warnings.begin(), b->warnings.end(),
                                           [](const warning& w) { return w.kind == "contended"; });
    };
    EXPECT_TRUE(contended("BM_busy"));
    EXPECT_FALSE(contended("BM_idle"));
    EXPECT_FALSE(contended("BM_manual/manual_time"));
    EXPECT_FALSE(contended("BM_pool/threads:4"));
}

// A count clamped to 2^64 - 1, or repetitions' counts summed past 2^63 - 1, went into the tare/1
// file `tare run FILE --json`, `tare merge` and `tare export` write, which tare's own reader then
// refused ("iterations: out of range"). Found by fuzz/export_fuzz.cpp.
TEST(gbench_reader, clamped_counts_stay_within_what_tare1_reads_back) {
    const std::string row = R"({"name": "BM_x", "run_name": "BM_x", "run_type": "iteration",
        "iterations": 6e18, "real_time": 5, "cpu_time": 5, "time_unit": "ns"})";
    const std::string text =
        R"({"context": {"mhz_per_cpu": 1e300}, "benchmarks": [)" + row + ", " + row + ", " + row + "]}";
    auto read = io::parse_gbench_results(text, "gb.json");
    ASSERT_TRUE(std::holds_alternative<run_results>(read)) << std::get<io::read_error>(read).message;
    const run_results& r = std::get<run_results>(read);
    ASSERT_EQ(r.benchmarks.size(), 1U);
    // Three repetitions of 6e18 pass 2^63 - 1 (and wrapped past 2^64 before): the sum stops there.
    EXPECT_EQ(r.benchmarks[0].iterations, std::uint64_t{std::numeric_limits<std::int64_t>::max()});
    EXPECT_EQ(r.benchmarks[0].samples.at(2).iterations, std::uint64_t{6'000'000'000'000'000'000});

    const std::string written = report::make_json_reporter<run_results>()->render(r);
    auto back = io::parse_any_results(written, "tare.json");
    ASSERT_TRUE(std::holds_alternative<run_results>(back)) << std::get<io::read_error>(back).message;
    EXPECT_EQ(report::make_json_reporter<run_results>()->render(std::get<run_results>(back)), written);
}

// A negative time or count was read as measured: "-5.00 ns" in the table and in a comparison.
TEST(gbench_reader, negative_or_infinite_figures_are_named) {
    const auto error = [](const std::string& fields) {
        const std::string text = R"({"context": {}, "benchmarks": [{"name": "BM_x", "run_name": "BM_x",
            "run_type": "iteration", "repetition_index": 2, "time_unit": "ns", )" +
                                 fields + "}]}";
        auto read = io::parse_gbench_results(text, "gb.json");
        const auto* e = std::get_if<io::read_error>(&read);
        return e != nullptr ? e->message : std::string("(no error)");
    };
    EXPECT_EQ(error(R"("iterations": 10, "real_time": -5, "cpu_time": 5)"),
              "gb.json: benchmark \"BM_x\" repetition 2: real_time: expected a finite non-negative number, "
              "not -5");
    EXPECT_EQ(error(R"("iterations": -1, "real_time": 5, "cpu_time": 5)"),
              "gb.json: benchmark \"BM_x\" repetition 2: iterations: expected a finite non-negative number, "
              "not -1");
    EXPECT_EQ(error(R"("iterations": 10, "real_time": 5, "cpu_time": Infinity)"),
              "gb.json: benchmark \"BM_x\" repetition 2: cpu_time: expected a finite non-negative number, "
              "not Infinity");
    EXPECT_EQ(error(R"("iterations": 10, "real_time": 5, "cpu_time": 5, "allocs_per_iter": -2)"),
              "gb.json: benchmark \"BM_x\" repetition 2: allocs_per_iter: expected a non-negative number, "
              "not -2");
    EXPECT_EQ(error(R"("iterations": 10, "real_time": 5, "cpu_time": 5, "bytes_per_second": Infinity)"),
              "(no error)");  // GB divides by a time that can be 0
}

// A repetition of no iteration (0, a fraction below 1, NaN or none written) was read as a sample
// of 0 iterations, which the tare/1 file `tare run FILE --json`, `tare merge` and `tare export`
// write then held, and tare's own reader refused. Found by fuzz/export_fuzz.cpp.
TEST(gbench_reader, a_repetition_runs_at_least_one_iteration) {
    const auto error = [](const std::string& iterations) {
        const std::string text = R"({"context": {}, "benchmarks": [{"name": "BM_x", "run_name": "BM_x",
            "run_type": "iteration", "repetition_index": 1, "time_unit": "ns", "real_time": 5, "cpu_time": 5)" +
                                 iterations + "}]}";
        auto read = io::parse_gbench_results(text, "gb.json");
        const auto* e = std::get_if<io::read_error>(&read);
        return e != nullptr ? e->message : std::string("(no error)");
    };
    const std::string at = "gb.json: benchmark \"BM_x\" repetition 1: iterations: ";
    EXPECT_EQ(error(R"(, "iterations": 0)"), at + "expected at least 1, not 0");
    EXPECT_EQ(error(R"(, "iterations": 0e300)"), at + "expected at least 1, not 0.0");
    EXPECT_EQ(error(R"(, "iterations": 0.5)"), at + "expected at least 1, not 0.5");
    EXPECT_EQ(error(R"(, "iterations": NaN)"), at + "expected at least 1, not NaN");
    EXPECT_EQ(error(""), at + "missing");
    EXPECT_EQ(error(R"(, "iterations": 1)"), "(no error)");
    // An aggregate's iterations count repetitions, and a skipped or failed row runs none.
    EXPECT_EQ(error(R"(, "iterations": 0, "skipped": true)"), "(no error)");
    EXPECT_EQ(error(R"(, "iterations": 0, "error_occurred": true)"), "(no error)");
}

TEST(gbench_reader, repetitions_are_samples_and_aggregates_counters) {
    const run_results r = read_ok("fixture.json");
    const benchmark_result* b = find(r, "BM_repeated/1000/repeats:3");
    ASSERT_NE(b, nullptr);
    ASSERT_EQ(b->samples_ns.size(), 3U);
    ASSERT_EQ(b->samples.size(), 3U);
    const double mean = std::accumulate(b->samples_ns.begin(), b->samples_ns.end(), 0.0) / 3.0;
    EXPECT_NEAR(b->time.mean, mean, 1e-9 * mean);
    EXPECT_NEAR(counter(*b, "gb_mean_ns").value_or(0), mean, 1e-9 * mean);
    EXPECT_TRUE(counter(*b, "gb_median_ns").has_value());
    EXPECT_TRUE(counter(*b, "gb_stddev_ns").has_value());
    EXPECT_TRUE(counter(*b, "gb_cv").has_value());  // a ratio, not a time
    EXPECT_TRUE(b->bytes_per_second.has_value());
    // GB 1.7.1's first two repetitions carry dangling memory figures; the last one's are read.
    ASSERT_TRUE(b->peak_live_bytes.has_value());
    EXPECT_LT(*b->peak_live_bytes, 1 << 20);
    // Three repetitions are three samples: tare's rule calls fewer than 5 noisy, as for its own
    // rows (they were never warned before). One repetition has no spread to judge. The file was
    // recorded on a busy machine (CPU time 38-41 % of real time): contended too.
    ASSERT_EQ(b->warnings.size(), 2U);
    EXPECT_EQ(b->warnings[0].kind, "noisy");
    EXPECT_NE(b->warnings[0].message.find("3 samples"), std::string::npos) << b->warnings[0].message;
    EXPECT_EQ(b->warnings[1].kind, "contended");
    EXPECT_NE(b->warnings[1].message.find("39%"), std::string::npos) << b->warnings[1].message;
    for (const benchmark_result& other : r.benchmarks) {
        if (other.samples_ns.size() == 1) {
            for (const warning& w : other.warnings)
                EXPECT_NE(w.kind, "noisy") << other.name;
        }
    }
}

TEST(gbench_reader, error_and_skipped_rows_become_errors) {
    const run_results r = read_ok("fixture.json");
    const benchmark_result* e = find(r, "BM_error");
    ASSERT_NE(e, nullptr);
    ASSERT_TRUE(e->error.has_value());
    EXPECT_EQ(e->error->kind, "gbench_error");
    EXPECT_EQ(e->error->message, "input \"missing\": NaN is not a number here");
    const run_results s = read_ok("skipped_gb18.json");
    const benchmark_result* k = find(s, "BM_skipped");
    ASSERT_NE(k, nullptr);
    ASSERT_TRUE(k->error.has_value());
    EXPECT_EQ(k->error->kind, "skipped");
    EXPECT_EQ(k->error->message, "needs AVX-512");
}

TEST(gbench_reader, time_units_become_ns) {
    const run_results r = read_ok("fixture.json");
    const benchmark_result* us = find(r, "BM_microseconds");
    const benchmark_result* ms = find(r, "BM_milliseconds");
    ASSERT_TRUE(us != nullptr && ms != nullptr);
    // The same body in two units: both in ns now, within noise of each other.
    EXPECT_GT(us->time.mean, 10.0);
    EXPECT_LT(us->time.mean / ms->time.mean, 3.0);
    EXPECT_GT(us->time.mean / ms->time.mean, 1.0 / 3.0);
    const run_results seconds = read_ok("skipped_gb18.json");  // named: find() points into it
    const benchmark_result* s = find(seconds, "BM_ran");
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->time.mean, 1.5e9);
}

// tare measured no clock and no loop overhead for a Google Benchmark file: "—" and null, never 0.
TEST(gbench_reader, overheads_tare_did_not_measure_are_missing) {
    const run_results r = read_ok("fixture.json");
    EXPECT_FALSE(r.context.clock_overhead_ns);
    EXPECT_FALSE(r.context.loop_overhead_ns);
    const std::string table = report::make_console_reporter<run_results>()->render(r);
    EXPECT_NE(table.find("clock — · loop overhead —"), std::string::npos) << table.substr(0, 300);
    const auto doc = nlohmann::json::parse(report::make_json_reporter<run_results>()->render(r));
    EXPECT_TRUE(doc["context"]["clock_overhead_ns"].is_null());
    EXPECT_TRUE(doc["context"]["loop_overhead_ns"].is_null());
}

TEST(gbench_reader, memory_fields_map_per_memory_run_iteration) {
    const run_results r = read_ok("fixture.json");
    EXPECT_TRUE(r.context.accounting);
    const benchmark_result* f = find(r, "with_setup/BM_fixture");
    ASSERT_NE(f, nullptr);
    // SetUp's vector<int>(1024) is inside GB's memory window: 4096 B of it in the peak.
    ASSERT_TRUE(f->peak_live_bytes.has_value());
    EXPECT_GE(*f->peak_live_bytes, 4096);
    ASSERT_TRUE(f->bytes_per_iter.has_value());
    EXPECT_DOUBLE_EQ(*f->bytes_per_iter * 16, static_cast<double>(*f->peak_live_bytes));
}

// The region hooks' counters: per iteration of each repetition's run, read as the mean weighted
// by iterations; tare's memory warnings from them; a row without them in a suite that has them
// is the memory run's, and says so.
TEST(gbench_reader, region_counters_are_weighted_by_iterations_and_warned_on) {
    const auto row = [](const char* name, int iterations, double allocs, double retained, double faults,
                        double peak) {
        return std::string(R"({"name": ")") + name + R"(", "run_name": ")" + name +
               R"(", "run_type": "iteration", "iterations": )" + std::to_string(iterations) +
               R"(, "real_time": 10, "cpu_time": 10, "time_unit": "ns", "tare_allocs_per_iter": )" +
               std::to_string(allocs) + R"(, "tare_bytes_per_iter": 64, "tare_retained_per_iter": )" +
               std::to_string(retained) + R"(, "tare_faults_per_iter": )" + std::to_string(faults) +
               R"(, "tare_peak_live_bytes": )" + std::to_string(peak) + "}";
    };
    const std::string text = R"({"context": {}, "benchmarks": [)" + row("BM_steady", 1000, 2, 0, 0, 128) +
                             "," + row("BM_steady", 3000, 1, 0, 0, 256) + "," +
                             row("BM_leaks", 4000, 1, 8, 0, 32000) + "," +
                             row("BM_fresh", 100, 1, 0, 256, 1 << 20) + "," +
                             R"({"name": "BM_window", "run_name": "BM_window", "run_type": "iteration",
                                 "iterations": 100, "real_time": 10, "cpu_time": 10, "time_unit": "ns",
                                 "allocs_per_iter": 3, "max_bytes_used": 48, "total_allocated_bytes": 480,
                                 "net_heap_growth": 0})" +
                             "]}";
    auto read = io::parse_gbench_results(text, "gb.json");
    ASSERT_TRUE(std::holds_alternative<run_results>(read)) << std::get<io::read_error>(read).message;
    const run_results& r = std::get<run_results>(read);
    EXPECT_EQ(r.context.gbench_memory, "mixed");
    const auto kinds = [](const benchmark_result& b) {
        std::vector<std::string> out;
        for (const warning& w : b.warnings)
            out.push_back(w.kind);
        return out;
    };
    const benchmark_result* steady = find(r, "BM_steady");
    ASSERT_NE(steady, nullptr);
    EXPECT_DOUBLE_EQ(*steady->allocs_per_iter, (2.0 * 1000 + 1.0 * 3000) / 4000);
    EXPECT_EQ(*steady->peak_live_bytes, 256);
    // No memory warning; its two repetitions are too few samples to trust the time (noisy).
    EXPECT_EQ(kinds(*steady), std::vector<std::string>{"noisy"});
    EXPECT_FALSE(counter(*steady, "tare_allocs_per_iter"));
    // 8 B an iteration over 4,000 iterations: 31.2 KiB kept by one run, past 16 KiB.
    const benchmark_result* leaks = find(r, "BM_leaks");
    ASSERT_NE(leaks, nullptr);
    EXPECT_EQ(kinds(*leaks), std::vector<std::string>{"retained_growth"});
    EXPECT_NE(leaks->warnings.front().message.find("over a timed run"), std::string::npos);
    const benchmark_result* fresh = find(r, "BM_fresh");
    ASSERT_NE(fresh, nullptr);
    EXPECT_EQ(kinds(*fresh), std::vector<std::string>{"fresh_memory"});
    const benchmark_result* window = find(r, "BM_window");
    ASSERT_NE(window, nullptr);
    EXPECT_EQ(*window->allocs_per_iter, 3.0);
    EXPECT_EQ(kinds(*window), std::vector<std::string>{"gbench_memory_run"});
}

TEST(gbench_reader, a_complexity_fit_is_kept_under_the_family_name) {
    const run_results r = read_ok("fixture.json");
    const benchmark_result* b = find(r, "BM_linear");
    ASSERT_NE(b, nullptr);
    EXPECT_GT(counter(*b, "gb_big_o_coefficient_ns").value_or(0), 0.0);
    EXPECT_TRUE(counter(*b, "gb_rms").has_value());
    ASSERT_EQ(b->warnings.size(), 1U);
    EXPECT_EQ(b->warnings[0].kind, "gbench_complexity");
    EXPECT_EQ(b->warnings[0].message, "Google Benchmark's complexity fit: O(N)");
    EXPECT_NE(find(r, "BM_linear/1024"), nullptr);
}

TEST(gbench_reader, impossible_memory_figures_are_dropped_with_a_warning) {
    const run_results r = read_ok("skipped_gb18.json");  // named: find() points into it
    const benchmark_result* b = find(r, "BM_ran");
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->allocs_per_iter, 2.0);
    EXPECT_FALSE(b->peak_live_bytes.has_value());
    EXPECT_FALSE(b->bytes_per_iter.has_value());
    ASSERT_EQ(b->warnings.size(), 1U);
    EXPECT_EQ(b->warnings[0].kind, "gbench_memory_garbled");
}

TEST(gbench_reader, aggregates_only_fill_the_summary) {
    const run_results r = read_ok("aggregates_only.json");
    const benchmark_result* b = find(r, "BM_microseconds");
    ASSERT_NE(b, nullptr);
    EXPECT_TRUE(b->samples_ns.empty());
    EXPECT_GT(b->time.mean, 0);
    EXPECT_GT(b->time.median, 0);
    EXPECT_EQ(b->time.mean, counter(*b, "gb_mean_ns"));
    ASSERT_FALSE(b->warnings.empty());
    EXPECT_EQ(b->warnings[0].kind, "aggregates_only");
}

// An aggregates-only file has no min, no max and no iteration count: tare/1 said 0.0 and 0, the
// page "min · max 0 ns · 0 ns", and every export dropped the rows as error rows.
TEST(gbench_reader, aggregates_only_say_what_is_missing_and_export_whole) {
    const run_results r = read_ok("aggregates_only.json");
    const nlohmann::json doc = nlohmann::json::parse(report::make_json_reporter<run_results>()->render(r));
    for (const auto& row : doc.at("benchmarks")) {
        SCOPED_TRACE(row.at("name").get<std::string>());
        EXPECT_TRUE(row.at("time_ns").at("min").is_null());
        EXPECT_TRUE(row.at("time_ns").at("max").is_null());
        EXPECT_TRUE(row.at("iterations").is_null());
        EXPECT_GT(row.at("time_ns").at("mean").get<double>(), 0);
    }
    // Read back, written again: the same bytes.
    const std::string once = report::make_json_reporter<run_results>()->render(r);
    auto again = io::parse_any_results(once, "again.json");
    ASSERT_TRUE(std::holds_alternative<run_results>(again));
    EXPECT_EQ(report::make_json_reporter<run_results>()->render(std::get<run_results>(again)), once);

    EXPECT_TRUE(report::rows_left_out(r, report::export_format::bmf).empty());
    const nlohmann::json bmf =
        nlohmann::json::parse(report::make_export_reporter(report::export_format::bmf)->render(r));
    ASSERT_TRUE(bmf.contains("BM_microseconds")) << bmf.dump();
    EXPECT_EQ(bmf.at("BM_microseconds").at("latency").at("value").get<double>(),
              find(r, "BM_microseconds")->time.mean);
    EXPECT_FALSE(bmf.at("BM_microseconds").at("latency").contains("lower_value"));

    const std::string page = report::make_html_reporter<run_results>()->render(r);
    EXPECT_EQ(page.find("0 ns · 0 ns"), std::string::npos);
    EXPECT_NE(page.find("aggregates only"), std::string::npos);
}

TEST(gbench_reader, quoting_keeps_every_offset_and_leaves_strings_alone) {
    const std::string in = R"({"a": NaN, "b": [Infinity,-Infinity], "s": "NaN \" Infinity", "c": -1})";
    const std::string out = io::quote_non_finite(in);
    ASSERT_EQ(out.size(), in.size());
    EXPECT_EQ(out, R"({"a": "N", "b": ["I"     ,"-I"     ], "s": "NaN \" Infinity", "c": -1})");
}

TEST(gbench_reader, errors_name_line_and_column_of_the_original_text) {
    const std::string text =
        "{\n  \"context\": {},\n  \"benchmarks\": [ { \"x\": -Infinity, \"y\": NaN ] }\n}\n";
    auto r = io::parse_gbench_results(text, "f.json");
    ASSERT_TRUE(std::holds_alternative<io::read_error>(r));
    // The ']' that should have been '}': line 3, column 46.
    EXPECT_EQ(std::get<io::read_error>(r).message.rfind("f.json:3:46: malformed JSON", 0), 0U)
        << std::get<io::read_error>(r).message;
    auto u = io::parse_gbench_results(
        R"({"context": {}, "benchmarks": [{"name": "x", "iterations": 1, "real_time": 1, "time_unit": "min"}]})",
        "u.json");
    ASSERT_TRUE(std::holds_alternative<io::read_error>(u));
    EXPECT_NE(std::get<io::read_error>(u).message.find("unknown time_unit \"min\""), std::string::npos);
}

TEST(gbench_reader, tare_files_still_go_to_the_tare_reader) {
    const run_results r = read_ok("fixture.json");
    const fs::path p =
        fs::temp_directory_path() / ("tare_gbench_reader_" + std::to_string(::getpid()) + ".json");
    {
        std::ofstream out(p);
        out << report::make_json_reporter<run_results>()->render(r);
    }
    auto back = io::read_any_results_file(p.string());
    fs::remove(p);
    ASSERT_TRUE(std::holds_alternative<run_results>(back)) << std::get<io::read_error>(back).message;
    EXPECT_EQ(std::get<run_results>(back).benchmarks.size(), r.benchmarks.size());
    const fs::path q =
        fs::temp_directory_path() / ("tare_gbench_neither_" + std::to_string(::getpid()) + ".json");
    {
        std::ofstream out(q);
        out << R"({"rows": []})";
    }
    auto neither = io::read_any_results_file(q.string());
    fs::remove(q);
    ASSERT_TRUE(std::holds_alternative<io::read_error>(neither));
    EXPECT_NE(std::get<io::read_error>(neither).message.find("no \"schema\""), std::string::npos);
}

}  // namespace
}  // namespace tare
