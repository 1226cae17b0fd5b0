// `tare exec [--runs=N] [--vs=CMD] -- CMD ARGS...`: whole-process timing of a command (wall,
// user, system, peak RSS, page faults per run, from wait4()'s rusage of that child alone), and
// with --vs the paired change of CMD (head) against the --vs command (base).
//
// Order: with --vs the two alternate in ABBA blocks (ABBA, then BAAB, ...). Within a block a
// linear drift of the machine adds the same to both sides' sums (t0 + t3 = t1 + t2), so the
// block's ratio of sums is free of it; the block is the unit of replication, and its log-ratio
// goes into the t interval of src/stats/change.hpp. Every run is a fresh process, so the
// between-process variance that issue 6 measured (+-7 % per process) is in the interval.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <variant>

#include "cli/commands.hpp"
#include "io/atomic_file.hpp"
#include "os/os.hpp"
#include "os/process.hpp"
#include "report/exec_report.hpp"
#include "stats/change.hpp"
#include "tare/version.hpp"

namespace tare::cli {

std::variant<std::vector<std::string>, std::string> split_command_line(const std::string& line) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    char quote = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quote != 0) {
            if (c == quote) {
                quote = 0;
            } else if (c == '\\' && quote == '"' && i + 1 < line.size()) {
                word += line[++i];
            } else {
                word += c;
            }
        } else if (c == '\'' || c == '"') {
            quote = c;
            in_word = true;
        } else if (c == '\\' && i + 1 < line.size()) {
            word += line[++i];
            in_word = true;
        } else if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) {
                words.push_back(word);
                word.clear();
                in_word = false;
            }
        } else {
            word += c;
            in_word = true;
        }
    }
    if (quote != 0) {
        return std::string("unterminated ") + quote + " quote in '" + line + "'";
    }
    if (in_word) {
        words.push_back(word);
    }
    if (words.empty()) {
        return std::string("empty command");
    }
    return words;
}

namespace {

namespace fs = std::filesystem;

// execv() takes a path; a bare name is looked up in PATH as a shell would (first executable
// regular file), so `tare exec -- sleep 0.1` works without a shell in between.
std::optional<std::string> resolve(const std::string& name) {
    if (name.find('/') != std::string::npos) {
        return name;
    }
    const char* path = std::getenv("PATH");
    std::string dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= dirs.size()) {
        std::size_t end = dirs.find(':', start);
        end = end == std::string::npos ? dirs.size() : end;
        std::string dir = dirs.substr(start, end - start);
        fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) {
            return candidate.string();
        }
        start = end + 1;
    }
    return std::nullopt;
}

struct runner {
    const exec_args& args;
    os::child_options options;
    std::size_t position = 0;

    // One run; an error message when it could not be run to the end.
    std::variant<exec_run, std::string> once(const std::vector<std::string>& argv, bool timed) {
        os::child_result r = os::run_child(argv, options);
        if (!r.started) {
            return r.error;
        }
        if (r.timed_out || r.signal != 0 || r.exit_code != 0) {
            return argv[0] + ": " + os::describe_end(r) + (timed ? "" : " (warm-up run)") +
                   "; tare exec times commands that succeed" +
                   (args.show_output ? "" : " (--show-output shows its output)");
        }
        exec_run run;
        run.position = timed ? position++ : 0;
        run.wall_seconds = r.wall_seconds;
        run.user_seconds = r.resources.user_seconds;
        run.system_seconds = r.resources.system_seconds;
        run.max_rss_kib = static_cast<double>(r.resources.max_rss_kib);
        run.minor_faults = static_cast<double>(r.resources.minor_faults);
        run.major_faults = static_cast<double>(r.resources.major_faults);
        return run;
    }

    // Runs `side` once and, when timed, appends its figures; the error message on failure.
    std::optional<std::string> into(exec_side& side, bool timed) {
        auto r = once(side.argv, timed);
        if (auto* e = std::get_if<std::string>(&r)) {
            return *e;
        }
        if (timed) {
            side.runs.push_back(std::get<exec_run>(r));
        }
        return std::nullopt;
    }
};

