// The benchmark executable's way out and its counted paths (main/bench_options.hpp): the table and
// files every run ends with, and --instrument's parent and child.
#include <unistd.h>

#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

#include "instrument/judge.hpp"
#include "instrument/launch.hpp"
#include "io/atomic_file.hpp"
#include "main/bench_options.hpp"
#include "main/flag_checks.hpp"
#include "os/interrupt.hpp"
#include "os/os.hpp"
#include "os/process.hpp"
#include "report/profile/profile_files.hpp"
#include "report/progress.hpp"
#include "report/reporter.hpp"

namespace tare::driver {

using namespace flags;  // the flag checks the `tare` command shares (flag_checks.hpp)

int fail_usage(const std::string& message) {
    std::fprintf(stderr, "error: %s\n", message.c_str());
    return 2;
}

int finish_run(run_results& results, const bench_options& opt, bool any_failed, bool live) {
    if (live) {
        std::fputs("\r\033[K", stderr);
    }
    if (const int signal = os::interrupted(); signal != 0) {
        results.context.interrupted = true;
        write_results(results, opt, any_failed);
        std::fprintf(stderr, "error: interrupted by %s: %zu benchmark%s finished, the rest did not run\n",
                     os::interrupt_name(signal), results.benchmarks.size(),
                     results.benchmarks.size() == 1 ? "" : "s");
        return os::interrupted_status(signal);
    }
    return write_results(results, opt, any_failed);
}

// The table, then --json: what every run ends with, a normal one or one a body cut short.
int write_results(const run_results& results, const bench_options& opt, bool any_failed) {
    const bool json_to_stdout = opt.json_path && *opt.json_path == "-";
    std::FILE* out = json_to_stdout ? stderr : stdout;
    auto table = opt.markdown
                     ? report::make_markdown_reporter<run_results>()
                     : report::make_console_reporter<run_results>(terminal_style(opt.color, fileno(out)));
    std::string text = table->render(results);
    std::fputs(text.c_str(), out);
    std::fflush(stdout);  // the table first, also when --json names standard output (/dev/stdout)
    if (opt.json_path) {
        std::string json = report::make_json_reporter<run_results>()->render(results);
        if (json_to_stdout) {
            std::fputs(json.c_str(), stdout);
        } else if (auto err = io::write_file_atomically(*opt.json_path, json)) {
            std::fprintf(stderr, "error: %s\n", err->c_str());
            return 1;
        }
    }
    std::fflush(stdout);
    if (opt.profile_dir) {
        if (auto err = io::write_files_into(*opt.profile_dir, report::profile_files(results))) {
            std::fprintf(stderr, "error: --profile: %s\n", err->c_str());
            return 1;
        }
    }
    return any_failed ? 1 : 0;
}

// The counting child (instrument/launch.hpp): counts the one instance named and writes its row.
int run_counted_child(const std::vector<core::run_unit>& units, const bench_options& opt) {
    if (units.size() != 1 || !opt.json_path || !opt.exact) {
        return fail_usage("the counting child runs exactly one named step, with --json");
    }
    const core::run_unit& unit = units.front();
    const core::instance* inst = &unit.single;
    if (unit.group) {
        inst = nullptr;
        for (const core::instance& m : unit.group->members) {
            if (opt.member && m.name == *opt.member) {
                inst = &m;
            }
        }
        if (inst == nullptr) {
            return fail_usage("the counting child needs the member of " + unit.name() + " to count");
        }
    }
    instrument::callgrind_session session;
    session.profile = opt.profiled;
    instrument::counter how = instrument::counter::hw_instructions;
    const std::string callgrind_prefix = "callgrind:";
    if (opt.counted->starts_with(callgrind_prefix)) {
        how = instrument::counter::callgrind;
        session.out_file = opt.counted->substr(callgrind_prefix.size());
    } else if (*opt.counted != "hw") {
        return fail_usage("unknown counter " + *opt.counted);
    }
    core::system_probe probe;
    run_results results;
    // The context after the count: its strings (the host's name, the CPU's) would change the heap
    // the region starts from between machines and paths.
    results.benchmarks.push_back(instrument::run_counted(*inst, how, &session, probe, detail::sample_plan{}));
    if (opt.profiled) {
        instrument::add_allocation_stacks(*inst, probe, results.benchmarks.back());
    }
    results.context = instrument::counted_context(probe.accounting());
    std::string json = report::make_json_reporter<run_results>()->render(results);
    if (auto err = io::write_file_atomically(*opt.json_path, json)) {
        std::fprintf(stderr, "error: %s\n", err->c_str());
        return 1;
    }
    return results.benchmarks.back().error ? 1 : 0;
}

// --instrument: every instance counted in a fresh child of its own (instrument/launch.hpp), one
// after the other; a comparison group's members side by side.
int run_instrumented(const std::vector<core::run_unit>& units, const bench_options& opt) {
    auto made = instrument::make_launcher(*instrument::parse_instrument(*opt.instrument), opt.timeout);
    if (auto* e = std::get_if<std::string>(&made)) {
        return fail_usage(*e);
    }
    instrument::launcher& launcher = std::get<instrument::launcher>(made);
    launcher.pass_env = opt.pass_env;
    launcher.profile = opt.profile_dir.has_value() || opt.profile_results;
    core::system_probe probe;
    run_results results;
    results.context = instrument::counted_context(probe.accounting());
    results.context.instrument = launcher.description;
    results.context.instrument_env = launcher.pass_env;
    os::handle_interrupts();
    os::adopt_orphans();
    const bool live = os::is_terminal(STDERR_FILENO);
    const double started = os::monotonic_seconds();
    std::size_t total = 0;
    for (const core::run_unit& unit : units) {
        total += unit.instances().size();
    }
    std::size_t done = 0;
    bool any_failed = false;
    for (const core::run_unit& unit : units) {
        std::vector<benchmark_result> rows;
        for (const core::instance& inst : unit.instances()) {
            if (os::interrupted() != 0) {
                break;
            }
            const double step_started = os::monotonic_seconds();
            report::progress_step step{done, total, inst.name, step_started - started};
            if (live) {
                std::fprintf(
                    stderr, "\r\033[K%s",
                    report::progress_live(step, os::terminal_columns(STDERR_FILENO).value_or(0)).c_str());
                std::fflush(stderr);
            }
            rows.push_back(instrument::run_in_child(launcher, unit.name(), inst.name));
            if (os::interrupted() != 0) {
                rows.pop_back();  // stopped by the interrupt, not finished
                break;
            }
            ++done;
            if (!live) {
                const double now = os::monotonic_seconds();
                step.done = done;
                step.elapsed_s = now - started;
                std::fputs(report::progress_done(step, now - step_started).c_str(), stderr);
            }
        }
        if (unit.group && rows.size() == unit.group->members.size()) {
            auto compared = instrument::compare_members(*unit.group, rows);
            std::move(compared.begin(), compared.end(), std::back_inserter(results.comparisons));
        }
        for (benchmark_result& r : rows) {
            any_failed = any_failed || r.error.has_value();
            results.benchmarks.push_back(std::move(r));
        }
    }
    return finish_run(results, opt, any_failed, live);
}

}  // namespace tare::driver
