// `tare compare BASE HEAD`: two tare executables in rounds of fresh worker processes (paired),
// or two results files (unpaired); CONTRACT section 6, docs/compare.md.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <variant>

#include "cli/commands.hpp"
#include "cli/gbench_run.hpp"
#include "compare/aggregate.hpp"
#include "compare/gbench_rounds.hpp"
#include "compare/rounds.hpp"
#include "io/atomic_file.hpp"
#include "io/gbench_reader.hpp"
#include "os/os.hpp"
#include "report/compare/compare_report.hpp"
#include "tare/version.hpp"

namespace tare::cli {

namespace {

namespace fs = std::filesystem;

// A results file is JSON: its first non-blank byte is '{'. Decided by content, not by name,
// so "base.out" written by `--json=base.out` is read as what it is.
bool is_results_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char c = 0;
    while (in.get(c)) {
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            return c == '{';
        }
    }
    return false;
}

enum class kind { results_file, tare_executable, gbench_executable };

std::variant<kind, run_failure> classify(const std::string& path) {
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        return run_failure{exit_usage, path + ": no such file"};
    }
    if (fs::is_directory(path, ec)) {
        return run_failure{exit_usage, path + ": is a directory, not an executable or a results file"};
    }
    if (is_results_file(path)) {
        return kind::results_file;
    }
    if (::access(path.c_str(), X_OK) != 0) {
        return run_failure{exit_not_run, path + ": not executable (and not a JSON results file)"};
    }
    return is_gbench_executable(path) ? kind::gbench_executable : kind::tare_executable;
}

std::variant<run_results, run_failure> read_side(const std::string& path) {
    auto read = io::read_any_results_file(path);
    if (auto* e = std::get_if<io::read_error>(&read)) {
        return run_failure{exit_usage, e->message};
    }
    return std::move(std::get<run_results>(read));
}

// A worker failure that means the executable could not be run to the end.
bool is_process_failure(const std::optional<error_info>& e) {
    return e && (e->kind == "signal" || e->kind == "timeout" || e->kind == "crash");
}

}  // namespace

int compare_command(const compare_args& args) {
    auto base_kind = classify(args.base);
    if (auto* f = std::get_if<run_failure>(&base_kind)) {
        return fail(f->status, f->message);
    }
    auto head_kind = classify(args.head);
    if (auto* f = std::get_if<run_failure>(&head_kind)) {
        return fail(f->status, f->message);
    }
    const kind bk = std::get<kind>(base_kind);
    const kind hk = std::get<kind>(head_kind);
    const bool files = bk == kind::results_file;
    if (files != (hk == kind::results_file)) {
        return fail(exit_usage, "compare two executables or two results files, not one of each (" +
                                    args.base + ", " + args.head + ")");
    }
    std::optional<std::regex> filter;
    if (!args.filter.empty()) {
        try {
            filter = std::regex(args.filter, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
            return fail(exit_usage,
                        "--filter: '" + args.filter + "' is not a valid regular expression: " + e.what());
        }
    }
    compare::verdict_options vo;
    vo.threshold_pct = args.threshold_pct;

    compare::compare_results results;
    if (files) {
        auto base = read_side(args.base);
        if (auto* f = std::get_if<run_failure>(&base)) {
            return fail(f->status, f->message);
        }
        auto head = read_side(args.head);
        if (auto* f = std::get_if<run_failure>(&head)) {
            return fail(f->status, f->message);
        }
        if (filter) {
            for (auto* r : {&std::get<run_results>(base), &std::get<run_results>(head)}) {
                std::erase_if(r->benchmarks,
                              [&](const benchmark_result& b) { return !std::regex_search(b.name, *filter); });
            }
        }
        results = compare::compare_files(std::get<run_results>(base), std::get<run_results>(head), vo);
    } else {
        const bool gbench = bk == kind::gbench_executable;
        if (gbench != (hk == kind::gbench_executable)) {
            return fail(exit_usage,
                        "compare two tare executables or two Google Benchmark executables, not one of "
                        "each (" +
                            args.base + ", " + args.head + ")");
        }
        compare::rounds_options ro;
        ro.base = fs::absolute(args.base).string();
        ro.head = fs::absolute(args.head).string();
        ro.rounds = args.rounds;
        ro.min_time = args.min_time;
        ro.samples_per_round = args.samples;
        ro.filter = filter;
        ro.timeout_seconds = args.timeout;
        if (isatty(fileno(stderr)) != 0) {
            ro.progress = [](const std::string& what) {
                std::fprintf(stderr, "\r\033[K%s", what.c_str());
                std::fflush(stderr);
            };
        }
        auto measured = gbench ? compare::run_gbench_rounds(ro) : compare::run_rounds(ro);
        if (ro.progress) {
            std::fputs("\r\033[K", stderr);
        }
        if (auto* f = std::get_if<compare::rounds_failure>(&measured)) {
            return fail(f->status, f->message);
        }
        results = compare::aggregate_rounds(std::get<compare::rounds_data>(measured), vo);
    }
    results.base_label = args.base;
    results.head_label = args.head;
    results.tare_version = TARE_VERSION_STRING;
    results.host = os::host_name();
    results.date = os::utc_now_iso8601();
    if (results.rows.empty()) {
        // Nothing to compare is an input problem, never an empty "all clear".
        std::string message = "no benchmark is on both sides";
        if (filter) {
            message += " (with --filter=" + args.filter + ")";
        }
        message += ": base has " + std::to_string(results.only_in_base.size()) + ", head has " +
                   std::to_string(results.only_in_head.size());
        return fail(exit_usage, message);
    }

    std::fputs(report::render_compare_table(results, args.markdown).c_str(), stdout);
    if (results.mode == compare::pairing::process_rounds) {
        std::fputs(
            gbench_note(std::any_of(results.rows.begin(), results.rows.end(),
                                    [](const auto& row) { return row.base.allocs_per_iter.has_value(); })),
            stdout);
    }
    std::fflush(stdout);
    if (args.json_path) {
        if (auto e = io::write_file_atomically(*args.json_path, report::render_compare_json(results))) {
            return fail(exit_usage, *e);
        }
    }
    for (const auto& row : results.rows) {
        for (const auto* side : {&row.base, &row.head}) {
            if (is_process_failure(side->error)) {
                std::fprintf(stderr, "error: %s: %s\n", row.name.c_str(), side->error->message.c_str());
                return exit_not_run;
            }
        }
    }
    if (args.fail_on_regression && compare::has_regression(results, *args.fail_on_regression)) {
        return exit_regression;
    }
    return exit_ok;
}

}  // namespace tare::cli
