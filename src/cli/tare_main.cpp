// The `tare` command: a thin dispatcher over one file per subcommand (flags and all).
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/commands.hpp"
#include "cli/usage.hpp"
#include "main/flag_checks.hpp"
#include "os/interrupt.hpp"
#include "os/process.hpp"
#include "tare/version.hpp"

namespace {

using namespace tare::cli;
using namespace tare::flags;  // the flag checks the benchmark executable shares

// Every subcommand's flags, filled by the parse, and the subcommands that hold them.
struct command_line {
    run_args run;
    exec_args exec;
    compare_args cmp;
    report_args rep;
    export_args exp;
    merge_args mrg;
    history_args hist;
    std::optional<std::string> help_topic;
    CLI::App* run_cmd = nullptr;
    CLI::App* exec_cmd = nullptr;
    CLI::App* cmp_cmd = nullptr;
    CLI::App* rep_cmd = nullptr;
    CLI::App* exp_cmd = nullptr;
    CLI::App* mrg_cmd = nullptr;
    CLI::App* hist_cmd = nullptr;
    CLI::App* help_cmd = nullptr;

    explicit command_line(CLI::App& app)
        : run_cmd(add_run_command(app, run)),
          exec_cmd(add_exec_command(app, exec)),
          cmp_cmd(add_compare_command(app, cmp)),
          rep_cmd(add_report_command(app, rep)),
          exp_cmd(add_export_command(app, exp)),
          mrg_cmd(add_merge_command(app, mrg)),
          hist_cmd(add_history_command(app, hist)),
          help_cmd(app.add_subcommand("help", "print the commands, or one command's flags: tare help run")) {
        help_cmd->add_option("COMMAND", help_topic, "the command whose flags to print")->type_name("");
    }
};

// The parsed subcommand, run.
int run_parsed(const CLI::App& app, const command_line& cl) {
    if (cl.help_cmd->parsed()) {
        return print_help(app, cl.help_topic);
    }
    // Only the commands that run something stop on a signal at a step of their own and keep
    // what finished (docs/cli.md, "Interrupting a run"). report, export and merge keep the
    // default action: a signal ends them at once, and their atomic writes leave no half file;
    // a handler there would leave them blind to it (a blocked open of a named pipe, a long read).
    // They also end what their children leave running when they end: a detached daemon too.
    if (cl.run_cmd->parsed() || cl.cmp_cmd->parsed() || cl.exec_cmd->parsed()) {
        tare::os::handle_interrupts();
        tare::os::adopt_orphans();
    }
    if (cl.run_cmd->parsed()) {
        return run_command(cl.run);
    }
    if (cl.cmp_cmd->parsed()) {
        return compare_command(cl.cmp);
    }
    if (cl.exec_cmd->parsed()) {
        return exec_command(cl.exec);
    }
    if (cl.rep_cmd->parsed()) {
        return report_command(cl.rep);
    }
    if (cl.exp_cmd->parsed()) {
        return export_command(cl.exp);
    }
    if (cl.mrg_cmd->parsed()) {
        return merge_command(cl.mrg);
    }
    if (cl.hist_cmd->parsed()) {
        return history_command(cl.hist);
    }
    return exit_ok;
}

int dispatch(int argc, char** argv) {
    CLI::App app{"tare: time and memory of the timed region, and honest comparisons", "tare"};
    app.set_version_flag("-V,--version", "tare " TARE_VERSION_STRING);
    app.formatter(std::make_shared<help_formatter>());
    app.require_subcommand(1);
    command_line cl(app);

    if (argc <= 1) {
        // Bare `tare`: what it can do, not only what is missing.
        std::fputs(app.help().c_str(), stderr);
        return fail(exit_usage,
                    "a subcommand is required (run, compare, exec, report, export, merge or history)");
    }
    // CLI11 would say "A subcommand is required" of `tare rn`: the word typed is named instead.
    if (auto misspelt = misspelt_command(app, argc, argv)) {
        return fail(exit_usage, *misspelt);
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::fputs(app.help().c_str(), stdout);
        return exit_ok;
    } catch (const CLI::CallForVersion&) {
        std::puts("tare " TARE_VERSION_STRING);
        return exit_ok;
    } catch (const CLI::RequiredError& e) {
        if (missing_operand(app)) {
            return run_parsed(app, cl);  // which says what to give, first of all
        }
        return fail(exit_usage, parse_error_message(app, e));
    } catch (const CLI::ParseError& e) {
        return fail(exit_usage, parse_error_message(app, e));
    }
    return run_parsed(app, cl);
}

}  // namespace

int main(int argc, char** argv) {
    return tare::flags::check_standard_output(dispatch(argc, argv), tare::cli::exit_usage);
}
