#pragma once
// The worker protocol between `tare compare` (the controller, compare/worker_process.cpp) and a
// benchmark executable serving as its worker: a tare benchmark executable started with
// `--tare-worker` (main/bench_worker.cpp), or a Google Benchmark executable with tare::gbench linked
// started with TARE_GBENCH_WORKER=1 (adapters/gbench/worker.cpp); docs/compare.md, "Worker
// protocol". Text lines over a pipe pair on descriptors 3 (worker reads) and 4 (worker writes);
// the worker's own standard output is /dev/null, so a benchmark that prints cannot corrupt the
// channel. Every message is made and read here, once, for both sides: a word changed on one
// side and not the other cannot compile into a worker that never answers.
//
//   worker:     tare-worker 1 accounting=<0|1>          once, at start          hello()
//   controller: list                                    the benchmarks it has   list
//   worker:     names <n>, then n lines of names                                names()
//   controller: run <sample_ns> <warmup_ns> <name>     start a benchmark's body run()
//   controller: run_sized <iterations> <warmup_ns> <name>                       run_sized()
//                                                       start it at a known size: warm up, no
//                                                       calibration (Google Benchmark workers)
//   worker:     calibrated <iterations>                 warm-up done; waits     calibrated()
//   controller: sample <iterations>                     measure one sample      sample_request()
//   worker:     sample <iterations> <elapsed_ns> <allocs> <bytes> <faults> <live_end> <peak>
//                                                                               format_sample()
//   controller: stop                                    end the loop; teardown  stop
//   worker:     result <n>\n<n bytes of tare/1 JSON>    the benchmark's own     result()
//                                                       result (also sent instead of any reply
//                                                       when the body ends early: error, skip,
//                                                       cap reached)
//   controller: quit (or end of file)                   the worker exits 0      quit
//
// Why lines over pipes and not shared memory: a sample is milliseconds long, so a few
// microseconds of pipe latency between samples cost nothing, while a crashed worker shows up
// as end of file instead of a stale flag. Why the worker runs its own calibration: the
// controller then picks one size for both sides (same iterations per sample on both), which a
// worker-chosen schedule could not guarantee. A Google Benchmark worker's calibration is runs of
// the benchmark function, setup and all, so the controller keeps the first round's size and
// starts later rounds' workers at it (run_sized; compare/rounds.cpp says why).

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/run.hpp"

namespace tare::protocol {

inline constexpr int version = 1;
/// The benchmark executable's flag that starts worker mode (hidden from --help).
inline constexpr std::string_view worker_flag = "--tare-worker";
/// The environment variable (set to 1) that starts a Google Benchmark executable's worker mode
/// (src/adapters/gbench/worker.cpp).
inline constexpr std::string_view gbench_worker_env = "TARE_GBENCH_WORKER";
/// The environment variable that asks a Google Benchmark executable's worker for a sites pass
/// after each benchmark's samples (--alloc-sites=N, or --profile): the top N, a number.
inline constexpr std::string_view gbench_sites_env = "TARE_GBENCH_SITES";
/// Words only a Google Benchmark executable that can serve as a worker holds in its binary.
inline constexpr std::string_view gbench_worker_marker = "tare gbench worker: protocol 1";
/// Words a Google Benchmark worker that answers `run_sized` holds in its binary: the controller
/// sends it only when both sides have them, so a suite built with an older tare::gbench is still
/// driven, calibrating every round as before.
inline constexpr std::string_view gbench_sized_marker = "tare gbench worker: run_sized";

/// `text` as a literal inside Google Benchmark's --benchmark_filter, which is a POSIX extended
/// expression (std::regex::extended): its special characters escaped, but not ']' and '}', whose
/// escapes are errors there (a lone ']' or '}' is ordinary). Shared by the controller's exact
/// filters (compare::exact_regex) and the Google Benchmark worker, which links no tool code.
inline std::string gbench_literal(std::string_view text) {
    std::string r;
    for (char c : text) {
        if (std::string_view("\\^$.|?*+()[{").find(c) != std::string_view::npos) {
            r += '\\';
        }
        r += c;
    }
    return r;
}

/// One measured sample as the worker reports it.
struct sample_report {
    tare::sample sample;
    std::int64_t peak_live_bytes = 0;
};

inline std::string format_sample(const tare::sample& s, std::int64_t peak) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "sample %llu %.17g %llu %llu %llu %lld %lld\n",
                  static_cast<unsigned long long>(s.iterations), s.elapsed_ns,
                  static_cast<unsigned long long>(s.allocs), static_cast<unsigned long long>(s.bytes),
                  static_cast<unsigned long long>(s.page_faults), static_cast<long long>(s.live_bytes_end),
                  static_cast<long long>(peak));
    return buf;
}

inline std::optional<sample_report> parse_sample(const std::string& line) {
    unsigned long long it = 0;
    unsigned long long allocs = 0;
    unsigned long long bytes = 0;
    unsigned long long faults = 0;
    long long live = 0;
    long long peak = 0;
    double elapsed = 0;
    int used = 0;
    if (std::sscanf(line.c_str(), "sample %llu %lg %llu %llu %llu %lld %lld%n", &it, &elapsed, &allocs,
                    &bytes, &faults, &live, &peak, &used) != 7 ||
        static_cast<std::size_t>(used) != line.size()) {
        return std::nullopt;
    }
    sample_report r;
    r.sample.iterations = it;
    r.sample.elapsed_ns = elapsed;
    r.sample.allocs = allocs;
    r.sample.bytes = bytes;
    r.sample.page_faults = faults;
    r.sample.live_bytes_end = live;
    r.peak_live_bytes = peak;
    return r;
}