// The paired change of each metric: one pair per ABBA block (runs 2k and 2k + 1 of each side),
// each side's value the sum of its two runs.
exec_comparison compare(const exec_side& base, const exec_side& head,
                                double threshold_pct) {
    exec_comparison c;
    c.pairs = std::min(base.runs.size(), head.runs.size()) / 2;
    c.threshold_pct = threshold_pct;
    for (std::size_t m = 0; m < exec_metric_count; ++m) {
        const auto metric = static_cast<exec_metric>(m);
        std::vector<double> b;
        std::vector<double> h;
        for (std::size_t k = 0; k < c.pairs; ++k) {
            b.push_back(exec_metric_value(base.runs[2 * k], metric) +
                        exec_metric_value(base.runs[2 * k + 1], metric));
            h.push_back(exec_metric_value(head.runs[2 * k], metric) +
                        exec_metric_value(head.runs[2 * k + 1], metric));
        }
        c.changes[m] = stats::paired_log_change(b, h);
    }
    const auto& wall = c.changes[static_cast<std::size_t>(exec_metric::wall)];
    c.verdict = wall ? stats::judge(*wall, threshold_pct) : verdict::no_change;
    return c;
}

// Per metric, the mean over the side's runs and its 95 % Student t interval: what the table and
// the JSON summary report.
void summarize(exec_side& side) {
    for (const exec_metric m : all_exec_metrics) {
        std::vector<double> values;
        for (const exec_run& r : side.runs) {
            values.push_back(exec_metric_value(r, m));
        }
        auto& summary = side.summaries[static_cast<std::size_t>(m)];
        summary.reset();
        if (!values.empty()) {
            double sum = 0;
            for (const double v : values) {
                sum += v;
            }
            summary =
                exec_summary{sum / static_cast<double>(values.size()), stats::student_mean_interval(values)};
        }
    }
}

}  // namespace

int exec_command(const exec_args& args) {
    if (args.command.empty()) {
        return fail(exit_usage, "tare exec: no command given (tare exec [OPTIONS] -- CMD ARGS...)");
    }
    if (args.runs < 1) {
        return fail(exit_usage, "tare exec: --runs must be at least 1");
    }
    exec_results results;
    results.tare_version = TARE_VERSION_STRING;
    results.host = os::host_name();
    results.date = os::utc_now_iso8601();
    results.warmup_runs = args.warmup;
    std::vector<exec_side*> sides{&results.head};
    results.head.argv = args.command;
    if (args.vs) {
        auto split = split_command_line(*args.vs);
        if (auto* e = std::get_if<std::string>(&split)) {
            return fail(exit_usage, "tare exec: --vs: " + *e);
        }
        results.base = exec_side{std::get<std::vector<std::string>>(split), {}};
        sides.push_back(&*results.base);
    }
    for (exec_side* side : sides) {
        std::optional<std::string> path = resolve(side->argv[0]);
        if (!path) {
            return fail(exit_not_run, side->argv[0] + ": command not found in PATH");
        }
        side->argv[0] = *path;
    }
    runner run{args, {}, 0};
    run.options.discard_stdout = !args.show_output;
    run.options.discard_stderr = !args.show_output;
    run.options.timeout_seconds = args.timeout;
    std::optional<std::string> error;
    for (std::size_t w = 0; w < args.warmup && !error; ++w) {
        for (exec_side* side : sides) {
            error = error ? error : run.into(*side, false);
        }
    }
    if (!results.base) {
        for (std::size_t i = 0; i < args.runs && !error; ++i) {
            error = run.into(results.head, true);
        }
    } else {
        // N runs per side, rounded up to whole ABBA blocks; odd blocks mirror (BAAB) so that
        // neither side is always the first run of a block: whatever the first run of a block
        // inherits from the last one of the previous block (caches, frequency) falls on both.
        const std::size_t blocks = (args.runs + 1) / 2;
        for (std::size_t k = 0; k < blocks && !error; ++k) {
            exec_side& a = k % 2 == 0 ? *results.base : results.head;
            exec_side& b = k % 2 == 0 ? results.head : *results.base;
            for (exec_side* side : {&a, &b, &b, &a}) {
                error = error ? error : run.into(*side, true);
            }
        }
        if (!error) {
            results.comparison = compare(*results.base, results.head, args.threshold_pct);
        }
    }
    if (error) {
        return fail(exit_not_run, *error);
    }
    for (exec_side* side : sides) {
        summarize(*side);
    }
    std::fputs(report::render_exec_table(results, args.markdown).c_str(), stdout);
    if (args.json_path) {
        if (auto e = io::write_file_atomically(*args.json_path, report::render_exec_json(results))) {
            return fail(exit_usage, *e);
        }
    }
    return exit_ok;
}

}  // namespace tare::cli
