// The three JSON mappings read back what they write: for tare/1, tare-compare/1 and tare-exec/1
// a model with every field set is written, read and written again to the same bytes, and the
// model read equals the original on every field the schema stores (docs/json-schema.md).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "golden/golden.hpp"
#include "io/compare_mapping.hpp"
#include "io/exec_mapping.hpp"
#include "io/gbench_reader.hpp"
#include "io/history_mapping.hpp"
#include "io/run_mapping.hpp"

namespace tare {
namespace {

namespace fs = std::filesystem;

template <class T>
const T& value_of(const std::variant<T, io::read_error>& read) {
    if (const auto* err = std::get_if<io::read_error>(&read))
        ADD_FAILURE() << err->message;
    static const T none{};
    return std::holds_alternative<T>(read) ? std::get<T>(read) : none;
}

// ---- equality on the stored fields -----------------------------------------------------------

void expect_same(const std::vector<warning>& a, const std::vector<warning>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].kind, b[i].kind);
        EXPECT_EQ(a[i].message, b[i].message);
    }
}

void expect_same(const boxed<error_info>& a, const boxed<error_info>& b) {
    ASSERT_EQ(a.has_value(), b.has_value());
    if (a) {
        EXPECT_EQ(a->kind, b->kind);
        EXPECT_EQ(a->message, b->message);
    }
}

void expect_same(const std::optional<interval>& a, const std::optional<interval>& b) {
    ASSERT_EQ(a.has_value(), b.has_value());
    if (a) {
        EXPECT_EQ(a->low, b->low);
        EXPECT_EQ(a->high, b->high);
    }
}

// What each schema keeps of a paired_change: the change, its interval, and (per flag) its level,
// replicates and p-value. mean_log_ratio, log_se and df are not stored.
void expect_same(const std::optional<paired_change>& a, const std::optional<paired_change>& b, bool level,
                 bool pairs, bool p_value) {
    ASSERT_EQ(a.has_value(), b.has_value());
    if (!a)
        return;
    EXPECT_EQ(a->change_pct, b->change_pct);
    expect_same(a->interval_pct, b->interval_pct);
    if (level) {
        EXPECT_EQ(a->confidence, b->confidence);
    }
    if (pairs) {
        EXPECT_EQ(a->pairs, b->pairs);
    }
    if (p_value) {
        EXPECT_EQ(a->p_value, b->p_value);
    }
}

void expect_same(const benchmark_result& a, const benchmark_result& b) {
    SCOPED_TRACE(a.name);
    EXPECT_EQ(a.name, b.name);
    expect_same(a.error, b.error);
    EXPECT_EQ(a.counters, b.counters);
    expect_same(a.warnings, b.warnings);
    if (a.error)
        return;  // a failed row's figures are written as null: not stored
    EXPECT_EQ(a.iterations, b.iterations);
    EXPECT_EQ(a.samples_ns, b.samples_ns);
    ASSERT_EQ(a.processes.size(), b.processes.size());
    for (std::size_t i = 0; i < a.processes.size(); ++i) {
        EXPECT_EQ(a.processes[i].samples, b.processes[i].samples);
        EXPECT_EQ(a.processes[i].median_ns, b.processes[i].median_ns);
    }
    EXPECT_EQ(a.sample_heap_measured, b.sample_heap_measured);
    ASSERT_EQ(a.samples.size(), b.samples.size());
    for (std::size_t i = 0; i < a.samples.size(); ++i) {
        EXPECT_EQ(a.samples[i].iterations, b.samples[i].iterations);
        EXPECT_EQ(a.samples[i].elapsed_ns, b.samples[i].elapsed_ns);  // per-iteration time x iterations
        if (a.sample_heap_measured) {
            EXPECT_EQ(a.samples[i].iterations_before, b.samples[i].iterations_before);
            EXPECT_EQ(a.samples[i].live_bytes_end, b.samples[i].live_bytes_end);
        }
    }
    EXPECT_EQ(a.time.mean, b.time.mean);
    EXPECT_EQ(a.time.median, b.time.median);
    EXPECT_EQ(a.time.stddev, b.time.stddev);
    EXPECT_EQ(a.time.min, b.time.min);
    EXPECT_EQ(a.time.max, b.time.max);
    ASSERT_EQ(a.time.ci.has_value(), b.time.ci.has_value());
    if (a.time.ci) {
        EXPECT_EQ(a.time.ci->low, b.time.ci->low);
        EXPECT_EQ(a.time.ci->high, b.time.ci->high);
    }
    EXPECT_EQ(a.outliers.low_severe, b.outliers.low_severe);
    EXPECT_EQ(a.outliers.low_mild, b.outliers.low_mild);
    EXPECT_EQ(a.outliers.high_mild, b.outliers.high_mild);
    EXPECT_EQ(a.outliers.high_severe, b.outliers.high_severe);
    EXPECT_EQ(a.allocs_per_iter, b.allocs_per_iter);
    EXPECT_EQ(a.bytes_per_iter, b.bytes_per_iter);
    EXPECT_EQ(a.peak_live_bytes, b.peak_live_bytes);
    EXPECT_EQ(a.retained_bytes_per_iter, b.retained_bytes_per_iter);
    EXPECT_EQ(a.page_faults_per_iter, b.page_faults_per_iter);
    EXPECT_EQ(a.bytes_per_second, b.bytes_per_second);
    EXPECT_EQ(a.items_per_second, b.items_per_second);
}

