#include "compare/aggregate.hpp"
#include "stats/descriptive.hpp"
#include "stats/difference.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace tare::compare {

namespace {

double median_of(std::vector<double> xs) {
    std::sort(xs.begin(), xs.end());
    const std::size_t n = xs.size();
    return n % 2 == 1 ? xs[n / 2] : 0.5 * (xs[n / 2 - 1] + xs[n / 2]);
}

// The median per-iteration time of one side in one round; empty without samples.
std::optional<double> round_value(const side_round& r) {
    std::vector<double> per_iter;
    for (const tare::sample& s : r.samples) {
        if (s.iterations > 0) {
            per_iter.push_back(s.elapsed_ns / static_cast<double>(s.iterations));
        }
    }
    if (per_iter.empty()) {
        return std::nullopt;
    }
    return median_of(std::move(per_iter));
}

std::optional<double> per_iteration(const tare::sample& s) {
    if (s.iterations == 0 || !(s.elapsed_ns > 0) || !std::isfinite(s.elapsed_ns)) {
        return std::nullopt;
    }
    return s.elapsed_ns / static_cast<double>(s.iterations);
}

// One round's log-ratio log(head / base).
// Workers (`adjacent`): the median over the round's sample pairs of log(head_i / base_i). The
// i-th samples of the two sides are adjacent in time (blocks A B B A: pairs (A0, B0), (B1, A1)),
// so a change of the machine's speed that outlasts a pair hits both of its samples, and the
// median keeps the pair that straddles such a change from moving the round. Rejected: the ratio
// of the two sides' medians (what the round reported first) and the median of whole-block ratios:
// in A/A runs of bench/ab pinned to one CPU, the spread of the round's log-ratio was 4.0 % and
// 3.0 % for sort_2k against 3.1 % for the pair median, 4.4 % and 2.3 % against 2.1 % for
// parse_csv (bench/studies.md, "Where the noise is").
// Separate processes, one after the other (Google Benchmark): no sample has a partner in time,
// so the log of the ratio of the sides' medians.
std::optional<double> round_log_ratio(const side_round& base, const side_round& head, bool adjacent) {
    if (!adjacent) {
        auto b = round_value(base);
        auto h = round_value(head);
        if (!b || !h || !(*b > 0) || !(*h > 0)) {
            return std::nullopt;
        }
        return std::log(*h / *b);
    }
    std::vector<double> logs;
    const std::size_t n = std::min(base.samples.size(), head.samples.size());
    for (std::size_t i = 0; i < n; ++i) {
        auto b = per_iteration(base.samples[i]);
        auto h = per_iteration(head.samples[i]);
        if (b && h) {
            logs.push_back(std::log(*h / *b));
        }
    }
    if (logs.empty()) {
        return std::nullopt;
    }
    return median_of(std::move(logs));
}

void add_warnings(std::vector<warning>& into, const std::vector<warning>& from) {
    for (const warning& w : from) {
        // "noisy", "near_overhead" and "contended" judge one worker's handful of samples, which
        // says nothing about the comparison; the interval over rounds is the noise figure that
        // counts, and the rounds pair both sides' samples on one CPU.
        if (w.kind == "noisy" || w.kind == "near_overhead" || w.kind == "contended") {
            continue;
        }
        bool seen = std::any_of(into.begin(), into.end(), [&](const warning& x) { return x.kind == w.kind; });
        if (!seen) {
            into.push_back(w);
        }
    }
}

// One side's figures from all its rounds; `paired_rounds` marks the rounds that count for time.
// Memory as each round's own result reports it (Google Benchmark's memory run): the mean over
// rounds, the peak the highest.
void memory_from_results(const std::vector<side_round>& rounds, side_figures& f) {
    double allocs = 0;
    double bytes = 0;
    std::size_t n = 0;
    std::optional<std::int64_t> peak;
    for (const side_round& sr : rounds) {
        if (!sr.result || !sr.result->allocs_per_iter) {
            continue;
        }
        allocs += *sr.result->allocs_per_iter;
        bytes += sr.result->bytes_per_iter.value_or(0);
        ++n;
        if (sr.result->peak_live_bytes) {
            peak = std::max(peak.value_or(0), *sr.result->peak_live_bytes);
        }
    }
    f.page_faults_per_iter.reset();
    if (n > 0) {
        f.allocs_per_iter = allocs / static_cast<double>(n);
        f.bytes_per_iter = bytes / static_cast<double>(n);
        f.peak_live_bytes = peak;
    }
}

// A per-iteration figure as each round's own result reports it, weighted by the round's
// iterations: the worker counts it over the same samples it times. Empty unless every round that
// has a result has it.
std::optional<double> weighted_from_results(const std::vector<side_round>& rounds,
                                            std::optional<double> benchmark_result::*figure) {
    double total = 0;
    double iterations = 0;
    for (const side_round& sr : rounds) {
        if (!sr.result)
            continue;
        if (!((*sr.result).*figure))
            return std::nullopt;
        const auto n = static_cast<double>(sr.result->iterations);
        total += *((*sr.result).*figure) * n;
        iterations += n;
    }
    if (iterations > 0)
        return total / iterations;
    return std::nullopt;
}

// Copied and set bytes (tare::copies) and mapped bytes, from the rounds' own results.
void copies_from_results(const std::vector<side_round>& rounds, side_figures& f) {
    f.copied_bytes_per_iter = weighted_from_results(rounds, &benchmark_result::copied_bytes_per_iter);
    f.set_bytes_per_iter = weighted_from_results(rounds, &benchmark_result::set_bytes_per_iter);
    if (!f.copied_bytes_per_iter || !f.set_bytes_per_iter) {
        f.copied_bytes_per_iter.reset();
        f.set_bytes_per_iter.reset();
    }
    f.mapped_bytes_per_iter = weighted_from_results(rounds, &benchmark_result::mapped_bytes_per_iter);
}

side_figures side_from_rounds(const std::vector<side_round>& rounds, const std::vector<bool>& paired,
                              bool accounting, bool from_results) {
    side_figures f;
    std::uint64_t iterations = 0;
    std::uint64_t allocs = 0;
    std::uint64_t bytes = 0;
    std::uint64_t faults = 0;
    std::int64_t peak = 0;
    for (std::size_t r = 0; r < rounds.size(); ++r) {
        const side_round& sr = rounds[r];
        if (sr.error && !f.error) {
            f.error = error_info{sr.error->kind, "round " + std::to_string(r + 1) + ": " + sr.error->message};
        }
        if (sr.result) {
            add_warnings(f.warnings, sr.result->warnings);
        }
        for (const tare::sample& s : sr.samples) {
            iterations += s.iterations;
            allocs += s.allocs;
            bytes += s.bytes;
            faults += s.page_faults;
        }
        f.samples += sr.samples.size();
        peak = std::max(peak, sr.peak_live_bytes);
        if (r < paired.size() && paired[r]) {
            f.round_ns.push_back(*round_value(sr));
        }
    }
    f.iterations = iterations;
    if (!f.round_ns.empty()) {
        double sum = 0;
        for (double x : f.round_ns) {
            sum += x;
        }
        f.time_ns = sum / static_cast<double>(f.round_ns.size());
        f.time_ci = stats::student_mean_interval(f.round_ns);
    }
    if (from_results) {
        memory_from_results(rounds, f);
        return f;
    }
    if (iterations > 0) {
        const auto n = static_cast<double>(iterations);
        f.page_faults_per_iter = static_cast<double>(faults) / n;
        if (accounting) {
            f.allocs_per_iter = static_cast<double>(allocs) / n;
            f.bytes_per_iter = static_cast<double>(bytes) / n;
            f.peak_live_bytes = peak;
            copies_from_results(rounds, f);
        }
    }
    return f;
}

// The family's verdicts. m counts only the comparisons actually made (rows with a change).
// fwer: Bonferroni, every interval at 1 - alpha/m. fdr: Benjamini-Hochberg on each row's
// p-value of "the change lies in the band" (stats::band_p_value), R rows selected, and every
// interval at 1 - alpha R/m (1 - alpha/m when R = 0): Benjamini & Yekutieli's (2005) intervals
// for the selected, whose false-coverage rate is at most alpha. The same level for all rows
// keeps "no_change iff the interval includes 0 (or touches the band)" exact: a selected row
// has p <= alpha R/m, so its interval clears the band, and an unselected one has p > alpha R/m
// (BH's step-up fails for every k > R), so its interval does not.
// `change_of(i, level)` computes row i's change at that level; `has_values[i]` says whether
// row i has the replicates to compute one.
void judge_family(compare_results& out, const std::vector<bool>& has_values,
                  const std::function<std::optional<paired_change>(std::size_t, double)>& change_of,
                  const verdict_options& o) {
    std::vector<std::size_t> eligible;
    for (std::size_t i = 0; i < out.rows.size(); ++i) {
        compare_row& row = out.rows[i];
        if (row.base.error || row.head.error) {
            row.verdict = verdict::error;  // out of the family: nothing was measured to judge
        } else if (has_values[i]) {
            eligible.push_back(i);
        }
    }
    const double alpha = o.alpha > 0 && o.alpha < 1 ? o.alpha : 0.05;
    std::size_t selected = 0;
    if (o.family == family_control::fdr) {
        std::vector<double> p;
        for (std::size_t i : eligible) {
            const auto c = change_of(i, 0.95);  // any level: the p-value does not depend on it
            p.push_back(c ? stats::band_p_value(*c, o.threshold_pct) : 1.0);
        }
        selected = stats::benjamini_hochberg_count(p, alpha);
    }
    out.alpha = alpha;
    out.family = o.family;
    out.comparisons = eligible.size();
    out.selected = selected;
    const double level = interval_level(out);
    std::size_t verdicts = 0;
    for (std::size_t i : eligible) {
        compare_row& row = out.rows[i];
        row.change = change_of(i, level);
        row.verdict = row.change ? stats::judge(*row.change, o.threshold_pct) : verdict::no_change;
        verdicts += row.verdict != verdict::no_change ? 1 : 0;
    }
    if (o.family == family_control::fwer) {
        out.selected = verdicts;
    }
}

}  // namespace

