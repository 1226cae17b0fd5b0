// `tare merge A.json B.json ... --json=OUT`: the results files of one suite's shards joined into
// one, its table printed as `tare run` prints one; or the comparisons of its shards (`tare
// compare --shard=K/N`) joined and judged again as one family, their table printed as `tare
// compare` prints one (compare/merge.hpp; docs/cli.md, "tare merge").
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <variant>

#include "cli/commands.hpp"
#include "cli/usage.hpp"
#include "compare/aggregate.hpp"
#include "compare/instrumentation.hpp"
#include "compare/merge.hpp"
#include "io/atomic_file.hpp"
#include "io/compare_mapping.hpp"
#include "io/gbench_reader.hpp"
#include "main/flag_checks.hpp"
#include "report/reporter.hpp"

namespace tare::cli {

// The flag checks the benchmark executable shares (main/flag_checks.hpp).
using namespace flags;

CLI::App* add_merge_command(CLI::App& app, merge_args& args) {
    CLI::App* cmd = app.add_subcommand(
        "merge", "join the results files, or the comparisons, of a suite's shards into one");
    cmd->add_option("FILE", args.files,
                    "results files (tare/1, Google Benchmark) or comparisons (tare-compare/1), two or more")
        ->required()
        ->type_name("FILE...");
    cmd->footer(
        "Examples:\n"
        "  tare merge shard-1.json shard-2.json shard-3.json --json=all.json\n"
        "  tare merge compare-*.json --json=compare.json --md --fail-on-regression=2\n"
        "Shards and merging: " +
        doc_path("ci.md") + ", " + doc_path("cli.md"));
    cmd->add_option("--json", args.json_path, "write the merged file to PATH (required)")->type_name("PATH");
    cmd->add_flag("--md", args.markdown, "print the table as Markdown");
    add_color_option(cmd, args.color);
    add_fail_on_regression(cmd, args.fail_on_regression);
    return cmd;
}

namespace {

// The table of `results` and its JSON to `json_path` (the table to standard error when the JSON
// goes to standard output, "-"); the error of writing.
template <class Results>
std::optional<std::string> put(const Results& results, const std::string& json_path, bool markdown,
                               const std::string& color) {
    std::FILE* const out = table_stream(json_path == "-");
    if (json_path != "-") {
        if (auto e = write_report(json_path, *report::make_json_reporter<Results>(), results)) {
            return e;
        }
    }
    auto table = markdown ? report::make_markdown_reporter<Results>()
                          : report::make_console_reporter<Results>(terminal_style(color, fileno(out)));
    std::fputs(table->render(results).c_str(), out);
    std::fflush(out);
    if (json_path == "-") {
        // After the table, as a benchmark executable writes them: the JSON is the last thing done.
        return write_report(json_path, *report::make_json_reporter<Results>(), results);
    }
    return std::nullopt;
}

// The files' texts, each read once (a pipe has no second reading), in the order given.
std::variant<std::vector<std::string>, io::read_error> read_all(const std::vector<std::string>& paths) {
    std::vector<std::string> texts;
    for (const auto& path : paths) {
        auto text = io::read_text_file(path);
        if (auto* e = std::get_if<io::read_error>(&text))
            return *e;
        texts.push_back(std::move(std::get<std::string>(text)));
    }
    return texts;
}

// Each text is released once parsed: the texts and their results are never all in memory.
int merge_comparisons(const merge_args& args, std::vector<std::string>& texts) {
    std::vector<compare::compare_merge_input> inputs;
    for (std::size_t i = 0; i < args.files.size(); ++i) {
        const std::string& path = args.files[i];
        if (io::document_schema(texts[i]) != "tare-compare/1") {
            return fail(exit_usage, path + " is not a comparison (tare-compare/1) like " +
                                        args.files.front() + ": merge joins files of one kind");
        }
        auto read = io::parse_compare_json(texts[i], path);
        std::string().swap(texts[i]);
        if (const auto* e = std::get_if<io::read_error>(&read)) {
            return fail(exit_usage, e->message);
        }
        inputs.push_back({path, std::move(std::get<compare_results>(read))});
    }
    auto merged = compare::merge_comparisons(std::move(inputs));
    if (const auto* e = std::get_if<std::string>(&merged)) {
        return fail(exit_usage, *e);
    }
    const compare_results& results = std::get<compare_results>(merged);
    if (auto e = put(results, *args.json_path, args.markdown, args.color)) {
        return fail(exit_usage, *e);
    }
    if (args.fail_on_regression && compare::refuses_mixed_instrumentation(results)) {
        std::fprintf(stderr,
                     "error: base and head are not instrumented alike, so time was not judged "
                     "(docs/compare.md, \"Mixed instrumentation\")\n");
        return exit_usage;
    }
    if (args.fail_on_regression && compare::has_regression(results, *args.fail_on_regression)) {
        return exit_regression;
    }
    return exit_ok;
}

}  // namespace

int merge_command(const merge_args& args) {
    if (args.files.empty()) {
        return fail(exit_usage,
                    "tare merge: give the files to merge, two or more (tare merge FILE... --json=PATH)");
    }
    // The only output worth having: without it the command would print a table and keep nothing.
    if (!args.json_path || args.json_path->empty()) {
        return fail(exit_usage, "tare merge: --json=PATH is required (the merged file to write)");
    }
    if (auto e = one_standard_input("tare merge", args.files)) {
        return fail(exit_usage, *e);
    }
    auto read_texts = read_all(args.files);
    if (const auto* e = std::get_if<io::read_error>(&read_texts)) {
        return fail(exit_usage, e->message);
    }
    auto& texts = std::get<std::vector<std::string>>(read_texts);
    if (io::document_schema(texts.front()) == "tare-compare/1") {
        return merge_comparisons(args, texts);
    }
    if (args.fail_on_regression) {
        return fail(exit_usage,
                    "tare merge: --fail-on-regression applies to comparisons (tare-compare/1 files)");
    }
    std::vector<compare::merge_input> inputs;
    for (std::size_t i = 0; i < args.files.size(); ++i) {
        const std::string& path = args.files[i];
        auto read = io::parse_any_results(texts[i], path);
        std::string().swap(texts[i]);
        if (const auto* e = std::get_if<io::read_error>(&read)) {
            return fail(exit_usage, e->message);
        }
        inputs.push_back({path, std::move(std::get<run_results>(read))});
    }
    auto merged = compare::merge_results(std::move(inputs));
    if (const auto* e = std::get_if<std::string>(&merged)) {
        return fail(exit_usage, *e);
    }
    if (auto e = put(std::get<run_results>(merged), *args.json_path, args.markdown, args.color)) {
        return fail(exit_usage, *e);
    }
    return exit_ok;
}

}  // namespace tare::cli