void expect_same(const run_results& a, const run_results& b) {
    EXPECT_EQ(a.context.tare_version, b.context.tare_version);
    EXPECT_EQ(a.context.executable, b.context.executable);
    EXPECT_EQ(a.context.host, b.context.host);
    EXPECT_EQ(a.context.date, b.context.date);
    EXPECT_EQ(a.context.cpu, b.context.cpu);
    EXPECT_EQ(a.context.num_cpus, b.context.num_cpus);
    EXPECT_EQ(a.context.clock_overhead_ns, b.context.clock_overhead_ns);
    EXPECT_EQ(a.context.loop_overhead_ns, b.context.loop_overhead_ns);
    EXPECT_EQ(a.context.accounting, b.context.accounting);
    EXPECT_EQ(a.context.processes, b.context.processes);
    EXPECT_EQ(a.context.interrupted, b.context.interrupted);
    ASSERT_EQ(a.benchmarks.size(), b.benchmarks.size());
    for (std::size_t i = 0; i < a.benchmarks.size(); ++i)
        expect_same(a.benchmarks[i], b.benchmarks[i]);
    ASSERT_EQ(a.comparisons.size(), b.comparisons.size());
    for (std::size_t i = 0; i < a.comparisons.size(); ++i) {
        const variant_comparison& x = a.comparisons[i];
        const variant_comparison& y = b.comparisons[i];
        SCOPED_TRACE(x.name);
        EXPECT_EQ(x.group, y.group);
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.baseline, y.baseline);
        EXPECT_EQ(x.member, y.member);
        EXPECT_EQ(x.blocks, y.blocks);
        EXPECT_EQ(x.samples_per_block, y.samples_per_block);
        EXPECT_EQ(x.iterations, y.iterations);
        EXPECT_EQ(x.baseline_block_ns, y.baseline_block_ns);
        EXPECT_EQ(x.member_block_ns, y.member_block_ns);
        expect_same(x.change, y.change, /*level=*/true, /*pairs=*/false, /*p_value=*/true);
        EXPECT_EQ(x.verdict, y.verdict);
    }
}

void expect_same(const side_figures& a, const side_figures& b) {
    expect_same(a.error, b.error);
    if (!a.error) {  // a failed side's time is written as null
        EXPECT_EQ(a.time_ns, b.time_ns);
        expect_same(a.time_ci, b.time_ci);
    }
    EXPECT_EQ(a.samples, b.samples);
    EXPECT_EQ(a.iterations, b.iterations);
    EXPECT_EQ(a.round_ns, b.round_ns);
    EXPECT_EQ(a.allocs_per_iter, b.allocs_per_iter);
    EXPECT_EQ(a.bytes_per_iter, b.bytes_per_iter);
    EXPECT_EQ(a.peak_live_bytes, b.peak_live_bytes);
    EXPECT_EQ(a.page_faults_per_iter, b.page_faults_per_iter);
    expect_same(a.warnings, b.warnings);
}

