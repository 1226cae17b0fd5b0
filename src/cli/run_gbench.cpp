// `tare run` of a Google Benchmark executable, in each of its ways: sampled by tare through the
// worker mode of a suite linked with tare::gbench; Google Benchmark's own run, its JSON read back
// (a suite without the worker mode); one process a benchmark (--isolate); counted (--instrument).
#include "cli/run_gbench.hpp"

#include <unistd.h>

#include <fmt/format.h>
#include <cstdio>
#include <vector>

#include "compare/gbench_rounds.hpp"
#include "compare/rounds.hpp"
#include "core/shard.hpp"
#include "counted/gbench_suite.hpp"
#include "instrument/launch.hpp"
#include "os/interrupt.hpp"
#include "os/os.hpp"
#include "report/progress.hpp"

namespace tare::cli {

namespace fs = std::filesystem;

namespace {

// The temporary file a GB run writes its JSON to: a fresh name in the private directory.
std::variant<fs::path, run_failure> gbench_temp_json() {
    os::temp_name temp = os::temp_file_name("gbench", ".json");
    if (temp.path.empty()) {
        return run_failure{exit_not_run, temp.error};
    }
    return fs::path(temp.path);
}

// The command line of a GB run of `target` with JSON output to `tmp`: `filter` and the time
// budget of `args` passed on.
std::vector<std::string> gbench_argv(const std::string& target, const fs::path& tmp,
                                     const std::string& filter, const run_args& args) {
    std::vector<std::string> argv{fs::absolute(target).string(), "--benchmark_out=" + tmp.string(),
                                  "--benchmark_out_format=json", "--benchmark_format=json"};
    if (!filter.empty()) {
        argv.push_back("--benchmark_filter=" + filter);
    }
    if (args.min_time) {
        // GB 1.7.1 takes a plain number of seconds (1.8 also accepts "<n>s" and "<n>x").
        argv.push_back("--benchmark_min_time=" + std::to_string(*args.min_time));
    }
    return argv;
}

// The names of GB executable `target` under --filter and in --shard, in its list's order.
std::variant<std::vector<std::string>, run_failure> shard_names(const std::string& target,
                                                                const run_args& args) {
    auto listed =
        compare::list_gbench_names(fs::absolute(target).string(), args.timeout.value_or(60), args.filter);
    if (auto* f = std::get_if<compare::rounds_failure>(&listed)) {
        return run_failure{f->status, f->message};
    }
    auto names = std::move(std::get<std::vector<std::string>>(listed));
    if (args.shard) {
        const auto s = std::get<core::shard>(core::parse_shard(*args.shard));  // checked up front
        std::erase_if(names, [&](const std::string& n) { return !core::in_shard(n, s); });
    }
    return names;
}

// The row of a benchmark that failed as `kind`. A copy of the executables' own (main/isolate.cpp):
// that file belongs to tare::main, which the tare command does not link.
benchmark_result error_row(const std::string& name, std::string kind, std::string message) {
    benchmark_result r;
    r.name = name;
    r.error = error_info{std::move(kind), std::move(message)};
    return r;
}

// Progress on standard error as a tare executable prints it: a live line on a terminal, a line
// per finished benchmark in a log. step() is told before each benchmark starts, end() after the
// last (or an interrupt).
class suite_progress {
public:
    void step(std::size_t row, std::size_t rows, const std::string& name) {
        finish(rows);
        running_ = name;
        if (live_) {
            const report::progress_step s{row, rows, name, os::monotonic_seconds() - started_};
            std::fprintf(stderr, "\r\033[K%s",
                         report::progress_live(s, os::terminal_columns(STDERR_FILENO).value_or(0)).c_str());
            std::fflush(stderr);
        }
    }
    // `finished`: the last benchmark ran to its end (not stopped by an interrupt).
    void end(std::size_t rows, bool finished) {
        if (live_) {
            std::fputs("\r\033[K", stderr);
        }
        if (finished) {
            finish(rows);
        }
    }

private:
    void finish(std::size_t rows) {
        if (running_.empty()) {
            return;
        }
        const double now = os::monotonic_seconds();
        ++done_;
        if (!live_) {
            const report::progress_step s{done_, rows, running_, now - started_};
            std::fputs(report::progress_done(s, now - step_started_).c_str(), stderr);
            std::fflush(stderr);
        }
        step_started_ = now;
        running_.clear();
    }

