// `tare export RESULTS --format=bmf|gab|gab-bigger|csv [--output=PATH]`: a results file (tare/1 or
// Google Benchmark JSON) in the format a continuous-benchmarking service reads (docs/exports.md).
// `tare run --export=FORMAT:PATH` writes the same from a run.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>

#include "cli/commands.hpp"
#include "io/atomic_file.hpp"
#include "io/gbench_reader.hpp"
#include "report/export/exports.hpp"

namespace tare::cli {

namespace {

constexpr const char* format_names = "bmf, gab, gab-bigger or csv";

}  // namespace

CLI::App* add_export_command(CLI::App& app, export_args& args) {
    CLI::App* cmd = app.add_subcommand(
        "export", "write a results file as Bencher's BMF, github-action-benchmark's JSON or CSV");
    cmd->add_option("results", args.results, "a results file (tare/1, Google Benchmark)")->required();
    cmd->add_option("--format", args.format, std::string("the format: ") + format_names)
        ->type_name("FORMAT")
        ->required();
    cmd->add_option("--output", args.output, "write to PATH instead of standard output")->type_name("PATH");
    return cmd;
}

std::variant<export_request, std::string> parse_export_request(const std::string& spec) {
    const auto colon = spec.find(':');
    if (colon == std::string::npos || colon + 1 == spec.size()) {
        return "--export=" + spec + ": expected FORMAT:PATH, FORMAT one of " + format_names;
    }
    auto f = report::parse_export_format(spec.substr(0, colon));
    if (!f) {
        return "--export=" + spec + ": unknown format '" + spec.substr(0, colon) + "' (" + format_names + ")";
    }
    return export_request{*f, spec.substr(colon + 1)};
}

std::optional<std::string> write_export(const run_results& results, report::export_format f,
                                        const std::optional<std::string>& path) {
    const std::string text = report::make_export_reporter(f)->render(results);
    for (const auto& name : report::rows_left_out(results, f)) {
        std::fprintf(stderr, "note: %s is not in the export: it has no measured figures (an error row)\n",
                     name.c_str());
    }
    if (!path) {
        std::fputs(text.c_str(), stdout);
        return std::nullopt;
    }
    return io::write_file_atomically(*path, text);
}

int export_command(const export_args& args) {
    auto f = report::parse_export_format(args.format);
    if (!f) {
        return fail(exit_usage, "tare export: unknown --format '" + args.format + "' (" + format_names + ")");
    }
    // A comparison is two sides' figures and a change; its export is not a run's.
    if (auto text = io::read_text_file(args.results); std::holds_alternative<std::string>(text)) {
        const auto doc =
            nlohmann::json::parse(std::get<std::string>(text), nullptr, /*allow_exceptions=*/false);
        if (doc.is_object() && doc.contains("schema") && doc["schema"].is_string() &&
            doc["schema"] != "tare/1") {
            return fail(exit_usage, args.results + ": a " + doc["schema"].get<std::string>() +
                                        " file; tare export takes results files (tare/1 or Google "
                                        "Benchmark JSON): export each side's results instead");
        }
    }
    auto read = io::read_any_results_file(args.results);
    if (const auto* e = std::get_if<io::read_error>(&read)) {
        return fail(exit_usage, e->message);
    }
    if (auto e = write_export(std::get<run_results>(read), *f, args.output)) {
        return fail(exit_usage, *e);
    }
    std::fflush(stdout);
    return exit_ok;
}

}  // namespace tare::cli