void expect_same(const compare_results& a, const compare_results& b) {
    EXPECT_EQ(a.mode, b.mode);
    EXPECT_EQ(a.base_label, b.base_label);
    EXPECT_EQ(a.head_label, b.head_label);
    EXPECT_EQ(a.tare_version, b.tare_version);
    EXPECT_EQ(a.host, b.host);
    EXPECT_EQ(a.date, b.date);
    EXPECT_EQ(a.rounds, b.rounds);
    EXPECT_EQ(a.base_processes, b.base_processes);
    EXPECT_EQ(a.interrupted, b.interrupted);
    EXPECT_EQ(a.head_processes, b.head_processes);
    EXPECT_EQ(a.cpus, b.cpus);
    if (a.mode != pairing::unpaired && a.mode != pairing::processes) {  // files have no layout (null)
        EXPECT_EQ(a.matched_layouts, b.matched_layouts);
    }
    EXPECT_EQ(a.threshold_pct, b.threshold_pct);
    EXPECT_EQ(a.alpha, b.alpha);
    EXPECT_EQ(a.family, b.family);
    EXPECT_EQ(a.comparisons, b.comparisons);
    EXPECT_EQ(a.selected, b.selected);
    ASSERT_EQ(a.mixed_instrumentation.size(), b.mixed_instrumentation.size());
    for (std::size_t i = 0; i < a.mixed_instrumentation.size(); ++i) {
        EXPECT_EQ(a.mixed_instrumentation[i].kind, b.mixed_instrumentation[i].kind);
        EXPECT_EQ(a.mixed_instrumentation[i].message, b.mixed_instrumentation[i].message);
    }
    EXPECT_EQ(a.mixed_instrumentation_allowed, b.mixed_instrumentation_allowed);
    ASSERT_EQ(a.rows.size(), b.rows.size());
    for (std::size_t i = 0; i < a.rows.size(); ++i) {
        SCOPED_TRACE(a.rows[i].name);
        EXPECT_EQ(a.rows[i].name, b.rows[i].name);
        EXPECT_EQ(a.rows[i].verdict, b.rows[i].verdict);
        EXPECT_EQ(a.rows[i].unjudged, b.rows[i].unjudged);
        expect_same(a.rows[i].change, b.rows[i].change, /*level=*/true, /*pairs=*/true, /*p_value=*/true);
        expect_same(a.rows[i].base, b.rows[i].base);
        expect_same(a.rows[i].head, b.rows[i].head);
    }
    EXPECT_EQ(a.only_in_base, b.only_in_base);
    EXPECT_EQ(a.only_in_head, b.only_in_head);
}

void expect_same(const exec_side& a, const exec_side& b) {
    EXPECT_EQ(a.argv, b.argv);
    ASSERT_EQ(a.runs.size(), b.runs.size());
    for (std::size_t i = 0; i < a.runs.size(); ++i) {
        EXPECT_EQ(a.runs[i].position, b.runs[i].position);
        EXPECT_EQ(a.runs[i].wall_seconds, b.runs[i].wall_seconds);
        EXPECT_EQ(a.runs[i].user_seconds, b.runs[i].user_seconds);
        EXPECT_EQ(a.runs[i].system_seconds, b.runs[i].system_seconds);
        EXPECT_EQ(a.runs[i].max_rss_kib, b.runs[i].max_rss_kib);
        EXPECT_EQ(a.runs[i].minor_faults, b.runs[i].minor_faults);
        EXPECT_EQ(a.runs[i].major_faults, b.runs[i].major_faults);
    }
    for (std::size_t m = 0; m < exec_metric_count; ++m) {
        SCOPED_TRACE(exec_metric_key(static_cast<exec_metric>(m)));
        ASSERT_EQ(a.summaries[m].has_value(), b.summaries[m].has_value());
        if (a.summaries[m]) {
            EXPECT_EQ(a.summaries[m]->mean, b.summaries[m]->mean);
            expect_same(a.summaries[m]->ci, b.summaries[m]->ci);
        }
    }
}

