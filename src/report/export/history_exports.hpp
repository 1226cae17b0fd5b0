#pragma once
// A history in the formats other services keep one (docs/history.md, "Moving a history"): each
// run's figures through the same exports as `tare export` (report/export/exports.hpp), so every
// measure has the name and unit a run's export gives it.

#include <string>
#include <vector>

#include "model/history.hpp"

namespace tare::report {

/// tare's BMF dump: a JSON array, oldest run first, of {"commit", "branch", "date", "results"},
/// `results` the run's Bencher Metric Format object. `tare history import` reads it back.
std::string render_history_bmf(const std::vector<history_run>& runs,
                               const std::vector<std::vector<history_figure>>& figures);

/// github-action-benchmark's data.js (`window.BENCHMARK_DATA = {...}`, as its gh-pages branch
/// keeps it): each run an entry of the suite `tare` (customSmallerIsBetter: time and memory), and
/// of `tare (bigger is better)` when it has throughput.
std::string render_history_gab_data(const std::vector<history_run>& runs,
                                    const std::vector<std::vector<history_figure>>& figures);

}  // namespace tare::report
