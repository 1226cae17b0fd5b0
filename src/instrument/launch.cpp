#include "instrument/launch.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/runner.hpp"
#include "instrument/callgrind_graph.hpp"
#include "instrument/profile.hpp"
#include "io/results_reader.hpp"
#include "os/capture.hpp"
#include "os/counters.hpp"
#include "os/interrupt.hpp"
#include "os/os.hpp"
#include "os/process.hpp"

namespace tare::instrument {

namespace {

namespace fs = std::filesystem;

// The simulated caches, the same on every machine: Callgrind would otherwise take the host's,
// and the counts of one program would differ from machine to machine. 32 KiB 8-way L1s and an
// 8 MiB 16-way last level, 64-byte lines: a common desktop and server core of the last decade.
constexpr const char* i1 = "--I1=32768,8,64";
constexpr const char* d1 = "--D1=32768,8,64";
constexpr const char* ll = "--LL=8388608,16,64";

// The environment and the argument strings are padded to a multiple of this, at least twice it.
constexpr std::size_t pad_unit = 4096;

std::optional<std::string> on_path(const std::string& program) {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        if (dir.empty()) {
            continue;
        }
        const fs::path candidate = fs::path(dir) / program;
        if (::access(candidate.c_str(), X_OK) == 0) {
            return candidate.string();
        }
    }
    return std::nullopt;
}

// The first line of `argv`'s standard output, or "".
std::string first_line_of(const std::vector<std::string>& argv) {
    os::child_options o;
    o.discard_stderr = true;
    o.timeout_seconds = 30;
    // A version line is short: a program that prints more than this is not the one meant.
    const os::captured_child r = os::run_child_capturing(argv, o, std::size_t{1} << 16);
    if (!r.result.started || r.result.exit_code != 0 || r.over) {
        return "";
    }
    return r.output.substr(0, r.output.find('\n'));
}

benchmark_result error_row(const std::string& name, std::string kind, std::string message) {
    benchmark_result r;
    r.name = name;
    r.error = error_info{std::move(kind), std::move(message)};
    return r;
}

// The last lines of Valgrind's log: what it said when the child failed.
std::string log_tail(const fs::path& log) {
    std::ifstream in(log);
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(in, line)) {
        if (line.starts_with("==") && line.find("== ") != std::string::npos) {
            line = line.substr(line.find("== ") + 3);  // "==1234== message"
        }
        // Callgrind's closing statistics say nothing of why the program ended.
        const bool statistics =
            line.find(" refs:") != std::string::npos || line.find(" misses:") != std::string::npos ||
            line.find(" miss rate:") != std::string::npos || line.starts_with("Collected") ||
            line.starts_with("Events") || line.starts_with("Branches") || line.starts_with("Mispred");
        if (!line.empty() && !statistics) {
            lines.push_back(line);
        }
    }
    std::string out;
    for (std::size_t i = lines.size() > 3 ? lines.size() - 3 : 0; i < lines.size(); ++i) {
        out += (out.empty() ? "" : " / ") + lines[i];
    }
    return out;
}

}  // namespace

std::optional<counter> parse_instrument(const std::string& value) {
    if (value == "instructions") {
        return counter::callgrind;
    }
    if (value == "hw-instructions") {
        return counter::hw_instructions;
    }
    return std::nullopt;
}

std::variant<launcher, std::string> make_launcher(counter how, std::optional<double> timeout_seconds) {
    launcher l;
    l.how = how;
    l.timeout_seconds = timeout_seconds;
    if (how == counter::hw_instructions) {
        const os::hw_instruction_counter probe;
        if (probe.error()) {
            return "--instrument=hw-instructions: " + *probe.error();
        }
        l.description = "the CPU's retired-instruction counter (perf_event_open), user mode";
        return l;
    }
    if (!os::callgrind::built()) {
        return std::string(
            "--instrument=instructions: this build of tare has no Callgrind client requests "
            "(valgrind/callgrind.h was not found when it was built; Debian: apt-get install valgrind)");
    }
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return std::string("--instrument=instructions: a sanitizer build cannot run under Valgrind");
#endif
    auto valgrind = on_path("valgrind");
    if (!valgrind) {
        return std::string(
            "--instrument=instructions needs Valgrind, and no valgrind is on PATH (Debian: apt-get "
            "install valgrind)");
    }
    l.valgrind = *valgrind;
    std::string version = first_line_of({l.valgrind, "--version"});
    if (version.empty()) {
        return "--instrument=instructions: " + l.valgrind + " --version did not answer";
    }
    l.description = version + " callgrind; I1 32 KiB 8-way, D1 32 KiB 8-way, LL 8 MiB 16-way, 64 B lines";
    return l;
}

