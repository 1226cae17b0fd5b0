#pragma once
// Comparison groups (tare::register_variants, docs/variants.md): checking the declared groups
// against the registered benchmarks, choosing what a run executes, and running a group's
// members interleaved so each member's time can be compared with the baseline's.
//
// How the members are interleaved, and why at this grain. A body's single call holds its loop
// open for all its samples (setup runs once: src/core/sample_driver.hpp), and allocation
// accounting has one region at a time (src/alloc/accounting.hpp). So the unit that can
// alternate is the body call:
// 1. Every member is calibrated once, by its own calibration and warm-up; the iterations per
//    sample the baseline settles on are then used for every member's every sample (equal work
//    per sample, so per-iteration times compare like with like), unless the slowest member's
//    samples would then be many times their target length: then the slowest member's count is
//    used (schedule_for_slowest), so a group stays within a few budgets per member.
// 2. Blocks: each member's body is called once per block, in an order that is reversed from one
//    block to the next (A B | B A | A B ..., for three members A B C | C B A), so over each pair
//    of blocks every member sits at the same mean position and a linear drift of the machine
//    (thermal, frequency, a neighbour's load) cancels instead of favouring whoever runs first.
//    A call measures a warm-up sample (dropped: it carries the cold caches of fresh setup) and
//    then a few samples of the fixed size.
// 3. The block is the replicate: per block and member the median per-iteration time of the
//    call's samples (the median, so one preempted sample does not move it); the log-ratios
//    member/baseline over the blocks give a Student t interval (stats::paired_log_change), with
//    Bonferroni over all the comparisons of the run (stats::family_changes) and the verdict of
//    stats::judge. Samples within a call are not independent replicates (they share the call's
//    setup, heap layout and moment), which is why the t test runs over blocks, not samples.
// At least 8 blocks (min_blocks) by default: below that the t quantile grows fast (t(0.975, 7)
// = 2.36 against 1.96) and a balanced pair count needs an even number anyway.
//
// Rejected:
// - interleaving sample by sample inside one process: two bodies' loops would have to be open
//   at once, and the accounting has one region (one set of counters) at a time; every member's
//   allocations would land in one tally.
// - one thread per member, each with its own loop: the accounting would need a region per
//   member (its tallies are per process), and the members would share cores and caches, so each
//   would measure the other's load.
// - one call of each member, compared sample by sample: one replicate; the samples of a call are
//   correlated, and the t interval over them would be far too narrow.
// - calling each member once per sample: setup per sample (a 256 MiB fixture rebuilt each time)
//   and no retained-growth figure, the reasons the driver runs one call per instance.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/probes.hpp"
#include "core/runner.hpp"
#include "core/sample_driver.hpp"
#include "model/run.hpp"
#include "tare/variants.hpp"

namespace tare::core {

/// One instance of a group: its members' instances that share one argument list.
struct group_instance {
    std::string group;              // "contexts"
    std::string name;               // "contexts/64"
    std::vector<instance> members;  // the baseline first, in declaration order
};

/// The groups checked against the registered instances, or why they cannot run.
struct resolved_variants {
    std::vector<group_instance> instances;  // in declaration, then argument order
    std::string error;                      // empty when every group is well formed
};

/// Checks `groups` against `all` (every instance, expanded): each group has at least two
/// members, each member is registered and named once in one group only, group names are
/// unique, and all members of a group have the same argument lists in the same order.
resolved_variants resolve_variants(const std::vector<instance>& all,
                                   const std::vector<variant_group>& groups);

/// One step of a run: a lone instance, or a group instance whose members run together.
struct run_unit {
    instance single;  // when `group` is empty
    std::optional<group_instance> group;

