#pragma once
// The result model: what a run produces and every reporter consumes. Plain data, no
// behaviour, so reporters stay pure functions of it and tests can build it by hand.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/boxed.hpp"
#include "model/change.hpp"
#include "model/sample.hpp"
#include "model/sample_list.hpp"

namespace tare {

/// Per-iteration wall time, in ns, summarised over a benchmark's samples.
struct time_summary {
    double mean = 0;
    double median = 0;
    double stddev = 0;
    double min = 0;
    double max = 0;
    /// 95 % interval of the mean (docs/statistics.md); empty for fewer than two samples (one has
    /// no spread to bound the mean with) or a sample that is not finite: JSON null, "± —".
    std::optional<interval> ci;
};

/// Tukey's fences (Tukey 1977, "Exploratory Data Analysis"): mild beyond 1.5 IQR from the
/// quartiles, severe beyond 3 IQR.
struct outlier_counts {
    std::uint32_t low_severe = 0;
    std::uint32_t low_mild = 0;
    std::uint32_t high_mild = 0;
    std::uint32_t high_severe = 0;
    std::uint32_t total() const noexcept { return low_severe + low_mild + high_mild + high_severe; }
};

/// A finding about a result that the reader must see; printed under tables, kept in JSON.
/// `kind` is a stable identifier ("retained_growth", "fresh_memory", "noisy", ...).
struct warning {
    std::string kind;
    std::string message;
};

/// Why a benchmark has no figures: kind is "signal", "exception", "timeout", "skipped", ...
struct error_info {
    std::string kind;
    std::string message;
};

/// One process of a benchmark recorded in several (`tare run --processes=N`): its share of the
/// pooled samples and the median of their per-iteration times, the value a comparison of two
/// such files replicates on (docs/compare.md, "Stored baselines").
struct process_figures {
    std::size_t samples = 0;  // this process's samples, in order, within samples_ns
    double median_ns = 0;     // median per-iteration time of those samples
};

/// One frame of an allocation's call stack, as the diagnostic pass found it.
struct stack_frame {
    std::string function;               // demangled, no parameters; "module+0xOFFSET" when unknown
    std::optional<std::string> file;    // empty without debug information
    std::optional<std::uint32_t> line;  // likewise
};

/// One thread's part of an allocation site that several threads reached by the same stack.
struct thread_share {
    std::uint32_t thread = 0;  // as alloc_site::thread
    double allocs_per_iter = 0;
    double bytes_per_iter = 0;
};

/// Where the timed region allocates (--alloc-sites; docs/reading-results.md, "Allocation
/// sites"): one call stack, folded and cut as that page says, and its share of the region. The
/// site is the stack's first frame: the innermost outside tare and the allocation path.
struct alloc_site {
    double allocs_per_iter = 0;  // alloc_sites: allocation calls; retained_sites: blocks still live
    double bytes_per_iter = 0;   // alloc_sites: bytes requested; retained_sites: bytes still live
    double share = 0;            // of the pass's allocations (alloc_sites) or retained bytes (retained_sites)
    std::uint32_t thread = 0;    // 0: the benchmark's own thread; N: the N-th other thread that allocated
    std::vector<stack_frame> stack;  // innermost first, up to the benchmark's body; never empty
    /// Several threads allocated by this same stack (a pool's workers running one line): each
    /// one's part, by thread; `thread` is then the one of most allocations. Empty: one thread.
    std::vector<thread_share> threads;
};

/// The diagnostic pass that found the sites, after the timed samples.
struct sites_pass {
    std::uint64_t iterations = 0;   // of the body, with every allocation's stack captured
    double seconds = 0;             // the pass's wall time, capture included
    std::uint64_t allocations = 0;  // allocation calls recorded
    std::uint64_t dropped = 0;      // beyond the pass's record buffer: counted, not located
    bool source_lines = false;      // debug information could be read (libdw found)
    /// The distinct call stacks (and threads) the allocations came from: `alloc_sites` lists
    /// every one when it has this many. 0: not known (a file written before it was recorded).
    std::size_t stacks = 0;
};

/// What --instrument counted in place of time (docs/instructions.md): per iteration of the timed
/// region, over `iterations` iterations counted in one pass of a fresh process.
struct instruction_counts {
    /// "callgrind": Valgrind's simulated CPU; "hw-instructions": the CPU's own counter.
    std::string instrument;
    std::uint64_t iterations = 0;  // iterations counted
    double instructions = 0;       // executed (Callgrind's Ir) or retired (the hardware's)
    // Callgrind's alone (empty for hw-instructions): data reads and writes, and of its cache
    // simulation the L1 and last-level misses, and the estimated cycles made of them.
    std::optional<double> data_reads;
    std::optional<double> data_writes;
    std::optional<double> l1_misses;
    std::optional<double> ll_misses;
    std::optional<double> estimated_cycles;
    /// Wall seconds the counted iterations took under the instrument, their counts read back
    /// included (not a measurement of the body: what counting cost; bench/README.md,
    /// "Instruction counts").
    double seconds = 0;
};

/// One call stack of a region's instruction profile and the instructions its innermost frame
/// executed there itself, per iteration.
struct profile_stack {
    std::vector<std::uint32_t> frames;  // into instruction_profile::frames, outermost (the body) first
    double self = 0;
};

/// One function's own instructions per iteration, over every stack it ran in.
struct function_cost {
    std::string function;
    double self = 0;
};

/// --profile with --instrument=instructions: where the timed region's instructions went
/// (docs/profiles.md). The functions' figures are Callgrind's, exact; the stacks divide each
/// callee's cost among its callers' stacks as that page says.
struct instruction_profile {
    std::vector<std::string> frames;       // the function names the stacks index
    std::vector<profile_stack> stacks;     // the flame graph, from the benchmark's body down
    std::vector<function_cost> functions;  // by self instructions, most first
};

/// Everything measured for one benchmark instance.
struct benchmark_result {
    std::string name;
    std::uint64_t iterations = 0;  // measured iterations (warm-up excluded)
    sample_list samples;           // measured samples only
    /// samples[].live_bytes_end and iterations_before were measured by tare's own loop with
    /// accounting on (false for imported results, whose samples carry times only).
    bool sample_heap_measured = false;
    std::vector<double> samples_ns;  // per-iteration time of each sample
    time_summary time;
    outlier_counts outliers;

