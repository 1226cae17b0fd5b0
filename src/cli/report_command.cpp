// `tare report RESULTS.json --html=PATH`: a results file (tare/1, tare-compare/1, tare-exec/1 or
// Google Benchmark JSON) rendered as one self-contained HTML page (docs/cli.md).
#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <variant>

#include "cli/commands.hpp"
#include "cli/usage.hpp"
#include "io/atomic_file.hpp"
#include "io/compare_mapping.hpp"
#include "io/exec_mapping.hpp"
#include "io/gbench_reader.hpp"
#include "io/results_reader.hpp"
#include "main/flag_checks.hpp"
#include "report/reporter.hpp"

namespace tare::cli {

// The flag checks the benchmark executable shares (main/flag_checks.hpp).
using namespace flags;

CLI::App* add_report_command(CLI::App& app, report_args& args) {
    CLI::App* cmd =
        app.add_subcommand("report", "render a results file as a self-contained HTML page with plots");
    cmd->add_option("FILE", args.results,
                    "a results file (tare/1, tare-compare/1, tare-exec/1, Google Benchmark)")
        ->required()
        ->type_name("FILE");
    cmd->add_option("--html", args.html_path, "write the HTML report to PATH (required)")->type_name("PATH");
    cmd->footer(
        "Examples:\n"
        "  tare report results.json --html=report.html\n"
        "  tare report compare.json --html=compare.html\n"
        "What the page shows: " +
        doc_path("reading-results.md") + ", \"The HTML report\"");
    return cmd;
}

namespace {

// The file's text is released once parsed, before the page (often several times its size) is
// written: the two are never in memory together. The page goes to `out` a section at a time
// (report/reporter.hpp, write()), so it is never whole in memory either. An error: the file's
// (read_error) or the output's (a message naming the path).
template <class Results, class Parse>
std::optional<io::read_error> render_as(std::string text, const std::string& path, Parse parse,
                                        const std::string& out, std::optional<std::string>& write_error) {
    auto read = parse(text, path);
    std::string().swap(text);
    if (const auto* e = std::get_if<io::read_error>(&read)) {
        return *e;
    }
    write_error = write_report(out, *report::make_html_reporter<Results>(), std::get<Results>(read));
    return std::nullopt;
}

// Writes the page for the file at `path` to `out`: a comparison's or an exec run's by its
// "schema", anything else through the results readers (tare/1, Google Benchmark), whose
// messages name what is wrong.
std::optional<io::read_error> render(const std::string& path, const std::string& out,
                                     std::optional<std::string>& write_error) {
    auto text = io::read_text_file(path);
    if (const auto* e = std::get_if<io::read_error>(&text)) {
        return *e;
    }
    std::string& t = std::get<std::string>(text);
    const auto schema = io::document_schema(t);
    if (schema == "tare-compare/1") {
        return render_as<compare_results>(std::move(t), path, io::parse_compare_json, out, write_error);
    }
    if (schema == "tare-exec/1") {
        return render_as<exec_results>(std::move(t), path, io::parse_exec_json, out, write_error);
    }
    return render_as<run_results>(std::move(t), path, io::parse_any_results, out, write_error);
}

}  // namespace

int report_command(const report_args& args) {
    if (args.results.empty()) {
        return fail(exit_usage,
                    "tare report: give the results file to render (tare report FILE --html=PATH)");
    }
    // The only output there is: without it the command would read a file and do nothing.
    if (!args.html_path || args.html_path->empty()) {
        return fail(exit_usage, "tare report: --html=PATH is required (the HTML file to write)");
    }
    std::optional<std::string> write_error;
    if (const auto e = render(args.results, *args.html_path, write_error)) {
        return fail(exit_usage, e->message);
    }
    if (write_error) {
        return fail(exit_usage, *write_error);  // names the path
    }
    return exit_ok;
}

}  // namespace tare::cli
