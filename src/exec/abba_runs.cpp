// The engine of `tare exec`: PATH lookup, the run loop in ABBA blocks, each side's summaries and
// the paired comparison (the method is in exec.hpp).
#include "exec/abba_runs.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "os/interrupt.hpp"
#include "os/os.hpp"
#include "os/process.hpp"
#include "stats/difference.hpp"
#include "tare/version.hpp"

namespace tare::exec {

namespace {

// The exit statuses a failure carries (docs/cli.md).
constexpr int exit_usage = 2;
constexpr int exit_not_run = 3;

}  // namespace

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

std::vector<side> run_order(std::size_t runs, bool with_base) {
    if (!with_base) {
        return std::vector<side>(runs, side::head);
    }
    std::vector<side> order;
    const std::size_t blocks = (runs + 1) / 2;
    order.reserve(4 * blocks);
    for (std::size_t k = 0; k < blocks; ++k) {
        // Whatever the first run of a block inherits from the last one of the previous block
        // (caches, frequency) falls on both sides in turn.
        const side a = k % 2 == 0 ? side::base : side::head;
        const side b = k % 2 == 0 ? side::head : side::base;
        order.insert(order.end(), {a, b, b, a});
    }
    return order;
}

void summarize_side(exec_side& side) {
    for (const exec_metric m : all_exec_metrics) {
        std::optional<exec_summary>& summary = side.summaries[static_cast<std::size_t>(m)];
        summary.reset();
        if (side.runs.empty()) {
            continue;
        }
        std::vector<double> values;
        values.reserve(side.runs.size());
        double sum = 0;
        for (const exec_run& r : side.runs) {
            values.push_back(exec_metric_value(r, m));
            sum += values.back();
        }
        summary =
            exec_summary{sum / static_cast<double>(values.size()), stats::student_mean_interval(values)};
    }
}

std::vector<double> block_sums(const exec_side& side, exec_metric metric) {
    std::vector<double> sums;
    for (std::size_t k = 0; 2 * k + 1 < side.runs.size(); ++k) {
        sums.push_back(exec_metric_value(side.runs[2 * k], metric) +
                       exec_metric_value(side.runs[2 * k + 1], metric));
    }
    return sums;
}

exec_comparison compare_sides(const exec_side& base, const exec_side& head, double threshold_pct) {
    exec_comparison c;
    c.pairs = std::min(base.runs.size(), head.runs.size()) / 2;
    c.threshold_pct = threshold_pct;
    for (const exec_metric m : all_exec_metrics) {
        std::vector<double> b = block_sums(base, m);
        std::vector<double> h = block_sums(head, m);
        b.resize(c.pairs);
        h.resize(c.pairs);
        c.changes[static_cast<std::size_t>(m)] = stats::paired_log_change(b, h);
    }
    const auto& wall = c.changes[static_cast<std::size_t>(exec_metric::wall)];
    c.verdict = wall ? stats::judge(*wall, threshold_pct) : verdict::no_change;
    return c;
}

namespace {

// A command given by its path that is not there, or is a directory, in the words every tare
// command uses for a file it cannot open (docs/cli.md, "The tare command"); nothing otherwise
// (a file that cannot be executed is said when it is started, in the system's words).
std::optional<std::string> missing_path(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 && (errno == ENOENT || errno == ENOTDIR))
        return path + ": no such file";
    if (S_ISDIR(st.st_mode))
        return path + ": is a directory";
    return std::nullopt;
}

struct runner {
    const options& opts;
    os::child_options child;
    std::size_t position = 0;

    // Runs `s` once and, when timed, appends its figures; the failure when it did not succeed.
    std::optional<failure> into(exec_side& s, bool timed) {
        const os::child_result r = os::run_child(s.argv, child);
        if (!r.started) {
            return failure{exit_not_run, r.error};
        }
        if (r.timed_out || r.signal != 0 || r.exit_code != 0) {
            return failure{exit_not_run, s.argv[0] + ": " + os::describe_end(r) +
                                             (timed ? "" : " (warm-up run)") +
                                             "; tare exec times commands that succeed" +
                                             (opts.show_output ? "" : " (--show-output shows its output)")};
        }
        if (timed) {
            exec_run run;
            run.position = position++;
            run.wall_seconds = r.wall_seconds;
            run.user_seconds = r.resources.user_seconds;
            run.system_seconds = r.resources.system_seconds;
            run.max_rss_kib = static_cast<double>(r.resources.max_rss_kib);
            run.minor_faults = static_cast<double>(r.resources.minor_faults);
            run.major_faults = static_cast<double>(r.resources.major_faults);
            s.runs.push_back(run);
        }
        return std::nullopt;
    }
};

}  // namespace

std::variant<exec_results, failure> run(const options& opts) {
    if (opts.head.empty() || (opts.base && opts.base->empty())) {
        return failure{exit_usage, "tare exec: no command given"};
    }
    if (opts.runs < 1) {
        return failure{exit_usage, "tare exec: at least 1 run per command is needed"};
    }
    exec_results results;
    results.tare_version = TARE_VERSION_STRING;
    results.host = os::host_name();
    results.date = os::utc_now_iso8601();
    results.warmup_runs = opts.warmup;
    results.head.argv = opts.head;
    std::vector<exec_side*> sides{&results.head};
    if (opts.base) {
        results.base = exec_side{*opts.base, {}, {}};
        sides.push_back(&*results.base);
    }
    const char* path = std::getenv("PATH");
    const std::string_view path_list = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
    for (exec_side* s : sides) {
        std::optional<std::string> found = os::find_in_path(s->argv[0], path_list);
        if (!found) {
            return failure{exit_not_run, s->argv[0] + ": command not found in PATH"};
        }
        if (auto why = missing_path(*found)) {
            return failure{exit_not_run, *why};
        }
        s->argv[0] = *found;
    }
    runner r{opts, {}, 0};
    r.child.discard_stdout = !opts.show_output;
    r.child.discard_stderr = !opts.show_output;
    r.child.timeout_seconds = opts.timeout_seconds;
    for (std::size_t w = 0; w < opts.warmup; ++w) {
        for (exec_side* s : sides) {
            if (os::interrupted() != 0)
                return failure{os::interrupted_status(os::interrupted()),
                               "interrupted: the runs were stopped"};
            if (auto f = r.into(*s, false)) {
                return *std::move(f);
            }
        }
    }
    for (const side which : run_order(opts.runs, results.base.has_value())) {
        if (os::interrupted() != 0)
            return failure{os::interrupted_status(os::interrupted()), "interrupted: the runs were stopped"};
        if (auto f = r.into(which == side::base ? *results.base : results.head, true)) {
            return *std::move(f);
        }
    }
    for (exec_side* s : sides) {
        summarize_side(*s);
    }
    if (results.base) {
        results.comparison = compare_sides(*results.base, results.head, opts.threshold_pct);
    }
    return results;
}

}  // namespace tare::exec