    // Memory of the timed region. Empty when accounting is unavailable (never invented).
    std::optional<double> allocs_per_iter;
    std::optional<double> bytes_per_iter;
    std::optional<std::int64_t> peak_live_bytes;
    std::optional<double> retained_bytes_per_iter;
    std::optional<double> page_faults_per_iter;
    /// Bytes through memcpy, memmove and mempcpy calls of the timed region, and through memset,
    /// per iteration. Empty unless tare::copies is linked (docs/accounting.md, "Bytes copied").
    std::optional<double> copied_bytes_per_iter;
    std::optional<double> set_bytes_per_iter;
    /// Bytes of anonymous mappings the timed region made (mmap, and mremap's growth), in whole
    /// pages, per iteration; not the allocator's own (docs/accounting.md, "Direct mappings").
    /// Empty where mappings are not counted (no accounting, the TSan build).
    std::optional<double> mapped_bytes_per_iter;

    // Throughput, as declared by the body (State::set_bytes_per_iteration / items).
    std::optional<double> bytes_per_second;
    std::optional<double> items_per_second;

    std::vector<std::pair<std::string, double>> counters;
    /// Google Benchmark's label (State::SetLabel; often the input's name); none when not set.
    std::optional<std::string> label;
    std::vector<warning> warnings;
    boxed<error_info> error;
    /// The processes it was measured in, in order; empty: one process (docs/json-schema.md).
    std::vector<process_figures> processes;
    /// --alloc-sites: the pass, the top sites by allocations and by bytes, and the sites of the
    /// blocks the pass left live. Empty without the flag.
    boxed<tare::sites_pass> sites;
    std::vector<alloc_site> alloc_sites;
    std::vector<alloc_site> retained_sites;
    /// --instrument: the region's counts. The row then has no time (no samples, time_ns null)
    /// and no page faults, which under a simulator are the simulator's.
    boxed<instruction_counts> counts;
    /// --profile under --instrument=instructions: the counted pass's instruction profile.
    boxed<instruction_profile> profile;
};

/// The benchmark ended in an error (its row says which), not in figures.
inline bool failed(const benchmark_result& b) noexcept {
    return b.error.has_value();
}

/// Where and how a run happened.
struct run_context {
    std::string tare_version;
    std::string executable;
    std::string host;
    std::string date;  // ISO-8601, UTC
    std::string cpu;
    std::uint32_t num_cpus = 0;
    /// Cost of one clock read, and the harness's cost per iteration of an empty body: measured by
    /// a tare executable, empty for results tare did not measure (a Google Benchmark file).
    std::optional<double> clock_overhead_ns;
    std::optional<double> loop_overhead_ns;
    bool accounting = false;  // is allocation accounting active in this process
    /// With accounting: the allocator underneath and what tare counts of it
    /// (alloc::allocator_in_use()); empty without accounting and for results tare did not measure.
    std::optional<std::string> allocator = std::nullopt;
    /// Fresh processes of the executable the results were measured in (`tare run --processes`).
    std::uint32_t processes = 1;
    /// A SIGINT or SIGTERM stopped the run: the benchmarks listed finished, the rest did not run.
    bool interrupted = false;
    /// --instrument: what counted and how it was set up ("valgrind-3.19.0 callgrind; I1 32 KiB
    /// 8-way, ..."); empty for a timed run.
    std::optional<std::string> instrument = std::nullopt;
    /// --instrument --pass-env: the variables passed to the counted children by name (their values
    /// are not recorded); empty: only the pinned few (docs/instructions.md, "Determinism").
    std::vector<std::string> instrument_env = {};
    /// Results read from Google Benchmark JSON: what measured the memory figures. "region": the
    /// timed region of every row, exactly (tare::gbench's region hooks); "memory_run": Google
    /// Benchmark's extra memory run (the whole function); "mixed": the hooks, but the memory run
    /// for the rows that carry a `gbench_memory_run` warning; "none_measured": every row failed,
    /// so whether the suite has memory figures is unknown. Empty: not Google Benchmark's, or no
    /// memory figures (docs/gbench.md).
    std::optional<std::string> gbench_memory = std::nullopt;
    /// Results joined by `tare merge`: each input file's own context, in order (their own
    /// `merged_from` empty); empty for a file that was not merged.
    std::vector<run_context> merged_from = {};
};

/// One non-baseline member of a comparison group against the group's baseline. The memory
/// figures of both are their ordinary rows in run_results::benchmarks, found by name.
struct variant_comparison {
    std::string group;                      // "contexts"
    std::string name;                       // "contexts/64": the group and the shared arguments
    std::string baseline;                   // instance names: "ctx_reused/64"
    std::string member;                     // "ctx_fresh/64"
    std::size_t blocks = 0;                 // replicates: body calls of each member
    std::uint64_t samples_per_block = 0;    // measured samples of each call
    std::uint64_t iterations = 0;           // per sample, the same for every member
    std::vector<double> baseline_block_ns;  // per block: median per-iteration time of its samples
    std::vector<double> member_block_ns;
    /// The member's time against the baseline's, from the blocks' log-ratios, its interval at a
    /// Bonferroni-adjusted level (docs/variants.md); empty: fewer than 2 blocks, or a member failed.
    std::optional<paired_change> change;
    tare::verdict verdict = tare::verdict::no_change;
    /// Empty: time was compared, as above. Else what counted (--instrument): `change` is then the
    /// member's instructions against the baseline's, exact, and the block fields are empty.
    std::string instrument = {};
};

struct run_results {
    run_context context;
    std::vector<benchmark_result> benchmarks;
    std::vector<variant_comparison> comparisons;  // comparison groups; empty when none ran
};

}  // namespace tare
