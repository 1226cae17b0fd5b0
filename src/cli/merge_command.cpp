// `tare merge A.json B.json ... --json=OUT`: the results files of one suite's shards joined into
// one (compare/merge.hpp; docs/cli.md, "tare merge"), its table printed as `tare run` prints one.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <variant>

#include "cli/commands.hpp"
#include "compare/merge.hpp"
#include "io/atomic_file.hpp"
#include "io/gbench_reader.hpp"
#include "report/reporter.hpp"

namespace tare::cli {

CLI::App* add_merge_command(CLI::App& app, merge_args& args) {
    CLI::App* cmd = app.add_subcommand("merge", "join the results files of a suite's shards into one");
    cmd->add_option("files", args.files, "results files (tare/1, Google Benchmark), two or more")->required();
    cmd->add_option("--json", args.json_path, "write the merged tare/1 file to PATH")->type_name("PATH");
    cmd->add_flag("--md", args.markdown, "print the table as Markdown");
    return cmd;
}

int merge_command(const merge_args& args) {
    // The only output worth having: without it the command would print a table and keep nothing.
    if (!args.json_path || args.json_path->empty()) {
        return fail(exit_usage, "tare merge: --json=PATH is required (the merged file to write)");
    }
    std::vector<compare::merge_input> inputs;
    for (const auto& path : args.files) {
        auto read = io::read_any_results_file(path);
        if (const auto* e = std::get_if<io::read_error>(&read)) {
            return fail(exit_usage, e->message);
        }
        inputs.push_back({path, std::move(std::get<run_results>(read))});
    }
    auto merged = compare::merge_results(std::move(inputs));
    if (const auto* e = std::get_if<std::string>(&merged)) {
        return fail(exit_usage, *e);
    }
    const run_results& results = std::get<run_results>(merged);
    if (auto e = io::write_file_atomically(*args.json_path,
                                           report::make_json_reporter<run_results>()->render(results))) {
        return fail(exit_usage, *e);
    }
    auto table = args.markdown ? report::make_markdown_reporter<run_results>()
                               : report::make_console_reporter<run_results>();
    std::fputs(table->render(results).c_str(), stdout);
    std::fflush(stdout);
    return exit_ok;
}

}  // namespace tare::cli
