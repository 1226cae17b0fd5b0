#include "main/bench_driver.hpp"

#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/runner.hpp"
#include "core/shard.hpp"
#include "core/variant_groups.hpp"
#include "instrument/judge.hpp"
#include "instrument/launch.hpp"
#include "io/atomic_file.hpp"
#include "main/bench_options.hpp"
#include "main/bench_worker.hpp"
#include "main/flag_checks.hpp"
#include "main/isolate.hpp"
#include "os/interrupt.hpp"
#include "os/layout.hpp"
#include "os/os.hpp"
#include "os/process.hpp"
#include "protocol/worker_protocol.hpp"
#include "report/profile/profile_files.hpp"
#include "report/progress.hpp"
#include "report/reporter.hpp"
#include "tare/version.hpp"

namespace tare::driver {

using namespace flags;  // the flag checks the `tare` command shares (flag_checks.hpp)

namespace {

// A body that calls exit() (or quick_exit()) ends the process from inside the loop: without a
// guard the run would end with the body's status, no table, no JSON and no name. The guard,
// registered once the benchmarks start, sees which step was running, reports it as an error
// row of kind "exit", writes the finished results as a normal run would and ends with status 1.
// _exit() and signals cannot be caught in the process: --isolate names those. Rejected:
// std::set_terminate or a destructor of a static, which run after exit's handlers have torn
// down what the report needs.
struct exit_guard {
    const run_results* results = nullptr;
    const bench_options* opt = nullptr;
    std::vector<std::string> running;  // the instances of the step in progress; empty between steps
};
exit_guard guard;

void on_exit_from_body() {
    if (guard.running.empty() || guard.results == nullptr)
        return;
    run_results results = *guard.results;
    for (const std::string& name : guard.running) {
        benchmark_result row;
        row.name = name;
        row.error = error_info{"exit",
                               "the benchmark ended the process (exit() or quick_exit() inside its body); "
                               "the benchmarks after it did not run"};
        results.benchmarks.push_back(std::move(row));
    }
    guard.running.clear();
    std::fprintf(stderr, "error: %s: called exit() inside its body\n",
                 results.benchmarks.back().name.c_str());
    write_results(results, *guard.opt, true);
    std::fflush(stderr);
    ::_exit(1);
}

// The first signal's grace period (docs/cli.md, "Interrupting a run"): the benchmark running
// when it comes may finish within it; a body that has not returned by then (one that never
// does) is not waited on. A watchdog thread, asleep on os::wait_for_interrupt() until the
// signal, then reports the finished results with the running step as rows of kind
// "interrupted" and ends the process, while the body still runs on the main thread.
// The gate keeps the two apart: the main thread touches the results only outside a step, and
// once the watchdog has taken them it never leaves its step. Rejected: stopping the body from
// the signal handler (a longjmp out of arbitrary code leaks its locks and its heap), and a
// second signal as the only way out (it kept nothing).
constexpr auto grace = std::chrono::seconds(2);

struct step_gate {
    std::mutex mutex;
    std::condition_variable changed;
    bool in_step = false;  // the main thread runs a step: it does not touch the results
    bool taken = false;    // the watchdog reports: the main thread stays in its step
    bool done = false;     // the main thread reports
    std::uint64_t steps_ended = 0;
};
step_gate gate;

void step_begins(const core::run_unit& unit) {
    const std::lock_guard<std::mutex> lock(gate.mutex);
    guard.running.clear();
    for (const core::instance& i : unit.instances())
        guard.running.push_back(i.name);
    gate.in_step = true;
}

void step_ends() {
    std::unique_lock<std::mutex> lock(gate.mutex);
    while (gate.taken)  // the watchdog is reporting and will end the process
        gate.changed.wait(lock);
    gate.in_step = false;
    ++gate.steps_ended;
    gate.changed.notify_all();
}

// The main thread reports from here on: the watchdog has not taken the results, and now will not.
void run_ends() {
    std::unique_lock<std::mutex> lock(gate.mutex);
    while (gate.taken)
        gate.changed.wait(lock);
    gate.done = true;
    guard.running.clear();
    gate.changed.notify_all();
}

[[noreturn]] void report_after_grace(int signal) {
    run_results results = *guard.results;
    for (const std::string& name : guard.running) {
        benchmark_result row;
        row.name = name;
        row.error = error_info{"interrupted", std::string("stopped by ") + os::interrupt_name(signal) +
                                                  ": its body had not returned " +
                                                  std::to_string(grace.count()) + " s after the signal"};
        results.benchmarks.push_back(std::move(row));
    }
    results.context.interrupted = true;
    write_results(results, *guard.opt, true);
    std::fprintf(stderr,
                 "error: interrupted by %s: %s did not return within %lld s; %zu benchmark%s finished\n",
                 os::interrupt_name(signal), guard.running.empty() ? "a body" : guard.running.front().c_str(),
                 static_cast<long long>(grace.count()), guard.results->benchmarks.size(),
                 guard.results->benchmarks.size() == 1 ? "" : "s");
    std::fflush(stdout);
    std::fflush(stderr);
    os::kill_orphans_now();
    os::remove_temp_dir();
    ::_exit(os::interrupted_status(signal));
}

void watch_for_a_stuck_body() {
    os::wait_for_interrupt();
    std::unique_lock<std::mutex> lock(gate.mutex);
    for (;;) {
        const std::uint64_t seen = gate.steps_ended;
        const bool moved =
            gate.changed.wait_for(lock, grace, [&] { return gate.done || gate.steps_ended != seen; });
        if (gate.done)
            return;
        if (!moved && gate.in_step)
            break;  // the same step, still running a grace period after the signal
    }
    gate.taken = true;
    lock.unlock();
    report_after_grace(os::interrupted());
}

}  // namespace

namespace {

/// Every flag of the benchmark executable into `opt`; a status when the process is to end
/// here (--help, --version, a malformed flag).
std::optional<int> parse_flags(int argc, char** argv, bench_options& opt) {
    CLI::App app{
        "A tare benchmark executable: runs the benchmarks registered in it and reports time and "
        "memory of each timed region."};
    app.set_version_flag("--version", "tare " TARE_VERSION_STRING);
    app.formatter(std::make_shared<help_formatter>());
    app.add_flag("--list", opt.list, "print the benchmark names, one a line, and exit");
    const std::string self = argc > 0 && argv[0] != nullptr ? argv[0] : "./my_bench";
    app.footer(
        "Examples:\n  " + self + " --filter='^round_trip/' --json=results.json\n  " + self +
        " --isolate --timeout=60 --md\nEvery flag: docs/cli.md; comparing builds: tare compare --help");
    app.add_option("--filter", opt.filter, "run only names that REGEX (ECMAScript, search) matches")
        ->type_name("REGEX");
    app.add_option("--json", opt.json_path, "also write results as JSON to PATH ('-': standard output)")
        ->type_name("PATH");
    app.add_option("--min-time", opt.min_time, "measurement time budget per benchmark, in seconds")
        ->type_name("SECONDS")
        ->check(positive_seconds());
    app.add_flag("--isolate", opt.isolate, "run each benchmark in its own child process");
    app.add_option("--timeout", opt.timeout,
                   "with --isolate or --instrument: stop a benchmark running longer")
        ->type_name("SECONDS")
        ->check(positive_seconds());
    app.add_flag("--md", opt.markdown, "print the table as Markdown");
    add_color_option(&app, opt.color);
    app.add_option("--shard", opt.shard, "run only shard K of N: a stable 1/N of the benchmarks, by name")
        ->type_name("K/N");
    // A flag with an optional "=N" (as tare compare's --fail-on-regression): an option with an
    // optional value would take the next argument as N.
    std::size_t sites_top = 5;
    CLI::Option* sites_flag =
        app.add_flag("--alloc-sites{5}", sites_top,
                     "after measuring, locate the timed region's allocations: the top N call sites (=N; "
                     "default 5)")
            ->type_name("[=N]")
            ->check(whole_number(1, 1000));
    app.add_option("--instrument", opt.instrument,
                   "count each timed region's instructions instead of timing it: 'instructions' "
                   "(Valgrind's Callgrind) or 'hw-instructions' (the CPU's counter)")
        ->type_name("KIND")
        ->check(CLI::IsMember({"instructions", "hw-instructions"}));
    add_pass_env_option(&app, opt.pass_env);
    app.add_option("--profile", opt.profile_dir,
                   "write each benchmark's profile to DIR: instructions by call stack (with --instrument), "
                   "allocations by call stack (the sites pass)")
        ->type_name("DIR");
    app.add_option(exact_flag, opt.exact, "")->group("");                  // hidden: the --isolate protocol
    app.add_option(instrument::counted_flag, opt.counted, "")->group("");  // hidden: the counting child
    app.add_option(instrument::member_flag, opt.member, "")->group("");
    app.add_flag(instrument::profiled_flag, opt.profiled, "")->group("");
    app.add_flag(instrument::profile_results_flag, opt.profile_results, "")->group("");
    app.add_option(std::string(protocol::worker_flag), opt.worker, "")->group("");  // hidden
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::fputs(app.help().c_str(), stdout);
        return 0;
    } catch (const CLI::CallForVersion&) {
        std::puts("tare " TARE_VERSION_STRING);
        return 0;
    } catch (const CLI::ParseError& e) {
        return fail_usage(e.what());
    }
    if (sites_flag->count() > 0 || (opt.profile_dir && !opt.instrument)) {
        // A timed run's allocation profile is the sites pass's stacks: the default top without the flag.
        opt.alloc_sites = sites_flag->count() > 0 ? sites_top : 5;
    }
    return std::nullopt;
}

/// The flags that cannot go together: a usage error's status, or nothing.
std::optional<int> check_flags(const bench_options& opt) {
    if (opt.timeout && !opt.isolate && !opt.instrument) {
        return fail_usage(
            "--timeout applies only with --isolate or --instrument (a benchmark in this process cannot "
            "be stopped)");
    }
    if (!opt.pass_env.empty() && !opt.instrument) {
        return fail_usage(
            "--pass-env applies only with --instrument (a timed run has its whole environment)");
    }
    if ((opt.profile_dir || opt.profile_results) && opt.instrument && *opt.instrument != "instructions") {
        return fail_usage("--profile counts by call stack under Callgrind only (--instrument=instructions)");
    }
    if (opt.instrument && opt.alloc_sites) {
        return fail_usage("--alloc-sites and --instrument cannot be combined: run them separately");
    }
    return std::nullopt;
}

/// The timed run's side of the unit loop (core::run_units): each unit in this process or, with
/// --isolate, in a child; the progress lines; the gate the watchdog of a stuck body waits on.
class driver_host final : public core::unit_host {
public:
    struct in_process {
        core::clock_source& clock;
        core::region_probe& probe;
        const detail::sample_plan& plan;
        double loop_overhead;
    };