/// The unsigned number after `prefix` in `line` ("calibrated 1000"), if the line is exactly that.
inline std::optional<std::uint64_t> parse_count(std::string_view line, std::string_view prefix) {
    if (line.substr(0, prefix.size()) != prefix) {
        return std::nullopt;
    }
    line.remove_prefix(prefix.size());
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), v);
    if (ec != std::errc{} || end != line.data() + line.size()) {
        return std::nullopt;
    }
    return v;
}

/// The words the controller sends alone on a line (the line's text, without its newline).
inline constexpr std::string_view list = "list";
inline constexpr std::string_view stop = "stop";
inline constexpr std::string_view quit = "quit";

/// `word` as the line that carries it.
inline std::string line(std::string_view word) {
    return std::string(word) + "\n";
}

/// The worker's first line: the protocol's version and whether it counts allocations.
inline std::string hello(bool accounting) {
    return "tare-worker " + std::to_string(version) + " accounting=" + (accounting ? "1" : "0") + "\n";
}

/// Whether the worker that sent `line` counts allocations; nullopt when `line` is not the
/// greeting of this version of the protocol.
inline std::optional<bool> parse_hello(std::string_view line) {
    const std::string expected = "tare-worker " + std::to_string(version) + " accounting=";
    if (line.substr(0, expected.size()) != expected)
        return std::nullopt;
    return line.substr(expected.size()) == "1";
}

/// The answer to `list`: the count, then a line per name.
inline std::string names(const std::vector<std::string>& all) {
    std::string text = "names " + std::to_string(all.size()) + "\n";
    for (const std::string& n : all)
        text += n + "\n";
    return text;
}

/// The count of the names that follow a `names` line.
inline std::optional<std::uint64_t> parse_names(std::string_view line) {
    return parse_count(line, "names ");
}

/// `run`: start the benchmark `name`, calibrated to samples of `sample_ns`, warmed up for
/// `warmup_ns` in all.
struct run_request {
    double sample_ns = 0;
    double warmup_ns = 0;
    std::string name;
};

inline std::string run(const run_request& r) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "run %.17g %.17g ", r.sample_ns, r.warmup_ns);
    return buf + r.name + "\n";
}

/// A `run` line; nullopt for anything else, a sample size that is not positive or a negative
/// warm-up. The name is the rest of the line, spaces and all.
inline std::optional<run_request> parse_run(const std::string& line) {
    run_request r;
    int used = 0;
    if (std::sscanf(line.c_str(), "run %lg %lg %n", &r.sample_ns, &r.warmup_ns, &used) != 2 || used <= 0 ||
        !(r.sample_ns > 0) || !(r.warmup_ns >= 0)) {
        return std::nullopt;
    }
    r.name = line.substr(static_cast<std::size_t>(used));
    return r;
}

/// `run_sized`: start the benchmark `name` at a size the controller already holds (a Google
/// Benchmark worker's, from the first round's calibration), warmed up for `warmup_ns` in all.
struct sized_request {
    std::uint64_t iterations = 0;
    double warmup_ns = 0;
    std::string name;
};

inline std::string run_sized(const sized_request& r) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "run_sized %llu %.17g ", static_cast<unsigned long long>(r.iterations),
                  r.warmup_ns);
    return buf + r.name + "\n";
}

/// A `run_sized` line; nullopt for anything else, no iterations, or a warm-up that is negative
/// or not finite. The count is read as parse_count() reads one (from_chars: no sign, no wrap);
/// the name is the rest of the line.
inline std::optional<sized_request> parse_run_sized(const std::string& line) {
    constexpr std::string_view prefix = "run_sized ";
    const std::string_view rest = std::string_view(line).substr(std::min(line.size(), prefix.size()));
    const std::size_t space = rest.find(' ');
    if (line.compare(0, prefix.size(), prefix) != 0 || space == std::string_view::npos) {
        return std::nullopt;
    }
    sized_request r;
    const auto count = parse_count(rest.substr(0, space), "");
    int used = 0;
    const std::string tail(rest.substr(space + 1));
    if (!count || *count == 0 || std::sscanf(tail.c_str(), "%lg %n", &r.warmup_ns, &used) != 1 || used <= 0 ||
        !std::isfinite(r.warmup_ns) || r.warmup_ns < 0) {
        return std::nullopt;
    }
    r.iterations = *count;
    r.name = tail.substr(static_cast<std::size_t>(used));
    return r;
}

/// The worker's answer to `run` once warmed up: the iterations of a sample of the time asked.
inline std::string calibrated(std::uint64_t iterations) {
    return "calibrated " + std::to_string(iterations) + "\n";
}

inline std::optional<std::uint64_t> parse_calibrated(std::string_view line) {
    return parse_count(line, "calibrated ");
}

/// `sample`: measure one sample of `iterations` (at least one).
inline std::string sample_request(std::uint64_t iterations) {
    return "sample " + std::to_string(iterations) + "\n";
}

inline std::optional<std::uint64_t> parse_sample_request(std::string_view line) {
    auto n = parse_count(line, "sample ");
    if (n && *n == 0)
        return std::nullopt;
    return n;
}

/// The benchmark's own result: its length on one line, then the tare/1 document.
inline std::string result(const std::string& json) {
    return "result " + std::to_string(json.size()) + "\n" + json;
}

/// The length of the document that follows a `result` line.
inline std::optional<std::uint64_t> parse_result(std::string_view line) {
    return parse_count(line, "result ");
}

}  // namespace tare::protocol