void expect_same(const exec_results& a, const exec_results& b) {
    EXPECT_EQ(a.tare_version, b.tare_version);
    EXPECT_EQ(a.host, b.host);
    EXPECT_EQ(a.date, b.date);
    EXPECT_EQ(a.warmup_runs, b.warmup_runs);
    expect_same(a.head, b.head);
    ASSERT_EQ(a.base.has_value(), b.base.has_value());
    if (a.base)
        expect_same(*a.base, *b.base);
    ASSERT_EQ(a.comparison.has_value(), b.comparison.has_value());
    if (a.comparison) {
        EXPECT_EQ(a.comparison->pairs, b.comparison->pairs);
        EXPECT_EQ(a.comparison->threshold_pct, b.comparison->threshold_pct);
        EXPECT_EQ(a.comparison->verdict, b.comparison->verdict);
        for (std::size_t m = 0; m < exec_metric_count; ++m)
            expect_same(a.comparison->changes[m], b.comparison->changes[m], /*level=*/false, /*pairs=*/false,
                        /*p_value=*/true);
    }
}

// ---- models with every field set ---------------------------------------------------------------

paired_change change_of(double pct, bool with_interval) {
    paired_change c;
    c.pairs = 7;
    c.confidence = 0.975;
    c.mean_log_ratio = 0.125;  // not stored
    c.change_pct = pct;
    if (with_interval)
        c.interval_pct = interval{pct - 1.5, pct + 2.25};
    c.p_value = 0.0078125;
    c.log_se = 0.5;  // not stored
    c.df = 6;        // not stored
    return c;
}

benchmark_result measured(const std::string& name, double base_ns, bool heap) {
    benchmark_result b;
    b.name = name;
    b.sample_heap_measured = heap;
    for (std::uint64_t i = 0; i < 5; ++i) {
        sample s;
        s.iterations = 1000 + 8 * i;
        const double ns = base_ns + 0.25 * static_cast<double>(i);
        s.elapsed_ns = ns * static_cast<double>(s.iterations);
        s.iterations_before = 64 + 1008 * i;
        s.live_bytes_end = -16 + 4096 * static_cast<std::int64_t>(i);
        b.samples.push_back(s);
        b.samples_ns.push_back(ns);
        b.iterations += s.iterations;
    }
    b.time = {base_ns + 0.5, base_ns + 0.25, 0.375,
              base_ns,       base_ns + 1,    interval{base_ns + 0.125, base_ns + 0.875}};
    b.outliers = {1, 2, 3, 4};
    b.allocs_per_iter = 2.5;
    b.bytes_per_iter = 4096.5;
    b.peak_live_bytes = 65536;
    b.retained_bytes_per_iter = -0.25;
    b.page_faults_per_iter = 0.125;
    b.bytes_per_second = 1.5e9;
    b.items_per_second = 2.5e6;
    b.counters = {{"zeta", 3.5}, {"alpha", -1.25}};  // not in key order: the benchmark's order stays
    b.warnings = {{"retained_growth", "grows"}, {"noisy", "spread \"wide\"\nsecond line"}};
    return b;
}