    driver_host(const bench_options& opt, in_process here)
        : opt_(opt), here_(here), live_(os::is_terminal(STDERR_FILENO)), logged_(!live_ && !opt.exact) {}

    bool live() const noexcept { return live_; }

    bool stopping() override { return os::interrupted() != 0; }

    // Progress on standard error (report/progress.hpp): on a terminal one live line, in a log
    // (CI) a line per finished benchmark, so minutes of running show life. Not from the child of
    // --isolate, whose parent says it.
    void step_begins(const core::run_unit& unit, std::size_t done, std::size_t total) override {
        step_started_ = os::monotonic_seconds();
        if (live_) {
            const report::progress_step step{done, total, unit.name(), step_started_ - started_};
            std::fprintf(
                stderr, "\r\033[K%s",
                report::progress_live(step, os::terminal_columns(STDERR_FILENO).value_or(0)).c_str());
            std::fflush(stderr);
        }
        driver::step_begins(unit);
    }

    core::group_outcome run(const core::run_unit& unit) override {
        core::group_outcome out = run_step(unit);
        driver::step_ends();  // the gate: from here the main thread may touch the results
        return out;
    }

    void step_ends(const core::run_unit& unit, std::size_t done, std::size_t total) override {
        if (!logged_ || os::interrupted() != 0)
            return;
        const double now = os::monotonic_seconds();
        const report::progress_step step{done, total, unit.name(), now - started_};
        std::fputs(report::progress_done(step, now - step_started_).c_str(), stderr);
        std::fflush(stderr);
    }

private:
    core::group_outcome run_step(const core::run_unit& unit) {
        const isolate_options isolated{opt_.min_time, opt_.timeout, opt_.alloc_sites};
        if (!opt_.isolate)
            return core::run_unit_here(unit, here_.clock, here_.probe, here_.plan, here_.loop_overhead);
        core::group_outcome out;
        if (unit.group) {
            // The whole group in one child: its members' per-block times come back with its
            // comparisons (tare/1 carries them), and --timeout bounds the group as one step.
            std::vector<std::string> members;
            for (const core::instance& m : unit.group->members)
                members.push_back(m.name);
            run_results group = run_isolated_group(unit.name(), members, isolated);
            out.members = std::move(group.benchmarks);
            out.comparisons = std::move(group.comparisons);
            return out;
        }
        benchmark_result row = run_isolated(unit.single.name, isolated);
        if (const int signal = os::interrupted(); signal != 0 && row.error) {
            // The child stopped because the run was interrupted, not because it failed.
            row.error = error_info{"interrupted", std::string("stopped by ") + os::interrupt_name(signal) +
                                                      " before it finished"};
        }
        out.members.push_back(std::move(row));
        return out;
    }

