#include "golden/fixtures.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "instrument/judge.hpp"

namespace tare::golden {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double kib = 1024.0;
constexpr double mib = 1024.0 * 1024.0;

// Relative deviation of successive samples from the mean: a fixed, unremarkable spread.
constexpr std::array<double, 10> wobble = {-0.8, 0.3, -0.2, 1.0, 0.1, -0.5, 0.6, -0.4, 0.2, -0.3};

// x rounded to a multiple of 10^exponent, computed so the result is the double nearest that
// decimal and prints short in JSON ("12.3412", not "12.341200000000001").
double round_to(double x, int exponent) {
    const double scale = std::pow(10.0, std::abs(exponent));
    return exponent >= 0 ? std::round(x / scale) * scale : std::round(x * scale) / scale;
}

int digits_exponent(double x) {
    return static_cast<int>(std::floor(std::log10(x)));
}

run_context typical_context(std::string executable) {
    run_context c;
    c.tare_version = "0.1.0";
    c.executable = std::move(executable);
    c.host = "ci-runner-7";
    c.date = "2024-05-01T12:00:00Z";
    c.cpu = "AMD EPYC 7B13 64-Core Processor";
    c.num_cpus = 8;
    c.clock_overhead_ns = 18.2;
    c.loop_overhead_ns = 0.312;
    c.accounting = true;
    c.allocator = "glibc 2.36: malloc family, new/delete, declared pools";
    return c;
}

// Fills samples and summary from per-sample iteration counts and a mean per-iteration time.
// The summary is computed from the samples (normal-approximation interval), so the figures a
// reporter prints agree with the samples it lists.
void fill_times(benchmark_result& b, double mean_ns, double spread,
                const std::vector<std::uint64_t>& iterations) {
    const int exponent = digits_exponent(mean_ns) - 3;  // samples carry four significant digits
    std::uint64_t before = 0;
    for (std::size_t i = 0; i < iterations.size(); ++i) {
        const double ns = round_to(mean_ns * (1 + spread * wobble[i % wobble.size()]), exponent);
        b.samples_ns.push_back(ns);
        sample s;
        s.iterations = iterations[i];
        s.elapsed_ns = ns * static_cast<double>(iterations[i]);
        s.iterations_before = before;
        before += iterations[i];
        b.samples.push_back(s);
    }
    b.iterations = before;

    const auto n = static_cast<double>(b.samples_ns.size());
    std::vector<double> sorted = b.samples_ns;
    std::sort(sorted.begin(), sorted.end());
    double sum = 0;
    for (const double x : sorted)
        sum += x;
    const double mean = sum / n;
    double squares = 0;
    for (const double x : sorted)
        squares += (x - mean) * (x - mean);
    const double stddev = std::sqrt(squares / (n - 1));
    const std::size_t mid = sorted.size() / 2;
    const double median = sorted.size() % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    const double half_width = 1.96 * stddev / std::sqrt(n);

    const int shown = exponent - 2;
    b.time = {round_to(mean, shown), round_to(median, shown), round_to(stddev, shown),
              sorted.front(),        sorted.back(),           std::nullopt};
    if (sorted.size() >= 2)  // one sample has no interval
        b.time.ci = interval{round_to(mean - half_width, shown), round_to(mean + half_width, shown)};
}

benchmark_result timed(std::string name, double mean_ns, double spread, std::size_t samples,
                       std::uint64_t iterations_per_sample) {
    benchmark_result b;
    b.name = std::move(name);
    fill_times(b, mean_ns, spread, std::vector<std::uint64_t>(samples, iterations_per_sample));
    return b;
}

void set_memory(benchmark_result& b, double allocs, double bytes, std::int64_t peak, double retained,
                double faults) {
    b.allocs_per_iter = allocs;
    b.bytes_per_iter = bytes;
    b.peak_live_bytes = peak;
    b.retained_bytes_per_iter = retained;
    b.page_faults_per_iter = faults;
    b.sample_heap_measured = true;  // as tare's own loop with accounting on
}

}  // namespace