run_results full_run() {
    run_results r;
    r.context = {"0.1.0", "./bench/codec", "ci-7", "2024-05-01T12:00:00Z", "EPYC", 8, 18.25, 0.3125, true};
    r.context.processes = 2;
    r.context.interrupted = true;
    r.context.gbench_memory = "mixed";
    r.benchmarks.push_back(measured("encode/1000", 10.5, true));
    // Two processes of 2 and 3 samples (10.5, 10.75 | 11, 11.25, 11.5), each with its median.
    r.benchmarks.back().processes = {{2, 10.625}, {3, 11.25}};
    r.benchmarks.push_back(measured("decode/1000", 20.25, false));
    benchmark_result failed;
    failed.name = "broken/1";
    failed.error = error_info{"exception", "bad magic \xc3\xa9"};
    failed.counters = {{"before", 1}};
    failed.warnings = {{"fresh_memory", "faults"}};
    r.benchmarks.push_back(failed);
    r.benchmarks.push_back(measured("ctx_reused/64", 100, false));
    r.benchmarks.push_back(measured("ctx_fresh/64", 150, false));
    r.benchmarks.back().peak_live_bytes = 1 << 20;

    variant_comparison with;
    with.group = "contexts";
    with.name = "contexts/64";
    with.baseline = "ctx_reused/64";
    with.member = "ctx_fresh/64";
    with.blocks = 4;
    with.samples_per_block = 5;
    with.iterations = 4096;
    with.baseline_block_ns = {100, 100.5, 101, 99.5};
    with.member_block_ns = {150, 151.5, 149, 150.5};
    with.change = change_of(50.5, true);
    with.verdict = verdict::slower;
    r.comparisons.push_back(with);
    variant_comparison without = with;  // one block: no interval; a failed member: no change
    without.name = "contexts/1";
    without.member = "broken/1";
    without.blocks = 1;
    without.change.reset();
    without.verdict = verdict::faster;
    r.comparisons.push_back(without);
    variant_comparison no_interval = with;
    no_interval.name = "contexts/2";
    no_interval.change = change_of(-3.5, false);
    r.comparisons.push_back(no_interval);
    return r;
}

side_figures side_of(double ns, bool failed) {
    side_figures s;
    s.time_ns = ns;
    s.time_ci = interval{ns - 2, ns + 2.5};
    s.samples = 60;
    s.iterations = 3840;
    s.round_ns = {ns - 1, ns, ns + 1};
    s.allocs_per_iter = 1.5;
    s.bytes_per_iter = 512.5;
    s.peak_live_bytes = 4096;
    s.page_faults_per_iter = 0.25;
    s.warnings = {{"noisy", "spread"}};
    if (failed)
        s.error = error_info{"signal", "killed by SIGSEGV"};
    return s;
}

compare_results full_compare(pairing mode) {
    compare_results r;
    r.mode = mode;
    r.base_label = "./build-main/bench";
    r.head_label = "./build/bench";
    r.tare_version = "0.1.0";
    r.host = "ci-7";
    r.date = "2024-05-01T12:00:00Z";
    r.rounds = 6;
    r.cpus = {2, 3};
    r.matched_layouts = true;
    r.threshold_pct = 1.5;
    r.alpha = 0.1;
    r.family = family_control::fdr;
    r.comparisons = 2;
    r.selected = 1;
    compare_row a;
    a.name = "skip/4096";
    a.base = side_of(41207.5, false);
    a.head = side_of(30502.25, false);
    a.change = change_of(-26.25, true);
    a.verdict = verdict::faster;
    r.rows.push_back(a);
    compare_row b;
    b.name = "crash/1";
    b.base = side_of(100, false);
    b.head = side_of(200, true);
    b.verdict = verdict::no_change;
    r.rows.push_back(b);
    compare_row c = a;
    c.name = "one_round/1";
    c.change = change_of(12.5, false);
    c.verdict = verdict::slower;
    r.rows.push_back(c);
    compare_row d = a;
    d.name = "one_process/1";
    d.change = change_of(3.5, false);
    d.verdict = verdict::no_change;
    d.unjudged = "main.json holds one process";
    r.rows.push_back(d);
    r.base_processes = 5;
    r.head_processes = 1;
    r.interrupted = true;
    r.mixed_instrumentation = {{"copies", "head counts copied bytes (tare::copies), base does not"}};
    r.mixed_instrumentation_allowed = true;
    r.only_in_base = {"write/legacy"};
    r.only_in_head = {"write/new", "read/new"};
    return r;
}

