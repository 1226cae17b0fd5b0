// SIGINT and SIGTERM to a benchmark executable, to `tare run` and to `tare compare`: what
// finished is written as valid JSON marked interrupted, the status is 130 or 143, and no child
// process and no temporary file outlives the run (docs/cli.md, "Interrupting a run").
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "run_process.hpp"
#include "scratch.hpp"
#include "text_helpers.hpp"

namespace tare {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::private_copy;
using test::processes_mentioning;
using test::scratch;

struct started {
    pid_t pid = -1;
    fs::path out;
    fs::path err;
};

// Starts `argv` with standard output in s.out and standard error in s.err, or on the write end
// of `err_pipe` when one is given (then crash_bench's bodies announce themselves there).
started start_child(const std::vector<std::string>& argv, const std::string& tag, const int* err_pipe) {
    started s;
    s.out = scratch(tag + ".out");
    s.err = scratch(tag + ".err");
    s.pid = ::fork();
    if (s.pid == 0) {
        const int o = ::open(s.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int e = err_pipe ? err_pipe[1] : ::open(s.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ::dup2(o, 1);
        ::dup2(e, 2);
        if (err_pipe) {
            ::close(err_pipe[0]);
            ::setenv("TARE_TEST_ANNOUNCE", "1", 1);  // crash_bench's bodies say when they begin
        }
        // The signals the tests send reach the child however the test itself was started: a
        // job started in the background of a non-interactive shell inherits SIGINT ignored, and
        // tare rightly leaves an ignored SIGINT alone.
        for (const int sig : {SIGINT, SIGTERM, SIGHUP})
            ::signal(sig, SIG_DFL);
        sigset_t none;
        ::sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        std::vector<char*> args;
        for (const std::string& a : argv)
            args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    return s;
}

started start(const std::vector<std::string>& argv, const std::string& tag) {
    return start_child(argv, tag, nullptr);
}

// Like start(), with standard error on a pipe the test reads (`err_fd`), so it can wait for a
// line: an event, never a sleep racing the process.
started start_piped(const std::vector<std::string>& argv, const std::string& tag, int* err_fd) {
    int fds[2];
    if (::pipe(fds) != 0)
        return {};
    const started s = start_child(argv, tag, fds);
    ::close(fds[1]);
    *err_fd = fds[0];
    return s;
}

// Reads `fd` line by line (appending to `log`) until a line contains `text`: true; false at
// the end of the stream, or after 60 s without it.
bool wait_for_line(int fd, const std::string& text, std::string* log) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    std::string pending;
    while (std::chrono::steady_clock::now() < until) {
        struct pollfd p {
            fd, POLLIN, 0
        };
        if (::poll(&p, 1, 100) <= 0)
            continue;
        char buffer[512];
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n <= 0)
            return false;
        log->append(buffer, static_cast<std::size_t>(n));
        pending.append(buffer, static_cast<std::size_t>(n));
        for (std::size_t nl = pending.find('\n'); nl != std::string::npos; nl = pending.find('\n')) {
            if (pending.substr(0, nl).find(text) != std::string::npos)
                return true;
            pending.erase(0, nl + 1);
        }
    }
    return false;
}

// The rest of `fd` to its end (every writer has exited) or for 30 s at most, appended to `log`;
// then closed.
void drain(int fd, std::string* log) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    char buffer[4096];
    while (std::chrono::steady_clock::now() < until) {
        struct pollfd p {
            fd, POLLIN, 0
        };
        if (::poll(&p, 1, 100) <= 0)
            continue;
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n <= 0)
            break;
        log->append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
}

// What a process that did not end was doing: its signal masks and each thread's wait channel,
// for the failure message (a hang then says whether the signal was ignored, blocked, pending or
// caught, and where every thread sleeps).
std::string hang_report(pid_t pid) {
    std::string out = "\nthe process had not ended; /proc/" + std::to_string(pid) + ":";
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(status, line);) {
        if (line.rfind("Sig", 0) == 0 || line.rfind("ShdPnd", 0) == 0 || line.rfind("Threads", 0) == 0)
            out += "\n  " + line;
    }
    std::error_code ec;
    for (const auto& task : fs::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec)) {
        std::ifstream wchan(task.path() / "wchan");
        std::string where;
        std::getline(wchan, where);
        out += "\n  task " + task.path().filename().string() + " waits in " + where;
    }
    return out;
}

