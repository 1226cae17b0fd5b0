#pragma once
// The result model of `tare compare`: what a comparison produces and its reporters consume.
// Plain data, no behaviour (as model/run.hpp), so the reporters stay pure functions of it
// and golden tests build it by hand.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/change.hpp"
#include "model/run.hpp"

namespace tare {

/// How the two sides' figures were obtained, which decides what the interval means.
enum class pairing {
    /// Both executables ran as workers, in `rounds` rounds of fresh processes; within a round
    /// their samples alternated in balanced order with equal iteration counts. The round is
    /// the unit of replication, so the interval carries process-to-process variation.
    rounds,
    /// Two Google Benchmark executables, in `rounds` rounds: per round and benchmark one fresh
    /// process of each side runs it alone, base first in even rounds and head first in odd
    /// ones; the process's repetitions are the samples. Each process calibrates its own
    /// iterations. The round is again the unit of replication.
    process_rounds,
    /// Two results files of which one (or both) holds one process: the samples inside one
    /// process cannot show how much a fresh process differs, so the rows have a change but no
    /// interval and no time verdict (compare_row::unjudged says why); memory is compared.
    unpaired,
    /// Two results files each recorded in several fresh processes (`tare run --processes=N`):
    /// the process is the unit of replication. The sides' processes are independent, so
    /// Welch's t on the logs of the processes' median times (docs/compare.md, "Stored baselines").
    processes,
    /// Both sides counted by an instrument (--instrument; docs/instructions.md): one fresh process
    /// per side and benchmark, each count exact. The change is the ratio of the instructions,
    /// without an interval; a change beyond a small floor (or --threshold) is a verdict.
    counted,
};

/// How the verdicts of one table share their error rate (docs/statistics.md, "Many rows").
enum class family_control {
    /// Benjamini-Hochberg at false-discovery rate alpha, with the matching false-coverage
    /// intervals of Benjamini & Yekutieli (2005): R of m rows selected, every interval at
    /// 1 - alpha R / m (1 - alpha / m when R = 0).
    fdr,
    /// Bonferroni at family-wise error rate alpha: every interval at 1 - alpha / m.
    fwer,
};

/// One side (base or head) of one benchmark.
struct side_figures {
    /// Per-iteration time, ns: in `rounds` mode the mean over rounds of each round's median
    /// sample, in `processes` mode the mean over processes of each one's median, in `unpaired`
    /// mode the file's mean.
    double time_ns = 0;
    /// 95 % interval of time_ns (Student t over rounds or processes, or the file's own
    /// interval); empty when it cannot be computed (one round, one sample).
    std::optional<tare::interval> time_ci;
    std::size_t samples = 0;       // measured samples, all rounds
    std::uint64_t iterations = 0;  // measured iterations, all rounds
    /// rounds modes: each round's median per-iteration time; processes: each process's.
    std::vector<double> round_ns;

    // Memory of the timed region; empty when that side had no accounting (never invented).
    std::optional<double> allocs_per_iter;
    std::optional<double> bytes_per_iter;
    std::optional<std::int64_t> peak_live_bytes;  // the highest over all rounds
    std::optional<double> page_faults_per_iter;
    /// Bytes through memcpy/memmove/mempcpy and memset per iteration; only when that side's
    /// executable links tare::copies (docs/accounting.md, "Bytes copied").
    std::optional<double> copied_bytes_per_iter;
    std::optional<double> set_bytes_per_iter;
    /// Bytes of anonymous mappings the timed region made per iteration; only where that side
    /// counted them (docs/accounting.md, "Direct mappings").
    std::optional<double> mapped_bytes_per_iter;

    /// pairing::counted: that side's counts (time_ns is then 0 and time_ci empty: not timed).
    boxed<instruction_counts> counts;
    /// pairing::counted with --profile: that side's instruction profile (docs/profiles.md).
    boxed<instruction_profile> profile;

