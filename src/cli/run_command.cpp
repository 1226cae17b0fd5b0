// `tare run TARGET...`: runs tare or Google Benchmark executables (or reads results files) and
// prints tare's table of each; with several targets, --json writes them as one document. A
// Google Benchmark executable is run with JSON output to a temporary file, read back through
// io/gbench_reader.
#include <signal.h>
#include <unistd.h>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string_view>
#include <variant>
#include <vector>

#include "cli/commands.hpp"
#include "cli/run_gbench.hpp"
#include "cli/usage.hpp"
#include "compare/gbench_rounds.hpp"
#include "compare/processes.hpp"
#include "core/runner.hpp"
#include "core/shard.hpp"
#include "instrument/launch.hpp"
#include "io/atomic_file.hpp"
#include "io/gbench_reader.hpp"
#include "io/results_reader.hpp"
#include "main/flag_checks.hpp"
#include "os/interrupt.hpp"
#include "os/os.hpp"
#include "os/process.hpp"
#include "report/profile/profile_files.hpp"
#include "report/reporter.hpp"

namespace tare::cli {

// The flag checks the benchmark executable shares (main/flag_checks.hpp).
using namespace flags;

int fail(int status, const std::string& message) {
    std::fprintf(stderr, "error: %s\n", message.c_str());
    return status;
}

CLI::App* add_run_command(CLI::App& app, run_args& args) {
    CLI::App* cmd =
        app.add_subcommand("run", "run a benchmark executable (or read results) and print its table");
    cmd->add_option("TARGET", args.targets,
                    "benchmark executables or results files (tare/1, Google Benchmark)")
        ->required()
        ->type_name("EXE|FILE...");
    cmd->footer(
        "Examples:\n"
        "  tare run build/bench/codec_bench --filter='^round_trip/' --json=results.json\n"
        "  tare run build/bench/codec_bench --processes=5 --json=main.json --html=main.html\n"
        "Every flag: " +
        doc_path("cli.md") + "; reading the table: " + doc_path("reading-results.md"));
    cmd->add_option("--filter", args.filter, "run only names that REGEX matches (default: every benchmark)")
        ->type_name("REGEX");
    cmd->add_option("--json", args.json_path, "write the results as tare/1 JSON to PATH")->type_name("PATH");
    cmd->add_option("--html", args.html_path, "write the results' HTML page (plots, tables) to PATH")
        ->type_name("PATH");
    cmd->add_option("--shard", args.shard, "run only shard K of N of each executable's benchmarks (by name)")
        ->type_name("K/N");
    one_value_each_time(cmd->add_option("--export", args.exports,
                                        "also write the results as FORMAT (bmf, gab, gab-bigger, csv) to "
                                        "PATH; repeatable"))
        ->type_name("FORMAT:PATH");
    cmd->add_option("--min-time", args.min_time, "time budget per benchmark, seconds")
        ->type_name("SECONDS")
        ->check(positive_seconds());
    cmd->add_flag("--md", args.markdown, "print the table as Markdown");
    add_color_option(cmd, args.color);
    cmd->add_option("--processes", args.processes,
                    "run each executable in N fresh processes, one after the other, and record every "
                    "process: a results file a later tare compare can judge (default 1)")
        ->type_name("N")
        ->check(whole_number(1, 10000));
    cmd->add_flag("--isolate", args.isolate,
                  "run each benchmark in a process of its own: one that crashes, hangs or exits is its "
                  "own error row");
    cmd->add_option("--instrument", args.instrument,
                    "count each timed region's instructions instead of timing it: 'instructions' "
                    "(Valgrind's Callgrind) or 'hw-instructions' (the CPU's counter); " +
                        doc_path("instructions.md"))
        ->type_name("KIND")
        ->check(CLI::IsMember({"instructions", "hw-instructions"}));
    add_pass_env_option(cmd, args.pass_env);
    cmd->add_option("--timeout", args.timeout,
                    "with --isolate or --instrument: stop a benchmark running longer")
        ->type_name("SECONDS")
        ->check(positive_seconds());
    // A flag with an optional "=N", as --fail-on-regression: the value is kept by the option
    // itself; alloc_sites_given says whether it was given.
    cmd->add_flag("--alloc-sites{5}", args.alloc_sites_top,
                  "after measuring, locate the timed region's allocations: the top N call sites (=N; "
                  "default 5; tare executables and suites linked with tare::gbench)")
        ->type_name("[=N]")
        ->check(whole_number(1, 1000));
    cmd->add_option("--profile", args.profile_dir,
                    "write each benchmark's profile to DIR: instructions by call stack (with "
                    "--instrument=instructions), allocations by call stack (the sites pass)")
        ->type_name("DIR");
    return cmd;
}

namespace fs = std::filesystem;

// The results `target` wrote to `tmp` (removed here) after it ended as `child`, with messages in
// the user's terms: `tmp` is tare's own file, so it is never named.
std::variant<run_results, run_failure> read_child_results(const std::string& target, const fs::path& tmp,
                                                          const os::child_result& child, bool gbench) {
    std::error_code ec;
    if (!fs::exists(tmp, ec)) {
        return run_failure{exit_not_run, target +
                                             ": not a tare or Google Benchmark executable: it wrote no "
                                             "results (exit status " +
                                             std::to_string(child.exit_code) + ")"};
    }
    auto read = gbench ? io::read_any_results_file(tmp.string()) : io::read_results_file(tmp.string());
    fs::remove(tmp, ec);
    if (auto* err = std::get_if<io::read_error>(&read)) {
        // "TMP:3:4: malformed JSON: ..." or "TMP: unsupported schema ...": what follows TMP.
        return run_failure{exit_not_run, target + ": the results it wrote cannot be read: " +
                                             err->without_origin(tmp.string())};
    }
    return std::move(std::get<run_results>(read));
}

std::variant<run_results, run_failure> run_tare_target(const std::string& target, const run_args& args) {
    std::error_code ec;
    const os::temp_name temp = os::temp_file_name("run", ".json");
    if (temp.path.empty()) {
        return run_failure{exit_not_run, temp.error};
    }
    const fs::path tmp = temp.path;
    std::vector<std::string> argv{fs::absolute(target).string(), "--json=" + tmp.string()};
    if (!args.filter.empty()) {
        argv.push_back("--filter=" + args.filter);
    }
    if (args.shard) {
        argv.push_back("--shard=" + *args.shard);
    }
    if (args.min_time) {
        argv.push_back("--min-time=" + std::to_string(*args.min_time));
    }
    if (args.isolate) {
        argv.emplace_back("--isolate");
    }
    if (args.timeout) {
        argv.push_back("--timeout=" + std::to_string(*args.timeout));
    }
    if (args.alloc_sites_top != 0 || (args.profile_dir && !args.instrument)) {
        // A timed run's allocation profile is the sites pass's stacks.
        argv.push_back("--alloc-sites=" +
                       std::to_string(args.alloc_sites_top != 0 ? args.alloc_sites_top : 5));
    }
    if (args.instrument) {
        argv.push_back("--instrument=" + *args.instrument);
        if (args.profile_dir) {
            argv.emplace_back(instrument::profile_results_flag);
        }
    }
    for (const std::string& name : args.pass_env) {
        argv.push_back("--pass-env=" + name);
    }
    os::child_options opts;
    opts.discard_stdout = true;  // its table is reprinted from its results
    const os::child_result child = os::run_child(argv, opts);
    // Interrupted, it stops after its running benchmark and writes what finished (status 130/143).
    const bool stopped =
        os::interrupted() != 0 && child.exit_code == os::interrupted_status(os::interrupted());
    if (!child.started || child.signal != 0 || (child.exit_code != 0 && child.exit_code != 1 && !stopped)) {
        fs::remove(tmp, ec);
        return run_failure{exit_not_run, target + ": " + os::describe_end(child)};
    }
    return read_child_results(target, tmp, child, false);
}

namespace {

struct collected {
    std::variant<run_results, run_failure> outcome;
    bool gbench = false;
    bool sampled = false;  // a Google Benchmark suite sampled through its worker mode
};

collected collect(const std::string& target, const run_args& args) {
    auto kind = classify_target(target);
    if (auto* f = std::get_if<run_failure>(&kind)) {
        return {std::move(*f)};
    }
    const target_kind k = std::get<target_kind>(kind);
    if (is_file_kind(k)) {
        if (args.processes > 1 || args.isolate || args.instrument) {
            return {run_failure{exit_usage, target + ": " +
                                                (args.isolate      ? "--isolate"
                                                 : args.instrument ? "--instrument"
                                                                   : "--processes") +
                                                " runs executables; this is a results file"}};
        }
        auto read = io::read_any_results_file(target);  // tare/1 or Google Benchmark JSON
        if (auto* err = std::get_if<io::read_error>(&read)) {
            return {run_failure{exit_usage, err->message + unknown_file_note(k)}};
        }
        return {std::move(std::get<run_results>(read))};
    }
    const bool gbench = k == target_kind::gbench_executable;
    if (args.instrument && gbench) {
        return {gbench_counted_collect(target, args), gbench};
    }
    if (args.profile_dir && !args.instrument && args.processes > 1) {
        return {run_failure{exit_usage,
                            target + ": --profile locates allocations in one process: drop --processes"}};
    }
    // --alloc-sites locates in one process: a tare executable's own pass, or a suite's through
    // tare::gbench's worker (its hooks open the pass's region).
    const bool sampled = gbench && gbench_worker_capable(target);
    if (args.alloc_sites_top != 0 && args.processes > 1) {
        return {run_failure{exit_usage,
                            target + ": --alloc-sites locates allocations in one process: drop --processes"}};
    }
    if (args.alloc_sites_top != 0 && gbench && !sampled) {
        return {run_failure{exit_usage,
                            target + ": --alloc-sites locates a Google Benchmark suite's allocations "
                                     "through tare::gbench's hooks; this one does not link tare::gbench"}};
    }
    // Fresh processes one after the other, pooled (compare/processes.hpp): each is a replicate
    // of what a process of this executable measures. A process that fails fails the target, as
    // one run would: its figures would be missing from the replicates.
    // Which process is running, on standard error: a live line on a terminal; in a log, a whole
    // line before each process's own progress lines, which would otherwise repeat unexplained.
    const bool progress = args.processes > 1 && os::is_terminal(STDERR_FILENO);
    std::vector<run_results> runs;
    for (unsigned p = 0; p < args.processes; ++p) {
        if (progress) {
            std::fprintf(stderr, "\r\033[K%s: process %u of %u", target.c_str(), p + 1, args.processes);
            std::fflush(stderr);
        } else if (args.processes > 1) {
            std::fprintf(stderr, "%s: process %u of %u\n", target.c_str(), p + 1, args.processes);
        }
        auto one = sampled        ? gbench_sampled_collect(target, args)
                   : !gbench      ? run_tare_target(target, args)
                   : args.isolate ? gbench_isolated_collect(target, args)
                                  : gbench_collect(target, args);
        if (progress) {
            std::fputs("\r\033[K", stderr);
        }
        if (auto* f = std::get_if<run_failure>(&one)) {
            if (args.processes > 1) {
                f->message +=
                    " (process " + std::to_string(p + 1) + " of " + std::to_string(args.processes) + ")";
            }
            return {std::move(one), gbench, sampled};
        }
        runs.push_back(std::move(std::get<run_results>(one)));
        if (os::interrupted() != 0) {
            // A process cut short measured fewer benchmarks: pooled, the rest would read as not run
            // in it. The whole processes count; one cut short counts when it is all there is.
            if (runs.size() > 1 && runs.back().context.interrupted)
                runs.pop_back();
            break;
        }
    }
    return {compare::pool_processes(std::move(runs)), gbench, sampled};
}

}  // namespace

std::variant<run_results, run_failure> run_any_target(const std::string& target, const run_args& args) {
    return collect(target, args).outcome;
}

namespace {

// What run_command() refuses before anything runs, so that a typo costs no run: the message.
std::optional<std::string> refused_flags(const run_args& args) {
    if (args.targets.empty()) {
        return "tare run: give a benchmark executable or a results file (tare run EXE|FILE...)";
    }
    // Checked here, as every executable would check it (ECMAScript, as std::regex), so that a bad
    // pattern is one bad argument rather than one failed run per target.
    if (auto parsed = core::name_filter::parse(args.filter); auto* e = std::get_if<std::string>(&parsed)) {
        return "--filter: " + *e;
    }
    if (args.timeout && !args.isolate && !args.instrument) {
        return "--timeout applies only with --isolate or --instrument (a benchmark in the executable's "
               "process cannot be stopped alone)";
    }
    if (!args.pass_env.empty() && !args.instrument) {
        return "--pass-env applies only with --instrument (a timed run has its whole environment)";
    }
    if (args.instrument && args.processes > 1) {
        return "--instrument counts the same in every process: drop --processes";
    }
    if (args.instrument && args.alloc_sites_top != 0) {
        return "--alloc-sites and --instrument cannot be combined: run them separately";
    }
    if (args.profile_dir && args.instrument && *args.instrument != "instructions") {
        return "--profile counts by call stack under Callgrind only (--instrument=instructions)";
    }
    if (args.shard) {
        auto s = core::parse_shard(*args.shard);
        if (const auto* e = std::get_if<std::string>(&s)) {
            return *e;
        }
    }
    std::vector<std::pair<std::string, std::optional<std::string>>> outputs{{"--json=", args.json_path},
                                                                            {"--html=", args.html_path}};
    for (const auto& spec : args.exports) {
        const auto request = parse_export_request(spec);
        if (const auto* e = std::get_if<std::string>(&request)) {
            return *e;
        }
        const std::string& path = std::get<export_request>(request).path;
        outputs.emplace_back("--export=" + spec.substr(0, spec.size() - path.size()), path);
    }
    return one_standard_output(outputs);
}

// True when one of the run's outputs is standard output (`--json=-`): its tables then go to
// standard error.
bool an_output_on_stdout(const run_args& args) {
    return names_standard_output(args.json_path) || names_standard_output(args.html_path) ||
           std::any_of(args.exports.begin(), args.exports.end(), [](const std::string& spec) {
               return std::get<export_request>(parse_export_request(spec)).path == "-";  // checked
           });
}

// The table of one target to `out`, headed by its name when there are several, and flushed: a
// log that joins standard output and error (CI) gets it whole, before the next suite's progress.
void print_table(const std::string& target, const collected& c, const run_args& args, std::FILE* out,
                 bool first) {
    const run_results& results = std::get<run_results>(c.outcome);
    if (args.targets.size() > 1) {
        std::fprintf(out, "%s== %s\n\n", first ? "" : "\n", target.c_str());
    }
    auto table = args.markdown
                     ? report::make_markdown_reporter<run_results>()
                     : report::make_console_reporter<run_results>(terminal_style(args.color, fileno(out)));
    std::fputs(table->render(results).c_str(), out);
    // The note stands apart from the table, as its findings do: in a log that joins standard
    // output and error, what follows it (the next suite's progress) is then not read as rows.
    if (c.sampled && !results.context.accounting) {
        // Its worker said so: tare::gbench is linked, and the suite's allocations are not counted
        // (a sanitizer's allocator owns malloc, or the interposer is not in the process).
        std::fputs("\nnote: no memory figures: allocation accounting is off in this build of the suite\n",
                   out);
    } else if (c.gbench) {
        std::fputs(("\n" + gbench_note(results.context)).c_str(), out);
        if (!c.sampled) {
            std::fputs(
                "note: the samples are Google Benchmark's repetitions (one unless the suite asks for "
                "more):\n      link tare::gbench for tare to sample each benchmark itself\n",
                out);
        }
    }
    std::fflush(out);
}

// Adds one target's results to the run's document, its names prefixed with its suite's when
// there are several ("round_trip_before/write/int32_plain": names stay unique across suites).
void merge_into(run_results& merged, bool first, run_results& results, const std::string& target,
                bool several) {
    const std::string suite = several ? fs::path(target).stem().string() + "/" : "";
    if (first) {
        merged.context = results.context;
    } else {
        merged.context.executable += " " + results.context.executable;
    }
    for (benchmark_result& b : results.benchmarks) {
        b.name = suite + b.name;
        merged.benchmarks.push_back(std::move(b));
    }
    for (variant_comparison& cmp : results.comparisons) {  // the same prefix as the rows they refer to
        cmp.name = suite + cmp.name;
        cmp.baseline = suite + cmp.baseline;
        cmp.member = suite + cmp.member;
        merged.comparisons.push_back(std::move(cmp));
    }
}

// The run's document to --json, --html and each --export; the first error of writing.
std::optional<std::string> write_outputs(const run_results& merged, const run_args& args) {
    if (args.json_path) {
        if (auto e = write_report(*args.json_path, *report::make_json_reporter<run_results>(), merged)) {
            return e;
        }
    }
    if (args.html_path) {
        // A section at a time, as tare report writes it: a large suite's page is never whole.
        if (auto e = write_report(*args.html_path, *report::make_html_reporter<run_results>(), merged)) {
            return e;
        }
    }
    for (const auto& spec : args.exports) {
        const auto request = std::get<export_request>(parse_export_request(spec));  // checked up front
        if (auto e = write_export(merged, request.format, request.path)) {
            return e;
        }
    }
    if (args.profile_dir) {
        if (auto e = io::write_files_into(*args.profile_dir, report::profile_files(merged))) {
            return "--profile: " + *e;
        }
    }
    return std::nullopt;
}

}  // namespace

int run_command(const run_args& args) {
    if (auto refused = refused_flags(args)) {
        return fail(exit_usage, *refused);
    }
    std::FILE* const out = table_stream(an_output_on_stdout(args));
    run_results merged;
    bool have_results = false;
    int status = exit_ok;
    bool any_failed_benchmark = false;
    for (const std::string& target : args.targets) {
        if (os::interrupted() != 0)
            break;
        collected c = collect(target, args);
        if (auto* f = std::get_if<run_failure>(&c.outcome)) {
            // The other targets still run and are written: one broken suite loses nothing else.
            fail(f->status, f->message);
            status = std::max(status, f->status);
            continue;
        }
        print_table(target, c, args, out, !have_results);
        run_results& results = std::get<run_results>(c.outcome);
        for (const benchmark_result& b : results.benchmarks) {
            any_failed_benchmark = any_failed_benchmark || (b.error && b.error->kind != "skipped");
        }
        merge_into(merged, !have_results, results, target, args.targets.size() > 1);
        have_results = true;
    }
    const int signal = os::interrupted();
    merged.context.interrupted = merged.context.interrupted || signal != 0;
    std::fflush(stdout);
    if (have_results) {
        if (auto e = write_outputs(merged, args)) {
            return fail(exit_usage, *e);
        }
    }
    if (signal != 0) {
        const std::string where = !args.json_path || !have_results ? "printed above"
                                  : *args.json_path == "-"         ? "on standard output"
                                                                   : "in " + *args.json_path;
        std::fprintf(stderr, "error: interrupted by %s: what finished is %s\n", os::interrupt_name(signal),
                     where.c_str());
        return os::interrupted_status(signal);
    }
    if (status != exit_ok) {
        return status;
    }
    return any_failed_benchmark ? exit_regression : exit_ok;
}

}  // namespace tare::cli
