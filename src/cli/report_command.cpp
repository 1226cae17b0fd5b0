// `tare report RESULTS.json --html=PATH`: a results file (tare/1 or Google Benchmark JSON)
// rendered as one self-contained HTML page (docs/cli.md).
#include <CLI/CLI.hpp>
#include <variant>

#include "cli/commands.hpp"
#include "io/atomic_file.hpp"
#include "io/gbench_reader.hpp"
#include "report/reporter.hpp"

namespace tare::cli {

CLI::App* add_report_command(CLI::App& app, report_args& args) {
    CLI::App* cmd =
        app.add_subcommand("report", "render a results file as a self-contained HTML page with plots");
    cmd->add_option("results", args.results, "a results file (tare/1, Google Benchmark)")->required();
    cmd->add_option("--html", args.html_path, "write the HTML report to PATH")->type_name("PATH");
    return cmd;
}

int report_command(const report_args& args) {
    // The only output there is: without it the command would read a file and do nothing.
    if (!args.html_path || args.html_path->empty()) {
        return fail(exit_usage, "tare report: --html=PATH is required (the HTML file to write)");
    }
    auto read = io::read_any_results_file(args.results);
    if (const auto* e = std::get_if<io::read_error>(&read)) {
        return fail(exit_usage, e->message);
    }
    const std::string page = report::make_html_reporter<run_results>()->render(std::get<run_results>(read));
    if (auto error = io::write_file_atomically(*args.html_path, page)) {
        return fail(exit_usage, *error);  // names the path
    }
    return exit_ok;
}

}  // namespace tare::cli