std::string last_hang;  // hang_report() of the last wait_for() that gave up

// The exit status, or -1 when it has not ended within `seconds` (then it is killed, after
// last_hang says what it was doing).
int wait_for(pid_t pid, double seconds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    int status = 0;
    last_hang.clear();
    while (std::chrono::steady_clock::now() < until) {
        if (::waitpid(pid, &status, WNOHANG) == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    last_hang = hang_report(pid);
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    return -1;
}

void sleep_seconds(double s) {
    std::this_thread::sleep_for(std::chrono::duration<double>(s));
}

// Waits (at most 20 s: a sanitizer's start-up is slow) until at least `n` processes mention
// `marker` (a temporary directory's janitor, a fork of its owner, mentions it too).
bool wait_for_processes(const std::string& marker, int n) {
    for (int i = 0; i < 2000; ++i) {
        if (processes_mentioning(marker) >= n)
            return true;
        sleep_seconds(0.01);
    }
    return false;
}

// Waits (at most 20 s) until no process mentions `marker`.
bool wait_until_gone(const std::string& marker) {
    for (int i = 0; i < 2000; ++i) {
        if (processes_mentioning(marker) == 0)
            return true;
        sleep_seconds(0.01);
    }
    return false;
}

// Waits (at most 20 s) until process `pid` has taken `signal`: no longer pending for the
// process (ShdPnd in /proc) nor for any of its threads (SigPnd).
bool wait_until_taken(pid_t pid, int signal) {
    const unsigned long long bit = 1ULL << (signal - 1);
    const auto pending = [&] {
        std::error_code ec;
        for (const auto& task : fs::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec)) {
            std::ifstream status(task.path() / "status");
            for (std::string line; std::getline(status, line);) {
                if ((line.rfind("ShdPnd:", 0) == 0 || line.rfind("SigPnd:", 0) == 0) &&
                    (std::stoull(line.substr(7), nullptr, 16) & bit) != 0)
                    return true;
            }
        }
        return false;
    };
    for (int i = 0; i < 2000; ++i) {
        if (!pending())
            return true;
        sleep_seconds(0.01);
    }
    return false;
}

// The interrupted runs below are a short benchmark and then one that runs past the grace
// period: the signal is sent once the second's body has said it began, so it lands inside it. `works_too`
// honours --min-time (5 s, past the 2 s grace); `hangs` never returns.
const std::string works_then_long = "--filter=^(works|works_too)$";

// The rows of an interrupted run: `works` finished and measured whole, `second` cut short.
void expect_first_kept_second_interrupted(const json& doc, const std::string& second) {
    EXPECT_TRUE(doc["context"]["interrupted"].get<bool>());
    ASSERT_EQ(doc["benchmarks"].size(), 2U) << doc.dump();
    EXPECT_EQ(doc["benchmarks"][0]["name"], "works");
    EXPECT_TRUE(doc["benchmarks"][0]["error"].is_null());  // finished, measured whole
    EXPECT_EQ(doc["benchmarks"][1]["name"], second);
    EXPECT_EQ(doc["benchmarks"][1]["error"]["kind"], "interrupted");
}

// In process: the benchmark running when SIGINT comes has a grace period to finish; past it, it
// is an error row and the run ends with what finished. The rest does not run.
void interrupt_in_process(const std::string& filter, const std::string& second, const std::string& tag) {
    const std::string bench = private_copy(TARE_CRASH_BENCH, "crash_bench_" + tag);
    const fs::path out = scratch("int_" + tag + ".json");
    int err_fd = -1;
    const started s = start_piped({bench, filter, "--min-time=5", "--json=" + out.string()}, tag, &err_fd);
    std::string log;
    ASSERT_TRUE(wait_for_line(err_fd, "started " + second, &log)) << log;  // from inside its body
    ::kill(s.pid, SIGINT);
    drain(err_fd, &log);
    // Ended by the grace, not by the body: works_too honours --min-time=5, and hangs never
    // returns. No bound on the wall time here: on a loaded machine it says nothing.
    EXPECT_EQ(wait_for(s.pid, 30), 130) << log << last_hang;
    expect_first_kept_second_interrupted(json::parse(slurp(out)), second);
    EXPECT_NE(log.find("interrupted by SIGINT"), std::string::npos) << log;
}

TEST(interrupt, a_benchmark_executable_writes_what_finished_and_exits_130) {
    interrupt_in_process("--filter=^(works|works_too)$", "works_too", "direct");
}

TEST(interrupt, a_body_that_never_returns_is_left_after_the_grace_and_the_rest_kept) {
    interrupt_in_process("--filter=^(works|hangs)$", "hangs", "stuck");
}

// --isolate: SIGTERM stops the child at once (its benchmark hangs), the row says interrupted,
// the child does not outlive the run.
TEST(interrupt, an_isolated_hang_is_stopped_and_named_interrupted) {
    const std::string bench = private_copy(TARE_CRASH_BENCH, "crash_bench_int");
    const fs::path out = scratch("int_isolate.json");
    int err_fd = -1;
    const started s = start_piped({bench, "--isolate", "--filter=^(works|hangs|works_too)$",
                                   "--min-time=0.05", "--json=" + out.string()},
                                  "isolate", &err_fd);
    std::string log;
    ASSERT_TRUE(wait_for_line(err_fd, "started hangs", &log)) << log;
    ::kill(s.pid, SIGTERM);
    drain(err_fd, &log);
    EXPECT_EQ(wait_for(s.pid, 30), 143) << log << last_hang;
    const json doc = json::parse(slurp(out));
    EXPECT_TRUE(doc["context"]["interrupted"].get<bool>());
    ASSERT_EQ(doc["benchmarks"].size(), 2U) << doc.dump();
    EXPECT_EQ(doc["benchmarks"][0]["name"], "works");
    EXPECT_TRUE(doc["benchmarks"][0]["error"].is_null());
    EXPECT_EQ(doc["benchmarks"][1]["name"], "hangs");
    EXPECT_EQ(doc["benchmarks"][1]["error"]["kind"], "interrupted");
    EXPECT_EQ(processes_mentioning("crash_bench_int"), 0);
}

// A second SIGINT ends at once, even inside a body that never returns.
TEST(interrupt, a_second_sigint_exits_at_once) {
    const std::string bench = private_copy(TARE_CRASH_BENCH, "crash_bench_twice");
    int err_fd = -1;
    const started s = start_piped({bench, "--filter=^(works|hangs)$", "--min-time=0.05"}, "twice", &err_fd);
    std::string log;
    ASSERT_TRUE(wait_for_line(err_fd, "started hangs", &log)) << log;
    ::kill(s.pid, SIGINT);
    // The first taken before the second is sent (two pending SIGINTs are one).
    ASSERT_TRUE(wait_until_taken(s.pid, SIGINT)) << hang_report(s.pid);
    ::kill(s.pid, SIGINT);
    EXPECT_EQ(wait_for(s.pid, 30), 130) << last_hang;
    drain(err_fd, &log);
}

// tare run passes the signal on to the executable, which writes what finished; tare writes it,
// leaves no temporary file (its $TMPDIR is empty again) and no child. SIGHUP is what a closed
// terminal or a cancelled CI job sends.
void tare_run_is_interrupted_by(int signal, const std::string& tag) {
    const std::string bench = private_copy(TARE_CRASH_BENCH, "crash_bench_" + tag);
    const fs::path out = scratch("int_" + tag + ".json");
    const fs::path tmp = scratch("tmp_" + tag);
    fs::create_directories(tmp);
    ::setenv("TMPDIR", tmp.c_str(), 1);
    int err_fd = -1;
    const started s =
        start_piped({TARE_COMMAND, "run", bench, works_then_long, "--min-time=5", "--json=" + out.string()},
                    tag, &err_fd);
    ::unsetenv("TMPDIR");
    std::string log;
    ASSERT_TRUE(wait_for_line(err_fd, "started works_too", &log)) << log;  // from inside its body
    ::kill(s.pid, signal);
    drain(err_fd, &log);
    EXPECT_EQ(wait_for(s.pid, 30), 128 + signal) << log << last_hang;
    expect_first_kept_second_interrupted(json::parse(slurp(out)), "works_too");
    EXPECT_EQ(processes_mentioning("crash_bench_" + tag), 0);
    for (const auto& entry : fs::directory_iterator(tmp))
        ADD_FAILURE() << "left behind: " << entry.path().filename();
}

TEST(interrupt, tare_run_keeps_what_finished_and_leaves_nothing_running) {
    tare_run_is_interrupted_by(SIGINT, "run");
}

TEST(interrupt, a_closed_terminal_sighup_keeps_what_finished_and_exits_129) {
    tare_run_is_interrupted_by(SIGHUP, "hup");
}

// A parent killed outright (SIGKILL, which nothing can handle) takes its children with it.
TEST(interrupt, children_do_not_outlive_a_killed_parent) {
    const std::string bench = private_copy(TARE_CRASH_BENCH, "crash_bench_orphan");
    const started s = start({TARE_COMMAND, "run", bench, "--filter=^hangs$"}, "orphan");
    ASSERT_TRUE(wait_for_processes("crash_bench_orphan", 2));  // tare run's argv, and the executable
    ::kill(s.pid, SIGKILL);
    wait_for(s.pid, 5);
    int left = 1;
    for (int i = 0; i < 100 && left > 0; ++i) {
        sleep_seconds(0.02);
        left = processes_mentioning("crash_bench_orphan");
    }
    EXPECT_EQ(left, 0);
}

// Nor does its temporary directory: SIGKILL runs no handler, so the directory's janitor, a
// child waiting for its owner's end, removes it. Both tare's directory and the benchmark
// executable's hold a file while the body runs.
TEST(interrupt, a_killed_parent_leaves_no_temporary_file) {
    const std::string bench = private_copy(TARE_CRASH_BENCH, "crash_bench_killed");
    const fs::path tmp = scratch("tmp_killed");
    fs::create_directories(tmp);
    ::setenv("TMPDIR", tmp.c_str(), 1);
    int err_fd = -1;
    const started s =
        start_piped({TARE_COMMAND, "run", bench, "--filter=^hangs$", "--isolate"}, "killed", &err_fd);
    ::unsetenv("TMPDIR");
    std::string log;
    ASSERT_TRUE(wait_for_line(err_fd, "started hangs", &log)) << log;
    int made = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(tmp))
        ++made;
    EXPECT_GE(made, 1) << "the run made no temporary directory: the test would prove nothing";
    ::kill(s.pid, SIGKILL);
    wait_for(s.pid, 5);
    drain(err_fd, &log);  // its end: every writer of the pipe, the children included, has gone
    // The janitors notice their owner's end at once; this waits for the directory to be empty,
    // for 30 s at most.
    bool empty = false;
    for (int i = 0; i < 3000 && !empty; ++i) {
        empty = fs::is_empty(tmp);
        if (!empty)
            sleep_seconds(0.01);
    }
    for (const auto& entry : fs::recursive_directory_iterator(tmp))
        ADD_FAILURE() << "left behind: " << entry.path().lexically_relative(tmp);
}