    std::vector<warning> warnings;  // that side's findings (retained_growth, noisy, ...)
    boxed<error_info> error;        // the benchmark failed on this side: no figures
};

/// One function whose own instructions per iteration differ between the two sides of a counted
/// comparison with profiles (--profile; docs/profiles.md). 0 on a side where it ran none.
struct function_change {
    std::string function;
    double base = 0;
    double head = 0;
};

/// One allocation stack whose allocations per iteration differ between the two sides' sites
/// passes (--profile; docs/profiles.md): new on head (base 0), gone (head 0), or changed.
struct allocation_change {
    std::vector<stack_frame> stack;  // innermost first, as an allocation site's
    std::uint32_t thread = 0;        // 0: the benchmark's own thread
    double base_allocs = 0;
    double head_allocs = 0;
    double base_bytes = 0;
    double head_bytes = 0;
};

/// One benchmark present on both sides.
struct compare_row {
    std::string name;  // base's name
    /// Head's own name when `tare compare --rename` paired it under base's; none: the same.
    std::optional<std::string> head_name;
    side_figures base;
    side_figures head;
    /// Time of head against base with its interval at the family-adjusted level; empty when
    /// it cannot be computed (an error on a side, fewer than 2 rounds, a zero time).
    std::optional<paired_change> change;
    tare::verdict verdict = tare::verdict::no_change;
    /// Why time has no verdict although both sides measured (a file of one process): then
    /// `change` is the point estimate alone and `verdict` no_change; empty when judged.
    std::optional<std::string> unjudged;
    /// Both sides profiled: the functions whose own instructions changed most, by the size of
    /// the change; empty when none changed (or no profiles).
    std::vector<function_change> functions;
    /// Both sides with allocation stacks: those whose allocations changed, most first; a stack
    /// one side does not list counts 0 there only when that side listed every stack.
    std::vector<allocation_change> allocations;
};

struct compare_results {
    pairing mode = pairing::rounds;
    std::string base_label;  // as given on the command line
    std::string head_label;
    std::string tare_version;
    std::string host;
    std::string date;  // ISO-8601, UTC

    std::size_t rounds = 0;    // rounds modes: rounds run; files: 0
    bool interrupted = false;  // a SIGINT or SIGTERM ended it after `rounds` rounds
    /// Results files: the processes each file was recorded in (1: one process).
    std::uint32_t base_processes = 0;
    std::uint32_t head_processes = 0;
    std::vector<int> cpus;  // the CPUs every process of both sides ran on; empty: not pinned
    /// Both sides of each round started in one random address-space layout (--layout=matched);
    /// false: the kernel drew each process's own (or results files).
    bool matched_layouts = false;
    double threshold_pct = 0;  // practical-significance band (--threshold); 0 = none
    /// The family: `comparisons` rows with a change share `alpha` under `family`; `selected`
    /// of them have a verdict other than no_change; every interval is at interval_level()
    /// (docs/statistics.md, "Many rows").
    double alpha = 0.05;
    family_control family = family_control::fwer;
    std::size_t comparisons = 0;
    std::size_t selected = 0;

    std::vector<compare_row> rows;  // benchmarks on both sides, in base's order
    /// Two results files compared, or two executables counted: each side's own context (its host,
    /// date, executable, tare version, instrument); empty when the sides ran as workers.
    std::optional<run_context> base_context;
    std::optional<run_context> head_context;
    std::vector<std::string> only_in_base;
    std::vector<std::string> only_in_head;
    /// What differs in how the two sides were instrumented (kind "accounting", "copies",
    /// "region_hooks" or "counted"; the message names the side that has it); empty: alike. Then
    /// the time change measures the instrumentation too (docs/compare.md, "Mixed instrumentation").
    std::vector<warning> mixed_instrumentation;
    /// --allow-mixed-instrumentation: the rows were judged although the sides differ.
    bool mixed_instrumentation_allowed = false;
};

/// The level of every change interval of `r`: 1 - alpha/m (fwer), 1 - alpha max(R, 1)/m (fdr,
/// R = selected), m = comparisons.
inline double interval_level(const compare_results& r) {
    const auto m = static_cast<double>(r.comparisons > 0 ? r.comparisons : 1);
    const double share =
        r.family == family_control::fdr && r.selected > 0 ? static_cast<double>(r.selected) : 1.0;
    return 1 - r.alpha * share / m;
}

}  // namespace tare
