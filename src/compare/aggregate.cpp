#include "compare/aggregate.hpp"
#include "stats/descriptive.hpp"
#include "stats/difference.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <string>
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

// Why a row of two files has no time verdict, or nothing when it has its replicates: a side
// without an error has its processes' medians in round_ns when it holds two or more.
std::optional<std::string> unjudged_reason(const std::string& base_label, const side_figures& b,
                                           const std::string& head_label, const side_figures& h) {
    std::string which;
    int files = 0;
    for (const auto& [label, side] : {std::pair{&base_label, &b}, std::pair{&head_label, &h}}) {
        if (side->round_ns.empty()) {
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

compare_results compare_files(run_results base, run_results head, const verdict_options& options,
                              const std::string& base_label, const std::string& head_label) {
    file_comparison files(options, base_label, head_label);
    files.add_base(std::move(base));
    files.add_head(std::move(head));
    return std::move(files).finish();
}

file_comparison::file_comparison(const verdict_options& options, std::string base_label,
                                 std::string head_label)
    : options_(options), base_label_(std::move(base_label)), head_label_(std::move(head_label)) {}

void file_comparison::add_base(run_results base) {
    out_.base_processes = base.context.processes;
    // Reserved for every row: a vector of a million rows grown by doubling held one and a half
    // times its rows while it moved them.
    out_.rows.reserve(base.benchmarks.size());
    for (benchmark_result& b : base.benchmarks) {
        compare_row row;
        row.name = std::move(b.name);
        row.base = side_from_result(b);
        // Its heap goes back to the allocator now, for the rows still to be made.
        b = benchmark_result{};
        out_.rows.push_back(std::move(row));
    }
    paired_.assign(out_.rows.size(), false);
    by_name_.resize(out_.rows.size());
    std::iota(by_name_.begin(), by_name_.end(), std::size_t{0});
    // Pairing is then linear in head's rows times a binary search. Rejected: a scan of base for
    // every row of head, quadratic.
    std::sort(by_name_.begin(), by_name_.end(), [&](std::size_t x, std::size_t y) {
        const int order = out_.rows[x].name.compare(out_.rows[y].name);
        return order != 0 ? order < 0 : x < y;
    });
}

void file_comparison::add_head(run_results head) {
    out_.head_processes = head.context.processes;
    const auto before = [&](std::size_t i, const std::string& name) { return out_.rows[i].name < name; };
    for (benchmark_result& h : head.benchmarks) {
        const auto first = std::lower_bound(by_name_.begin(), by_name_.end(), h.name, before);
        if (first == by_name_.end() || out_.rows[*first].name != h.name) {
            out_.only_in_head.push_back(std::move(h.name));
        } else if (!paired_[*first]) {
            // Head's first of a name is base's pair; a second of it is neither paired nor only in head.
            const side_figures side = side_from_result(h);
            for (auto at = first; at != by_name_.end() && out_.rows[*at].name == h.name; ++at) {
                compare_row& row = out_.rows[*at];
                row.head = side;
                if (!row.base.error && !row.head.error) {
                    row.unjudged = unjudged_reason(base_label_, row.base, head_label_, row.head);
                }
                paired_[*at] = true;
            }
        }
        h = benchmark_result{};
    }
}

compare_results file_comparison::finish() && {
    by_name_ = {};
    compare_results out = std::move(out_);
    out.mode = out.base_processes >= 2 && out.head_processes >= 2 ? pairing::processes : pairing::unpaired;
    out.alpha = options_.alpha;
    out.threshold_pct = options_.threshold_pct;
    // Rows of base without a pair leave the rows for the list of names, in base's order.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < out.rows.size(); ++i) {
        if (!paired_[i]) {
            out.only_in_base.push_back(std::move(out.rows[i].name));
        } else if (kept++ != i) {
            out.rows[kept - 1] = std::move(out.rows[i]);
        }
    }
    out.rows.resize(kept);
    // A side's round_ns holds its processes' medians when it has two or more and no error: the
    // replicates the change is computed from.
    std::vector<bool> has_values;
    has_values.reserve(out.rows.size());
    for (const compare_row& row : out.rows) {
        has_values.push_back(!row.base.round_ns.empty() && !row.head.round_ns.empty());
    }
    judge_family(
        out, has_values,
        [&](std::size_t i, double level) {
            return stats::welch_log_change(out.rows[i].base.round_ns, out.rows[i].head.round_ns, level);
        },
        options_);
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