    const bench_options& opt_;
    in_process here_;
    bool live_;
    bool logged_;
    double started_ = os::monotonic_seconds();
    double step_started_ = 0;
};

/// The timed run of `units`: the clock's and the loop's overheads measured, the guards of exit()
/// and of a stuck body set, each unit run, the comparisons judged and the results written.
int run_timed(const std::vector<core::run_unit>& units, const bench_options& opt) {
    core::steady_clock_source clock;
    core::system_probe probe;
    detail::sample_plan plan;
    plan.budget_ns = opt.min_time * 1e9;
    plan.clock_overhead_ns = core::measure_clock_overhead(clock);
    detail::sample_plan overhead_plan = plan;
    if (opt.alloc_sites) {
        plan.alloc_sites = true;
        plan.alloc_sites_top = *opt.alloc_sites;
        if (!probe.accounting()) {
            std::fputs(
                "note: --alloc-sites finds nothing here: allocation accounting is off in this build "
                "(docs/accounting.md, \"Availability\")\n",
                stderr);
        }
    }
    overhead_plan.budget_ns = 0.02e9;
    const double loop_overhead = core::measure_loop_overhead(clock, probe, overhead_plan);

    run_results results;
    results.context = core::make_context(plan.clock_overhead_ns, loop_overhead, probe.accounting());
    guard.results = &results;
    guard.opt = &opt;
    os::handle_interrupts();
    os::adopt_orphans();
    std::thread(watch_for_a_stuck_body).detach();
    static const bool registered =
        std::atexit(on_exit_from_body) == 0 && std::at_quick_exit(on_exit_from_body) == 0;
    (void)registered;
    driver_host host(opt, {clock, probe, plan, loop_overhead});
    const bool any_failed = core::run_units(units, host, results);
    run_ends();
    core::judge_comparisons(results.comparisons);  // one family: every comparison of the run
    return finish_run(results, opt, any_failed, host.live());
}

int drive(int argc, char** argv) {
    bench_options opt;
    if (const std::optional<int> status = parse_flags(argc, argv, opt))
        return *status;
    if (const std::optional<int> status = check_flags(opt))
        return *status;
    auto parsed = core::name_filter::parse(opt.filter);
    if (auto* e = std::get_if<std::string>(&parsed)) {
        return fail_usage("--filter: " + *e);
    }
    const core::name_filter& filter = std::get<core::name_filter>(parsed);
    std::optional<core::shard> shard;
    if (opt.shard) {
        auto s = core::parse_shard(*opt.shard);
        if (auto* e = std::get_if<std::string>(&s)) {
            return fail_usage(*e);
        }
        shard = std::get<core::shard>(s);
    }

    // Checked first, workers too: a name the protocol cannot carry is refused, not run wrong.
    const std::vector<core::instance> all = core::expand(registered_benchmarks());
    if (std::string bad = core::check_names(all); !bad.empty()) {
        return fail_usage(bad);
    }
    if (opt.worker) {
        os::settle_layout();  // started by tare compare, perhaps in a chosen layout
        return run_worker(*opt.worker, core::select(all, filter));
    }
    // Comparison groups are checked here, once every static registration has run; a malformed
    // one is a build's mistake, reported like a bad argument. A group runs whole: --filter
    // matching one member (or the group's name) selects all its members (docs/variants.md).
    const core::resolved_variants variants = core::resolve_variants(all, registered_variant_groups());
    if (!variants.error.empty()) {
        return fail_usage(variants.error);
    }
    std::vector<core::run_unit> units = core::plan_units(all, variants.instances, filter);
    if (opt.exact) {
        std::erase_if(units, [&](const core::run_unit& u) { return u.name() != *opt.exact; });
    }
    if (shard) {  // by the unit's name: a comparison group is in one shard, whole
        std::erase_if(units, [&](const core::run_unit& u) { return !core::in_shard(u.name(), *shard); });
    }
    if (opt.counted) {
        return run_counted_child(units, opt);
    }
    if (opt.list) {
        for (const core::run_unit& u : units) {
            for (const core::instance& i : u.instances()) {
                std::printf("%s\n", i.name.c_str());
            }
        }
        return 0;
    }
    return opt.instrument ? run_instrumented(units, opt) : run_timed(units, opt);
}

}  // namespace

// A table, a list or --json=- that standard output did not take is a failed run (status 1).
int bench_driver(int argc, char** argv) {
    return check_standard_output(drive(argc, argv), 1);
}

}  // namespace tare::driver
