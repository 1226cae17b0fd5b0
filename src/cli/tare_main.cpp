// The `tare` command: a thin dispatcher over one file per subcommand.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/commands.hpp"
#include "tare/version.hpp"

int main(int argc, char** argv) {
    using namespace tare::cli;
    CLI::App app{"tare: time and memory of the timed region, and honest comparisons"};
    app.set_version_flag("--version", "tare " TARE_VERSION_STRING);
    app.require_subcommand(1);

    run_args run;
    CLI::App* run_cmd =
        app.add_subcommand("run", "run a benchmark executable (or read results) and print its table");
    run_cmd
        ->add_option("targets", run.targets,
                     "benchmark executables or results files (tare/1, Google Benchmark)")
        ->required();
    run_cmd->add_option("--filter", run.filter, "run only names that REGEX matches")->type_name("REGEX");
    run_cmd->add_option("--json", run.json_path, "write the results as tare/1 JSON to PATH")
        ->type_name("PATH");
    run_cmd->add_option("--min-time", run.min_time, "time budget per benchmark, seconds")
        ->type_name("SECONDS");
    run_cmd->add_flag("--md", run.markdown, "print the table as Markdown");

    exec_args exec;
    CLI::App* exec_cmd = app.add_subcommand("exec", "time whole processes: wall, user, sys, RSS, faults");
    exec_cmd->add_option("command", exec.command, "the command (head), after --")->required();
    exec_cmd->add_option("--runs", exec.runs, "runs per command (default 10)")->check(CLI::Range(1, 1000000));
    exec_cmd->add_option("--vs", exec.vs, "base command to compare against, one quoted string")
        ->type_name("CMD");
    exec_cmd->add_option("--warmup", exec.warmup, "untimed runs of each command first (default 1)");
    exec_cmd->add_option("--threshold", exec.threshold_pct, "noise band of the verdict, percent")
        ->type_name("PCT")
        ->check(CLI::Range(0.0, 1e6));
    exec_cmd->add_option("--timeout", exec.timeout, "seconds per run before it is killed")
        ->type_name("SECONDS")
        ->check(CLI::Range(0.001, 1e6));
    exec_cmd->add_option("--json", exec.json_path, "write tare-exec/1 JSON to PATH")->type_name("PATH");
    exec_cmd->add_flag("--md", exec.markdown, "print the table as Markdown");
    exec_cmd->add_flag("--show-output", exec.show_output, "let the commands' output through");

    compare_args cmp;
    CLI::App* cmp_cmd = app.add_subcommand(
        "compare",
        "compare HEAD against BASE: two executables (rounds of fresh processes) or two results files");
    cmp_cmd->add_option("base", cmp.base, "the base: a benchmark executable or a results file")->required();
    cmp_cmd->add_option("head", cmp.head, "the head: of the same kind as the base")->required();
    cmp_cmd->add_option("--rounds", cmp.rounds, "rounds of fresh processes of both sides (default 20)")
        ->check(CLI::Range(1, 100000));
    cmp_cmd
        ->add_option("--min-time", cmp.min_time,
                     "measured seconds per benchmark and side, all rounds (default 1)")
        ->type_name("SECONDS")
        ->check(CLI::PositiveNumber);
    cmp_cmd
        ->add_option("--samples", cmp.samples,
                     "samples per side in each round (default 40; Google Benchmark: repetitions, default 4)")
        ->check(CLI::Range(2, 100000));
    cmp_cmd
        ->add_option("--cpu", cmp.cpu,
                     "CPUs every worker of both sides runs on: auto (one CPU, default), none, or a list "
                     "like 3 or 0-3,6")
        ->type_name("auto|none|LIST");
    cmp_cmd
        ->add_option("--layout", cmp.layout,
                     "address-space layouts: matched (both sides of a round in one random layout, a new "
                     "one each round; default) or kernel (each process its own)")
        ->check(CLI::IsMember({"matched", "kernel"}));
    cmp_cmd->add_option("--timeout", cmp.timeout, "seconds a worker may take to answer (default 60)")
        ->type_name("SECONDS")
        ->check(CLI::PositiveNumber);
    cmp_cmd->add_option("--filter", cmp.filter, "compare only names that REGEX matches")->type_name("REGEX");
    cmp_cmd
        ->add_option("--family", cmp.family,
                     "how the verdicts share their 5%: fdr (false discovery rate, Benjamini-Hochberg; "
                     "default) or fwer (family-wise, Bonferroni)")
        ->check(CLI::IsMember({"fdr", "fwer"}));
    cmp_cmd->add_option("--threshold", cmp.threshold_pct, "noise band of the verdicts, percent")
        ->type_name("PCT")
        ->check(CLI::Range(0.0, 1e6));
    // A flag with an optional "=PCT": an option with an optional value would swallow the next
    // positional ("--fail-on-regression base head" would read "base" as PCT).
    double fail_pct = 0;
    CLI::Option* fail_opt =
        cmp_cmd
            ->add_flag("--fail-on-regression{0}", fail_pct,
                       "exit 1 when a benchmark is slower by more than PCT (=PCT; default 0)")
            ->type_name("[=PCT]");
    cmp_cmd->add_option("--json", cmp.json_path, "write tare-compare/1 JSON to PATH")->type_name("PATH");
    cmp_cmd->add_flag("--md", cmp.markdown, "print the table as Markdown");

    report_args rep;
    CLI::App* rep_cmd =
        app.add_subcommand("report", "render a results file as a self-contained HTML page with plots");
    rep_cmd->add_option("results", rep.results, "a results file (tare/1, Google Benchmark)")->required();
    rep_cmd->add_option("--html", rep.html_path, "write the HTML report to PATH")->type_name("PATH");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::fputs(app.help().c_str(), stdout);
        return exit_ok;
    } catch (const CLI::CallForVersion&) {
        std::puts("tare " TARE_VERSION_STRING);
        return exit_ok;
    } catch (const CLI::ParseError& e) {
        return fail(exit_usage, e.what());
    }
    if (run_cmd->parsed()) {
        return run_command(run);
    }
    if (cmp_cmd->parsed()) {
        if (fail_opt->count() > 0) {
            cmp.fail_on_regression = fail_pct;
        }
        return compare_command(cmp);
    }
    if (exec_cmd->parsed()) {
        return exec_command(exec);
    }
    if (rep_cmd->parsed()) {
        return report_command(rep);
    }
    return exit_ok;
}