compare_results aggregate_rounds(const rounds_data& data, const verdict_options& options) {
    compare_results out;
    out.mode = data.memory_from_results ? pairing::process_rounds : pairing::rounds;
    out.rounds = data.rounds;
    out.interrupted = data.interrupted;
    out.alpha = options.alpha;
    out.threshold_pct = options.threshold_pct;
    out.only_in_base = data.only_in_base;
    out.only_in_head = data.only_in_head;
    // Workers: the i-th samples of the two sides were taken next to each other in time.
    const bool adjacent = out.mode == pairing::rounds;
    std::vector<std::vector<double>> log_ratios;
    for (const benchmark_rounds& b : data.rows) {
        // A round counts for time when both sides measured in it.
        const std::size_t n = std::min(b.base.size(), b.head.size());
        std::vector<bool> paired(n, false);
        std::vector<double> logs;
        for (std::size_t r = 0; r < n; ++r) {
            auto x = round_log_ratio(b.base[r], b.head[r], adjacent);
            paired[r] = x.has_value() && round_value(b.base[r]) && round_value(b.head[r]);
            if (paired[r]) {
                logs.push_back(*x);
            }
        }
        compare_row row;
        row.name = b.name;
        if (!b.head_name.empty())
            row.head_name = b.head_name;
        row.base = side_from_rounds(b.base, paired, data.base_accounting, data.memory_from_results);
        row.head = side_from_rounds(b.head, paired, data.head_accounting, data.memory_from_results);
        // A side that never measured because the other failed first says so, rather than
        // showing a time of 0.
        for (auto [side, other] : {std::pair{&row.base, &row.head}, std::pair{&row.head, &row.base}}) {
            if (!side->error && side->samples == 0 && other->error) {
                side->error = error_info{"not_run", "not measured: the other side failed first"};
            }
        }
        log_ratios.push_back(std::move(logs));
        out.rows.push_back(std::move(row));
    }
    judge_rounds(out, log_ratios, options);
    return out;
}

