#include "core/variant_groups.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <set>
#include <span>
#include <utility>

#include "core/metrics.hpp"
#include "stats/descriptive.hpp"
#include "stats/difference.hpp"

namespace tare::core {

namespace {

std::string args_text(const std::vector<std::int64_t>& args) {
    std::string out;
    for (std::int64_t a : args) {
        out += "/" + std::to_string(a);
    }
    return out;
}

std::string arg_sets_text(const std::vector<const instance*>& instances) {
    if (instances.size() == 1 && instances.front()->args.empty()) {
        return "no arguments";
    }
    std::string out;
    for (const instance* i : instances) {
        std::string a = args_text(i->args);
        out += (out.empty() ? "" : ", ") + (a.empty() ? std::string("none") : a.substr(1));
    }
    return out;
}

std::string in_quotes(const std::string& s) {
    return "'" + s + "'";
}

// The per-iteration time of each sample of a call, skipping its first sample (the warm-up)
// whenever there is another.
std::vector<double> measured_ns(const detail::loop_outcome& call) {
    std::vector<double> out;
    const std::size_t first = call.samples.size() >= 2 ? 1 : 0;
    for (std::size_t i = first; i < call.samples.size(); ++i) {
        const sample& s = call.samples[i];
        out.push_back(s.elapsed_ns / static_cast<double>(std::max<std::uint64_t>(s.iterations, 1)));
    }
    return out;
}

// A member's ordinary row from all its calls' measured samples.
benchmark_result pooled_result(const std::string& name, const std::vector<detail::loop_outcome>& calls,
                               bool optimized_away, double loop_overhead_ns) {
    detail::loop_outcome pooled;
    pooled.accounting = calls.front().accounting;
    pooled.copies = calls.front().copies;
    pooled.mappings = calls.front().mappings;
    for (const detail::loop_outcome& call : calls) {
        const std::size_t first = call.samples.size() >= 2 ? 1 : 0;
        for (std::size_t i = 0; i < call.samples.size(); ++i) {
            (i < first ? pooled.warmup_iterations : pooled.total_iterations) += call.samples[i].iterations;
            if (i >= first) {
                pooled.samples.push_back(call.samples[i]);
            }
        }
        pooled.peak_live_bytes = std::max(pooled.peak_live_bytes, call.peak_live_bytes);
        if (call.stopped_early && !pooled.stopped_early) {
            pooled.stopped_early = call.stopped_early;
        }
    }
    pooled.bytes_per_iteration = calls.back().bytes_per_iteration;
    pooled.items_per_iteration = calls.back().items_per_iteration;
    pooled.counters = calls.back().counters;

    benchmark_result r;
    r.name = name;
    r.counters = pooled.counters;
    derive_time(pooled, r);
    derive_memory(pooled, r);
    // Retained growth from ONE call, the last (all calls have the same length), warm-up sample
    // included: the slope is of the live heap against iterations_before + iterations, and
    // iterations_before restarts at every call, with the live heap, since each call is a new
    // body call in a new accounting region. A slope over the pooled samples would mix the calls'
    // saw-tooth into one line.
    benchmark_result growth;
    derive_memory(calls.back(), growth);
    r.retained_bytes_per_iter = growth.retained_bytes_per_iter;
    const auto is_growth = [](const warning& w) { return w.kind == "retained_growth"; };
    r.warnings.erase(std::remove_if(r.warnings.begin(), r.warnings.end(), is_growth), r.warnings.end());
    std::copy_if(growth.warnings.begin(), growth.warnings.end(), std::back_inserter(r.warnings), is_growth);
    // The pooled samples' positions restart at every call: not one heap trace to draw or refit.
    r.sample_heap_measured = false;
    add_harness_warnings(optimized_away, loop_overhead_ns, r);
    return r;
}

benchmark_result error_result(const std::string& name, error_info error,
                              std::vector<std::pair<std::string, double>> counters = {}) {
    benchmark_result r;
    r.name = name;
    r.counters = std::move(counters);
    r.error = std::move(error);
    return r;
}

}  // namespace

resolved_variants resolve_variants(const std::vector<instance>& all,
                                   const std::vector<variant_group>& groups) {
    resolved_variants out;
    const auto fail = [&](std::string message) {
        out.instances.clear();
        out.error = std::move(message);
        return out;
    };
    std::map<std::string, std::vector<const instance*>> by_benchmark;
    for (const instance& i : all) {
        by_benchmark[i.bench->name()].push_back(&i);
    }
    std::map<std::string, std::string> group_of;  // member name -> group name
    std::set<std::string> group_names;
    for (const variant_group& g : groups) {
        const std::string where = "comparison group " + in_quotes(g.name);
        if (g.name.empty()) {
            return fail("a comparison group has an empty name (members: " +
                        (g.members.empty() ? std::string("none") : g.members.front()) + ", ...)");
        }
        if (!group_names.insert(g.name).second) {
            return fail(where + " is declared twice; group names must be unique");
        }
        if (g.members.size() < 2) {
            return fail(where + " has " + std::to_string(g.members.size()) +
                        " member(s); it needs a baseline and at least one benchmark to compare with it");
        }
        std::vector<const std::vector<const instance*>*> member_instances;
        for (const std::string& m : g.members) {
            auto it = by_benchmark.find(m);
            if (it == by_benchmark.end()) {
                return fail(where + ": no benchmark named " + in_quotes(m) +
                            " is registered (members are benchmark names, as TARE_BENCHMARK(fn) registers "
                            "them: the function's name, without arguments)");
            }
            auto [other, inserted] = group_of.emplace(m, g.name);
            if (!inserted) {
                return fail(other->second == g.name
                                ? where + " names " + in_quotes(m) + " twice"
                                : "benchmark " + in_quotes(m) + " is in comparison groups " +
                                      in_quotes(other->second) + " and " + in_quotes(g.name) +
                                      "; a benchmark belongs to one group at most");
            }
            member_instances.push_back(&it->second);
        }
        if (member_instances.size() < 2 || member_instances.front() == nullptr) {
            continue;  // refused above (fewer than two members); kept for the optimizer's sake
        }
        const std::vector<const instance*>& base = *member_instances.front();
        for (std::size_t k = 1; k < member_instances.size(); ++k) {
            const std::vector<const instance*>& other = *member_instances[k];
            bool same = other.size() == base.size();
            for (std::size_t j = 0; same && j < base.size(); ++j) {
                same = other[j]->args == base[j]->args;
            }
            if (!same) {
                return fail(where + ": members must have the same argument lists, to pair their instances; " +
                            in_quotes(g.members.front()) + " has " + arg_sets_text(base) + ", " +
                            in_quotes(g.members[k]) + " has " + arg_sets_text(other));
            }
        }
        for (std::size_t j = 0; j < base.size(); ++j) {
            group_instance gi;
            gi.group = g.name;
            gi.name = g.name + args_text(base[j]->args);
            // A comparison's name selects it (--filter, and --tare-exact in a child), so it must
            // not be a benchmark's name too.
            if (std::any_of(all.begin(), all.end(), [&](const instance& i) { return i.name == gi.name; })) {
                return fail(where + ": its comparison " + in_quotes(gi.name) +
                            " has the name of a benchmark instance; give the group another name");
            }
            for (const auto* members : member_instances) {
                gi.members.push_back(*(*members)[j]);
            }
            out.instances.push_back(std::move(gi));
        }
    }
    return out;
}

std::vector<run_unit> plan_units(const std::vector<instance>& all, const std::vector<group_instance>& groups,
                                 const name_filter& filter) {
    std::map<std::string, std::size_t> group_of;  // member instance name -> index into groups
    std::vector<bool> selected(groups.size(), false);
    for (std::size_t g = 0; g < groups.size(); ++g) {
        selected[g] = filter.matches(groups[g].name);
        for (const instance& m : groups[g].members) {
            group_of[m.name] = g;
            selected[g] = selected[g] || filter.matches(m.name);
        }
    }
    std::vector<run_unit> out;
    std::vector<bool> emitted(groups.size(), false);
    for (const instance& i : all) {
        auto it = group_of.find(i.name);
        if (it == group_of.end()) {
            if (filter.matches(i.name)) {
                out.push_back({i, std::nullopt});
            }
            continue;
        }
        const std::size_t g = it->second;
        if (selected[g] && !emitted[g]) {
            emitted[g] = true;
            out.push_back({instance{}, groups[g]});
        }
    }
    return out;
}

group_schedule schedule_group(std::uint64_t iterations, double ns_per_iteration,
                              const detail::sample_plan& plan) {
    group_schedule s;
    s.iterations = std::max<std::uint64_t>(iterations, 1);
    double allowed = static_cast<double>(plan.fixed_samples);
    if (plan.fixed_samples == 0) {
        const double sample_ns = static_cast<double>(s.iterations) * ns_per_iteration;
        allowed = sample_ns > 0 && std::isfinite(sample_ns) ? plan.budget_ns / sample_ns
                                                            : static_cast<double>(plan.max_samples);
        allowed = std::clamp(allowed, 1.0, static_cast<double>(plan.max_samples));
    }
    const auto total = static_cast<std::uint64_t>(std::llround(allowed));
    s.samples_per_block = std::clamp<std::uint64_t>(total / min_blocks, 1, max_samples_per_block);
    std::size_t blocks = static_cast<std::size_t>((total + s.samples_per_block - 1) / s.samples_per_block);
    blocks = std::clamp(blocks, min_blocks, max_blocks);
    s.blocks = blocks + blocks % 2;  // whole pairs of blocks: each member's mean position is the same
    return s;
}

group_schedule schedule_for_slowest(const group_schedule& current, double slowest_ns, double fastest_ns,
                                    const detail::sample_plan& plan) {
    if (!(slowest_ns > 0) || !std::isfinite(slowest_ns))
        return current;
    // The sample driver's target length of a sample, and the shortest it allows (a sample must
    // dwarf its two clock reads: docs/timing.md).
    const double floor_ns = detail::shortest_sample_ns(plan);
    const double target_ns = detail::target_sample_ns(plan);
    const double sample_ns = static_cast<double>(current.iterations) * slowest_ns;
    if (sample_ns <= max_group_budgets * target_ns)
        return current;
    // The slowest member's sample at the target length, but the fastest member's never below
    // the floor: its time would be mostly the clock's. Never more than the baseline's count.
    double wanted = target_ns / slowest_ns;
    if (fastest_ns > 0 && std::isfinite(fastest_ns))
        wanted = std::max(wanted, std::ceil(floor_ns / fastest_ns));
    const auto iterations =
        std::clamp<std::uint64_t>(static_cast<std::uint64_t>(wanted), 1, current.iterations);
    return schedule_group(iterations, slowest_ns, plan);
}

std::vector<std::size_t> block_order(std::size_t members, std::size_t block) {
    std::vector<std::size_t> order(members);
    for (std::size_t i = 0; i < members; ++i) {
        order[i] = block % 2 == 0 ? i : members - 1 - i;
    }
    return order;
}

namespace {

// A member's sites (--alloc-sites): one call of its own, one sample at the group's size, then
// the pass (sample_driver); in no figure of the comparison.
void locate_sites(const instance& member, std::uint64_t iterations, clock_source& clock, region_probe& probe,
                  const detail::sample_plan& plan, benchmark_result& row) {
    detail::sample_plan p = plan_for(*member.bench, plan);
    p.alloc_sites = true;
    p.fixed_iterations = iterations;
    p.fixed_samples = 1;
    detail::loop_outcome call =
        detail::sample_driver(clock, probe, p).run(member.name, member.args, member.bench->function());
    if (!call.error && call.accounting) {
        add_sites(call.sites, p.alloc_sites_top, row);
    }
}

/// The first member of a group whose call failed, with its error and counters.
struct member_failure {
    std::size_t member = 0;
    error_info error;
    std::vector<std::pair<std::string, double>> counters;
};

/// One call of group member `member` with `p`; its failure into `failed` (and no outcome).
std::optional<detail::loop_outcome> call_member(const group_instance& g, std::size_t member,
                                                clock_source& clock, region_probe& probe,
                                                const detail::sample_plan& p,
                                                std::optional<member_failure>& failed) {
    const instance& inst = g.members[member];
    detail::loop_outcome call =
        detail::sample_driver(clock, probe, p).run(inst.name, inst.args, inst.bench->function());
    if (call.error) {
        failed = member_failure{member, *call.error, call.counters};
        return std::nullopt;
    }
    return call;
}

/// True when some member's measured samples took more than `cap_ns` in all.
bool measured_beyond(const std::vector<std::vector<detail::loop_outcome>>& calls, double cap_ns) {
    for (const auto& member_calls : calls) {
        double measured = 0;
        for (const detail::loop_outcome& call : member_calls) {
            for (const sample& x : call.samples)
                measured += x.elapsed_ns;
        }
        if (measured > cap_ns)
            return true;
    }
    return false;
}

/// Each comparison's schedule and its two members' block medians, over the blocks both ran.
void fill_blocks(const group_schedule& schedule, const std::vector<std::vector<double>>& block_ns,
                 const std::optional<member_failure>& failed, std::vector<variant_comparison>& comparisons) {
    for (std::size_t k = 1; k <= comparisons.size(); ++k) {
        variant_comparison& c = comparisons[k - 1];
        c.samples_per_block = schedule.samples_per_block;
        c.iterations = schedule.iterations;
        if (failed && (failed->member == 0 || failed->member == k))
            continue;  // no change: one side has no figures
        c.blocks = std::min(block_ns[0].size(), block_ns[k].size());
        c.baseline_block_ns.assign(block_ns[0].begin(),
                                   block_ns[0].begin() + static_cast<std::ptrdiff_t>(c.blocks));
        c.member_block_ns.assign(block_ns[k].begin(),
                                 block_ns[k].begin() + static_cast<std::ptrdiff_t>(c.blocks));
    }
}

}  // namespace

// Long by design: the group's phases in the order they run (the baseline's calibration, the
// others', the blocks, the rows), which share the schedule, the calls and the first failure; each
// phase's own work is in the helpers above. Rejected: a class holding that state between member
// functions, which spread one reading of the schedule over six places.
group_outcome run_group(const group_instance& g, clock_source& clock, region_probe& probe,
                        detail::sample_plan plan, double loop_overhead_ns) {
    // The members' calls are blocks of the comparison: none of them ends in a sites pass. The
    // members that measured get one call of their own for it at the end (locate_sites).
    const bool sites = plan.alloc_sites;
    plan.alloc_sites = false;
    const std::size_t m = g.members.size();
    const instance& base = g.members.front();
    // The baseline's settings (->min_time, ->iterations, ->samples) govern the whole group:
    // every member must run the same schedule. Each member keeps its own ->input_chunk.
    const detail::sample_plan group_plan = plan_for(*base.bench, plan);

    group_outcome out;
    for (std::size_t k = 1; k < m; ++k) {
        variant_comparison c;
        c.group = g.group;
        c.name = g.name;
        c.baseline = base.name;
        c.member = g.members[k].name;
        out.comparisons.push_back(std::move(c));
    }

    // Calibration: the baseline's own calibration and warm-up, then a few samples of the size
    // it settled on, for its time per iteration. In no figure.
    detail::sample_plan calibration_plan = group_plan;
    calibration_plan.fixed_samples = calibration_samples;
    detail::loop_outcome calibration = detail::sample_driver(clock, probe, calibration_plan)
                                           .run(base.name, base.args, base.bench->function());
    if (calibration.error) {
        // Nothing to compare against; the other members still get their ordinary rows.
        out.members.push_back(error_result(base.name, *calibration.error, calibration.counters));
        for (std::size_t k = 1; k < m; ++k) {
            out.members.push_back(run_instance(g.members[k], clock, probe, plan, loop_overhead_ns));
        }
        return out;
    }
    const std::vector<double> calibration_ns = measured_ns(calibration);
    group_schedule schedule =
        schedule_group(calibration.samples.back().iterations, stats::median(calibration_ns), group_plan);
    const auto member_plan = [&](std::size_t k) {
        detail::sample_plan p = plan_for(*g.members[k].bench, plan);
        p.budget_ns = group_plan.budget_ns;
        return p;
    };

    // Every other member calibrates too (its own calibration and warm-up, then a few samples:
    // about a tenth of its budget, however slow it is). A member far slower than the baseline
    // would otherwise take its whole schedule at the baseline's sample size times the ratio (a
    // member 100x slower: 100 budgets), so the schedule is made for the slowest member: fewer
    // iterations per sample, every member alike, and the samples its budget allows.
    std::optional<member_failure> failed;
    double slowest_ns = stats::median(calibration_ns);
    double fastest_ns = slowest_ns;
    for (std::size_t k = 1; k < m && !failed; ++k) {
        detail::sample_plan p = member_plan(k);
        p.fixed_samples = calibration_samples;
        if (const auto probe_call = call_member(g, k, clock, probe, p, failed)) {
            const double ns = stats::median(measured_ns(*probe_call));
            slowest_ns = std::max(slowest_ns, ns);
            fastest_ns = std::min(fastest_ns, ns);
        }
    }
    if (!failed)
        schedule = schedule_for_slowest(schedule, slowest_ns, fastest_ns, group_plan);
    // Whatever the bodies do later (a body that slows down as it runs), the group stops after a
    // pair of blocks once a member's measured samples have taken max_group_budgets budgets and
    // min_blocks blocks ran, or max_group_budgets^2 budgets before that: a comparison needs its
    // replicates more than it needs the budget, but not at any price; two blocks still give a
    // change and its (wide) interval. Setup and warm-up are not counted: a fixture the body builds
    // per call is the body's business. --isolate with --timeout bounds the group in wall time.
    std::vector<std::vector<detail::loop_outcome>> calls(m);
    std::vector<std::vector<double>> block_ns(m);
    for (std::size_t b = 0; b < schedule.blocks && !failed; ++b) {
        const double budgets = b >= min_blocks ? max_group_budgets : max_group_budgets * max_group_budgets;
        if (b % 2 == 0 && b >= 2 && measured_beyond(calls, budgets * group_plan.budget_ns))
            break;
        for (std::size_t k : block_order(m, b)) {
            detail::sample_plan p = member_plan(k);
            p.fixed_iterations = schedule.iterations;
            p.fixed_samples = schedule.samples_per_block + 1;  // + the warm-up sample
            auto call = call_member(g, k, clock, probe, p, failed);
            if (!call)
                break;
            block_ns[k].push_back(stats::median(measured_ns(*call)));
            calls[k].push_back(std::move(*call));
        }
    }

    for (std::size_t k = 0; k < m; ++k) {
        const std::string& name = g.members[k].name;
        if (failed && failed->member == k) {
            out.members.push_back(error_result(name, failed->error, failed->counters));
        } else if (calls[k].empty()) {
            out.members.push_back(
                error_result(name, {"not_run", "not measured: " + in_quotes(g.members[failed->member].name) +
                                                   " of comparison group " + in_quotes(g.group) +
                                                   " failed before this member's first call"}));
        } else {
            out.members.push_back(
                pooled_result(name, calls[k], k == 0 && calibration.optimized_away, loop_overhead_ns));
            if (sites) {
                locate_sites(g.members[k], schedule.iterations, clock, probe, plan, out.members.back());
            }
        }
    }
    fill_blocks(schedule, block_ns, failed, out.comparisons);
    return out;
}

void judge_comparisons(std::vector<variant_comparison>& comparisons, double alpha) {
    std::vector<stats::paired_samples> rows;
    std::vector<variant_comparison*> judged;
    for (variant_comparison& c : comparisons) {
        c.change.reset();
        c.verdict = verdict::no_change;
        if (c.blocks >= 2) {
            rows.push_back(
                {std::span<const double>(c.baseline_block_ns), std::span<const double>(c.member_block_ns)});
            judged.push_back(&c);
        }
    }
    const auto changes = stats::family_changes(rows, alpha);
    for (std::size_t i = 0; i < judged.size(); ++i) {
        const auto& change = changes[i];
        if (!change || !change->interval_pct) {
            continue;
        }
        judged[i]->change = change;
        judged[i]->verdict = stats::judge(*change);
    }
}

bool run_units(const std::vector<run_unit>& units, unit_host& host, run_results& results) {
    bool any_failed = false;
    for (std::size_t done = 0; done < units.size(); ++done) {
        if (host.stopping())
            break;  // what finished is kept; the rest does not run
        const run_unit& unit = units[done];
        host.step_begins(unit, done, units.size());
        group_outcome out = host.run(unit);
        for (benchmark_result& r : out.members) {
            any_failed = any_failed || r.error.has_value();
            results.benchmarks.push_back(std::move(r));
        }
        std::move(out.comparisons.begin(), out.comparisons.end(), std::back_inserter(results.comparisons));
        host.step_ends(unit, done + 1, units.size());
    }
    return any_failed;
}

group_outcome run_unit_here(const run_unit& unit, clock_source& clock, region_probe& probe,
                            const detail::sample_plan& plan, double loop_overhead_ns) {
    if (unit.group)
        return run_group(*unit.group, clock, probe, plan, loop_overhead_ns);
    group_outcome out;
    out.members.push_back(run_instance(unit.single, clock, probe, plan, loop_overhead_ns));
    return out;
}

}  // namespace tare::core
