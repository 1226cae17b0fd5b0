// `tare compare BASE HEAD`: two tare executables in rounds of fresh worker processes (paired),
// or two results files (unpaired); docs/cli.md, docs/compare.md.
#include <signal.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <variant>

#include "cli/commands.hpp"
#include "cli/compare_engines.hpp"
#include "cli/usage.hpp"
#include "compare/instrumentation.hpp"
#include "main/flag_checks.hpp"
#include "os/interrupt.hpp"
#include "os/os.hpp"
#include "report/reporter.hpp"
#include "tare/version.hpp"

namespace tare::cli {

// The flag checks the benchmark executable shares (main/flag_checks.hpp).
using namespace flags;

namespace {

// How the rounds of fresh processes run: their number and length, and where the workers run.
void add_round_options(CLI::App* cmd, compare_args& args) {
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
}

}  // namespace

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
    add_round_options(cmd, args);
    cmd->add_option("--filter", args.filter,
                    "compare only names that REGEX matches (default: every benchmark)")
        ->type_name("REGEX");
    cmd->add_option("--shard", args.shard,
                    "compare only shard K of N of the benchmarks (by name), on both sides")
        ->type_name("K/N");
    one_value_each_time(cmd->add_option("--rename", args.renames,
                                        "pair head's benchmarks under other names: every match of REGEX in "
                                        "head's names replaced ($1 a group); repeatable, applied in order"))
        ->type_name("REGEX=REPLACEMENT");
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

// The flags and inputs checked, in the order a user would fix them: what each side is, then the
// selection, then the flags that apply to one kind of comparison only.
std::variant<compare_inputs, run_failure> check_inputs(const compare_args& args) {
    if (args.head.empty()) {
        return run_failure{
            exit_usage, std::string("tare compare: give ") + (args.base.empty() ? "BASE and HEAD" : "HEAD") +
                            ": two benchmark executables or two results files (tare compare BASE HEAD)"};
    }
    if (auto e = one_standard_output({{"--json=", args.json_path}, {"--html=", args.html_path}})) {
        return run_failure{exit_usage, *e};
    }
    if (auto e = one_standard_input("tare compare", {args.base, args.head})) {
        return run_failure{exit_usage, *e};
    }
    auto base_kind = classify_target(args.base);
    if (auto* f = std::get_if<run_failure>(&base_kind)) {
        return *f;
    }
    auto head_kind = classify_target(args.head);
    if (auto* f = std::get_if<run_failure>(&head_kind)) {
        return *f;
    }
    compare_inputs in;
    in.base_kind = std::get<target_kind>(base_kind);
    in.head_kind = std::get<target_kind>(head_kind);
    const target_kind bk = in.base_kind;
    const target_kind hk = in.head_kind;
    if (in.files() != is_file_kind(hk)) {
        // A file that cannot be read is the first thing to fix, and a file that is not
        // executable may have been meant as an executable: its reader's error says more.
        for (const auto& [path, k] : {std::pair{&args.base, bk}, std::pair{&args.head, hk}}) {
            if (is_file_kind(k)) {
                if (auto side = read_side(*path, k); auto* f = std::get_if<run_failure>(&side)) {
                    return *f;
                }
            }
        }
        return run_failure{exit_usage, "compare two executables or two results files, not one of each (" +
                                           args.base + ", " + args.head + ")"};
    }
    auto parsed = core::name_filter::parse(args.filter);
    if (auto* e = std::get_if<std::string>(&parsed)) {
        return run_failure{exit_usage, "--filter: " + *e};
    }
    in.filter = std::get<core::name_filter>(std::move(parsed));
    if (args.shard) {
        auto s = core::parse_shard(*args.shard);
        if (auto* e = std::get_if<std::string>(&s)) {
            return run_failure{exit_usage, *e};
        }
        in.shard = std::get<core::shard>(s);
    }
    for (const std::string& rule : args.renames) {
        if (auto why = in.renames.add(rule)) {
            return run_failure{exit_usage, *why};
        }
    }
    in.verdicts.threshold_pct = args.threshold_pct;
    in.verdicts.family = args.family == "fwer" ? family_control::fwer : family_control::fdr;
    if (!args.pass_env.empty() && !args.instrument) {
        return run_failure{exit_usage,
                           "--pass-env applies only with --instrument (timed workers have their whole "
                           "environment)"};
    }
    if (args.profile_dir && (!args.instrument || *args.instrument != "instructions")) {
        return run_failure{exit_usage,
                           "--profile compares the profiles of counted runs: give --instrument=instructions "
                           "(two files recorded with --profile are compared by function without it)"};
    }
    if (args.instrument && in.files()) {
        return run_failure{exit_usage,
                           "--instrument runs executables; these are results files (the counts of files "
                           "recorded with tare run --instrument are compared without it)"};
    }
    return in;
}

// The comparison's table on standard output (or standard error when a document goes there), its
// files, and the exit status it gives (docs/cli.md).
int report_comparison(const compare_args& args, const compare_results& results,
                      const std::optional<std::string>& gbench_memory) {
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
        if (auto e = write_report(*args.json_path, *report::make_json_reporter<compare_results>(), results)) {
            return fail(exit_usage, *e);
        }
    }
    if (args.html_path) {
        if (auto e = write_report(*args.html_path, *report::make_html_reporter<compare_results>(), results)) {
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

}  // namespace

int compare_command(const compare_args& args) {
    auto checked = check_inputs(args);
    if (auto* f = std::get_if<run_failure>(&checked)) {
        return fail(f->status, f->message);
    }
    const compare_inputs& in = std::get<compare_inputs>(checked);
    std::variant<compared, run_failure> made = args.instrument ? compare_counted_executables(args, in)
                                               : in.files()    ? compare_stored_files(args, in)
                                                               : compare_in_rounds(args, in);
    if (auto* f = std::get_if<run_failure>(&made)) {
        return fail(f->status, f->message);
    }
    auto& [results, instrumented, gbench_memory] = std::get<compared>(made);
    compare::judge_instrumentation(results, instrumented.first, instrumented.second,
                                   args.allow_mixed_instrumentation);
    results.base_label = args.base;
    results.head_label = args.head;
    results.tare_version = TARE_VERSION_STRING;
    results.host = os::host_name();
    results.date = os::utc_now_iso8601();
    // An empty shard is a runner with nothing to do (more runners than benchmarks), not an error;
    // an interrupted comparison says so itself.
    if (results.rows.empty() && !in.shard && !results.interrupted) {
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

    return report_comparison(args, results, gbench_memory);
}

}  // namespace tare::cli
