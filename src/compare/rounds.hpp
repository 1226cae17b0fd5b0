#pragma once
// Rounds of paired measurement: what `tare compare BASE HEAD` measures before any statistics.
// The data model is shared by every way of running the two sides (tare workers here; Google
// Benchmark executables slot in by producing the same rounds_data), and aggregate.hpp turns it
// into a compare_results.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "compare/pairing.hpp"
#include "compare/worker_process.hpp"
#include "core/runner.hpp"
#include "core/shard.hpp"
#include "model/run.hpp"

namespace tare::compare {

/// What one side measured of one benchmark in one round (one process).
struct side_round {
    std::vector<tare::sample> samples;         // measured samples, in the order taken
    std::int64_t peak_live_bytes = 0;          // highest live heap of the region in this round
    std::optional<benchmark_result> result;    // the side's own result (warnings, memory figures)
    std::optional<error_info> error;           // the benchmark failed in this round
    std::optional<std::string> gbench_memory;  // run_context::gbench_memory of its process
};

struct benchmark_rounds {
    std::string name;              // base's name
    std::vector<side_round> base;  // one entry per round in which it ran
    std::vector<side_round> head;
    std::string head_name = {};  // head's own, when --rename paired it under base's; empty: the same
};

struct rounds_data {
    std::size_t rounds = 0;    // rounds run
    bool interrupted = false;  // a SIGINT or SIGTERM ended it before all rounds ran
    bool base_accounting = false;
    bool head_accounting = false;
    /// Memory figures are in each round's `result`, not in the samples (Google Benchmark: its
    /// separate memory run): averaged over rounds, peak the highest.
    bool memory_from_results = false;
    /// Google Benchmark executables: what measured their memory figures, as
    /// run_context::gbench_memory ("region", "memory_run", "mixed"; empty: nothing).
    std::optional<std::string> gbench_memory;
    std::vector<benchmark_rounds> rows;  // in base's order
    std::vector<std::string> only_in_base;
    std::vector<std::string> only_in_head;
};

struct rounds_options {
    std::string base;  // executables
    std::string head;
    /// What both sides are: tare executables, or Google Benchmark ones that serve as workers
    /// (tare::gbench linked; cli::gbench_worker_capable).
    worker_kind kind = worker_kind::tare;
    std::size_t rounds = 20;
    /// Measured time per benchmark and side over all rounds, seconds; spread evenly over the
    /// rounds and the samples of each round.
    double min_time = 1.0;
    /// Samples per side in each round: workers take at most this many, in ABBA blocks (so
    /// rounded up to an even number); Google Benchmark processes run this many repetitions.
    /// `tare compare` sets 40 for workers and 4 for Google Benchmark (its --samples).
    std::size_t samples_per_round = 40;
    /// Google Benchmark workers that answer `run_sized`: each benchmark is calibrated in the
    /// first round only, and later rounds' workers start it at that size after a warm-up
    /// (docs/compare.md, "Budget").
    bool carry_size = false;
    core::name_filter filter;          // every name by default
    head_renames renames;              // --rename: head's names as base calls them; before the filter
    std::optional<core::shard> shard;  // with a value, only the names in it (both sides alike)
    double timeout_seconds = 60;       // the longest wait for any one reply of a worker
    /// Every process of both sides runs on these CPUs alone; empty: wherever the system puts
    /// it. One CPU for both sides is the default of `tare compare` (docs/compare.md, "Pinning").
    std::vector<int> cpus;
    /// With a value, the two sides' processes of each round start in one address-space layout
    /// drawn from this seed and the round (src/os/layout.hpp), each round in another; none: the
    /// kernel draws every process's layout alone. `tare compare --layout=matched` (the default).
    std::optional<std::uint64_t> layout_seed;
    /// Called before each benchmark of each round: the round (from 0) of `rounds`, the row
    /// (from 0) of `rows` and its name; may be empty.
    std::function<void(std::size_t round, std::size_t rounds, std::size_t row, std::size_t rows,
                       const std::string& name)>
        progress;
};

/// The layout seed of round `round` (and, for one process a benchmark, of row `row`): both
/// sides get the same, every round another; none when `o` has no layout seed.
std::optional<std::uint64_t> round_layout_seed(const rounds_options& o, std::size_t round,
                                               std::size_t row = 0);

/// A failure that ends the whole comparison (a side cannot be started, or has no benchmarks).
struct rounds_failure {
    int status = 3;  // exit status (docs/cli.md)
    std::string message;
};

/// The rounds: in each, fresh worker processes of both sides (which starts first alternates
/// by round); per benchmark, both calibrate (with carry_size, in the first round only), one
/// iteration count is chosen for both, and samples alternate in balanced blocks (ABBA, then
/// BAAB). A benchmark that crashes or hangs on a side becomes that side's error for the
/// benchmark (the worker is restarted for the next one, and the benchmark is not retried in
/// later rounds); the others still run.
std::variant<rounds_data, rounds_failure> run_rounds(const rounds_options& options);

/// One executable measured alone through its worker mode: `tare run` of a Google Benchmark suite
/// with tare::gbench linked, which it then samples as it samples a tare executable's benchmarks
/// (docs/gbench.md, "tare run").
struct alone_options {
    std::string executable;
    worker_kind kind = worker_kind::gbench;
    std::vector<std::string> names;  // the benchmarks to run, in order
    /// Measured time per benchmark, seconds: about a hundred samples share it, each at least
    /// `shortest_sample_s`; a tenth more warms the benchmark up first.
    double min_time = 0.5;
    /// The shortest sample: a Google Benchmark sample is a run of its own, whose setup (State,
    /// threads, the reporter) must stay a small part of it.
    double shortest_sample_s = 1e-3;
    double timeout_seconds = 60;      // the longest wait for any one reply (a benchmark's setup included)
    bool fresh_process_each = false;  // --isolate: every benchmark in a worker process of its own
    /// A Google Benchmark suite's sites pass after each benchmark's samples (--alloc-sites=N,
    /// --profile): the top N.
    std::optional<std::size_t> sites_top;
    /// Called before each benchmark: its index (from 0) of `names.size()` and its name; may be empty.
    std::function<void(std::size_t row, std::size_t rows, const std::string& name)> progress;
};

struct alone_data {
    std::vector<benchmark_result> rows;  // in the order of `names`; one that failed is an error row
    std::optional<run_context> context;  // the context of the worker's first result, if any came
    bool accounting = false;             // the worker's greeting said accounting is on
    bool interrupted = false;            // a SIGINT, SIGTERM or SIGHUP stopped it: later names did not run
};

/// Runs every name of `o` in the executable's worker: calibrated to a sample of min_time / 100
/// (at least shortest_sample_s), warmed up, then samples until min_time is measured and at least
/// 10 are taken (at most 3 when 5 times min_time is spent first; at most 10,000). A benchmark that
/// crashes or hangs becomes an error row of that kind and the worker starts again for the next.
/// A failure only when the worker cannot be started.
std::variant<alone_data, rounds_failure> run_alone(const alone_options& o);

/// Whether `name` is selected by `o`'s filter and shard.
bool selected(const rounds_options& o, const std::string& name);

/// Sorts two sides' selected benchmark names (head's renamed by o.renames, the filter and shard
/// applied to the names they are paired by) into data.rows (on both sides, in base's order) and
/// data.only_in_base / only_in_head; or why they cannot be paired (shared by every way of running
/// the sides).
std::optional<std::string> pair_names(const rounds_options& o, std::vector<std::string> base,
                                      std::vector<std::string> head, rounds_data& data);

/// The name `row` has on side `head_side` (false: base).
inline const std::string& side_name(const benchmark_rounds& row, bool head_side) {
    return head_side && !row.head_name.empty() ? row.head_name : row.name;
}

/// The order of sides in block `block` of a round whose first side is `first`: 0 = first
/// side, 1 = second. ABBA for even blocks, BAAB for odd ones, so a linear drift inside a pair
/// of blocks hits both sides equally (exposed for tests).
std::vector<int> block_order(std::size_t block);

}  // namespace tare::compare