exec_side exec_side_of(std::vector<std::string> argv, double wall, std::size_t first_position) {
    exec_side s;
    s.argv = std::move(argv);
    for (std::size_t i = 0; i < 4; ++i) {
        exec_run run;
        run.position = first_position + 2 * i;
        run.wall_seconds = wall + 0.0625 * static_cast<double>(i);
        run.user_seconds = wall / 2;
        run.system_seconds = wall / 8;
        run.max_rss_kib = 4096 + 16 * static_cast<double>(i);
        run.minor_faults = 300 + static_cast<double>(i);
        run.major_faults = 1;
        s.runs.push_back(run);
    }
    for (std::size_t m = 0; m < exec_metric_count; ++m)
        s.summaries[m] = exec_summary{wall + static_cast<double>(m), interval{wall - 1, wall + 1.5}};
    s.summaries[2]->ci.reset();  // a summary without interval (one run)
    return s;
}

exec_results full_exec() {
    exec_results r;
    r.tare_version = "0.1.0";
    r.host = "ci-7";
    r.date = "2024-05-01T12:00:00Z";
    r.warmup_runs = 2;
    r.head = exec_side_of({"./new/tool", "in.txt"}, 0.5, 1);
    r.base = exec_side_of({"/bin/sh", "-c", "sleep 0.05"}, 0.75, 0);
    exec_comparison c;
    c.pairs = 3;
    c.threshold_pct = 2.5;
    for (std::size_t m = 0; m < exec_metric_count; ++m)
        c.changes[m] = change_of(-10.5 * static_cast<double>(m + 1), m != 1);
    c.changes[3].reset();  // a metric whose change cannot be computed
    c.verdict = verdict::faster;
    r.comparison = c;
    return r;
}

// ---- round trips -----------------------------------------------------------------------------

TEST(io_json_roundtrip, tare_1_with_every_field) {
    const run_results original = full_run();
    const std::string first = io::write_run_json(original);
    const run_results read = value_of(io::parse_run_json(first, "run.json"));
    EXPECT_EQ(io::write_run_json(read), first);
    expect_same(original, read);
}

TEST(io_json_roundtrip, tare_compare_1_with_every_field_in_every_mode) {
    for (const pairing mode :
         {pairing::rounds, pairing::process_rounds, pairing::unpaired, pairing::processes}) {
        for (const bool matched : {true, false}) {
            compare_results original = full_compare(mode);
            original.matched_layouts = matched;
            original.family = matched ? family_control::fdr : family_control::fwer;
            const std::string first = io::write_compare_json(original);
            const compare_results read = value_of(io::parse_compare_json(first, "compare.json"));
            EXPECT_EQ(io::write_compare_json(read), first);
            expect_same(original, read);
        }
    }
    compare_results unpinned = full_compare(pairing::unpaired);
    unpinned.cpus.clear();  // written as null
    const std::string first = io::write_compare_json(unpinned);
    EXPECT_EQ(io::write_compare_json(value_of(io::parse_compare_json(first, "c.json"))), first);
}

TEST(io_json_roundtrip, tare_exec_1_with_base_and_comparison_and_without) {
    const exec_results original = full_exec();
    const std::string first = io::write_exec_json(original);
    const exec_results read = value_of(io::parse_exec_json(first, "exec.json"));
    EXPECT_EQ(io::write_exec_json(read), first);
    expect_same(original, read);

    exec_results single = full_exec();
    single.base.reset();
    single.comparison.reset();
    single.head.summaries[4].reset();  // no summary: an object of nulls, read back as none
    const std::string text = io::write_exec_json(single);
    const exec_results back = value_of(io::parse_exec_json(text, "exec.json"));
    EXPECT_EQ(io::write_exec_json(back), text);
    expect_same(single, back);
}

