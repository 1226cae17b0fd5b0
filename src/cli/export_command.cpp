// `tare export FILE --format=bmf|gab|gab-bigger|csv [--side=head|base] [--output=PATH]`: a results
// file (tare/1 or Google Benchmark JSON) or a comparison (tare-compare/1) in the format a
// continuous-benchmarking service reads (docs/exports.md). `tare run --export=FORMAT:PATH` writes
// the same from a run.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <variant>

#include "cli/commands.hpp"
#include "cli/usage.hpp"
#include "io/atomic_file.hpp"
#include "io/compare_mapping.hpp"
#include "io/gbench_reader.hpp"
#include "main/flag_checks.hpp"
#include "report/export/exports.hpp"

namespace tare::cli {

// The flag checks the benchmark executable shares (main/flag_checks.hpp).
using namespace flags;

namespace {

constexpr const char* format_names = "bmf, gab, gab-bigger or csv";

}  // namespace

CLI::App* add_export_command(CLI::App& app, export_args& args) {
    CLI::App* cmd = app.add_subcommand(
        "export",
        "write a results file or a comparison as Bencher's BMF, github-action-benchmark's JSON or CSV");
    cmd->add_option("FILE", args.results,
                    "a results file (tare/1, Google Benchmark) or a comparison (tare-compare/1)")
        ->required()
        ->type_name("FILE");
    cmd->footer(
        "Examples:\n"
        "  tare export results.json --format=bmf > bmf.json\n"
        "  tare export compare.json --format=csv --side=head > compare.csv\n"
        "Every format: " +
        doc_path("exports.md"));
    cmd->add_option("--format", args.format, std::string("the format (required): ") + format_names)
        ->type_name("FORMAT");
    cmd->add_option("--side", args.side,
                    "a comparison's side that bmf, gab and gab-bigger carry: head (default) or base")
        ->type_name("head|base")
        ->check(one_of({"head", "base"}));
    cmd->add_option("--output", args.output, "write to PATH instead of standard output (-: standard output)")
        ->type_name("PATH");
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

namespace {

// What an export in format `f` is written for: its `what` names the rows, `text` the bytes.
struct export_text {
    report::export_format f;
    std::string text;
    std::vector<std::string> names;     // every row's name, for the notes on shortened ones
    std::vector<std::string> left_out;  // rows the format has no place for
    std::string why;                    // why they are left out
};

// The export's bytes to `path` (atomically) or to standard output (none, or "-"), with a note for
// each row left out and each name shortened; an export a service would refuse for being empty
// is not written at all, with a note saying so.
std::optional<std::string> put_export(const export_text& e, const std::optional<std::string>& path) {
    for (const auto& name : e.left_out) {
        std::fprintf(stderr, "note: %s is not in the export: %s\n", name.c_str(), e.why.c_str());
    }
    if (e.f == report::export_format::bmf) {
        for (const auto& name : e.names) {
            if (name.size() > report::bmf_name_limit) {
                std::fprintf(stderr,
                             "warning: a benchmark name of %zu bytes is longer than Bencher takes (%zu): "
                             "exported as %s\n",
                             name.size(), report::bmf_name_limit, report::bmf_name(name).c_str());
            }
        }
    }
    if (report::nothing_to_export(e.text, e.f)) {
        const std::string unwritten =
            path && *path != "-" ? *path + " was not written" : "nothing was written";
        std::fprintf(stderr,
                     "note: nothing to export as github-action-benchmark's %s: no row has such a "
                     "figure, so %s (the action fails a step on an empty list)\n",
                     e.f == report::export_format::gab ? "customSmallerIsBetter" : "customBiggerIsBetter",
                     unwritten.c_str());
        return std::nullopt;
    }
    return write_output(path.value_or("-"), e.text);
}

std::vector<std::string> names_of(const run_results& results) {
    std::vector<std::string> out;
    for (const auto& b : results.benchmarks)
        out.push_back(b.name);
    return out;
}

std::vector<std::string> names_of(const compare_results& results) {
    std::vector<std::string> out;
    for (const auto& row : results.rows)
        out.push_back(row.name);
    return out;
}

}  // namespace

std::optional<std::string> write_export(const run_results& results, report::export_format f,
                                        const std::optional<std::string>& path) {
    return put_export({f, report::make_export_reporter(f)->render(results), names_of(results),
                       report::rows_left_out(results, f), "it has no measured figures (an error row)"},
                      path);
}

int export_command(const export_args& args) {
    if (args.results.empty()) {
        return fail(exit_usage,
                    "tare export: give the results file or comparison to export (tare export FILE "
                    "--format=FORMAT)");
    }
    if (args.format.empty()) {
        return fail(exit_usage,
                    std::string("tare export: --format=FORMAT is required (") + format_names + ")");
    }
    auto f = report::parse_export_format(args.format);
    if (!f) {
        return fail(exit_usage, "tare export: unknown --format '" + args.format + "' (" + format_names + ")");
    }
    if (args.side && args.side != "head" && *f == report::export_format::csv) {
        // CSV carries both sides; a side asked for is a misunderstanding worth naming.
        return fail(exit_usage,
                    "tare export: --side picks the side of bmf, gab and gab-bigger; csv has both");
    }
    auto text = io::read_text_file(args.results);
    if (const auto* e = std::get_if<io::read_error>(&text)) {
        return fail(exit_usage, e->message);
    }
    const auto schema = io::document_schema(std::get<std::string>(text));
    if (schema == "tare-compare/1") {
        auto read = io::parse_compare_json(std::get<std::string>(text), args.results);
        std::string().swap(std::get<std::string>(text));  // never in memory with the export
        if (const auto* e = std::get_if<io::read_error>(&read)) {
            return fail(exit_usage, e->message);
        }
        const auto side = args.side == "base" ? report::compare_side::base : report::compare_side::head;
        const auto& results = std::get<compare_results>(read);
        if (auto e = put_export(
                {*f, report::make_compare_export_reporter(*f, side)->render(results), names_of(results),
                 report::rows_left_out(results, *f, side),
                 "its " + args.side.value_or("head") + " side has no measured figures (it failed)"},
                args.output)) {
            return fail(exit_usage, *e);
        }
        std::fflush(stdout);
        return exit_ok;
    }
    if (schema && *schema != "tare/1") {
        return fail(exit_usage,
                    args.results + ": a " + *schema +
                        " file; tare export takes results files (tare/1 or Google Benchmark JSON) "
                        "and comparisons (tare-compare/1)");
    }
    if (args.side) {
        return fail(exit_usage,
                    "tare export: --side applies to a comparison; " + args.results + " is a results file");
    }
    auto read = io::parse_any_results(std::get<std::string>(text), args.results);
    std::string().swap(std::get<std::string>(text));
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