// A body that starts a daemon (a new session, its parent gone) is out of reach of every process
// group kill; the process that adopts it as a subreaper ends it when the benchmark ends, in
// every mode, so nothing is left when the run has exited.
TEST(interrupt, a_daemon_a_body_starts_does_not_outlive_the_run) {
    const std::string bench = private_copy(TARE_DAEMON_BENCH, "daemon_bench_left");
    const std::vector<std::vector<std::string>> runs = {
        {bench, "--min-time=0.01"},
        {bench, "--min-time=0.01", "--isolate"},
        {TARE_COMMAND, "run", bench, "--min-time=0.01"},
        {TARE_COMMAND, "run", bench, "--min-time=0.01", "--isolate"},
        {TARE_COMMAND, "compare", bench, bench, "--min-time=0.01", "--rounds=2"},
    };
    for (const auto& argv : runs) {
        const test::process_result r = test::run_process(argv);
        std::string command;
        for (const std::string& a : argv)
            command += a + " ";
        EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.err;
        // The private copy's path: no other test's process names it.
        EXPECT_EQ(processes_mentioning(bench), 0) << command << ": its daemon outlived it";
        wait_until_gone(bench);  // so that the next run starts clean
    }
}

// The state letter of process `pid` in /proc (R, S, D, ...), or 0 when it is gone.
char state_of(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat;
    std::getline(in, stat);
    const std::size_t paren = stat.rfind(')');
    return paren == std::string::npos || paren + 2 >= stat.size() ? 0 : stat[paren + 2];
}

