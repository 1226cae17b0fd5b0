#pragma once
// `tare merge` (docs/cli.md, "tare merge"): the results files of one suite's shards, run on
// several machines or at several times, joined into one, so that a later report, export or
// comparison sees the whole suite.

#include <string>
#include <variant>
#include <vector>

#include "model/comparison.hpp"
#include "model/run.hpp"

namespace tare::compare {

/// One input of a merge: the file's name (for messages) and what it holds.
struct merge_input {
    std::string path;
    run_results results;
};

/// Joins `inputs` in order: their benchmarks and comparison groups one file after the other, the
/// first file's context with `merged_from` holding every input's own context (host, date,
/// executable, accounting; an input that was itself merged gives its own inputs' contexts),
/// `interrupted` if any was, `accounting` only if every one had it, and `gbench_memory` "mixed"
/// where the files differ. Refused, with a message naming the files: fewer than two inputs, files
/// written by different tare versions or by differently named executables (other suites: `tare
/// run A B` runs several suites into one file), and a benchmark or comparison group in two files
/// (shards are disjoint, so an overlap is two runs of the same shard, or of different suites).
std::variant<run_results, std::string> merge_results(std::vector<merge_input> inputs);

/// One comparison to merge: the file's name and what it holds.
struct compare_merge_input {
    std::string path;
    compare_results results;
};

/// Joins the comparisons of one suite's shards (`tare compare --shard=K/N`) into one: their rows
/// and one-sided names in order, then every row judged again as one family (judge_stored), so
/// that the table's error rate is the whole suite's, not each shard's. The first file's context
/// (labels, host, date, pinning, layout); the most rounds any shard ran; interrupted if any
/// was. Refused, naming the files: fewer than two inputs, files of different tare versions, of
/// different modes, or judged under different rules (alpha, family control, threshold), and a
/// benchmark in two files. Files whose rows lack what their intervals are made of (log_se and df
/// of a change with an interval and spread) cannot be judged again and are refused too.
std::variant<compare_results, std::string> merge_comparisons(std::vector<compare_merge_input> inputs);

}  // namespace tare::compare