std::vector<std::string> counted_environment(const std::vector<std::string>& argv,
                                             const std::vector<std::string>& extra) {
    std::vector<std::string> env = extra;
    for (const char* name : {"PATH", "HOME", "TMPDIR", "LD_LIBRARY_PATH", "VALGRIND_LIB"}) {
        if (const char* v = std::getenv(name)) {
            env.push_back(std::string(name) + "=" + v);
        }
    }
    std::size_t size = 0;
    for (const std::vector<std::string>* strings :
         {&argv, static_cast<const std::vector<std::string>*>(&env)}) {
        for (const std::string& s : *strings) {
            size += s.size() + 1;
        }
    }
    const std::string prefix = "TARE_PAD=";
    size += prefix.size() + 1;
    const std::size_t target = std::max(2 * pad_unit, (size + pad_unit - 1) / pad_unit * pad_unit);
    env.push_back(prefix + std::string(target - size, 'x'));
    return env;
}

namespace {

// The session of the child's dumps as it ended: Callgrind numbers them "<out>.1", "<out>.2", ...
// in the order taken, so the last is the measured pass.
callgrind_session last_dump(const fs::path& out) {
    callgrind_session s{out.string(), 0};
    std::error_code ec;
    while (fs::exists(out.string() + "." + std::to_string(s.dumps + 1), ec)) {
        ++s.dumps;
    }
    return s;
}

// The end of a counted child's standard error kept for its message (and passed on).
constexpr std::size_t counted_stderr_bytes = std::size_t{64} << 10;

// What a counted child left: its results file, Valgrind's log, and the last line it wrote.
struct child_leavings {
    fs::path json;
    fs::path log;
    std::string last_words;
};

// The row a counted child's end gives: its own, or an error row naming how it ended, with what
// Valgrind and the program last said.
benchmark_result row_of_child(const launcher& l, const os::child_result& child, const child_leavings& left,
                              const std::string& member) {
    const std::string words = left.last_words.empty() ? "" : "; its last words: " + left.last_words;
    if (child.timed_out) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%g", *l.timeout_seconds);
        return error_row(
            member, "timeout",
            std::string("ran longer than the timeout of ") + buf + " s under the instrument and was stopped");
    }
    if (!child.started || child.signal != 0 || (child.exit_code != 0 && child.exit_code != 1)) {
        // Valgrind's own last lines when a signal ended the program or it said nothing itself.
        std::string valgrind =
            l.how == counter::callgrind && (child.signal != 0 || words.empty()) ? log_tail(left.log) : "";
        return error_row(member, child.signal != 0 ? "signal" : "crash",
                         "the benchmark's counted process " + os::describe_end(child) +
                             (valgrind.empty() ? "" : " (Valgrind: " + valgrind + ")") + words);
    }
    auto read = io::read_results_file(left.json.string());
    if (auto* e = std::get_if<io::read_error>(&read)) {
        return error_row(member, "crash",
                         "the benchmark's counted process left no readable results: " +
                             e->without_origin(left.json.string()) + words);
    }
    auto& results = std::get<run_results>(read);
    if (results.benchmarks.size() != 1) {
        return error_row(member, "crash",
                         "the benchmark's counted process reported " +
                             std::to_string(results.benchmarks.size()) + " results, not 1" + words);
    }
    return std::move(results.benchmarks.front());
}

}  // namespace