    bool live_ = os::is_terminal(STDERR_FILENO);
    double started_ = os::monotonic_seconds();
    double step_started_ = started_;
    std::size_t done_ = 0;
    std::string running_;
};

}  // namespace

// Runs the GB executable `target` with JSON output to a temporary file and reads it back
// (filter and time budget from `args`).
std::variant<run_results, run_failure> gbench_collect(const std::string& target, const run_args& args) {
    std::error_code ec;
    std::string filter = args.filter;
    if (args.shard) {
        // Google Benchmark has no shards: tare picks the shard's names from the executable's own
        // list and selects exactly them.
        auto listed = shard_names(target, args);
        if (auto* f = std::get_if<run_failure>(&listed)) {
            return *f;
        }
        const auto& names = std::get<std::vector<std::string>>(listed);
        if (names.empty()) {
            run_results none;
            none.context.executable = target;
            return none;
        }
        filter.clear();
        for (const auto& n : names) {
            filter += (filter.empty() ? "" : "|") + compare::exact_regex(n);
        }
    }
    auto temp = gbench_temp_json();
    if (auto* f = std::get_if<run_failure>(&temp)) {
        return *f;
    }
    const fs::path tmp = std::get<fs::path>(temp);
    const std::vector<std::string> argv = gbench_argv(target, tmp, filter, args);
    os::child_options opts;
    opts.discard_stdout = true;  // its own report is reprinted as tare's table
    const os::child_result child = os::run_child(argv, opts);
    // GB exits 0 even when a benchmark called SkipWithError (the row says so); anything else is
    // a run that did not end.
    if (!child.started || child.signal != 0 || child.exit_code != 0) {
        fs::remove(tmp, ec);
        return run_failure{exit_not_run, target + ": " + os::describe_end(child)};
    }
    auto read = read_child_results(target, tmp, child, true);
    if (auto* results = std::get_if<run_results>(&read)) {
        results->context.executable = target;
    }
    return read;
}

// --isolate for a Google Benchmark executable, which has no such flag: each benchmark runs in a
// process of its own (--benchmark_filter=^NAME$), so one that crashes, hangs or exits is its own
// error row, named, and the others are kept; the names are the executable's own list under the
// same filter. The rows come in list order, as one run writes them.
std::variant<run_results, run_failure> gbench_isolated_collect(const std::string& target,
                                                               const run_args& args) {
    auto listed = shard_names(target, args);
    if (auto* f = std::get_if<run_failure>(&listed)) {
        return *f;
    }
    run_results out;
    bool have_context = false;
    for (const std::string& name : std::get<std::vector<std::string>>(listed)) {
        if (os::interrupted() != 0) {
            out.context.interrupted = true;
            break;
        }
        std::error_code ec;
        auto temp = gbench_temp_json();
        if (auto* f = std::get_if<run_failure>(&temp)) {
            return *f;
        }
        const fs::path tmp = std::get<fs::path>(temp);
        const std::vector<std::string> argv = gbench_argv(target, tmp, compare::exact_regex(name), args);
        os::child_options opts;
        opts.discard_stdout = true;
        opts.timeout_seconds = args.timeout;
        opts.interrupt = os::on_interrupt::kill;  // its benchmark may never look up: stop it now
        const os::child_result child = os::run_child(argv, opts);
        if (os::interrupted() != 0 && !child.timed_out && (child.signal != 0 || child.exit_code != 0)) {
            fs::remove(tmp, ec);
            out.benchmarks.push_back(error_row(name, "interrupted",
                                               "its process was stopped: the run was interrupted by " +
                                                   std::string(os::interrupt_name(os::interrupted()))));
            out.context.interrupted = true;
            break;
        }
        if (child.timed_out) {
            fs::remove(tmp, ec);
            out.benchmarks.push_back(error_row(
                name, "timeout",
                fmt::format("ran longer than the timeout of {:g} s and was stopped", *args.timeout)));
            continue;
        }
        if (!child.started || child.signal != 0 || child.exit_code != 0) {
            fs::remove(tmp, ec);
            out.benchmarks.push_back(error_row(name, child.signal != 0 ? "signal" : "crash",
                                               "the benchmark's process " + os::describe_end(child)));
            continue;
        }
        auto read = read_child_results(target, tmp, child, true);
        if (auto* f = std::get_if<run_failure>(&read)) {
            out.benchmarks.push_back(error_row(name, "crash", f->message));
            continue;
        }
        run_results& results = std::get<run_results>(read);
        if (!have_context) {
            const bool interrupted = out.context.interrupted;
            out.context = results.context;
            out.context.interrupted = interrupted;
            have_context = true;
        }
        for (benchmark_result& b : results.benchmarks) {
            out.benchmarks.push_back(std::move(b));
        }
    }
    out.context.executable = target;
    return out;
}

// --instrument for a Google Benchmark executable linked with tare::gbench: each benchmark of its
// list (under --filter and --shard) counted in a child of its own (docs/instructions.md).
std::variant<run_results, run_failure> gbench_counted_collect(const std::string& target,
                                                              const run_args& args) {
    if (!gbench_worker_capable(target)) {
        return run_failure{exit_usage, target +
                                           ": --instrument counts a Google Benchmark suite's loop through "
                                           "tare::gbench's hooks; this one does not link tare::gbench"};
    }
    auto made = instrument::make_launcher(*instrument::parse_instrument(*args.instrument), args.timeout);
    if (auto* e = std::get_if<std::string>(&made)) {
        return run_failure{exit_usage, *e};
    }
    std::get<instrument::launcher>(made).pass_env = args.pass_env;
    std::get<instrument::launcher>(made).profile = args.profile_dir.has_value();
    auto listed = shard_names(target, args);
    if (auto* f = std::get_if<run_failure>(&listed)) {
        return *f;
    }
    const auto& names = std::get<std::vector<std::string>>(listed);
    suite_progress progress;
    run_results out = counted::count_gbench_suite(
        std::get<instrument::launcher>(made), fs::absolute(target).string(), target, names,
        [&](std::size_t row, std::size_t rows, const std::string& name) { progress.step(row, rows, name); });
    progress.end(names.size(), !out.context.interrupted);
    return out;
}

// A suite with tare::gbench linked: its worker mode serves tare's sampling, so its rows carry
// samples, intervals and the noise rule as a tare executable's do (docs/gbench.md, "tare run").
// Progress on standard error as a tare executable prints it: a live line on a terminal, a line
// per finished benchmark in a log.
std::variant<run_results, run_failure> gbench_sampled_collect(const std::string& target,
                                                              const run_args& args) {
    auto listed = shard_names(target, args);
    if (auto* f = std::get_if<run_failure>(&listed)) {
        return *f;
    }
    compare::alone_options o;
    o.executable = fs::absolute(target).string();
    o.names = std::move(std::get<std::vector<std::string>>(listed));
    o.min_time = args.min_time.value_or(o.min_time);
    o.timeout_seconds = args.timeout.value_or(o.timeout_seconds);
    o.fresh_process_each = args.isolate;
    if (args.alloc_sites_top != 0 || (args.profile_dir && !args.instrument)) {
        // A timed run's allocation profile is the sites pass's stacks, as a tare executable's.
        o.sites_top = args.alloc_sites_top != 0 ? args.alloc_sites_top : 5;
    }
    suite_progress progress;
    o.progress = [&](std::size_t row, std::size_t rows, const std::string& name) {
        progress.step(row, rows, name);
    };
    auto made = compare::run_alone(o);
    const auto* ran = std::get_if<compare::alone_data>(&made);
    progress.end(o.names.size(), ran != nullptr && !ran->interrupted);
    if (auto* f = std::get_if<compare::rounds_failure>(&made)) {
        return run_failure{exit_not_run, f->message};
    }
    auto& data = std::get<compare::alone_data>(made);
    run_results out;
    if (data.context) {
        out.context = std::move(*data.context);
    } else {
        out.context.accounting = data.accounting;  // every row failed before its result's context
    }
    out.context.executable = target;
    out.context.interrupted = data.interrupted;
    // The worker's own harness costs are not measured: Google Benchmark's loop is not tare's.
    out.context.clock_overhead_ns.reset();
    out.context.loop_overhead_ns.reset();
    out.benchmarks = std::move(data.rows);
    if (o.sites_top && !data.accounting) {
        std::fputs(
            "note: --alloc-sites finds nothing here: allocation accounting is off in this build of the "
            "suite (docs/accounting.md, \"Availability\")\n",
            stderr);
    }
    return out;
}

}  // namespace tare::cli