// tare report whose input is a named pipe nobody opens blocks in open(); SIGTERM ends it at
// once rather than being recorded for a step that never comes.
TEST(interrupt, tare_report_blocked_on_a_named_pipe_ends_on_sigterm) {
    const fs::path fifo = scratch("input.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const started s = start(
        {TARE_COMMAND, "report", fifo.string(), "--html=" + scratch("fifo.html").string()}, "report_fifo");
    // Asleep as tare (after exec): blocked in the open, with its handlers, if any, installed.
    bool asleep = false;
    for (int i = 0; i < 2000 && !asleep; ++i) {
        std::ifstream comm("/proc/" + std::to_string(s.pid) + "/comm");
        std::string name;
        std::getline(comm, name);
        asleep = name == "tare" && state_of(s.pid) == 'S';
        if (!asleep)
            sleep_seconds(0.01);
    }
    ASSERT_TRUE(asleep);
    ::kill(s.pid, SIGTERM);
    EXPECT_EQ(wait_for(s.pid, 5), 143) << slurp(s.err) << last_hang;
}

// tare compare stops after the round in progress and reports the rounds that ran.
TEST(interrupt, tare_compare_reports_the_rounds_that_ran) {
    const std::string base = private_copy(TARE_COMPARE_BASE, "compare_base_int");
    const std::string head = private_copy(TARE_COMPARE_HEAD, "compare_head_int");
    const fs::path out = scratch("int_compare.json");
    int err_fd = -1;
    const started s = start_piped({TARE_COMMAND, "compare", base, head, "--rounds=200", "--min-time=20",
                                   "--filter=^spin$", "--json=" + out.string()},
                                  "compare", &err_fd);
    std::string log;
    // Its log line for the first round (standard error is no terminal): one round has run.
    ASSERT_TRUE(wait_for_line(err_fd, "round 1 (", &log)) << log;
    ::kill(s.pid, SIGINT);
    drain(err_fd, &log);
    EXPECT_EQ(wait_for(s.pid, 60), 130) << log << last_hang;
    const json doc = json::parse(slurp(out));
    EXPECT_TRUE(doc["context"]["interrupted"].get<bool>());
    const auto rounds = doc["context"]["rounds"].get<int>();
    EXPECT_GE(rounds, 1);
    EXPECT_LT(rounds, 200);
    ASSERT_EQ(doc["rows"].size(), 1U);
    EXPECT_EQ(doc["rows"][0]["base"]["round_ns"].size(), static_cast<std::size_t>(rounds));
    EXPECT_EQ(processes_mentioning("compare_base_int"), 0);
    EXPECT_EQ(processes_mentioning("compare_head_int"), 0);
}