TEST(io_json_roundtrip, non_finite_figures_come_back_as_the_same_nulls) {
    run_results r = full_run();
    r.benchmarks[0].samples_ns[1] = std::numeric_limits<double>::quiet_NaN();
    r.benchmarks[0].time.stddev = std::numeric_limits<double>::infinity();
    r.benchmarks[0].allocs_per_iter = -std::numeric_limits<double>::infinity();
    r.benchmarks[0].counters[0].second = std::numeric_limits<double>::quiet_NaN();
    r.context.loop_overhead_ns = std::numeric_limits<double>::quiet_NaN();
    r.comparisons[0].change->interval_pct->low = std::numeric_limits<double>::infinity();
    const std::string first = io::write_run_json(r);
    EXPECT_EQ(first.find("NaN"), std::string::npos);
    EXPECT_EQ(first.find("Infinity"), std::string::npos);
    const run_results read = value_of(io::parse_run_json(first, "run.json"));
    EXPECT_TRUE(std::isnan(read.benchmarks[0].samples_ns[1]));
    EXPECT_FALSE(read.context.loop_overhead_ns);       // null is "not measured"
    EXPECT_FALSE(read.benchmarks[0].allocs_per_iter);  // an optional figure: null is "not measured"
    ASSERT_TRUE(read.comparisons[0].change && read.comparisons[0].change->interval_pct);
    EXPECT_TRUE(std::isnan(read.comparisons[0].change->interval_pct->low));
    EXPECT_EQ(io::write_run_json(read), first);
}

// Every approved JSON file of the golden tests reads back and is written again byte for byte.
// Files approved from real runs have their machine's context scrubbed to placeholders: those of
// numbers are put back as numbers to read, and the output is scrubbed again to compare.
TEST(io_json_roundtrip, every_approved_json_file_reads_back_to_the_same_bytes) {
    std::size_t files = 0;
    for (const auto& entry : fs::directory_iterator(fs::path(TARE_GOLDEN_DIR) / "approved")) {
        const std::string file = entry.path().filename().string();
        // The exports (*.bmf.json, *.gab*.json) are other services' formats, not tare's to read.
        if (entry.path().extension() != ".json" || file.find(".bmf.") != std::string::npos ||
            file.find(".gab") != std::string::npos)
            continue;
        SCOPED_TRACE(entry.path().string());
        std::ifstream in(entry.path(), std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        const std::string approved = text.str();
        const std::string name = entry.path().string();
        std::string readable = approved;
        for (const char* field : {"num_cpus", "clock_overhead_ns", "loop_overhead_ns"}) {
            const std::string placeholder = std::string("\"<") + field + ">\"";
            if (const auto at = readable.find(placeholder); at != std::string::npos)
                readable.replace(at, placeholder.size(), "2");
        }
        std::string again;
        if (approved.find("\"schema\": \"tare-compare/1\"") != std::string::npos) {
            again = io::write_compare_json(value_of(io::parse_compare_json(readable, name)));
        } else if (approved.find("\"schema\": \"tare-exec/1\"") != std::string::npos) {
            again = io::write_exec_json(value_of(io::parse_exec_json(readable, name)));
        } else if (approved.find("\"schema\": \"tare-history-check/1\"") != std::string::npos) {
            again = io::write_history_check_json(value_of(io::parse_history_check_json(readable, name)));
        } else {
            again = io::write_run_json(value_of(io::parse_run_json(readable, name)));
        }
        EXPECT_EQ(readable == approved ? again : golden::scrub(again), approved);
        ++files;
    }
    EXPECT_GE(files, 10U);
}

// `tare run results.json` and `tare report` read files through read_any_results_file: the
// outlier counts in the file are the ones they show, beside the plot that rings them.
TEST(io_json_roundtrip, a_results_file_keeps_its_outliers) {
    const run_results original = full_run();
    const fs::path p =
        fs::temp_directory_path() / ("tare_io_outliers_" + std::to_string(::getpid()) + ".json");
    {
        std::ofstream out(p, std::ios::binary);
        out << io::write_run_json(original);
    }
    const auto read = io::read_any_results_file(p.string());
    fs::remove(p);
    const run_results& back = value_of(read);
    ASSERT_EQ(back.benchmarks.size(), original.benchmarks.size());
    const outlier_counts& o = back.benchmarks[0].outliers;
    EXPECT_EQ(o.low_severe, 1U);
    EXPECT_EQ(o.low_mild, 2U);
    EXPECT_EQ(o.high_mild, 3U);
    EXPECT_EQ(o.high_severe, 4U);
    EXPECT_EQ(o.total(), original.benchmarks[0].outliers.total());
}

}  // namespace
}  // namespace tare
