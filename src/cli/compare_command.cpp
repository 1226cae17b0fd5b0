// `tare compare BASE HEAD`: two tare executables in rounds of fresh worker processes (paired),
// or two results files (unpaired); docs/cli.md, docs/compare.md.
#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/usage.hpp"
#include "compare/aggregate.hpp"
#include "compare/gbench_rounds.hpp"
#include "compare/instrumentation.hpp"
#include "compare/pairing.hpp"
#include "compare/rounds.hpp"
#include "core/shard.hpp"
#include "counted/compare.hpp"
#include "instrument/launch.hpp"
#include "io/atomic_file.hpp"
#include "io/gbench_reader.hpp"
#include "main/flag_checks.hpp"
#include "os/interrupt.hpp"
#include "os/layout.hpp"
#include "os/os.hpp"
#include "report/profile/profile_files.hpp"
#include "report/progress.hpp"
#include "report/reporter.hpp"
#include "tare/version.hpp"

namespace tare::cli {

// The flag checks the benchmark executable shares (main/flag_checks.hpp).
using namespace flags;

CLI::App* add_compare_command(CLI::App& app, compare_args& args) {
    CLI::App* cmd = app.add_subcommand(
        "compare",
        "compare HEAD against BASE: two executables (rounds of fresh processes) or two results files");
    cmd->add_option("BASE", args.base, "the base: a benchmark executable or a results file")
        ->required()
        ->type_name("EXE|FILE");
    cmd->add_option("HEAD", args.head, "the head: of the same kind as the base")
        ->required()
        ->type_name("EXE|FILE");
    cmd->footer(
        "Examples:\n"
        "  tare compare build-main/bench/codec_bench build/bench/codec_bench --md --fail-on-regression=2\n"
        "  tare compare main.json pr.json --threshold=1 --html=compare.html\n"
        "Method and every flag: " +
        doc_path("compare.md") + ", " + doc_path("cli.md"));
    cmd->add_option("--rounds", args.rounds, "rounds of fresh processes of both sides (default 20)")
        ->type_name("N")
        ->check(whole_number(1, 100000));
    cmd->add_option("--min-time", args.min_time,
                    "measured seconds per benchmark and side, all rounds (default 1)")
        ->type_name("SECONDS")
        ->check(positive_seconds());
    cmd->add_option("--samples", args.samples,
                    "samples per side in each round (default 40; Google Benchmark: repetitions, default 4)")
        ->type_name("N")
        ->check(whole_number(2, 100000));
    cmd->add_option("--cpu", args.cpu,
                    "CPUs every worker of both sides runs on: auto (one CPU, default), none, or a list "
                    "like 3 or 0-3,6")
        ->type_name("auto|none|LIST");
    cmd->add_option("--layout", args.layout,
                    "address-space layouts: matched (both sides of a round in one random layout, a new "
                    "one each round; default) or kernel (each process its own)")
        ->type_name("matched|kernel")
        ->check(one_of({"matched", "kernel"}));
    cmd->add_option("--timeout", args.timeout,
                    "seconds a worker may take to answer (default 60); with --instrument, seconds one "
                    "benchmark's counted run may take (default: none)")
        ->type_name("SECONDS")
        ->check(positive_seconds())
        ->each([&args](const std::string&) { args.timeout_given = true; });
    cmd->add_option("--filter", args.filter,
                    "compare only names that REGEX matches (default: every benchmark)")
        ->type_name("REGEX");
    cmd->add_option("--shard", args.shard,
                    "compare only shard K of N of the benchmarks (by name), on both sides")
        ->type_name("K/N");
    cmd->add_option("--rename", args.renames,
                    "pair head's benchmarks under other names: every match of REGEX in head's names "
                    "replaced ($1 a group); repeatable, applied in order")
        ->type_name("REGEX=REPLACEMENT")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->add_option("--family", args.family,
                    "how the verdicts share their 5%: fdr (false discovery rate, Benjamini-Hochberg; "
                    "default) or fwer (family-wise, Bonferroni)")
        ->type_name("fdr|fwer")
        ->check(one_of({"fdr", "fwer"}));
    cmd->add_option("--threshold", args.threshold_pct,
                    "noise band of the verdicts, percent (default 0: none)")
        ->type_name("PCT")
        ->check(finite_number(0, 1e6));
    cmd->add_option("--instrument", args.instrument,
                    "count both sides' instructions once instead of timing them in rounds: "
                    "'instructions' (Valgrind's Callgrind) or 'hw-instructions'; " +
                        doc_path("instructions.md"))
        ->type_name("KIND")
        ->check(CLI::IsMember({"instructions", "hw-instructions"}));
    add_pass_env_option(cmd, args.pass_env);
    cmd->add_option(
           "--profile", args.profile_dir,
           "with --instrument=instructions: write each side's profiles to DIR/base and DIR/head, and "
           "list the functions that changed under each changed row")
        ->type_name("DIR");
    add_fail_on_regression(cmd, args.fail_on_regression);
    cmd->add_flag("--allow-mixed-instrumentation", args.allow_mixed_instrumentation,
                  "judge time although the sides differ in accounting, tare::copies, region hooks "
                  "or --instrument (the header still says so)");
    cmd->add_option("--json", args.json_path, "write tare-compare/1 JSON to PATH")->type_name("PATH");
    cmd->add_option("--html", args.html_path,
                    "write the comparison's HTML page (forest plot, tables) to PATH")
        ->type_name("PATH");
    cmd->add_flag("--md", args.markdown, "print the table as Markdown");
    add_color_option(cmd, args.color);
    return cmd;
}

namespace {

namespace fs = std::filesystem;

std::variant<run_results, run_failure> read_side(const std::string& path, target_kind k) {
    auto read = io::read_any_results_file(path);
    if (auto* e = std::get_if<io::read_error>(&read)) {
        return run_failure{exit_usage, e->message + unknown_file_note(k)};
    }
    return std::move(std::get<run_results>(read));
}

// An interrupted counted comparison keeps what both sides counted whole: a benchmark one side
// had not reached, or was stopped in, is neither compared nor listed as only on one side.
void keep_counted_on_both(std::vector<run_results>& sides) {
    while (sides.size() < 2) {
        sides.emplace_back();
    }
    const auto stopped = [](const benchmark_result& b) { return b.error && b.error->kind == "interrupted"; };
    for (auto& side : sides) {
        std::erase_if(side.benchmarks, stopped);
    }
    const auto counted = [](const run_results& r, const std::string& name) {
        return std::any_of(r.benchmarks.begin(), r.benchmarks.end(),
                           [&](const benchmark_result& b) { return b.name == name; });
    };
    for (std::size_t i = 0; i < 2; ++i) {
        const run_results& other = sides[1 - i];
        std::erase_if(sides[i].benchmarks,
                      [&](const benchmark_result& b) { return !counted(other, b.name); });
    }
}

// A worker failure that means the executable could not be run to the end.
bool is_process_failure(const std::optional<error_info>& e) {
    return e && (e->kind == "signal" || e->kind == "timeout" || e->kind == "crash");
}

// "3", "0-3,6": ascending, without repeats; empty for anything else.
std::vector<int> parse_cpu_list(const std::string& text) {
    std::vector<int> cpus;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t comma = std::min(text.find(',', at), text.size());
        const std::string item = text.substr(at, comma - at);
        const std::size_t dash = item.find('-');
        int first = -1;
        int last = -1;
        auto number = [](const std::string& s, int& out) {
            auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
            return ec == std::errc() && p == s.data() + s.size() && !s.empty() && out >= 0;
        };
        if (dash == std::string::npos
                ? !number(item, first)
                : !number(item.substr(0, dash), first) || !number(item.substr(dash + 1), last)) {
            return {};
        }
        if (last < 0) {
            last = first;
        }
        if (last < first || last - first > 4096) {
            return {};
        }
        for (int c = first; c <= last; ++c) {
            cpus.push_back(c);
        }
        at = comma + 1;
    }
    std::sort(cpus.begin(), cpus.end());
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
    return cpus;
}

// --cpu: the CPUs every worker runs on, or a message.
std::variant<std::vector<int>, run_failure> resolve_cpus(const std::string& text) {
    const std::vector<int> allowed = os::allowed_cpus();
    if (text == "none") {
        return std::vector<int>{};
    }
    if (text == "auto") {
        // One CPU for both sides: the two workers run in lock-step, so one CPU is all they use,
        // and on it a change of the machine's speed reaches both. Any one CPU serves; the last
        // allowed one is a fixed choice so that runs are alike. Measured: docs/compare.md,
        // "Pinning".
        return allowed.empty() ? std::vector<int>{} : std::vector<int>{allowed.back()};
    }
    std::vector<int> cpus = parse_cpu_list(text);
    if (cpus.empty()) {
        return run_failure{exit_usage,
                           "--cpu=" + text + ": expected auto, none or a list of CPUs like 3 or 0-3,6"};
    }
    for (int c : cpus) {
        if (!allowed.empty() && !std::binary_search(allowed.begin(), allowed.end(), c)) {
            std::string have;
            for (int a : allowed) {
                have += (have.empty() ? "" : ",") + std::to_string(a);
            }
            std::string message = "--cpu=" + text;
            message += ": CPU " + std::to_string(c) + " is not one this process may use (" + have + ")";
            return run_failure{exit_usage, std::move(message)};
        }
    }
    return cpus;
}

// --layout=matched: a random seed for this comparison's layouts, or none (with a note saying
// why) when a side cannot be started in a chosen layout, e.g. a statically linked executable.
// Measured: docs/compare.md, "Layouts".
std::optional<std::uint64_t> layout_seed(const std::string& base, const std::string& head) {
    for (const std::string* exe : {&base, &head}) {
        auto l = os::prepare_layout({*exe}, 0);
        if (auto* why = std::get_if<std::string>(&l)) {
            std::fprintf(stderr, "tare compare: note: each process in the kernel's own address layout: %s\n",
                         why->c_str());
            return std::nullopt;
        }
    }
    std::random_device rd;
    return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

}  // namespace

int compare_command(const compare_args& args) {
    if (args.head.empty()) {
        return fail(exit_usage,
                    std::string("tare compare: give ") + (args.base.empty() ? "BASE and HEAD" : "HEAD") +
                        ": two benchmark executables or two results files (tare compare BASE HEAD)");
    }
    if (auto e = one_standard_output({{"--json=", args.json_path}, {"--html=", args.html_path}})) {
        return fail(exit_usage, *e);
    }
    if (auto e = one_standard_input("tare compare", {args.base, args.head})) {
        return fail(exit_usage, *e);
    }
    auto base_kind = classify_target(args.base);
    if (auto* f = std::get_if<run_failure>(&base_kind)) {
        return fail(f->status, f->message);
    }
    auto head_kind = classify_target(args.head);
    if (auto* f = std::get_if<run_failure>(&head_kind)) {
        return fail(f->status, f->message);
    }
    const target_kind bk = std::get<target_kind>(base_kind);
    const target_kind hk = std::get<target_kind>(head_kind);
    const bool files = is_file_kind(bk);
    if (files != is_file_kind(hk)) {
        // A file that cannot be read is the first thing to fix, and a file that is not
        // executable may have been meant as an executable: its reader's error says more.
        for (const auto& [path, k] : {std::pair{&args.base, bk}, std::pair{&args.head, hk}}) {
            if (is_file_kind(k)) {
                if (auto side = read_side(*path, k); auto* f = std::get_if<run_failure>(&side)) {
                    return fail(f->status, f->message);
                }
            }
        }
        return fail(exit_usage, "compare two executables or two results files, not one of each (" +
                                    args.base + ", " + args.head + ")");
    }
    auto parsed = core::name_filter::parse(args.filter);
    if (auto* e = std::get_if<std::string>(&parsed)) {
        return fail(exit_usage, "--filter: " + *e);
    }
    const core::name_filter& filter = std::get<core::name_filter>(parsed);
    std::optional<core::shard> shard;
    if (args.shard) {
        auto s = core::parse_shard(*args.shard);
        if (auto* e = std::get_if<std::string>(&s)) {
            return fail(exit_usage, *e);
        }
        shard = std::get<core::shard>(s);
    }
    const auto selected = [&](const std::string& name) {
        return filter.matches(name) && (!shard || core::in_shard(name, *shard));
    };
    compare::head_renames renames;
    for (const std::string& rule : args.renames) {
        if (auto why = renames.add(rule)) {
            return fail(exit_usage, *why);
        }
    }
    compare::verdict_options vo;
    vo.threshold_pct = args.threshold_pct;
    vo.family = args.family == "fwer" ? family_control::fwer : family_control::fdr;

    compare_results results;
    // How each side was instrumented, from its results or its processes (base, head).
    std::pair<compare::side_instrumentation, compare::side_instrumentation> instrumented;
    std::optional<std::string> gbench_memory;  // what measured a Google Benchmark suite's memory
    if (!args.pass_env.empty() && !args.instrument) {
        return fail(exit_usage,
                    "--pass-env applies only with --instrument (timed workers have their whole "
                    "environment)");
    }
    if (args.profile_dir && (!args.instrument || *args.instrument != "instructions")) {
        return fail(exit_usage,
                    "--profile compares the profiles of counted runs: give --instrument=instructions (two "
                    "files recorded with --profile are compared by function without it)");
    }
    if (args.instrument && files) {
        return fail(exit_usage,
                    "--instrument runs executables; these are results files (the counts of files "
                    "recorded with tare run --instrument are compared without it)");
    }
    if (args.instrument) {
        if ((bk == target_kind::gbench_executable) != (hk == target_kind::gbench_executable)) {
            return fail(
                exit_usage,
                "compare two tare executables or two Google Benchmark executables, not one of each (" +
                    args.base + ", " + args.head + ")");
        }
        // Said before either side runs: no Valgrind is one message, not two failed runs.
        auto made = instrument::make_launcher(*instrument::parse_instrument(*args.instrument), std::nullopt);
        if (auto* e = std::get_if<std::string>(&made)) {
            return fail(exit_usage, *e);
        }
        run_args ra;
        ra.filter = args.filter;
        ra.shard = args.shard;
        ra.instrument = args.instrument;
        ra.pass_env = args.pass_env;
        ra.profile_dir = args.profile_dir;
        if (args.timeout_given) {
            ra.timeout = args.timeout;  // per counted benchmark, in its child
        }
        std::vector<run_results> sides;
        for (const std::string* side : {&args.base, &args.head}) {
            // A Google Benchmark suite is counted through tare::gbench's hooks, one child a
            // benchmark; one without them is refused, by name (docs/instructions.md).
            auto run = run_any_target(*side, ra);
            if (auto* f = std::get_if<run_failure>(&run)) {
                if (os::interrupted() != 0) {
                    break;
                }
                return fail(f->status, f->message);
            }
            sides.push_back(std::move(std::get<run_results>(run)));
            if (os::interrupted() != 0) {
                break;
            }
        }
        if (args.profile_dir && sides.size() == 2) {
            for (std::size_t i = 0; i < 2; ++i) {
                const std::string dir =
                    (std::filesystem::path(*args.profile_dir) / (i == 0 ? "base" : "head")).string();
                if (auto e = io::write_files_into(dir, report::profile_files(sides[i]))) {
                    return fail(exit_usage, "--profile: " + *e);
                }
            }
        }
        // Renamed once counted: the filter and shard chose each side's benchmarks by its own names.
        auto own = compare::rename_results(sides[1], renames);
        if (auto* why = std::get_if<std::string>(&own)) {
            return fail(exit_usage, *why);
        }
        if (os::interrupted() != 0) {
            keep_counted_on_both(sides);
        }
        results = counted::compare_counted(sides[0], sides[1], args.threshold_pct);
        compare::restore_head_names(results, std::get<0>(own));
        instrumented = {compare::instrumentation_of(sides[0]), compare::instrumentation_of(sides[1])};
        results.interrupted = os::interrupted() != 0;
    } else if (files) {
        auto base = read_side(args.base, bk);
        if (auto* f = std::get_if<run_failure>(&base)) {
            return fail(f->status, f->message);
        }
        auto head = read_side(args.head, hk);
        if (auto* f = std::get_if<run_failure>(&head)) {
            return fail(f->status, f->message);
        }
        auto own = compare::rename_results(std::get<run_results>(head), renames);
        if (auto* why = std::get_if<std::string>(&own)) {
            return fail(exit_usage, *why);
        }
        for (auto* r : {&std::get<run_results>(base), &std::get<run_results>(head)}) {
            std::erase_if(r->benchmarks, [&](const benchmark_result& b) { return !selected(b.name); });
        }
        if (auto why = counted::counted_mismatch(std::get<run_results>(base), std::get<run_results>(head))) {
            return fail(exit_usage, *why);
        }
        results = counted::is_counted(std::get<run_results>(base))
                      ? counted::compare_counted(std::get<run_results>(base), std::get<run_results>(head),
                                                 args.threshold_pct)
                      : compare::compare_files(std::get<run_results>(base), std::get<run_results>(head), vo,
                                               args.base, args.head);
        compare::restore_head_names(results, std::get<0>(own));
        instrumented = {compare::instrumentation_of(std::get<run_results>(base)),
                        compare::instrumentation_of(std::get<run_results>(head))};
        results.base_context = std::get<run_results>(base).context;
        results.head_context = std::get<run_results>(head).context;
    } else {
        const bool gbench = bk == target_kind::gbench_executable;
        if (gbench != (hk == target_kind::gbench_executable)) {
            return fail(exit_usage,
                        "compare two tare executables or two Google Benchmark executables, not one of "
                        "each (" +
                            args.base + ", " + args.head + ")");
        }
        auto cpus = resolve_cpus(args.cpu);
        if (auto* f = std::get_if<run_failure>(&cpus)) {
            return fail(f->status, f->message);
        }
        compare::rounds_options ro;
        ro.base = fs::absolute(args.base).string();
        ro.head = fs::absolute(args.head).string();
        ro.rounds = args.rounds;
        ro.min_time = args.min_time;
        ro.cpus = std::get<std::vector<int>>(cpus);
        // bench/README.md, "A/B study": short samples in adjacent pairs for workers. Not shorter
        // still: at 320 a side the intervals narrowed three- to fourfold, but two bodies' changes
        // moved by more than their intervals ("Samples"). Google Benchmark repetitions are whole
        // runs of the body in one process, so few.
        // A Google Benchmark suite with tare::gbench linked serves as a worker: measured as tare's
        // own executables are. Both sides or neither, so that the two are measured alike.
        const bool gbench_workers =
            gbench && gbench_worker_capable(args.base) && gbench_worker_capable(args.head);
        const bool gbench_processes = gbench && !gbench_workers;
        if (gbench_workers) {
            ro.kind = compare::worker_kind::gbench;
        }
        ro.samples_per_round = args.samples.value_or(gbench_processes ? 4 : 40);
        if (args.layout == "matched") {
            ro.layout_seed = layout_seed(ro.base, ro.head);
        }
        ro.filter = filter;
        ro.shard = shard;
        ro.renames = renames;
        ro.timeout_seconds = args.timeout;
        // Progress on standard error (report/progress.hpp): on a terminal a live line per
        // benchmark of each round; in a log (CI) a line per finished round.
        const bool live = os::is_terminal(STDERR_FILENO);
        const double started = os::monotonic_seconds();
        double round_started = started;
        std::size_t rounds_done = 0;
        const auto log_round = [&](std::size_t rounds, std::size_t rows) {
            const double now = os::monotonic_seconds();
            ++rounds_done;
            report::progress_step step{
                rounds_done, rounds,
                fmt::format("round {} ({} benchmark{})", rounds_done, rows, rows == 1 ? "" : "s"),
                now - started};
            std::fputs(report::progress_done(step, now - round_started).c_str(), stderr);
            std::fflush(stderr);
            round_started = now;
        };
        std::size_t last_rows = 0;
        std::size_t last_rounds = 0;
        ro.progress = [&](std::size_t round, std::size_t rounds, std::size_t row, std::size_t rows,
                          const std::string& name) {
            last_rows = rows;
            last_rounds = rounds;
            if (live) {
                report::progress_step step{round * rows + row, rounds * rows,
                                           fmt::format("round {}/{}: {}", round + 1, rounds, name),
                                           os::monotonic_seconds() - started};
                std::fprintf(
                    stderr, "\r\033[K%s",
                    report::progress_live(step, os::terminal_columns(STDERR_FILENO).value_or(0)).c_str());
                std::fflush(stderr);
            } else if (round > rounds_done) {
                log_round(rounds, rows);  // the round before this one ended
            }
        };
        auto measured = gbench_processes ? compare::run_gbench_rounds(ro) : compare::run_rounds(ro);
        if (live) {
            std::fputs("\r\033[K", stderr);
        } else if (last_rounds > 0 && std::holds_alternative<compare::rounds_data>(measured) &&
                   !std::get<compare::rounds_data>(measured).interrupted) {
            log_round(last_rounds, last_rows);  // the last round
        }
        if (auto* f = std::get_if<compare::rounds_failure>(&measured)) {
            return fail(f->status, f->message);
        }
        results = compare::aggregate_rounds(std::get<compare::rounds_data>(measured), vo);
        gbench_memory = std::get<compare::rounds_data>(measured).gbench_memory;
        instrumented = compare::instrumentation_of(std::get<compare::rounds_data>(measured), gbench);
        results.cpus = ro.cpus;
        results.matched_layouts = ro.layout_seed.has_value();
    }
    compare::judge_instrumentation(results, instrumented.first, instrumented.second,
                                   args.allow_mixed_instrumentation);
    results.base_label = args.base;
    results.head_label = args.head;
    results.tare_version = TARE_VERSION_STRING;
    results.host = os::host_name();
    results.date = os::utc_now_iso8601();
    // An empty shard is a runner with nothing to do (more runners than benchmarks), not an error;
    // an interrupted comparison says so itself.
    if (results.rows.empty() && !shard && !results.interrupted) {
        // Nothing to compare is an input problem, never an empty "all clear".
        std::string message = "no benchmark is on both sides";
        if (!args.filter.empty()) {
            message += " (with --filter=" + args.filter + ")";
        }
        message += ": base has " + std::to_string(results.only_in_base.size()) + ", head has " +
                   std::to_string(results.only_in_head.size());
        if (!results.only_in_base.empty() && !results.only_in_head.empty()) {
            message += "; benchmarks renamed in head are paired by --rename='REGEX=REPLACEMENT'";
        }
        return fail(exit_usage, message);
    }

    // With --json=- or --html=- the document is standard output's alone, the table on standard error.
    std::FILE* const out =
        table_stream(names_standard_output(args.json_path) || names_standard_output(args.html_path));
    std::fputs((args.markdown
                    ? report::make_markdown_reporter<compare_results>()
                    : report::make_console_reporter<compare_results>(terminal_style(args.color, fileno(out))))
                   ->render(results)
                   .c_str(),
               out);
    if (gbench_memory || results.mode == pairing::process_rounds) {
        std::fputs(gbench_compare_note(results, gbench_memory).c_str(), out);
    }
    std::fflush(out);
    if (args.json_path) {
        if (auto e = write_output(*args.json_path,
                                  report::make_json_reporter<compare_results>()->render(results))) {
            return fail(exit_usage, *e);
        }
    }
    if (args.html_path) {
        if (auto e = write_output(*args.html_path,
                                  report::make_html_reporter<compare_results>()->render(results))) {
            return fail(exit_usage, *e);
        }
    }
    if (results.interrupted) {
        const int signal = os::interrupted();
        if (args.instrument) {
            std::fprintf(stderr,
                         "error: interrupted: the table holds the benchmarks counted on both sides\n");
        } else {
            std::fprintf(stderr, "error: interrupted after %zu round%s: the table holds those rounds\n",
                         results.rounds, results.rounds == 1 ? "" : "s");
        }
        return os::interrupted_status(signal != 0 ? signal : SIGINT);
    }
    for (const auto& row : results.rows) {
        for (const auto* side : {&row.base, &row.head}) {
            if (is_process_failure(side->error)) {
                std::fprintf(stderr, "error: %s: %s\n", row.name.c_str(), side->error->message.c_str());
                return exit_not_run;
            }
        }
    }
    if (args.fail_on_regression && compare::refuses_mixed_instrumentation(results)) {
        // A gate must not pass on a comparison whose time it cannot judge (docs/compare.md).
        std::fprintf(stderr,
                     "error: base and head are not instrumented alike, so time was not judged; build "
                     "both alike, or give --allow-mixed-instrumentation\n");
        return exit_usage;
    }
    if (args.fail_on_regression && compare::has_regression(results, *args.fail_on_regression)) {
        return exit_regression;
    }
    return exit_ok;
}

}  // namespace tare::cli