run_results typical_run() {
    run_results run;
    run.context = typical_context("./build/examples/round_trip_bench");

    auto crc = timed("crc32/64", 12.34, 0.01, 8, 2'000'000);
    set_memory(crc, 0, 0, 0, 0, 0);
    crc.bytes_per_second = 64 / (crc.time.mean * 1e-9);
    crc.outliers.high_mild = 1;

    auto round_trip = timed("round_trip/1000", 1253.7, 0.008, 8, 16'000);
    set_memory(round_trip, 1, 4 * kib, 4096, 0, 0);
    round_trip.items_per_second = 1000 / (round_trip.time.mean * 1e-9);
    round_trip.counters = {{"ratio", 0.4375}};

    auto write = timed("parquet/write_file", 812.4e6, 0.02, 8, 1);
    set_memory(write, 1843, 90 * mib, 85 * 1024 * 1024, 0, 21504);
    write.counters = {{"rows", 1e6}, {"pages", 128}};
    write.outliers.high_severe = 1;

    run.benchmarks = {std::move(crc), std::move(round_trip), std::move(write)};
    return run;
}

run_results findings_run() {
    run_results run;
    run.context = typical_context("./build/examples/cases");

    auto growing = timed("parquet/round_trip/growing", 14.93e6, 0.03, 10, 4);
    set_memory(growing, 212, 9.63e6, 602LL * 1024 * 1024, 6.02 * mib, 1540);
    // The live heap the slope was fitted on: 6.02 MiB more at each sample's end (4 iterations a
    // sample, 1.5 MiB an iteration), after 120 MiB kept by warm-up.
    for (std::size_t i = 0; i < growing.samples.size(); ++i) {
        sample s = growing.samples[i];
        s.live_bytes_end = static_cast<std::int64_t>(120 * mib + 6.02 * mib * static_cast<double>(i + 1));
        growing.samples.set(i, s);
    }
    growing.warnings.push_back({"retained_growth",
                                "live heap grows by 6.02 MiB per iteration (peak 602 MiB): the timed loop "
                                "keeps what it allocates"});

    auto cleared = timed("parquet/round_trip/cleared", 14.21e6, 0.02, 10, 4);
    set_memory(cleared, 212, 9.63e6, 85LL * 1024 * 1024, 0, 12);

    auto fresh = timed("copy/fresh_256MiB", 57.3e6, 0.015, 10, 1);
    set_memory(fresh, 1, 256 * mib, 256LL * 1024 * 1024, 0, 65536);
    fresh.warnings.push_back({"fresh_memory",
                              "65.5k page faults per iteration: each iteration maps fresh memory, so the "
                              "kernel zeroing pages is timed with the copy"});

    auto reused = timed("copy/reused_256MiB", 11.2e6, 0.01, 10, 1);
    set_memory(reused, 0, 0, 0, 0, 0);

    // A buffer the body maps itself each iteration: no allocation, 64 MiB mapped.
    auto mapped = timed("copy/mapped_64MiB", 14.6e6, 0.01, 10, 1);
    set_memory(mapped, 0, 0, 0, 0, 16384);
    mapped.mapped_bytes_per_iter = 64 * mib;
    mapped.warnings.push_back({"fresh_memory",
                               "16.4k page faults per iteration: each iteration maps fresh memory, so the "
                               "kernel zeroing pages is timed with the copy"});

    benchmark_result noisy;
    noisy.name = "hash/noisy";
    std::vector<std::uint64_t> ramp;
    for (std::uint64_t i = 1; i <= 20; ++i)
        ramp.push_back(i * 1000);
    fill_times(noisy, 83.1, 0.35, ramp);
    set_memory(noisy, 0, 0, 0, 0, 0.0012);
    noisy.outliers.high_mild = 3;
    noisy.outliers.high_severe = 3;
    noisy.warnings.push_back({"noisy",
                              "6 of 20 samples are outliers; the interval is too wide to compare against: "
                              "rerun on a quieter machine"});

    benchmark_result corrupt;
    corrupt.name = "decode/corrupt_footer";
    corrupt.error = error_info{"exception",
                               "parquet::ParquetException: bad magic number in footer\n"
                               "  while reading column chunk 3"};

    // Mappings are counted wherever accounting is on: 0 for every row that maps nothing.
    for (benchmark_result* b : {&growing, &cleared, &fresh, &reused, &noisy})
        b->mapped_bytes_per_iter = 0;
    run.benchmarks = {std::move(growing), std::move(cleared), std::move(fresh),  std::move(reused),
                      std::move(mapped),  std::move(noisy),   std::move(corrupt)};
    return run;
}

run_results accounting_off_run() {
    run_results run;
    run.context = typical_context("./build/bench/containers");
    run.context.accounting = false;
    run.context.allocator = std::nullopt;
    run.benchmarks = {timed("vector/push_back/1000", 2314.0, 0.01, 10, 4096),
                      timed("map/insert/1000", 48.7e3, 0.02, 10, 256)};
    return run;
}

run_results non_finite_run() {
    run_results run;
    run.context = typical_context("./build/test/degenerate");
    run.context.loop_overhead_ns = nan;  // calibration failed

    auto broken = timed("degenerate/infinite", 40.0, 0.05, 4, 100);
    broken.samples_ns[2] = inf;
    broken.time.max = inf;
    broken.time.ci->high = inf;
    broken.time.stddev = nan;
    set_memory(broken, 0.0004, 40.5, 4096, nan, 0);
    broken.bytes_per_second = inf;
    broken.counters = {{"hit_rate", nan}, {"delta", -3.5}, {"overflow", -inf}, {"tiny", 0.0004}};

    auto zero = timed("degenerate/zero", 1.0, 0, 4, 1000);
    for (double& ns : zero.samples_ns)
        ns = 0;
    zero.time = {};
    set_memory(zero, 0, 0, 0, -12.5, 0);
    zero.items_per_second = inf;
    zero.counters = {{"delta", 0}};

    run.benchmarks = {std::move(broken), std::move(zero)};
    return run;
}

run_results variants_run() {
    run_results run;
    run.context = typical_context("./build/examples/zstd_contexts_bench");

    auto reused = timed("ctx_reused/64", 1742.0, 0.01, 40, 4096);
    set_memory(reused, 0, 0, 0, 0, 0);
    auto fresh = timed("ctx_fresh/64", 1811.0, 0.012, 40, 4096);
    set_memory(fresh, 2, 1.25 * mib, 5 * 1024 * 1024 / 4, 0, 0);
    auto write = timed("encode_write/1024", 48.2e3, 0.01, 40, 64);
    set_memory(write, 64, 72 * kib, 12 * 1024, 0, 0);
    auto encode_to = timed("encode_to/1024", 31.9e3, 0.01, 40, 64);
    set_memory(encode_to, 0, 0, 0, 0, 0);
    auto slow = timed("encode_copy/1024", 97.5e3, 0.02, 40, 64);
    set_memory(slow, 64, 72 * kib, 12 * 1024, 0, 0);
    benchmark_result broken;
    broken.name = "encode_mmap/1024";
    broken.error = error_info{"exception", "mmap: cannot allocate memory"};

    const auto comparison = [](std::string group, std::string name, std::string baseline, std::string member,
                               double base_ns, double ratio, std::optional<paired_change> change,
                               verdict verdict) {
        variant_comparison c;
        c.group = std::move(group);
        c.name = std::move(name);
        c.baseline = std::move(baseline);
        c.member = std::move(member);
        c.samples_per_block = 5;
        c.iterations = 4096;
        c.blocks = 8;
        for (std::size_t i = 0; i < c.blocks; ++i) {
            const double base = round_to(base_ns * (1 + 0.01 * wobble[i]), 0);
            c.baseline_block_ns.push_back(base);
            c.member_block_ns.push_back(round_to(base * ratio * (1 + 0.005 * wobble[9 - i]), 0));
        }
        c.change = change;
        c.verdict = verdict;
        return c;
    };
    const double level = 1 - 0.05 / 3;
    const auto change = [level](double pct, double low, double high, double p) {
        paired_change c;
        c.pairs = 8;
        c.confidence = level;
        c.change_pct = pct;
        c.interval_pct = interval{low, high};
        c.p_value = p;
        return c;
    };
    run.comparisons.push_back(comparison("contexts", "contexts/64", "ctx_reused/64", "ctx_fresh/64", 1742,
                                         1.04, change(3.96, -0.42, 8.53, 0.061), verdict::no_change));
    run.comparisons.push_back(comparison("streams", "streams/1024", "encode_write/1024", "encode_to/1024",
                                         48200, 0.66, change(-33.8, -35.1, -32.4, 1.2e-9), verdict::faster));
    run.comparisons.push_back(comparison("streams", "streams/1024", "encode_write/1024", "encode_copy/1024",
                                         48200, 2.02, change(102.3, 95.6, 109.2, 3.4e-10), verdict::slower));
    auto failed = comparison("streams", "streams/1024", "encode_write/1024", "encode_mmap/1024", 48200, 1, {},
                             verdict::no_change);
    failed.blocks = 0;
    failed.baseline_block_ns.clear();
    failed.member_block_ns.clear();
    run.comparisons.push_back(std::move(failed));

    run.benchmarks = {std::move(reused),    std::move(fresh), std::move(write),
                      std::move(encode_to), std::move(slow),  std::move(broken)};
    return run;
}

run_results sites_run() {
    run_results run;
    run.context = typical_context("./build/examples/round_trip_before");
    run.context.executable = "./build/examples/round_trip/round_trip_before";

    auto growing = timed("write/int32_plain", 2.05e6, 0.03, 10, 1);
    set_memory(growing, 5.04, 1.09 * mib, 22LL * 1024 * 1024, 585.2 * kib, 264);
    growing.warnings.push_back({"retained_growth", "live heap grows by 585.2 KiB per iteration"});
    const std::string file = "/src/examples/round_trip/column_file.cpp";
    const stack_frame body{"(anonymous namespace)::write_int32_plain",
                           "/src/examples/round_trip/round_trip_bench.cpp", 89};
    const stack_frame bench{
        "(anonymous namespace)::write_bench<std::vector<int, std::allocator<int> >, void "
        "(*)(std::vector<int, std::allocator<int> > const&, std::vector<unsigned char, "
        "std::allocator<unsigned char> >&)>",
        "/src/examples/round_trip/round_trip_bench.cpp", 81};
    const stack_frame writer{"column_file::write_int32_plain", file, 118};
    alloc_site page{5, 124, 0.993, 0, {}, {}};
    page.stack = {
        {"std::vector<unsigned int, std::allocator<unsigned int> >::push_back", file, 58},
        {"page<column_file::write_int32_plain(const std::vector<int>&, bytes&)::<lambda()> >", file, 58},
        writer,
        bench,
        body};
    alloc_site resize{0.0345, 1.04 * mib, 0.007, 0, {}, {}};
    resize.stack = {{"std::vector<unsigned char, std::allocator<unsigned char> >::resize", file, 80},
                    {"column_file::put_plain_int32", file, 80},
                    writer,
                    bench,
                    body};
    growing.sites = sites_pass{29, 0.061, 146, 0, true, 2};
    growing.alloc_sites = {page, resize};
    alloc_site kept = resize;
    kept.allocs_per_iter = 0.0345;
    kept.share = 1;
    growing.retained_sites = {kept};

    // A thread of the benchmark's own and no debug information: module and offset, no line.
    auto pool = timed("pool/submit", 8.4e3, 0.02, 10, 100);
    set_memory(pool, 2, 96, 4096, 0, 0);
    alloc_site task{1, 32, 0.5, 0, {}, {}};
    task.stack = {{"std::function<void ()>::function<(anonymous namespace)::submit(int)::<lambda()> >",
                   std::nullopt, std::nullopt},
                  {"(anonymous namespace)::submit", std::nullopt, std::nullopt}};
    alloc_site worker{1, 64, 0.5, 1, {{"libpool.so+0x1a2b", std::nullopt, std::nullopt}}, {}};
    worker.threads = {{1, 0.625, 40}, {2, 0.375, 24}};  // the pool's two workers ran the same line
    pool.sites = sites_pass{1000, 0.004, 2000, 0, false, 2};
    pool.alloc_sites = {task, worker};

    // No allocation in the loop: no pass ran.
    auto quiet = timed("hash/crc32", 812, 0.01, 10, 1000);
    set_memory(quiet, 0, 0, 0, 0, 0);
    quiet.sites = sites_pass{};

    run.benchmarks = {std::move(growing), std::move(pool), std::move(quiet)};
    return run;
}

run_results empty_run() {
    run_results run;
    run.context = typical_context("./build/examples/round_trip_bench");
    return run;
}

namespace {

benchmark_result counted(std::string name, std::uint64_t iterations, double instructions, double reads,
                         double writes, double l1, double ll) {
    benchmark_result b;
    b.name = std::move(name);
    b.iterations = iterations;
    instruction_counts c;
    c.instrument = "callgrind";
    c.iterations = iterations;
    c.instructions = instructions;
    c.data_reads = reads;
    c.data_writes = writes;
    c.l1_misses = l1;
    c.ll_misses = ll;
    const double accesses = instructions + reads + writes;
    c.estimated_cycles = (accesses - l1) + 5 * (l1 - ll) + 35 * ll;
    b.counts = c;
    return b;
}

}  // namespace

run_results counted_run() {
    run_results run;
    run.context = typical_context("./build/examples/quickstart_bench");
    run.context.clock_overhead_ns.reset();
    run.context.loop_overhead_ns.reset();
    run.context.instrument =
        "valgrind-3.19.0 callgrind; I1 32 KiB 8-way, D1 32 KiB 8-way, LL 8 MiB 16-way, 64 B lines";

    auto outside = counted("output_cleared_outside/4096", 55, 209692.76363636364, 58104.96363636364, 40961.2,
                           884.4727272727273, 533.0);
    outside.allocs_per_iter = 0.10909090909090909;
    outside.bytes_per_iter = 37580.8;
    outside.peak_live_bytes = 1572864;
    outside.retained_bytes_per_iter = 19046.4;
    outside.warnings.push_back({"retained_growth",
                                "live heap grows by 18.6 KiB per iteration (768.0 KiB over the measured "
                                "samples, 1.0 MiB live at the end)"});
    // --profile: where the region's instructions went (docs/profiles.md), per iteration.
    instruction_profile p;
    p.frames = {"(anonymous namespace)::output_cleared_outside(tare::State&)",
                "void std::vector<char, std::allocator<char> >::_M_realloc_insert<char const&>(__gnu_cxx::"
                "__normal_iterator<char*, std::vector<char, std::allocator<char> > >, char const&)",
                "__memmove_avx_unaligned_erms",
                "encode_chunk(std::span<unsigned char const, 18446744073709551615ul>)",
                "tare::detail::sample_driver::end_chunk()",
                "(smaller callees)"};
    p.stacks = {{{0}, 40960.5},       {{0, 3}, 150012.25}, {{0, 1}, 1024.0},
                {{0, 1, 2}, 17690.0}, {{0, 4}, 3.5},       {{0, 3, 5}, 2.51}};
    p.functions = {
        {"encode_chunk(std::span<unsigned char const, 18446744073709551615ul>)", 150012.25},
        {"(anonymous namespace)::output_cleared_outside(tare::State&)", 40960.5},
        {"__memmove_avx_unaligned_erms", 17690.0},
        {"void std::vector<char, std::allocator<char> >::_M_realloc_insert<char const&>(__gnu_cxx::"
         "__normal_iterator<char*, std::vector<char, std::allocator<char> > >, char const&)",
         1024.0},
        {"tare::detail::sample_driver::end_chunk()", 3.5},
        {"memset", 2.51}};
    outside.profile = std::move(p);
    auto inside = counted("output_cleared_inside/4096", 55, 190859.27272727274, 39327.0, 36864.0, 61.0, 0.0);
    inside.allocs_per_iter = 0;
    inside.bytes_per_iter = 0;
    inside.peak_live_bytes = 24576;
    inside.retained_bytes_per_iter = 0;
    auto fresh =
        counted("copy_into_fresh_buffer/64", 2, 5788952.0, 2097275.0, 2097160.0, 2097190.0, 2097176.5);
    fresh.allocs_per_iter = 1;
    fresh.bytes_per_iter = 64.0 * 1024 * 1024;
    fresh.peak_live_bytes = std::int64_t{64} << 20;
    benchmark_result failed;
    failed.name = "aborts";
    failed.error = error_info{"signal", "the benchmark's counted process was killed by SIGABRT"};
    run.benchmarks = {std::move(outside), std::move(inside), std::move(fresh), std::move(failed)};

    variant_comparison c;
    c.group = "output";
    c.name = "output/4096";
    c.baseline = "output_cleared_outside/4096";
    c.member = "output_cleared_inside/4096";
    c.instrument = "callgrind";
    c.change = instrument::count_change(209692.76363636364, 190859.27272727274);
    c.verdict = instrument::count_verdict(*c.change);
    run.comparisons = {c};
    return run;
}

std::vector<named_fixture> all_fixtures() {
    return {
        {"typical", typical_run},       {"findings", findings_run}, {"accounting_off", accounting_off_run},
        {"non_finite", non_finite_run}, {"variants", variants_run}, {"empty", empty_run},
        {"sites", sites_run},           {"counted", counted_run},
    };
}

}  // namespace tare::golden
