#pragma once
// A history moved in and out (docs/history.md, "Moving a history"): each run's figures back as a
// run's results (so the exports of report/export/ write it under the names every service gets),
// and runs read from the files those services keep: tare's BMF dump (`tare history export
// --format=bmf`) and github-action-benchmark's data.js (its gh-pages branch's history).

#include <string>
#include <variant>
#include <vector>

#include "io/results_reader.hpp"
#include "model/history.hpp"
#include "model/run.hpp"

namespace tare::history {

/// `figures` (one run's, as figures_of() made them) as a run's results: one benchmark per name,
/// each figure in its field; the inverse of figures_of() for every figure it keeps.
run_results results_of(const std::vector<history_figure>& figures);

/// The measure a service's name stands for: tare's export slugs ("latency", "allocs-per-iter",
/// ...: docs/exports.md) as the history names them ("time_ns", "allocs_per_iter"); any other
/// name is a counter ("counter:NAME").
std::string measure_of_slug(const std::string& slug);

/// A run read from another service's file, with the figures it had.
struct imported_run {
    history_run run;
    std::string digest;  // of the run's own part of the file: the same run imported twice is kept once
    std::vector<history_figure> figures;
};

/// The runs of `text` (from `origin`): tare's BMF dump, a JSON array of {"commit", "branch",
/// "date", "results": BMF}; or github-action-benchmark's data.js (`window.BENCHMARK_DATA = {...}`)
/// or data.json, each entry of each suite a run (entries of one commit and date in several suites
/// are one run). Runs without a branch of their own get `branch`. Errors name the file, and the
/// line and column for JSON.
std::variant<std::vector<imported_run>, io::read_error> parse_import(const std::string& text,
                                                                     const std::string& origin,
                                                                     const std::string& branch);

}  // namespace tare::history