benchmark_result run_counted_child(const launcher& l, const std::string& executable,
                                   const std::string& member, const plan_child& plan) {
    std::error_code ec;
    const os::temp_name temp = os::temp_file_name("counted");
    if (temp.path.empty()) {
        return error_row(member, "temp_file", temp.error);
    }
    if (::mkdir(temp.path.c_str(), 0700) != 0) {
        return error_row(member, "temp_file",
                         "cannot make a temporary directory: " + std::string(std::strerror(errno)));
    }
    const fs::path dir = temp.path;
    const fs::path json = dir / "result.json";
    const fs::path out = dir / "callgrind.out";
    const fs::path log = dir / "valgrind.log";
    // The program is started through a link of a fixed name beside them, so its argv[0] has the
    // same length whatever the executable's path: the strings the program copies before its
    // region (its own name among them) then allocate the same sizes, and the heap the region
    // starts from is laid out the same. An executable at a longer path changed the counts of a
    // body that grows a vector by one part in 30,000 (realloc extends in place or moves).
    const fs::path exe = dir / "bench";
    fs::create_symlink(executable, exe, ec);
    if (ec) {
        fs::remove_all(dir, ec);
        return error_row(member, "instrument", "cannot link the executable into " + dir.string());
    }

    const child_plan planned = plan(json.string(), out.string());
    std::vector<std::string> program{exe.string()};
    program.insert(program.end(), planned.arguments.begin(), planned.arguments.end());
    std::vector<std::string> argv;
    if (l.how == counter::callgrind) {
        argv = {l.valgrind, "--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no",
                "--cache-sim=yes", i1, d1, ll, "--dump-line=no",
                // One dump a file, without jumps, whatever a ~/.valgrindrc asks: what the readers read.
                "--collect-jumps=no", "--combine-dumps=no",
                // No gdbserver: its FIFOs in the temporary directory outlive a child killed by an
                // interrupt or a timeout.
                "--vgdb=no", "--callgrind-out-file=" + out.string(), "--log-file=" + log.string()};
    }
    argv.insert(argv.end(), program.begin(), program.end());

    os::child_options o;
    o.discard_stdout = true;
    o.timeout_seconds = l.timeout_seconds;
    o.interrupt = os::on_interrupt::kill;
    std::vector<std::string> extra = planned.environment;
    for (const std::string& name : l.pass_env) {
        if (const char* v = std::getenv(name.c_str())) {
            extra.push_back(name + "=" + v);
        }
    }
    o.environment = counted_environment(program, extra);
    // Its standard error through a pipe, kept (the end of it) and passed on once it ended: a
    // failed row then quotes its last words, the cause a suite states before it exits.
    os::tail_capture said(counted_stderr_bytes);
    o.stderr_fd = said.child_end();
    const os::child_result child = os::run_child(argv, o);
    said.close_child_end();
    const os::captured_tail words = said.tail(1.0);
    std::fwrite(words.text.data(), 1, words.text.size(), stderr);
    benchmark_result row =
        row_of_child(l, child, {json, log, os::last_words(words, counted_stderr_bytes)}, member);
    if (l.profile && l.how == counter::callgrind && !failed(row)) {
        add_profile(last_dump(out), row);
    }
    fs::remove_all(dir, ec);
    return row;
}

namespace {

std::variant<instruction_profile, std::string> last_dump_profile(const callgrind_session& session,
                                                                 std::uint64_t iterations) {
    const std::string path = session.out_file + "." + std::to_string(session.dumps);
    auto text = io::read_text_file(path);
    if (auto* e = std::get_if<io::read_error>(&text)) {
        return "Callgrind's call graph could not be read: " + e->without_origin(path);
    }
    auto graph = parse_callgrind_graph(std::get<std::string>(text), path);
    if (auto* e = std::get_if<io::read_error>(&graph)) {
        return "Callgrind's call graph could not be read: " + e->without_origin(path);
    }
    return region_profile(std::get<callgrind_graph>(graph), iterations);
}

}  // namespace

void add_profile(const callgrind_session& session, benchmark_result& row) {
    auto profile = last_dump_profile(session, row.iterations);
    if (auto* why = std::get_if<std::string>(&profile)) {
        row.warnings.push_back({"no_profile", "no instruction profile: " + *why});
        return;
    }
    row.profile = std::get<instruction_profile>(std::move(profile));
}

benchmark_result run_in_child(const launcher& l, const std::string& step, const std::string& member) {
    return run_counted_child(
        l, os::executable_path(), member, [&](const std::string& json, const std::string& out) {
            // The program's own arguments: the same strings for every instance but the names.
            child_plan p{{"--tare-exact=" + step, "--json=" + json}, {}};
            if (member != step) {
                p.arguments.push_back(std::string(member_flag) + "=" + member);
            }
            p.arguments.push_back(std::string(counted_flag) + "=" +
                                  (l.how == counter::callgrind ? "callgrind:" + out : std::string("hw")));
            if (l.profile && l.how == counter::callgrind) {
                p.arguments.emplace_back(profiled_flag);
            }
            return p;
        });
}

}  // namespace tare::instrument
