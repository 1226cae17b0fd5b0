#pragma once
// Several fresh processes of one executable recorded as one results file (`tare run
// --processes=N`, docs/compare.md "Stored baselines"): the process is the unit of replication a
// later file-against-file comparison uses, as the round is for two executables.

#include <vector>

#include "model/run.hpp"

namespace tare::compare {

/// Pools `runs` (one per process, in the order they ran) into one run_results:
/// - each benchmark's samples are the processes' samples one after the other, and `processes`
///   says which are whose with each one's median per-iteration time;
/// - time: mean = the mean of the processes' means and its interval Student t over them (the
///   process is the replicate, so the interval carries process-to-process variation); median,
///   stddev, min, max, outliers and the noise warning are over the pooled samples;
/// - memory: allocations, bytes and page faults per iteration are the totals of every process
///   over the total iterations (exact, as in one process); the peak is the highest of any
///   process; retained growth the mean of the processes' slopes; warnings the union by kind;
/// - a benchmark that failed in any process is that failure ("process 3: ..."), with no figures;
///   one missing from a process is a failure too (the processes ran different suites);
/// - comparison groups pool their blocks, judged again over all of them.
/// The context is the first process's, with `processes` = runs.size().
run_results pool_processes(std::vector<run_results> runs);

}  // namespace tare::compare
