#include "golden/compare_fixtures.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <span>
#include <utility>

#include "compare/aggregate.hpp"
#include "compare/instrumentation.hpp"
#include "counted/compare.hpp"
#include "stats/difference.hpp"

namespace tare::golden {
namespace {

constexpr double kib = 1024.0;
constexpr double mib = 1024.0 * 1024.0;

// Relative deviation of successive rounds from the mean: a fixed, unremarkable spread.
constexpr std::array<double, 8> wobble = {-0.8, 0.3, -0.2, 1.0, 0.1, -0.5, 0.6, -0.4};

compare_results context(pairing mode) {
    compare_results r;
    r.mode = mode;
    r.base_label = mode == pairing::rounds ? "./build-main/bench/codec_bench" : "main.json";
    r.head_label = mode == pairing::rounds ? "./build/bench/codec_bench" : "pr-1234.json";
    r.tare_version = "0.1.0";
    r.host = "ci-runner-7";
    r.date = "2024-05-01T12:00:00Z";
    return r;
}

// A side measured in `rounds` rounds around mean_ns with `spread` (relative, per wobble unit);
// `phase` shifts the wobble so base and head rounds are not in lockstep.
side_figures rounds_side(double mean_ns, double spread, std::size_t rounds, std::size_t phase,
                         std::uint64_t iterations_per_sample) {
    side_figures s;
    double sum = 0;
    for (std::size_t i = 0; i < rounds; ++i) {
        const double ns = std::round(mean_ns * (1 + spread * wobble[(i + phase) % wobble.size()]) * 10) / 10;
        s.round_ns.push_back(ns);
        sum += ns;
    }
    s.time_ns = sum / static_cast<double>(rounds);
    s.time_ci = stats::student_mean_interval(s.round_ns);
    s.samples = rounds * 10;
    s.iterations = s.samples * iterations_per_sample;
    return s;
}

void set_memory(side_figures& s, double allocs, double bytes, std::int64_t peak, double faults) {
    s.allocs_per_iter = allocs;
    s.bytes_per_iter = bytes;
    s.peak_live_bytes = peak;
    s.page_faults_per_iter = faults;
}

// The engine's last step (compare::judge_rounds), on the rounds' log-ratios of the sides'
// round medians: family-adjusted changes over the rows that have one, then verdicts.
void judge_rows(compare_results& r) {
    std::vector<std::vector<double>> logs;
    for (const compare_row& row : r.rows) {
        std::vector<double> l;
        if (row.base.time_ns > 0 && row.head.time_ns > 0) {
            for (std::size_t k = 0; k < std::min(row.base.round_ns.size(), row.head.round_ns.size()); ++k) {
                l.push_back(std::log(row.head.round_ns[k] / row.base.round_ns[k]));
            }
        }
        logs.push_back(std::move(l));
    }
    compare::verdict_options o;
    o.alpha = r.alpha;
    o.family = r.family;
    o.threshold_pct = r.threshold_pct;
    compare::judge_rounds(r, logs, o);
}

compare_row row(std::string name, side_figures base, side_figures head) {
    compare_row out;
    out.name = std::move(name);
    out.base = std::move(base);
    out.head = std::move(head);
    return out;
}

// A hand-made change, for the modes whose interval the fixtures do not compute.
paired_change change(double pct, std::optional<interval> ci, std::size_t pairs, double confidence,
                     double p_value) {
    paired_change c;
    c.pairs = pairs;
    c.confidence = confidence;
    c.change_pct = pct;
    c.mean_log_ratio = std::log1p(pct / 100);
    c.interval_pct = ci;
    c.p_value = p_value;
    return c;
}

side_figures file_side(double ns, double half_width_pct, std::size_t samples, std::uint64_t iterations) {
    side_figures s;
    s.time_ns = ns;
    s.time_ci = interval{ns * (1 - half_width_pct / 100), ns * (1 + half_width_pct / 100)};
    s.samples = samples;
    s.iterations = iterations;
    return s;
}

}  // namespace

compare_results compare_rounds_run() {
    compare_results r = context(pairing::rounds);
    r.rounds = 6;
    r.cpus = {3};
    r.matched_layouts = true;
    r.family = family_control::fdr;
    const std::size_t n = r.rounds;

    compare_row parse =
        row("parse/json/small", rounds_side(812, 0.004, n, 0, 4096), rounds_side(905, 0.004, n, 3, 4096));
    set_memory(parse.base, 12, 1.5 * kib, static_cast<std::int64_t>(6 * kib), 0);
    set_memory(parse.head, 12, 1.5 * kib, static_cast<std::int64_t>(6 * kib), 0);

    // Seed case 001: a bitmap buffer built per call, then reused.
    compare_row skip =
        row("skip_records/4096", rounds_side(41200, 0.005, n, 1, 64), rounds_side(30500, 0.005, n, 5, 64));
    set_memory(skip.base, 1, 512, 512, 0);
    set_memory(skip.head, 0, 0, 0, 0);

    compare_row crc =
        row("hash/crc32/1KiB", rounds_side(1250, 0.02, n, 2, 1024), rounds_side(1256, 0.02, n, 6, 1024));
    set_memory(crc.base, 0, 0, 0, 0);
    set_memory(crc.head, 0, 0, 0, 0);

    // Seed case 000: the output buffer cleared outside the loop (base), inside it (head).
    compare_row write =
        row("write/int32_plain", rounds_side(2.23e6, 0.01, n, 4, 1), rounds_side(2.19e6, 0.01, n, 0, 1));
    set_memory(write.base, 5.03, 1.17 * mib, static_cast<std::int64_t>(90.4 * mib), 278);
    set_memory(write.head, 5.03, 1.17 * mib, static_cast<std::int64_t>(24.0 * mib), 34.9);
    write.base.warnings.push_back(
        {"retained_growth",
         "live heap grows by 728.8 KiB per iteration: the loop keeps memory from one "
         "iteration to the next"});

    r.rows = {std::move(parse), std::move(skip), std::move(crc), std::move(write)};
    judge_rows(r);
    return r;
}

compare_results compare_unpaired_run() {
    compare_results r = context(pairing::unpaired);
    r.base_processes = 1;
    r.head_processes = 1;
    const std::string why =
        "main.json and pr-1234.json each hold one process, whose samples cannot show how much a fresh "
        "process "
        "varies; record both sides with tare run --processes=N (N >= 2; 5 is a good start)";

    compare_row zstd =
        row("zstd/context_reused", file_side(18400, 1.2, 40, 40 * 512), file_side(16900, 0.9, 40, 40 * 512));
    zstd.change = change(-8.2, std::nullopt, 1, 0.95, 1);
    zstd.unjudged = why;
    set_memory(zstd.base, 2, 1.2 * mib, static_cast<std::int64_t>(1.2 * mib), 0.5);
    set_memory(zstd.head, 0, 0, 0, 0);

    compare_row fresh =
        row("copy/fresh_256MiB", file_side(57.3e6, 0.5, 10, 10), file_side(57.9e6, 0.6, 10, 10));
    fresh.change = change(1.0, std::nullopt, 1, 0.95, 1);
    fresh.unjudged = why;
    // The head maps its buffer itself rather than allocating it.
    set_memory(fresh.base, 1, 256 * mib, static_cast<std::int64_t>(256 * mib), 65536);
    set_memory(fresh.head, 0, 0, 0, 65536);
    fresh.base.mapped_bytes_per_iter = 0;
    fresh.head.mapped_bytes_per_iter = 256 * mib;
    zstd.base.mapped_bytes_per_iter = 0;
    zstd.head.mapped_bytes_per_iter = 0;
    fresh.head.warnings.push_back(
        {"fresh_memory", "65.5k page faults per iteration: each iteration maps fresh memory"});

    r.rows = {std::move(zstd), std::move(fresh)};
    return r;
}

compare_results compare_processes_run() {
    compare_results r = context(pairing::processes);
    r.base_processes = 5;
    r.head_processes = 5;
    r.comparisons = 2;
    r.selected = 1;
    r.family = family_control::fdr;
    const double level = 1 - r.alpha / 2;
    compare_row zstd =
        row("zstd/context_reused", rounds_side(18400, 0.01, 5, 0, 512), rounds_side(16900, 0.01, 5, 3, 512));
    zstd.change = change(-8.2, interval{-9.9, -6.4}, 5, level, 1.2e-6);
    zstd.verdict = verdict::faster;
    set_memory(zstd.base, 2, 1.2 * mib, static_cast<std::int64_t>(1.2 * mib), 0.5);
    set_memory(zstd.head, 0, 0, 0, 0);
    compare_row sort = row("sort/2k", rounds_side(61200, 0.01, 5, 1, 16), rounds_side(61900, 0.01, 5, 4, 16));
    sort.change = change(1.1, interval{-0.7, 3.0}, 5, level, 0.21);
    set_memory(sort.base, 1, 8 * kib, static_cast<std::int64_t>(8 * kib), 0);
    set_memory(sort.head, 1, 8 * kib, static_cast<std::int64_t>(8 * kib), 0);
    r.rows = {std::move(zstd), std::move(sort)};
    // Each file's own context: recorded on two days and two hosts.
    run_context base;
    base.tare_version = "0.1.0";
    base.host = "ci-runner-3";
    base.date = "2024-04-30T09:00:00Z";
    base.cpu = "AMD EPYC 7B13";
    base.num_cpus = 8;
    base.processes = 5;
    run_context head = base;
    head.host = "ci-runner-7";
    head.date = "2024-05-01T11:40:00Z";
    r.base_context = base;
    r.head_context = head;
    return r;
}

compare_results compare_edges_run() {
    compare_results r = context(pairing::rounds);
    r.rounds = 5;
    r.comparisons = 2;
    const double level = 1 - r.alpha / 2;

    compare_row ok =
        row("sort<int>|64", rounds_side(640, 0.01, 5, 0, 8192), rounds_side(702, 0.01, 5, 2, 8192));
    ok.change = change(9.7, interval{7.9, 11.5}, 5, level, 3.4e-5);
    ok.verdict = verdict::slower;
    set_memory(ok.base, 0, 0, 0, 0);
    set_memory(ok.head, 1, 64, 64, 0);
    ok.head.warnings.push_back({"noisy", "5 of 50 samples are outliers; the interval is wide"});

    compare_row crash = row("decode/corrupt_footer", rounds_side(3.1e6, 0.01, 5, 1, 1), side_figures{});
    crash.head.error = error_info{"signal", "killed by SIGSEGV (signal 11)\n  in worker round 3"};
    crash.verdict = verdict::error;

    // An imported base with a time of 0: a log-ratio means nothing, so no change.
    compare_row zero =
        row("noop/empty_body", rounds_side(0.3, 0, 5, 0, 1 << 20), rounds_side(0.31, 0.01, 5, 0, 1 << 20));
    zero.base.time_ns = 0;
    zero.base.time_ci.reset();
    zero.base.round_ns.assign(5, 0.0);

    // One usable pair: a point estimate without an interval, hence no_change.
    compare_row one =
        row("latency/p99_probe", rounds_side(15000, 0.02, 1, 0, 1), rounds_side(14100, 0.02, 1, 0, 1));
    one.change = change(-6.0, std::nullopt, 1, level, 1);
    one.verdict = verdict::no_change;

    r.rows = {std::move(ok), std::move(crash), std::move(zero), std::move(one)};
    r.only_in_base = {"write/legacy_format"};
    r.only_in_head = {"write/new_format", "read/a|b"};
    return r;
}

compare_results compare_threshold_run() {
    compare_results r = context(pairing::rounds);
    r.rounds = 8;
    r.cpus = {0, 1, 2, 3, 6};
    r.threshold_pct = 5;
    const std::size_t n = r.rounds;
    compare_row small = row("fmt/format_int", rounds_side(21.4, 0.003, n, 0, 1 << 16),
                            rounds_side(22.1, 0.003, n, 4, 1 << 16));
    compare_row big = row("fmt/format_double", rounds_side(98.0, 0.004, n, 1, 1 << 14),
                          rounds_side(110.5, 0.004, n, 5, 1 << 14));
    compare_row fast = row("fmt/format_string", rounds_side(45.0, 0.004, n, 2, 1 << 15),
                           rounds_side(36.2, 0.004, n, 6, 1 << 15));
    r.rows = {std::move(small), std::move(big), std::move(fast)};
    judge_rows(r);
    return r;
}

namespace {

benchmark_result counted_row(std::string name, double instructions, double ll, double allocs) {
    benchmark_result b;
    b.name = std::move(name);
    b.iterations = 25;
    instruction_counts c;
    c.instrument = "callgrind";
    c.iterations = 25;
    c.instructions = instructions;
    c.data_reads = instructions / 4;
    c.data_writes = instructions / 8;
    c.l1_misses = ll * 2;
    c.ll_misses = ll;
    c.estimated_cycles = instructions * 1.375 + 4 * ll * 2 + 30 * ll;
    b.counts = c;
    b.allocs_per_iter = allocs;
    b.bytes_per_iter = allocs * 48;
    b.peak_live_bytes = static_cast<std::int64_t>(allocs * 48);
    return b;
}

run_results counted_side(bool head) {
    run_results r;
    r.context.tare_version = "0.1.0";
    r.context.executable = head ? "./build/bench/codec_bench" : "./build-main/bench/codec_bench";
    r.context.host = "ci-runner-7";
    r.context.date = head ? "2024-05-01T12:00:09Z" : "2024-05-01T12:00:00Z";
    r.context.cpu = "AMD EPYC 7B13 64-Core Processor";
    r.context.num_cpus = 8;
    r.context.accounting = true;
    r.context.instrument =
        "valgrind-3.19.0 callgrind; I1 32 KiB 8-way, D1 32 KiB 8-way, LL 8 MiB 16-way, 64 B lines";
    r.benchmarks = {counted_row("crc32/64", 1203.4, 0, 0),
                    counted_row("encode/4096", head ? 181532.0 : 190859.0, head ? 2.5 : 3.0, head ? 1 : 2),
                    counted_row("decode/4096", head ? 97911.0 : 96012.5, 1.25, 1),
                    counted_row("parse/int", head ? 5213.7 : 5213.5, 0, 0)};
    // --profile: encode/4096's head spends fewer instructions in its block encoder and none in the
    // table it no longer rebuilds; its own loop is unchanged.
    instruction_profile p;
    p.frames = {"(anonymous namespace)::encode(tare::State&)",
                "codec::encode_block(std::span<unsigned char const>)", "codec::build_table()", "memcpy"};
    if (head) {
        p.stacks = {{{0}, 1532.0}, {{0, 1}, 178000.0}, {{0, 1, 3}, 2000.0}};
        p.functions = {{"codec::encode_block(std::span<unsigned char const>)", 178000.0},
                       {"memcpy", 2000.0},
                       {"(anonymous namespace)::encode(tare::State&)", 1532.0}};
    } else {
        p.stacks = {{{0}, 1532.0}, {{0, 1}, 180327.0}, {{0, 1, 3}, 2000.0}, {{0, 2}, 7000.0}};
        p.functions = {{"codec::encode_block(std::span<unsigned char const>)", 180327.0},
                       {"codec::build_table()", 7000.0},
                       {"memcpy", 2000.0},
                       {"(anonymous namespace)::encode(tare::State&)", 1532.0}};
    }
    r.benchmarks[1].profile = std::move(p);
    // Its allocation stacks (the sites pass a counted --profile runs): head no longer allocates
    // the table's scratch buffer.
    const stack_frame body{"(anonymous namespace)::encode", "/src/bench/codec_bench.cpp", 40};
    alloc_site output{
        1, 4096, head ? 1.0 : 0.5, 0, {{"std::vector<unsigned char>::reserve", "/src/codec.cpp", 12}, body},
        {}};
    alloc_site scratch{1, 64, 0.5, 0, {{"codec::build_table", "/src/codec.cpp", 30}, body}, {}};
    r.benchmarks[1].sites = sites_pass{1000, 0.01, head ? 1000U : 2000U, 0, true, head ? 1U : 2U};
    r.benchmarks[1].alloc_sites =
        head ? std::vector<alloc_site>{output} : std::vector<alloc_site>{output, scratch};
    if (head) {
        r.benchmarks.push_back({});
        r.benchmarks.back().name = "crash/ub";
        r.benchmarks.back().error =
            error_info{"signal", "the benchmark's counted process was killed by SIGSEGV"};
    } else {
        r.benchmarks.push_back(counted_row("crash/ub", 880, 0, 0));
    }
    return r;
}

}  // namespace

compare_results compare_counted_run() {
    compare_results r = counted::compare_counted(counted_side(false), counted_side(true), 0);
    r.base_label = "./build-main/bench/codec_bench";
    r.head_label = "./build/bench/codec_bench";
    r.tare_version = "0.1.0";
    r.host = "ci-runner-7";
    r.date = "2024-05-01T12:00:10Z";
    return r;
}

namespace {

compare_results mixed_run(bool allow) {
    compare_results r = compare_rounds_run();
    for (compare_row& row : r.rows) {
        row.base.allocs_per_iter.reset();
        row.base.bytes_per_iter.reset();
        row.base.peak_live_bytes.reset();
        row.base.page_faults_per_iter.reset();
    }
    compare::side_instrumentation base;
    compare::side_instrumentation head;
    head.accounting = true;
    compare::judge_instrumentation(r, base, head, allow);
    return r;
}

}  // namespace

compare_results compare_mixed_run() {
    return mixed_run(false);
}

compare_results compare_mixed_allowed_run() {
    return mixed_run(true);
}

std::vector<named_compare_fixture> all_compare_fixtures() {
    return {{"rounds", compare_rounds_run},       {"unpaired", compare_unpaired_run},
            {"processes", compare_processes_run}, {"edges", compare_edges_run},
            {"threshold", compare_threshold_run}, {"counted", compare_counted_run},
            {"mixed", compare_mixed_run},         {"mixed_allowed", compare_mixed_allowed_run}};
}

}  // namespace tare::golden
