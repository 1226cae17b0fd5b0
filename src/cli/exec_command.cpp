// `tare exec [--runs=N] [--vs=CMD] -- CMD ARGS...`: whole-process timing (docs/cli.md). The
// flags are checked and handed to the engine in src/exec; its results are printed and written.
#include <cstdio>
#include <variant>

#include "cli/commands.hpp"
#include "exec/exec.hpp"
#include "io/atomic_file.hpp"
#include "report/exec_report.hpp"

namespace tare::cli {

int exec_command(const exec_args& args) {
    if (args.command.empty()) {
        return fail(exit_usage, "tare exec: no command given (tare exec [OPTIONS] -- CMD ARGS...)");
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
    if (auto* f = std::get_if<exec::failure>(&outcome)) {
        return fail(f->status, f->message);
    }
    const exec_results& results = std::get<exec_results>(outcome);
    std::fputs(report::render_exec_table(results, args.markdown).c_str(), stdout);
    if (args.json_path) {
        if (auto e = io::write_file_atomically(*args.json_path, report::render_exec_json(results))) {
            return fail(exit_usage, *e);
        }
    }
    return exit_ok;
}

}  // namespace tare::cli