// tare exec's command leads a group of its own: an interrupt or a timeout kills the command and
// what it started (here two sleepers in the background of a shell), not just the shell.
TEST(interrupt, tare_exec_stops_the_commands_group_on_a_signal_and_at_its_timeout) {
    const std::string sleeper = private_copy("/bin/sleep", "exec_grandchild_sleep");
    const std::string script = sleeper + " 300 & " + sleeper + " 301 & wait";
    const started s = start({TARE_COMMAND, "exec", "--runs=5", "--", "/bin/sh", "-c", script}, "exec_int");
    ASSERT_TRUE(wait_for_processes("exec_grandchild_sleep", 4));  // tare, the shell, two sleepers
    ::kill(s.pid, SIGINT);
    EXPECT_EQ(wait_for(s.pid, 10), 130) << slurp(s.err) << last_hang;
    EXPECT_NE(slurp(s.err).find("interrupted"), std::string::npos) << slurp(s.err);
    // Killed, not yet gone: a killed process is still listed until the kernel has torn it down,
    // which on a loaded machine can outlast tare's exit. A leaked sleeper lives 300 s.
    EXPECT_TRUE(wait_until_gone("exec_grandchild_sleep")) << processes_mentioning("exec_grandchild_sleep");

    const started t = start(
        {TARE_COMMAND, "exec", "--runs=1", "--timeout=0.5", "--", "/bin/sh", "-c", script}, "exec_timeout");
    EXPECT_EQ(wait_for(t.pid, 20), 3) << slurp(t.err);
    EXPECT_TRUE(wait_until_gone("exec_grandchild_sleep")) << processes_mentioning("exec_grandchild_sleep");
}

}  // namespace
}  // namespace tare
