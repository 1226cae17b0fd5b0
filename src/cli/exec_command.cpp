// `tare exec [--runs=N] [--vs=CMD] -- CMD ARGS...`: the flags of whole-process timing
// (docs/cli.md), handed to the engine in src/exec, and its table and JSON.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <variant>

#include "cli/commands.hpp"
#include "cli/usage.hpp"
#include "exec/abba_runs.hpp"
#include "io/atomic_file.hpp"
#include "main/flag_checks.hpp"
#include "os/interrupt.hpp"
#include "report/reporter.hpp"

namespace tare::cli {

// The flag checks the benchmark executable shares (main/flag_checks.hpp).
using namespace flags;

CLI::App* add_exec_command(CLI::App& app, exec_args& args) {
    CLI::App* cmd = app.add_subcommand("exec", "time whole processes: wall, user, sys, RSS, faults");
    cmd->footer(
        "Examples:\n"
        "  tare exec --runs=20 -- ./mytool input.txt\n"
        "  tare exec --runs=20 --vs=\"./old/mytool input.txt\" -- ./new/mytool input.txt --md\n"
        "Method and every flag: " +
        doc_path("exec.md") + ", " + doc_path("cli.md"));
    cmd->add_option("CMD", args.command, "the command (head), after --")->required()->type_name("CMD ARGS");
    cmd->add_option("--runs", args.runs, "runs per command (default 10)")
        ->type_name("N")
        ->check(whole_number(1, 1000000));
    cmd->add_option("--vs", args.vs, "base command to compare against, one quoted string (default: none)")
        ->type_name("CMD");
    cmd->add_option("--warmup", args.warmup, "untimed runs of each command first (default 1)")
        ->type_name("N");
    cmd->add_option("--threshold", args.threshold_pct, "noise band of the verdict, percent (default 0: none)")
        ->type_name("PCT")
        ->check(finite_number(0, 1e6));
    cmd->add_option("--timeout", args.timeout, "seconds per run before it is killed (default: none)")
        ->type_name("SECONDS")
        ->check(finite_number(0.001, 1e6));
    cmd->add_option("--json", args.json_path, "write tare-exec/1 JSON to PATH")->type_name("PATH");
    cmd->add_flag("--md", args.markdown, "print the table as Markdown");
    add_color_option(cmd, args.color);
    cmd->add_flag("--show-output", args.show_output, "let the commands' output through");
    return cmd;
}

int exec_command(const exec_args& args) {
    if (args.command.empty()) {
        return fail(exit_usage,
                    "tare exec: give the command to time after -- (tare exec [OPTIONS] -- CMD ARGS...)");
    }
    if (args.runs < 1) {
        return fail(exit_usage, "tare exec: --runs must be at least 1");
    }
    exec::options opts;
    opts.head = args.command;
    if (args.vs) {
        auto split = exec::split_command_line(*args.vs);
        if (auto* e = std::get_if<std::string>(&split)) {
            return fail(exit_usage, "tare exec: --vs: " + *e);
        }
        opts.base = std::move(std::get<std::vector<std::string>>(split));
    }
    opts.runs = args.runs;
    opts.warmup = args.warmup;
    opts.threshold_pct = args.threshold_pct;
    opts.timeout_seconds = args.timeout;
    opts.show_output = args.show_output;
    auto outcome = exec::run(opts);
    if (const int signal = os::interrupted(); signal != 0) {
        // The run in progress was stopped with the command: no figure would be whole.
        return fail(os::interrupted_status(signal),
                    "interrupted: the runs were stopped, nothing is reported");
    }
    if (auto* f = std::get_if<exec::failure>(&outcome)) {
        return fail(f->status, f->message);
    }
    const exec_results& results = std::get<exec_results>(outcome);
    std::FILE* const out = table_stream(names_standard_output(args.json_path));
    std::fputs(
        (args.markdown ? report::make_markdown_reporter<exec_results>()
                       : report::make_console_reporter<exec_results>(terminal_style(args.color, fileno(out))))
            ->render(results)
            .c_str(),
        out);
    std::fflush(out);
    if (args.json_path) {
        if (auto e =
                write_output(*args.json_path, report::make_json_reporter<exec_results>()->render(results))) {
            return fail(exit_usage, *e);
        }
    }
    return exit_ok;
}

}  // namespace tare::cli
