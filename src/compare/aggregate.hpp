#pragma once
// From measured rounds (or two results files) to a compare_results: per-side figures, the
// change with its family-adjusted interval, and the verdict. Pure functions: unit-tested with
// hand-made rounds, and the same for every way of running the sides.

#include "compare/rounds.hpp"
#include "model/comparison.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace tare::compare {

struct verdict_options {
    double alpha = 0.05;  // error rate shared by all verdicts of the comparison
    family_control family = family_control::fdr;
    double threshold_pct = 0;  // practical-significance band (criterion's noise threshold)
};

/// Paired comparison over rounds. Each round gives one log-ratio: with workers, the median over
/// the round's adjacent sample pairs of log(head_i / base_i); with one process per side (Google
/// Benchmark), the log of the ratio of the sides' median samples. The change is the Student t
/// interval of the mean of those log-ratios over the rounds where both sides measured
/// (stats::log_ratio_change): fresh processes per round make
/// rounds independent replicates that carry process-to-process variation, which a test on the
/// samples inside one pair of processes would leave out (it made compare.py call 64 % of A/A
/// rows significant on these machines). Rejected: a two-level model pooling samples across
/// rounds with a random process effect — with 5-20 rounds its variance estimate is the same
/// information, with more assumptions. Memory figures are exact sums over every measured
/// sample: allocations and bytes over iterations, page faults likewise, peak the highest of any
/// round. Labels, host and date are the caller's.
compare_results aggregate_rounds(const rounds_data& data, const verdict_options& options);

/// The family step of aggregate_rounds on its own: row i's change from its per-round
/// log-ratios `log_ratios[i]` (empty: none) at the level `options.family` gives, and its
/// verdict; rows with an error on a side are left out of the family. Golden fixtures use it to
/// judge hand-made rounds exactly as the engine does.
void judge_rounds(compare_results& out, const std::vector<std::vector<double>>& log_ratios,
                  const verdict_options& options);

/// The family step on rows judged before, in other families (the shards of one comparison,
/// each judged on its own): every row with a change and no `unjudged` reason is one of the
/// family, its stored change remade at the family's level (stats::at_level, exact: the
/// interval is a function of the mean, log_se and df the row keeps) and judged again. With the
/// rows of one comparison it gives that comparison's intervals and verdicts back.
void judge_stored(compare_results& out, const verdict_options& options);

/// Comparison of two results files. When both were recorded in two or more processes
/// (pairing::processes), each row's change is stats::welch_log_change on the processes' median
/// times, its side figures the mean and Student t interval over them, with the same family
/// control over the rows that have one. Otherwise (pairing::unpaired), and for any row a
/// side of which holds one process, there is no time verdict: the samples inside one process
/// leave out how much a fresh one differs (A/A files of one process each came out "faster" or
/// "slower" in 7 of 12 rows), so the row has the ratio of the sides' times without an interval
/// and compare_row::unjudged says why, naming the file by its label. Memory is each side's
/// figure as its file has it.
compare_results compare_files(run_results base, run_results head, const verdict_options& options,
                              const std::string& base_label, const std::string& head_label);

/// compare_files a side at a time, so that the two files' models are never in memory together:
/// add_base makes base's rows the comparison's rows, taking each row's figures and releasing
/// the model with its argument; add_head fills in the head side of the rows it pairs, the same
/// way; finish judges them. Each is called once, in that order. `tare compare A.json B.json`
/// reads head only once base is added, so its peak is the comparison's rows and one file's
/// model; with both models and the rows at once it was 4.5 times the two files at a million
/// rows (bench/README.md, "Tables of a million rows").
class file_comparison {
public:
    file_comparison(const verdict_options& options, std::string base_label, std::string head_label);
    void add_base(run_results base);
    void add_head(run_results head);
    compare_results finish() &&;

private:
    verdict_options options_;
    std::string base_label_;
    std::string head_label_;
    compare_results out_;
    /// Base's rows by name (their indices, sorted by name and then by index): a name base holds
    /// twice pairs each of its rows with head's first of it, as a scan would. Rejected: a hash map
    /// of the names, a node and a bucket a name beside this one's 8 bytes.
    std::vector<std::size_t> by_name_;
    std::vector<bool> paired_;
};

/// The exit status asked for by --fail-on-regression=PCT: true when some row is "slower" with
/// a change above `pct`.
bool has_regression(const compare_results& results, double pct);

}  // namespace tare::compare
