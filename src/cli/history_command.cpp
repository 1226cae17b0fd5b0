// `tare history add|check|list`: results kept in one SQLite file, and the change points of each
// benchmark and measure over a branch's runs (history/; docs/history.md).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <variant>

#include "cli/commands.hpp"
#include "cli/usage.hpp"
#include "history/check.hpp"
#include "history/interchange.hpp"
#include "history/measures.hpp"
#include "history/provenance.hpp"
#include "history/store.hpp"
#include "io/compare_mapping.hpp"
#include "io/gbench_reader.hpp"
#include "io/results_reader.hpp"
#include "main/flag_checks.hpp"
#include "report/export/history_exports.hpp"
#include "report/reporter.hpp"

namespace tare::cli {

// The flag checks the benchmark executable shares (main/flag_checks.hpp).
using namespace flags;

namespace {

void add_db_option(CLI::App* sub, history_args& args) {
    sub->add_option("--db", args.db, "the history's file (default tare-history.db)")->type_name("PATH");
}

// --branch and --last of the commands that read one branch's runs (check, report, export).
void add_runs_options(CLI::App* sub, history_args& args, const std::string& what) {
    add_db_option(sub, args);
    sub->add_option("--branch", args.check_branch,
                    "the branch to " + what + " (default main, or the store's only one)")
        ->type_name("NAME");
    sub->add_option("--last", args.last, "the newest N runs (default 200; 0: all)")
        ->type_name("N")
        ->check(whole_number(0, 1'000'000));
}

void add_add_command(CLI::App* cmd, history_args& args) {
    CLI::App* add =
        cmd->add_subcommand("add", "add results files (tare/1, Google Benchmark, tare-compare/1)");
    args.add_cmd = add;
    add->add_option("FILE", args.files, "results files, one run each")->required()->type_name("FILE...");
    add_db_option(add, args);
    add->add_option("--commit", args.commit, "the commit measured (default: git's HEAD)")->type_name("SHA");
    add->add_option("--branch", args.branch, "the branch it belongs to (default: git's current branch)")
        ->type_name("NAME");
    add->add_option("--date", args.date, "the run's place in the history (default: the commit's date)")
        ->type_name("ISO8601");
    add->add_option("--side", args.side, "a comparison's side to keep: head (default) or base")
        ->type_name("SIDE")
        ->check(one_of({"head", "base"}));
}

void add_check_command(CLI::App* cmd, history_args& args) {
    CLI::App* check = cmd->add_subcommand("check", "find the change points of every benchmark and measure");
    args.check_cmd = check;
    add_runs_options(check, args, "check");
    check
        ->add_option("--recent", args.recent,
                     "a regression first seen among the newest N runs fails --fail-on-regression (default 5)")
        ->type_name("N")
        ->check(whole_number(1, 1'000'000));
    check
        ->add_option(
            "--alpha", args.alpha,
            "false alarms of an unchanged series (with --head: of the whole comparison); default 0.01, "
            "at least 0.005 (199 shuffles show no p-value below 1/200)")
        ->type_name("P")
        ->check(CLI::Range(0.005, 0.2));
    CLI::Option* head = check
                            ->add_option("--head", args.head_file,
                                         "a results file (a pull request's) to compare with the branch's "
                                         "level since each series' last change point")
                            ->type_name("FILE");
    // Without --head there is no file whose side it could choose: refused rather than ignored.
    check->add_option("--side", args.side, "with --head, a comparison's side: head (default) or base")
        ->type_name("SIDE")
        ->check(one_of({"head", "base"}))
        ->needs(head);
    check->add_flag("--fail-on-regression", args.fail_on_regression,
                    "exit 1 when a benchmark regressed among the newest --recent runs (with --head: "
                    "when the head regressed against the branch)");
    check->add_flag("--md", args.markdown, "print the report as Markdown");
    check
        ->add_option("--json", args.json_path,
                     "write the change points as JSON (tare-history-check/1) to PATH")
        ->type_name("PATH");
    add_color_option(check, args.color);
}

void add_moving_commands(CLI::App* cmd, history_args& args) {
    CLI::App* exp =
        cmd->add_subcommand("export", "the history as Bencher's BMF or github-action-benchmark's data.js");
    args.export_cmd = exp;
    add_runs_options(exp, args, "export");
    exp->add_option("--format", args.format, "bmf (a BMF object per run) or gab-data (data.js)")
        ->type_name("FORMAT")
        ->check(one_of({"bmf", "gab-data"}));
    exp->add_option("--output", args.output, "write to PATH, atomically (default: standard output)")
        ->type_name("PATH");
    CLI::App* imp =
        cmd->add_subcommand("import", "add the runs of a BMF dump or of github-action-benchmark's data.js");
    args.import_cmd = imp;
    imp->add_option("FILE", args.files, "tare's BMF dump, or data.js / data.json")
        ->required()
        ->type_name("FILE");
    add_db_option(imp, args);
    imp->add_option("--branch", args.branch, "the branch of runs that do not name one (default main)")
        ->type_name("NAME");
}

}  // namespace

CLI::App* add_history_command(CLI::App& app, history_args& args) {
    CLI::App* cmd =
        app.add_subcommand("history", "keep every run, and find the commits that changed a benchmark");
    cmd->require_subcommand(1, 1);
    cmd->footer(
        "Examples:\n"
        "  tare history add results.json\n"
        "  tare history check --branch=main --fail-on-regression\n"
        "  tare history report --html=history.html\n"
        "The store, the method and CI jobs: " +
        doc_path("history.md"));
    add_add_command(cmd, args);
    add_check_command(cmd, args);
    CLI::App* rep =
        cmd->add_subcommand("report", "a self-contained HTML page of the trends and change points");
    args.report_cmd = rep;
    add_runs_options(rep, args, "draw");
    rep->add_option("--html", args.html_path, "the page to write (required)")->type_name("PATH");
    add_moving_commands(cmd, args);
    CLI::App* list = cmd->add_subcommand("list", "the branches and runs the history holds");
    args.list_cmd = list;
    add_db_option(list, args);
    list->add_option("--branch", args.check_branch, "the runs of this branch (default: every branch's count)")
        ->type_name("NAME");
    return cmd;
}

namespace {

// One file's figures and what it is, or the error naming it.
struct loaded {
    std::vector<history_figure> figures;
    std::string kind;
    std::size_t benchmarks = 0;
    std::string date;  // the results' own date
    std::string digest;
};

std::variant<loaded, std::string> load(const std::string& path, const std::string& side) {
    auto text = io::read_text_file(path);
    if (auto* e = std::get_if<io::read_error>(&text))
        return e->message;
    const std::string& t = std::get<std::string>(text);
    loaded out;
    out.digest = history::digest_of(t);
    if (io::document_schema(t) == "tare-compare/1") {
        auto r = io::parse_compare_json(t, path);
        if (auto* e = std::get_if<io::read_error>(&r))
            return e->message;
        const auto& c = std::get<compare_results>(r);
        out.figures = history::figures_of(c, side != "base");
        out.kind = "tare-compare/1";
        out.benchmarks = c.rows.size();
        out.date = c.date;
        out.digest += side == "base" ? ":base" : ":head";
        return out;
    }
    auto r = io::parse_any_results(t, path);
    if (auto* e = std::get_if<io::read_error>(&r))
        return e->message;
    const auto& run = std::get<run_results>(r);
    out.figures = history::figures_of(run);
    out.kind = io::document_schema(t) == "tare/1" ? "tare/1" : "gbench";
    out.benchmarks = run.benchmarks.size();
    out.date = run.context.date;
    return out;
}

int add_command(const history_args& a) {
    if (a.files.empty())
        return fail(exit_usage, "tare history add: no results file given (tare history add FILE...)");
    if (auto twice = one_standard_input("tare history add", a.files))
        return fail(exit_usage, *twice);
    std::vector<loaded> files;
    for (const std::string& path : a.files) {
        auto l = load(path, a.side);
        if (auto* e = std::get_if<std::string>(&l))
            return fail(exit_usage, *e);
        files.push_back(std::move(std::get<loaded>(l)));
    }
    auto opened = history::store::open(a.db, true);
    if (auto* e = std::get_if<history::store_error>(&opened))
        return fail(exit_usage, e->message);
    auto& st = std::get<history::store>(opened);
    for (std::size_t i = 0; i < files.size(); ++i) {
        auto where = history::complete_provenance({a.commit, a.branch, a.date}, files[i].date);
        if (auto* e = std::get_if<std::string>(&where))
            return fail(exit_usage, "tare history add: " + *e);
        const auto& p = std::get<history::provenance>(where);
        const history_run run{0, p.commit, p.branch, p.date, a.files[i], files[i].kind, files[i].benchmarks};
        auto added = st.add(run, files[i].digest, files[i].figures);
        if (auto* e = std::get_if<history::store_error>(&added))
            return fail(exit_usage, e->message);
        const auto& r = std::get<history::added_run>(added);
        if (r.already_present) {
            std::fprintf(stderr, "%s: already in the history as run %lld of %s: not added again\n",
                         a.files[i].c_str(), static_cast<long long>(r.id), p.branch.c_str());
            continue;
        }
        std::printf("added %s as run %lld: %s %s, %s, %zu figures of %zu benchmarks\n", a.files[i].c_str(),
                    static_cast<long long>(r.id), p.branch.c_str(), p.commit.substr(0, 10).c_str(),
                    p.date.c_str(), files[i].figures.size(), files[i].benchmarks);
    }
    return exit_ok;
}

// --branch, else "main", else the store's only branch.
std::variant<std::string, int> branch_to_check(const history::store& st, const history_args& a) {
    if (!a.check_branch.empty())
        return a.check_branch;
    auto branches = st.branches();
    if (auto* e = std::get_if<history::store_error>(&branches))
        return fail(exit_usage, e->message);
    const auto& b = std::get<std::vector<std::pair<std::string, std::size_t>>>(branches);
    if (b.size() == 1)
        return b.front().first;
    return std::string("main");
}

// The branch's runs and their figures, as the flags ask; or the exit status of the error, said.
struct loaded_history {
    std::string branch;
    std::vector<history_run> runs;
    std::vector<std::vector<history_figure>> figures;
};

std::variant<loaded_history, int> load_history(const history_args& a) {
    auto opened = history::store::open(a.db, false);
    if (auto* e = std::get_if<history::store_error>(&opened))
        return fail(exit_usage, e->message);
    const auto& st = std::get<history::store>(opened);
    auto branch = branch_to_check(st, a);
    if (auto* status = std::get_if<int>(&branch))
        return *status;
    auto runs = st.runs(std::get<std::string>(branch), a.last);
    if (auto* e = std::get_if<history::store_error>(&runs))
        return fail(exit_usage, e->message);
    auto figures = st.figures(std::get<std::vector<history_run>>(runs));
    if (auto* e = std::get_if<history::store_error>(&figures))
        return fail(exit_usage, e->message);
    return loaded_history{std::get<std::string>(branch), std::move(std::get<std::vector<history_run>>(runs)),
                          std::move(std::get<std::vector<std::vector<history_figure>>>(figures))};
}

// The check of the branch's runs and the series it was made from; with `head`, that run's
// figures against the branch's levels too.
std::variant<history_trends, int> load_trends(const history_args& a,
                                              const std::vector<history_figure>* head = nullptr) {
    auto loaded = load_history(a);
    if (auto* status = std::get_if<int>(&loaded))
        return *status;
    const auto& h = std::get<loaded_history>(loaded);
    history::check_options o;
    o.recent = a.recent;
    o.alpha = a.alpha;
    o.head = head;
    history_trends t{history::check_history(h.runs, h.figures, o), history::series_of(h.runs, h.figures)};
    t.check.store = a.db;
    t.check.branch = h.branch;
    return t;
}

int report_command(const history_args& a) {
    if (!a.html_path)
        return fail(exit_usage, "tare history report: --html=PATH is required (the page to write)");
    auto loaded = load_trends(a);
    if (auto* status = std::get_if<int>(&loaded))
        return *status;
    if (auto e = write_output(*a.html_path, report::make_html_reporter<history_trends>()->render(
                                                std::get<history_trends>(loaded))))
        return fail(exit_usage, *e);
    return exit_ok;
}

int export_command(const history_args& a) {
    if (a.format.empty())
        return fail(exit_usage, "tare history export: --format=bmf|gab-data is required");
    auto loaded = load_history(a);
    if (auto* status = std::get_if<int>(&loaded))
        return *status;
    const auto& h = std::get<loaded_history>(loaded);
    const std::string text = a.format == "bmf" ? report::render_history_bmf(h.runs, h.figures)
                                               : report::render_history_gab_data(h.runs, h.figures);
    if (auto e = write_output(a.output.value_or("-"), text))
        return fail(exit_usage, *e);
    return exit_ok;
}

int import_command(const history_args& a) {
    if (a.files.size() != 1)
        return fail(exit_usage, "tare history import: one file (tare history import FILE)");
    auto text = io::read_text_file(a.files.front());
    if (auto* e = std::get_if<io::read_error>(&text))
        return fail(exit_usage, e->message);
    auto parsed = history::parse_import(std::get<std::string>(text), a.files.front(),
                                        a.branch.empty() ? std::string("main") : a.branch);
    if (auto* e = std::get_if<io::read_error>(&parsed))
        return fail(exit_usage, e->message);
    auto opened = history::store::open(a.db, true);
    if (auto* e = std::get_if<history::store_error>(&opened))
        return fail(exit_usage, e->message);
    auto& st = std::get<history::store>(opened);
    std::size_t added = 0;
    std::size_t present = 0;
    for (const history::imported_run& r : std::get<std::vector<history::imported_run>>(parsed)) {
        auto done = st.add(r.run, r.digest, r.figures);
        if (auto* e = std::get_if<history::store_error>(&done))
            return fail(exit_usage, e->message);
        (std::get<history::added_run>(done).already_present ? present : added) += 1;
    }
    std::printf("imported %zu %s from %s", added, added == 1 ? "run" : "runs", a.files.front().c_str());
    if (present > 0)
        std::printf(" (%zu already in the history)", present);
    std::printf("\n");
    return exit_ok;
}

int check_command(const history_args& a) {
    std::optional<loaded> head;
    if (a.head_file) {
        auto l = load(*a.head_file, a.side);
        if (auto* e = std::get_if<std::string>(&l))
            return fail(exit_usage, *e);
        head = std::move(std::get<loaded>(l));
    }
    auto loaded_trends = load_trends(a, head ? &head->figures : nullptr);
    if (auto* status = std::get_if<int>(&loaded_trends))
        return *status;
    history_check& result = std::get<history_trends>(loaded_trends).check;
    if (result.head)
        result.head->source = *a.head_file;
    // The table on standard error when the JSON takes standard output (docs/cli.md, "Output files").
    std::FILE* const out = table_stream(names_standard_output(a.json_path));
    auto reporter = a.markdown
                        ? report::make_markdown_reporter<history_check>()
                        : report::make_console_reporter<history_check>(terminal_style(a.color, fileno(out)));
    std::fputs(reporter->render(result).c_str(), out);
    std::fflush(out);
    if (a.json_path) {
        if (auto e = write_output(*a.json_path, report::make_json_reporter<history_check>()->render(result)))
            return fail(exit_usage, *e);
    }
    // With --head the gate is the head's own: the branch's regressions are not the change's.
    const bool regressed =
        result.head ? std::any_of(result.head->changes.begin(), result.head->changes.end(),
                                  [](const auto& c) { return c.direction == history_direction::regression; })
                    : std::any_of(result.changes.begin(), result.changes.end(),
                                  [](const history_change& c) { return c.at_head; });
    return a.fail_on_regression && regressed ? exit_regression : exit_ok;
}

int list_command(const history_args& a) {
    auto opened = history::store::open(a.db, false);
    if (auto* e = std::get_if<history::store_error>(&opened))
        return fail(exit_usage, e->message);
    const auto& st = std::get<history::store>(opened);
    if (a.check_branch.empty()) {
        auto branches = st.branches();
        if (auto* e = std::get_if<history::store_error>(&branches))
            return fail(exit_usage, e->message);
        for (const auto& [name, count] : std::get<std::vector<std::pair<std::string, std::size_t>>>(branches))
            std::printf("%s: %zu %s\n", name.c_str(), count, count == 1 ? "run" : "runs");
        return exit_ok;
    }
    auto runs = st.runs(a.check_branch, 0);
    if (auto* e = std::get_if<history::store_error>(&runs))
        return fail(exit_usage, e->message);
    for (const history_run& r : std::get<std::vector<history_run>>(runs))
        std::printf("%lld  %s  %s  %s  %zu benchmarks  %s\n", static_cast<long long>(r.id), r.date.c_str(),
                    r.commit.substr(0, 10).c_str(), r.kind.c_str(), r.benchmarks, r.source.c_str());
    return exit_ok;
}

}  // namespace

int history_command(const history_args& args) {
    if (args.add_cmd != nullptr && args.add_cmd->parsed())
        return add_command(args);
    if (args.check_cmd != nullptr && args.check_cmd->parsed())
        return check_command(args);
    if (args.report_cmd != nullptr && args.report_cmd->parsed())
        return report_command(args);
    if (args.export_cmd != nullptr && args.export_cmd->parsed())
        return export_command(args);
    if (args.import_cmd != nullptr && args.import_cmd->parsed())
        return import_command(args);
    return list_command(args);
}

}  // namespace tare::cli