void judge_rounds(compare_results& out, const std::vector<std::vector<double>>& log_ratios,
                  const verdict_options& options) {
    std::vector<bool> has_values;
    for (std::size_t i = 0; i < out.rows.size(); ++i) {
        has_values.push_back(i < log_ratios.size() && !log_ratios[i].empty());
    }
    judge_family(
        out, has_values,
        [&](std::size_t i, double level) { return stats::log_ratio_change(log_ratios[i], level); }, options);
}

void judge_stored(compare_results& out, const verdict_options& options) {
    std::vector<std::optional<paired_change>> stored;
    std::vector<bool> has_values;
    for (const compare_row& row : out.rows) {
        stored.push_back(row.change);
        has_values.push_back(row.change.has_value() && !row.unjudged);
    }
    judge_family(
        out, has_values,
        [&](std::size_t i, double level) { return std::optional(stats::at_level(*stored[i], level)); },
        options);
}

namespace {

// Each process's median per-iteration time, when the file recorded two or more (the unit of
// replication of a comparison of files); empty otherwise.
std::vector<double> process_medians(const benchmark_result& b) {
    std::vector<double> out;
    if (b.error || b.processes.size() < 2)
        return out;
    for (const process_figures& p : b.processes)
        out.push_back(p.median_ns);
    return out;
}

side_figures side_from_result(const benchmark_result& b) {
    side_figures f;
    f.error = b.error;
    add_warnings(f.warnings, b.warnings);
    if (b.error) {
        return f;
    }
    f.time_ns = b.time.mean;
    f.time_ci = b.time.ci;
    f.samples = b.samples_ns.size();
    f.iterations = b.iterations;
    f.allocs_per_iter = b.allocs_per_iter;
    f.bytes_per_iter = b.bytes_per_iter;
    f.peak_live_bytes = b.peak_live_bytes;
    f.page_faults_per_iter = b.page_faults_per_iter;
    f.copied_bytes_per_iter = b.copied_bytes_per_iter;
    f.set_bytes_per_iter = b.set_bytes_per_iter;
    f.mapped_bytes_per_iter = b.mapped_bytes_per_iter;
    f.round_ns = process_medians(b);
    if (!f.round_ns.empty()) {
        // The figure the change is computed from, as rounds mode shows its rounds'.
        f.time_ns = stats::mean(f.round_ns);
        f.time_ci = stats::student_mean_interval(f.round_ns);
    }
    return f;
}

// The change of a row that is not judged: the ratio of the sides' times, with no interval.
std::optional<paired_change> point_change(const side_figures& base, const side_figures& head) {
    if (base.error || head.error || !(base.time_ns > 0) || !(head.time_ns > 0) ||
        !std::isfinite(base.time_ns) || !std::isfinite(head.time_ns)) {
        return std::nullopt;
    }
    paired_change c;
    c.pairs = 1;
    c.mean_log_ratio = std::log(head.time_ns / base.time_ns);
    c.change_pct = 100 * std::expm1(c.mean_log_ratio);
    return c;
}

// Why a row of two files has no time verdict, or nothing when it has its replicates.
std::optional<std::string> unjudged_reason(const std::string& base_label, const benchmark_result& b,
                                           const std::string& head_label, const benchmark_result& h) {
    std::string which;
    int files = 0;
    for (const auto& [label, r] : {std::pair{&base_label, &b}, std::pair{&head_label, &h}}) {
        if (r->processes.size() < 2) {
            which += (which.empty() ? "" : " and ") + *label;
            ++files;
        }
    }
    if (which.empty())
        return std::nullopt;
    return which + (files == 2 ? " each hold" : " holds") +
           " one process, whose samples cannot show how much a fresh process varies; record both "
           "sides with tare run --processes=N (N >= 2; 5 is a good start)";
}

}  // namespace

