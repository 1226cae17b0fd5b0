// Private to src/cli: the engines of `tare compare` (docs/compare.md), each run from the checked
// flags: counted executables, stored results files, or executables in rounds of workers.
#include "cli/compare_engines.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "compare/gbench_rounds.hpp"
#include "compare/rounds.hpp"
#include "counted/compare.hpp"
#include "instrument/launch.hpp"
#include "io/atomic_file.hpp"
#include "io/gbench_reader.hpp"
#include "os/interrupt.hpp"
#include "os/layout.hpp"
#include "os/os.hpp"
#include "report/profile/profile_files.hpp"
#include "report/progress.hpp"

namespace tare::cli {

namespace {

namespace fs = std::filesystem;

}  // namespace

std::variant<run_results, run_failure> read_side(const std::string& path, target_kind k) {
    auto read = io::read_any_results_file(path);
    if (auto* e = std::get_if<io::read_error>(&read)) {
        return run_failure{exit_usage, e->message + unknown_file_note(k)};
    }
    return std::move(std::get<run_results>(read));
}

namespace {

// An interrupted counted comparison keeps what both sides counted whole: a benchmark one side
// had not reached, or was stopped in, is neither compared nor listed as only on one side.
void keep_counted_on_both(std::vector<run_results>& sides) {
    const auto stopped = [](const benchmark_result& b) { return b.error && b.error->kind == "interrupted"; };
    for (auto& side : sides) {
        std::erase_if(side.benchmarks, stopped);
    }
    const auto counted = [](const run_results& r, const std::string& name) {
        return std::any_of(r.benchmarks.begin(), r.benchmarks.end(),
                           [&](const benchmark_result& b) { return b.name == name; });
    };
    for (std::size_t i = 0; i < 2; ++i) {
        const run_results& other = sides[1 - i];
        std::erase_if(sides[i].benchmarks,
                      [&](const benchmark_result& b) { return !counted(other, b.name); });
    }
}

// "3", "0-3,6": ascending, without repeats; empty for anything else.
std::vector<int> parse_cpu_list(const std::string& text) {
    std::vector<int> cpus;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t comma = std::min(text.find(',', at), text.size());
        const std::string item = text.substr(at, comma - at);
        const std::size_t dash = item.find('-');
        int first = -1;
        int last = -1;
        auto number = [](const std::string& s, int& out) {
            auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
            return ec == std::errc() && p == s.data() + s.size() && !s.empty() && out >= 0;
        };
        if (dash == std::string::npos
                ? !number(item, first)
                : !number(item.substr(0, dash), first) || !number(item.substr(dash + 1), last)) {
            return {};
        }
        if (last < 0) {
            last = first;
        }
        if (last < first || last - first > 4096) {
            return {};
        }
        for (int c = first; c <= last; ++c) {
            cpus.push_back(c);
        }
        at = comma + 1;
    }
    std::sort(cpus.begin(), cpus.end());
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
    return cpus;
}

// --cpu: the CPUs every worker runs on, or a message.
std::variant<std::vector<int>, run_failure> resolve_cpus(const std::string& text) {
    const std::vector<int> allowed = os::allowed_cpus();
    if (text == "none") {
        return std::vector<int>{};
    }
    if (text == "auto") {
        // One CPU for both sides: the two workers run in lock-step, so one CPU is all they use,
        // and on it a change of the machine's speed reaches both. Any one CPU serves; the last
        // allowed one is a fixed choice so that runs are alike. Measured: docs/compare.md,
        // "Pinning".
        return allowed.empty() ? std::vector<int>{} : std::vector<int>{allowed.back()};
    }
    std::vector<int> cpus = parse_cpu_list(text);
    if (cpus.empty()) {
        return run_failure{exit_usage,
                           "--cpu=" + text + ": expected auto, none or a list of CPUs like 3 or 0-3,6"};
    }
    for (int c : cpus) {
        if (!allowed.empty() && !std::binary_search(allowed.begin(), allowed.end(), c)) {
            std::string have;
            for (int a : allowed) {
                have += (have.empty() ? "" : ",") + std::to_string(a);
            }
            std::string message = "--cpu=" + text;
            message += ": CPU " + std::to_string(c) + " is not one this process may use (" + have + ")";
            return run_failure{exit_usage, std::move(message)};
        }
    }
    return cpus;
}

// --layout=matched: a random seed for this comparison's layouts, or none (with a note saying
// why) when a side cannot be started in a chosen layout, e.g. a statically linked executable.
// Measured: docs/compare.md, "Layouts".
std::optional<std::uint64_t> layout_seed(const std::string& base, const std::string& head) {
    for (const std::string* exe : {&base, &head}) {
        auto l = os::prepare_layout({*exe}, 0);
        if (auto* why = std::get_if<std::string>(&l)) {
            std::fprintf(stderr, "tare compare: note: each process in the kernel's own address layout: %s\n",
                         why->c_str());
            return std::nullopt;
        }
    }
    std::random_device rd;
    return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

// Progress on standard error (report/progress.hpp): on a terminal a live line per benchmark of
// each round; in a log (CI) a line per finished round.
class rounds_progress {
public:
    void at(std::size_t round, std::size_t rounds, std::size_t row, std::size_t rows,
            const std::string& name) {
        last_rows_ = rows;
        last_rounds_ = rounds;
        if (live_) {
            report::progress_step step{round * rows + row, rounds * rows,
                                       fmt::format("round {}/{}: {}", round + 1, rounds, name),
                                       os::monotonic_seconds() - started_};
            std::fprintf(
                stderr, "\r\033[K%s",
                report::progress_live(step, os::terminal_columns(STDERR_FILENO).value_or(0)).c_str());
            std::fflush(stderr);
        } else if (round > rounds_done_) {
            log_round(rounds, rows);  // the round before this one ended
        }
    }

    /// The rounds ended: the live line cleared, or the last round logged when all of them ran.
    void end(bool completed) {
        if (live_) {
            std::fputs("\r\033[K", stderr);
        } else if (last_rounds_ > 0 && completed) {
            log_round(last_rounds_, last_rows_);  // the last round
        }
    }

private:
    void log_round(std::size_t rounds, std::size_t rows) {
        const double now = os::monotonic_seconds();
        ++rounds_done_;
        report::progress_step step{
            rounds_done_, rounds,
            fmt::format("round {} ({} benchmark{})", rounds_done_, rows, rows == 1 ? "" : "s"),
            now - started_};
        std::fputs(report::progress_done(step, now - round_started_).c_str(), stderr);
        std::fflush(stderr);
        round_started_ = now;
    }

    bool live_ = os::is_terminal(STDERR_FILENO);
    double started_ = os::monotonic_seconds();
    double round_started_ = started_;
    std::size_t rounds_done_ = 0;
    std::size_t last_rows_ = 0;
    std::size_t last_rounds_ = 0;
};

}  // namespace

bool is_process_failure(const boxed<error_info>& e) {
    return e && (e->kind == "signal" || e->kind == "timeout" || e->kind == "crash");
}

std::variant<compared, run_failure> compare_counted_executables(const compare_args& args,
                                                                const compare_inputs& in) {
    compared out;
    if ((in.base_kind == target_kind::gbench_executable) !=
        (in.head_kind == target_kind::gbench_executable)) {
        return run_failure{
            exit_usage,
            "compare two tare executables or two Google Benchmark executables, not one of each (" +
                args.base + ", " + args.head + ")"};
    }
    // Said before either side runs: no Valgrind is one message, not two failed runs.
    auto made = instrument::make_launcher(*instrument::parse_instrument(*args.instrument), std::nullopt);
    if (auto* e = std::get_if<std::string>(&made)) {
        return run_failure{exit_usage, *e};
    }
    run_args ra;
    ra.filter = args.filter;
    ra.shard = args.shard;
    ra.instrument = args.instrument;
    ra.pass_env = args.pass_env;
    ra.profile_dir = args.profile_dir;
    if (args.timeout_given) {
        ra.timeout = args.timeout;  // per counted benchmark, in its child
    }
    std::vector<run_results> sides;
    for (const std::string* side : {&args.base, &args.head}) {
        // A Google Benchmark suite is counted through tare::gbench's hooks, one child a
        // benchmark; one without them is refused, by name (docs/instructions.md).
        auto run = run_any_target(*side, ra);
        if (auto* f = std::get_if<run_failure>(&run)) {
            if (os::interrupted() != 0) {
                break;
            }
            return *f;
        }
        sides.push_back(std::move(std::get<run_results>(run)));
        if (os::interrupted() != 0) {
            break;
        }
    }
    if (args.profile_dir && sides.size() == 2) {
        for (std::size_t i = 0; i < 2; ++i) {
            const std::string dir =
                (std::filesystem::path(*args.profile_dir) / (i == 0 ? "base" : "head")).string();
            if (auto e = io::write_files_into(dir, report::profile_files(sides[i]))) {
                return run_failure{exit_usage, "--profile: " + *e};
            }
        }
    }
    // An interrupt may have come before head ran, or before base ended: a side not counted is
    // an empty one (before the rename below, which reads head's).
    while (sides.size() < 2) {
        sides.emplace_back();
    }
    // Renamed once counted: the filter and shard chose each side's benchmarks by its own names.
    auto own = compare::rename_results(sides[1], in.renames);
    if (auto* why = std::get_if<std::string>(&own)) {
        return run_failure{exit_usage, *why};
    }
    if (os::interrupted() != 0) {
        keep_counted_on_both(sides);
    }
    out.results = counted::compare_counted(sides[0], sides[1], args.threshold_pct);
    compare::restore_head_names(out.results, std::get<0>(own));
    out.instrumented = {compare::instrumentation_of(sides[0]), compare::instrumentation_of(sides[1])};
    out.results.interrupted = os::interrupted() != 0;
    return out;
}

namespace {

// Head's file read as a stored comparison takes it: renamed to base's names, then its
// benchmarks selected by those; `own` maps them back to head's.
struct stored_head {
    run_results results;
    std::unordered_map<std::string, std::string> own;
};

std::variant<stored_head, run_failure> read_stored_head(const compare_args& args, const compare_inputs& in) {
    auto head = read_side(args.head, in.head_kind);
    if (auto* f = std::get_if<run_failure>(&head)) {
        return *f;
    }
    stored_head out{std::move(std::get<run_results>(head)), {}};
    auto own = compare::rename_results(out.results, in.renames);
    if (auto* why = std::get_if<std::string>(&own)) {
        return run_failure{exit_usage, *why};
    }
    out.own = std::move(std::get<0>(own));
    std::erase_if(out.results.benchmarks, [&](const benchmark_result& b) { return !in.selected(b.name); });
    return out;
}

// Two counted files, count by count: small beside timed ones (a row per benchmark, no samples),
// so both are held at once.
std::variant<compared, run_failure> compare_counted_files(const compare_args& args, const compare_inputs& in,
                                                          const run_results& base) {
    auto read = read_stored_head(args, in);
    if (auto* f = std::get_if<run_failure>(&read)) {
        return *f;
    }
    const stored_head& head = std::get<stored_head>(read);
    if (auto why = counted::counted_mismatch(base, head.results)) {
        return run_failure{exit_usage, *why};
    }
    compared out;
    out.results = counted::compare_counted(base, head.results, args.threshold_pct);
    compare::restore_head_names(out.results, head.own);
    out.instrumented = {compare::instrumentation_of(base), compare::instrumentation_of(head.results)};
    out.results.base_context = base.context;
    out.results.head_context = head.results.context;
    return out;
}

}  // namespace

std::variant<compared, run_failure> compare_stored_files(const compare_args& args, const compare_inputs& in) {
    auto read = read_side(args.base, in.base_kind);
    if (auto* f = std::get_if<run_failure>(&read)) {
        return *f;
    }
    run_results& base = std::get<run_results>(read);
    std::erase_if(base.benchmarks, [&](const benchmark_result& b) { return !in.selected(b.name); });
    if (counted::is_counted(base)) {
        return compare_counted_files(args, in, base);
    }
    // Timed files a side at a time: base's model becomes the comparison's rows and is released
    // before head's is read (compare::file_comparison).
    compared out;
    out.instrumented.first = compare::instrumentation_of(base);
    run_results base_context{base.context, {}, {}};
    compare::file_comparison files(in.verdicts, args.base, args.head);
    files.add_base(std::move(base));
    auto head_read = read_stored_head(args, in);
    if (auto* f = std::get_if<run_failure>(&head_read)) {
        return *f;
    }
    stored_head& head = std::get<stored_head>(head_read);
    // Base is not counted: the mismatch, if any, is head's, which base's context alone shows.
    if (auto why = counted::counted_mismatch(base_context, head.results)) {
        return run_failure{exit_usage, *why};
    }
    out.instrumented.second = compare::instrumentation_of(head.results);
    run_context head_context = head.results.context;
    files.add_head(std::move(head.results));
    out.results = std::move(files).finish();
    compare::restore_head_names(out.results, head.own);
    out.results.base_context = std::move(base_context.context);
    out.results.head_context = std::move(head_context);
    return out;
}

std::variant<compared, run_failure> compare_in_rounds(const compare_args& args, const compare_inputs& in) {
    compared out;
    const bool gbench = in.base_kind == target_kind::gbench_executable;
    if (gbench != (in.head_kind == target_kind::gbench_executable)) {
        return run_failure{exit_usage,
                           "compare two tare executables or two Google Benchmark executables, not one of "
                           "each (" +
                               args.base + ", " + args.head + ")"};
    }
    auto cpus = resolve_cpus(args.cpu);
    if (auto* f = std::get_if<run_failure>(&cpus)) {
        return *f;
    }
    compare::rounds_options ro;
    ro.base = fs::absolute(args.base).string();
    ro.head = fs::absolute(args.head).string();
    ro.rounds = args.rounds;
    ro.min_time = args.min_time;
    ro.cpus = std::get<std::vector<int>>(cpus);
    // bench/README.md, "A/B study": short samples in adjacent pairs for workers. Not shorter
    // still: at 320 a side the intervals narrowed three- to fourfold, but two bodies' changes
    // moved by more than their intervals ("Samples"). Google Benchmark repetitions are whole
    // runs of the body in one process, so few.
    // A Google Benchmark suite with tare::gbench linked serves as a worker: measured as tare's
    // own executables are. Both sides or neither, so that the two are measured alike.
    const bool gbench_workers =
        gbench && gbench_worker_capable(args.base) && gbench_worker_capable(args.head);
    const bool gbench_processes = gbench && !gbench_workers;
    if (gbench_workers) {
        ro.kind = compare::worker_kind::gbench;
        ro.carry_size = gbench_sized_capable(args.base) && gbench_sized_capable(args.head);
    }
    ro.samples_per_round = args.samples.value_or(gbench_processes ? 4 : 40);
    if (args.layout == "matched") {
        ro.layout_seed = layout_seed(ro.base, ro.head);
    }
    ro.filter = in.filter;
    ro.shard = in.shard;
    ro.renames = in.renames;
    ro.timeout_seconds = args.timeout;
    rounds_progress progress;
    ro.progress = [&](std::size_t round, std::size_t rounds, std::size_t row, std::size_t rows,
                      const std::string& name) { progress.at(round, rounds, row, rows, name); };
    auto measured = gbench_processes ? compare::run_gbench_rounds(ro) : compare::run_rounds(ro);
    progress.end(std::holds_alternative<compare::rounds_data>(measured) &&
                 !std::get<compare::rounds_data>(measured).interrupted);
    if (auto* f = std::get_if<compare::rounds_failure>(&measured)) {
        return run_failure{f->status, f->message};
    }
    out.results = compare::aggregate_rounds(std::get<compare::rounds_data>(measured), in.verdicts);
    out.gbench_memory = std::get<compare::rounds_data>(measured).gbench_memory;
    out.instrumented = compare::instrumentation_of(std::get<compare::rounds_data>(measured), gbench);
    out.results.cpus = ro.cpus;
    out.results.matched_layouts = ro.layout_seed.has_value();
    return out;
}

}  // namespace tare::cli
