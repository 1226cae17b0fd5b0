// The `tare` command: a thin dispatcher over one file per subcommand (flags and all).
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/checks.hpp"
#include "cli/commands.hpp"
#include "os/interrupt.hpp"
#include "tare/version.hpp"

namespace {

int dispatch(int argc, char** argv) {
    using namespace tare::cli;
    CLI::App app{"tare: time and memory of the timed region, and honest comparisons", "tare"};
    app.set_version_flag("--version", "tare " TARE_VERSION_STRING);
    app.formatter(std::make_shared<help_formatter>());
    app.require_subcommand(1);

    run_args run;
    exec_args exec;
    compare_args cmp;
    report_args rep;
    export_args exp;
    merge_args mrg;
    CLI::App* run_cmd = add_run_command(app, run);
    CLI::App* exec_cmd = add_exec_command(app, exec);
    CLI::App* cmp_cmd = add_compare_command(app, cmp);
    CLI::App* rep_cmd = add_report_command(app, rep);
    CLI::App* exp_cmd = add_export_command(app, exp);
    CLI::App* mrg_cmd = add_merge_command(app, mrg);

    if (argc <= 1) {
        // Bare `tare`: what it can do, not only what is missing.
        std::fputs(app.help().c_str(), stderr);
        return fail(exit_usage, "a subcommand is required (run, compare, exec, report, export or merge)");
    }
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
    // Only the commands that run something stop on a signal at a step of their own and keep
    // what finished (docs/cli.md, "Interrupting a run"). report, export and merge keep the
    // default action: a signal ends them at once, and their atomic writes leave no half file;
    // a handler there would leave them blind to it (a blocked open of a named pipe, a long read).
    if (run_cmd->parsed() || cmp_cmd->parsed() || exec_cmd->parsed()) {
        tare::os::handle_interrupts();
    }
    if (run_cmd->parsed()) {
        return run_command(run);
    }
    if (cmp_cmd->parsed()) {
        return compare_command(cmp);
    }
    if (exec_cmd->parsed()) {
        return exec_command(exec);
    }
    if (rep_cmd->parsed()) {
        return report_command(rep);
    }
    if (exp_cmd->parsed()) {
        return export_command(exp);
    }
    if (mrg_cmd->parsed()) {
        return merge_command(mrg);
    }
    return exit_ok;
}

}  // namespace

int main(int argc, char** argv) {
    return tare::cli::check_standard_output(dispatch(argc, argv), tare::cli::exit_usage);
}
