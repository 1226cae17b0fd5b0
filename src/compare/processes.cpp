#include "compare/processes.hpp"

#include <algorithm>
#include <span>
#include <string>
#include <utility>

#include "core/variant_groups.hpp"
#include "stats/descriptive.hpp"
#include "stats/difference.hpp"
#include "stats/outliers.hpp"
#include "stats/summary.hpp"

namespace tare::compare {

namespace {

const benchmark_result* find_benchmark(const run_results& r, const std::string& name) {
    for (const benchmark_result& b : r.benchmarks) {
        if (b.name == name)
            return &b;
    }
    return nullptr;
}

// The total of a per-iteration figure over every process, over the total iterations; empty when
// a process has none (no accounting there: never half a figure).
std::optional<double> pooled_rate(const std::vector<const benchmark_result*>& of,
                                  std::optional<double> benchmark_result::*figure) {
    double total = 0;
    double iterations = 0;
    for (const benchmark_result* b : of) {
        if (!(b->*figure))
            return std::nullopt;
        total += *(b->*figure) * static_cast<double>(b->iterations);
        iterations += static_cast<double>(b->iterations);
    }
    if (!(iterations > 0))
        return std::nullopt;
    return total / iterations;
}

// bytes (or items) per second at the pooled mean time: what the body declared per iteration is
// the same in every process, so the first process's rate at its own mean gives it back.
std::optional<double> pooled_throughput(const benchmark_result& first, std::optional<double> per_second,
                                        double pooled_mean_ns) {
    if (!per_second || !(first.time.mean > 0) || !(pooled_mean_ns > 0))
        return std::nullopt;
    const double per_iteration = *per_second * first.time.mean / 1e9;
    return per_iteration * 1e9 / pooled_mean_ns;
}

// Counters: the mean over the processes that have each, in the first process's order.
std::vector<std::pair<std::string, double>> pooled_counters(const std::vector<const benchmark_result*>& of) {
    std::vector<std::pair<std::string, double>> out;
    for (const auto& [key, value] : of.front()->counters) {
        double sum = 0;
        std::size_t n = 0;
        for (const benchmark_result* b : of) {
            for (const auto& [k, v] : b->counters) {
                if (k == key) {
                    sum += v;
                    ++n;
                    break;
                }
            }
        }
        out.emplace_back(key, sum / static_cast<double>(n));
    }
    return out;
}

benchmark_result pool_benchmark(const std::string& name, const std::vector<run_results>& runs) {
    benchmark_result out;
    out.name = name;
    std::vector<const benchmark_result*> of;
    for (std::size_t p = 0; p < runs.size(); ++p) {
        const benchmark_result* b = find_benchmark(runs[p], name);
        const std::string which = "process " + std::to_string(p + 1) + " of " + std::to_string(runs.size());
        if (b == nullptr) {
            out.error = error_info{"not_run", which + " did not run it (the processes ran different suites)"};
            return out;
        }
        if (b->error) {
            out.error = error_info{b->error->kind, which + ": " + b->error->message};
            out.warnings = b->warnings;
            out.counters = b->counters;
            return out;
        }
        of.push_back(b);
    }

    out.sample_heap_measured = true;
    std::vector<double> process_means;
    for (const benchmark_result* b : of) {
        out.iterations += b->iterations;
        out.samples.append(b->samples);
        out.samples_ns.insert(out.samples_ns.end(), b->samples_ns.begin(), b->samples_ns.end());
        out.sample_heap_measured = out.sample_heap_measured && b->sample_heap_measured;
        out.processes.push_back({b->samples_ns.size(), stats::median(b->samples_ns)});
        process_means.push_back(b->time.mean);
        for (const warning& w : b->warnings) {
            const bool seen = std::any_of(out.warnings.begin(), out.warnings.end(),
                                          [&](const warning& x) { return x.kind == w.kind; });
            if (w.kind != "noisy" && !seen)  // noise is judged again on the pooled samples
                out.warnings.push_back(w);
        }
    }
    if (!out.sample_heap_measured) {
        // The heap columns are one per sample, all or none.
        for (std::size_t i = 0; i < out.samples.size(); ++i) {
            sample s = out.samples[i];
            s.live_bytes_end = 0;
            s.iterations_before = 0;
            out.samples.set(i, s);
        }
    }

    out.time = stats::summarize(out.samples_ns);
    out.time.mean = stats::mean(process_means);
    out.time.ci = stats::student_mean_interval(process_means);
    out.outliers = stats::classify_outliers(out.samples_ns);
    if (auto w = stats::noise_warning(out.time, out.outliers, out.samples_ns.size()))
        out.warnings.push_back(*w);

    out.allocs_per_iter = pooled_rate(of, &benchmark_result::allocs_per_iter);
    out.bytes_per_iter = pooled_rate(of, &benchmark_result::bytes_per_iter);
    out.page_faults_per_iter = pooled_rate(of, &benchmark_result::page_faults_per_iter);
    double retained = 0;
    bool all_retained = true;
    for (const benchmark_result* b : of) {
        if (b->peak_live_bytes)
            out.peak_live_bytes = std::max(out.peak_live_bytes.value_or(0), *b->peak_live_bytes);
        all_retained = all_retained && b->retained_bytes_per_iter.has_value();
        retained += b->retained_bytes_per_iter.value_or(0);
    }
    if (all_retained)
        out.retained_bytes_per_iter = retained / static_cast<double>(of.size());
    out.bytes_per_second = pooled_throughput(*of.front(), of.front()->bytes_per_second, out.time.mean);
    out.items_per_second = pooled_throughput(*of.front(), of.front()->items_per_second, out.time.mean);

    out.counters = pooled_counters(of);
    return out;
}

// The groups' blocks, the processes' one after the other. A group that did not compare in
// every process (a member failed there) keeps the blocks it has.
std::vector<variant_comparison> pool_comparisons(const std::vector<run_results>& runs) {
    std::vector<variant_comparison> out = runs.front().comparisons;
    for (variant_comparison& c : out) {
        c.baseline_block_ns.clear();
        c.member_block_ns.clear();
        c.blocks = 0;
        for (const run_results& r : runs) {
            for (const variant_comparison& x : r.comparisons) {
                if (x.name != c.name || x.baseline != c.baseline || x.member != c.member)
                    continue;
                const auto n = static_cast<std::ptrdiff_t>(
                    std::min({x.blocks, x.baseline_block_ns.size(), x.member_block_ns.size()}));
                c.baseline_block_ns.insert(c.baseline_block_ns.end(), x.baseline_block_ns.begin(),
                                           x.baseline_block_ns.begin() + n);
                c.member_block_ns.insert(c.member_block_ns.end(), x.member_block_ns.begin(),
                                         x.member_block_ns.begin() + n);
                c.blocks += static_cast<std::size_t>(n);
            }
        }
    }
    core::judge_comparisons(out);
    return out;
}

}  // namespace

run_results pool_processes(std::vector<run_results> runs) {
    if (runs.size() <= 1)
        return runs.empty() ? run_results{} : std::move(runs.front());
    run_results out;
    out.context = runs.front().context;
    out.context.processes = static_cast<std::uint32_t>(runs.size());
    for (const benchmark_result& b : runs.front().benchmarks)
        out.benchmarks.push_back(pool_benchmark(b.name, runs));
    out.comparisons = pool_comparisons(runs);
    return out;
}

}  // namespace tare::compare