compare_results compare_files(const run_results& base, const run_results& head,
                              const verdict_options& options, const std::string& base_label,
                              const std::string& head_label) {
    compare_results out;
    out.base_processes = base.context.processes;
    out.head_processes = head.context.processes;
    out.mode =
        base.context.processes >= 2 && head.context.processes >= 2 ? pairing::processes : pairing::unpaired;
    out.alpha = options.alpha;
    out.threshold_pct = options.threshold_pct;
    // Each side's rows by name (the first of a name, as a scan would find it): pairing is then
    // linear in the rows. Rejected: a scan of the other side for every row, quadratic.
    const auto index = [](const run_results& r) {
        std::unordered_map<std::string_view, const benchmark_result*> by_name;
        by_name.reserve(r.benchmarks.size());
        for (const auto& b : r.benchmarks) {
            by_name.emplace(b.name, &b);
        }
        return by_name;
    };
    const auto base_by_name = index(base);
    const auto head_by_name = index(head);
    const auto find = [](const auto& by_name, const std::string& name) -> const benchmark_result* {
        const auto it = by_name.find(name);
        return it == by_name.end() ? nullptr : it->second;
    };
    // Reserved for every row: a vector of a million rows grown by doubling held one and a half
    // times its rows while it moved them.
    out.rows.reserve(base.benchmarks.size());
    std::vector<std::vector<double>> base_values;
    std::vector<std::vector<double>> head_values;
    base_values.reserve(base.benchmarks.size());
    head_values.reserve(base.benchmarks.size());
    for (const benchmark_result& b : base.benchmarks) {
        const benchmark_result* h = find(head_by_name, b.name);
        if (h == nullptr) {
            out.only_in_base.push_back(b.name);
            continue;
        }
        compare_row row;
        row.name = b.name;
        row.base = side_from_result(b);
        row.head = side_from_result(*h);
        if (!b.error && !h->error)
            row.unjudged = unjudged_reason(base_label, b, head_label, *h);
        base_values.push_back(process_medians(b));
        head_values.push_back(process_medians(*h));
        out.rows.push_back(std::move(row));
    }
    for (const benchmark_result& h : head.benchmarks) {
        if (find(base_by_name, h.name) == nullptr) {
            out.only_in_head.push_back(h.name);
        }
    }
    std::vector<bool> has_values;
    for (std::size_t i = 0; i < base_values.size(); ++i) {
        has_values.push_back(!base_values[i].empty() && !head_values[i].empty());
    }
    judge_family(
        out, has_values,
        [&](std::size_t i, double level) {
            return stats::welch_log_change(base_values[i], head_values[i], level);
        },
        options);
    for (compare_row& row : out.rows) {
        if (row.unjudged)
            row.change = point_change(row.base, row.head);
    }
    return out;
}

bool has_regression(const compare_results& results, double pct) {
    return std::any_of(results.rows.begin(), results.rows.end(), [&](const compare_row& r) {
        return r.verdict == verdict::slower && r.change && r.change->change_pct > pct;
    });
}

}  // namespace tare::compare