    const std::string& name() const noexcept { return group ? group->name : single.name; }
    /// The instances the step runs, in order: what --list prints.
    std::vector<instance> instances() const { return group ? group->members : std::vector<instance>{single}; }
};

/// The steps a run with `filter` executes, in registration order. A group instance runs whole
/// when `filter` matches its name ("contexts/64") or any of its members' names; it takes the
/// place of its first member to appear in `all`.
std::vector<run_unit> plan_units(const std::vector<instance>& all, const std::vector<group_instance>& groups,
                                 const name_filter& filter);

/// How a group instance is sampled.
struct group_schedule {
    std::uint64_t iterations = 1;         // per sample, for every member
    std::uint64_t samples_per_block = 1;  // measured samples of each call (after its warm-up sample)
    std::size_t blocks = 8;               // calls of each member
};

inline constexpr std::size_t min_blocks = 8;
inline constexpr std::size_t max_blocks = 64;
inline constexpr std::uint64_t max_samples_per_block = 5;
/// Measured samples of the baseline's calibration call: enough for a median time per iteration.
inline constexpr std::uint64_t calibration_samples = 3;

/// The schedule for a baseline calibrated to `iterations` per sample at `ns_per_iteration`:
/// the samples the member's budget allows (plan.budget_ns, or plan.fixed_samples when set) are
/// spread over at least min_blocks blocks (an even number, at most max_blocks) of at most
/// max_samples_per_block samples. A member slower than its budget still gets min_blocks
/// one-sample blocks: a comparison needs replicates more than it needs to meet the budget.
group_schedule schedule_group(std::uint64_t iterations, double ns_per_iteration,
                              const detail::sample_plan& plan);

/// The schedule once every member's time per iteration is known (`slowest_ns` and `fastest_ns`,
/// from their calibrations): the same iterations per sample while the slowest member's sample
/// stays within max_group_budgets times the sample driver's target length; else as many as give
/// it that length, but never so few that the fastest member's sample falls below the driver's
/// shortest (1,000 clock reads, 10 µs), and at least 1; blocks and samples per block from the
/// slowest member's time, so no member's share of the group exceeds its budget by much.
group_schedule schedule_for_slowest(const group_schedule& current, double slowest_ns, double fastest_ns,
                                    const detail::sample_plan& plan);

/// A group stops adding blocks once a member's measured samples took this many budgets (after
/// whole pairs of blocks, from min_blocks on; before them at its square, and never before two).
inline constexpr double max_group_budgets = 4;

/// The members' order in block `block`: forward in even blocks, reversed in odd ones.
std::vector<std::size_t> block_order(std::size_t members, std::size_t block);

/// What running a group instance produced.
struct group_outcome {
    std::vector<benchmark_result> members;        // in member order, ordinary rows
    std::vector<variant_comparison> comparisons;  // one per non-baseline member; not yet judged
};

/// Runs `g`'s members interleaved (see the header comment). Each member's row pools all its
/// measured samples; a member that fails ends the group's blocks and is an error row, and the
/// comparisons it is part of get no change.
group_outcome run_group(const group_instance& g, clock_source& clock, region_probe& probe,
                        detail::sample_plan plan, double loop_overhead_ns);

/// How a run's units are run and what is said around each: the benchmark executable's main
/// supplies it (each unit in this process, or in a child of its own with --isolate; progress
/// lines; its guards of exit() and of a body that does not return). Rejected: the loop in the
/// main itself (as it was), which left it a 250-line function that mixed flags, progress,
/// isolation and the guards with the order units run in.
class unit_host {
public:
    virtual ~unit_host() = default;
    /// True when the run stops before its next unit (an interrupt): what finished is kept.
    virtual bool stopping() = 0;
    /// Before `unit` starts, `done` of `total` units finished.
    virtual void step_begins(const run_unit& unit, std::size_t done, std::size_t total) = 0;
    /// Runs `unit`: its rows (a group's members, or the instance's one) and a group's comparisons.
    virtual group_outcome run(const run_unit& unit) = 0;
    /// After `unit`'s rows are in the results, `done` of `total` finished.
    virtual void step_ends(const run_unit& unit, std::size_t done, std::size_t total) = 0;
};

/// Runs `units` in order through `host`, appending every row and comparison to `results`, until
/// all ran or host.stopping(). True when any row is an error.
bool run_units(const std::vector<run_unit>& units, unit_host& host, run_results& results);

/// One unit in this process: a group's members interleaved (run_group), an instance alone
/// (run_instance).
group_outcome run_unit_here(const run_unit& unit, clock_source& clock, region_probe& probe,
                            const detail::sample_plan& plan, double loop_overhead_ns);

/// Sets change and verdict of every comparison with at least 2 blocks. The family is all of
/// them: Bonferroni at `alpha` over their count (stats::family_changes), so the chance that any
/// verdict of the run is a false "faster" or "slower" stays at most alpha.
void judge_comparisons(std::vector<variant_comparison>& comparisons, double alpha = 0.05);

}  // namespace tare::core
