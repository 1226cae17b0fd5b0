#pragma once
// Reading Google Benchmark JSON (as 1.7.1 writes it with --benchmark_format=json or
// --benchmark_out) into tare's result model, and telling it apart from tare/1 files.
//
// Mapping (docs in examples/gbench/README.md):
// - One result per GB `run_name`: its iteration rows (one per repetition) become samples, each
//   a repetition's per-iteration `real_time` in ns; tare's summary and interval come from them.
// - Aggregate rows (`run_type` "aggregate": mean, median, stddev, cv, custom) are kept as
//   counters `gb_<aggregate>` of that result; when a file holds aggregates only
//   (--benchmark_report_aggregates_only), mean/median/stddev fill the time summary.
// - `cpu_time` is kept as the counter `gb_cpu_time_ns`; every key GB does not define is a user
//   counter (GB flattens them into the row), NaN and infinities included.
// - Memory: `allocs_per_iter` as is; `max_bytes_used` is the peak heap; `total_allocated_bytes`
//   and `net_heap_growth` are divided by GB's memory-run length, min(16, iterations), for
//   bytes/iter and retained bytes/iter (multiply back for GB's raw totals). With repetitions,
//   the first repetition's memory run stands for all.
// - `error_occurred` becomes an error of kind "gbench_error"; `skipped` (GB >= 1.8) of kind
//   "skipped".
// Bare NaN, Infinity and -Infinity (which GB writes and JSON forbids) are accepted outside
// strings; error positions still point into the original text.
// The rows of `benchmarks` are read one at a time as the parser completes them, each kept in
// short (io/gbench_rows.hpp): no tree of the whole document is built, whichever of `context` and
// `benchmarks` comes first.

#include <string>
#include <variant>

#include "io/results_reader.hpp"
#include "model/run.hpp"

namespace tare::io {

/// Parses `text` (the contents of `origin`, used in messages) as Google Benchmark JSON.
std::variant<run_results, read_error> parse_gbench_results(const std::string& text,
                                                           const std::string& origin);

/// Reads a results file of either kind: "schema": "tare/1" goes to the tare reader; an object
/// with "context" and "benchmarks" and no "schema" is read as Google Benchmark JSON.
std::variant<run_results, read_error> read_any_results_file(const std::string& path);
/// The same for a text already read (`origin` names it in errors): a pipe is read only once.
std::variant<run_results, read_error> parse_any_results(const std::string& text, const std::string& origin);

/// Replaces GB's bare NaN / Infinity / -Infinity outside strings by same-length JSON strings
/// ("N", "I", "-I" padded with spaces), so every byte keeps its offset. Exposed for tests.
std::string quote_non_finite(const std::string& text);

}  // namespace tare::io
