#include "compare/worker_process.hpp"

#include <sstream>
#include <string_view>

#include "io/results_reader.hpp"
#include "os/os.hpp"

namespace tare::compare {

namespace {

// Bounds on what a worker may announce (each line is bounded by os::line_reader): a worker gone
// wrong must not have tare buffer whatever it says is coming.
constexpr std::uint64_t max_result_bytes = std::uint64_t{64} << 20;
constexpr std::uint64_t max_names = 1000000;
// All the names of a list together: a real suite's are a few megabytes at most (100,000 names of
// 100 bytes are 10 MB), and a million names of up to 1 MiB each would be a terabyte to buffer.
constexpr std::uint64_t max_names_bytes = std::uint64_t{64} << 20;

}  // namespace

worker_process::worker_process(std::string executable, double timeout_seconds, std::vector<int> cpus,
                               std::optional<std::uint64_t> layout_seed, worker_kind kind)
    : executable_(std::move(executable)),
      timeout_seconds_(timeout_seconds),
      cpus_(std::move(cpus)),
      layout_seed_(layout_seed),
      kind_(kind) {}

worker_process::~worker_process() {
    quit();
}

std::optional<worker_failure> worker_process::start() {
    os::ignore_sigpipe();
    stderr_.emplace();
    if (stderr_->child_end() < 0) {
        return worker_failure{"crash",
                              executable_ + ": cannot capture its standard error: " + stderr_->error()};
    }
    const bool gbench = kind_ == worker_kind::gbench;
    // A Google Benchmark main refuses flags it does not know, so its switches are the environment.
    std::vector<std::string> env{std::string(protocol::gbench_worker_env) + "=1"};
    if (sites_top_) {
        env.push_back(std::string(protocol::gbench_sites_env) + "=" + std::to_string(*sites_top_));
    }
    child_ = gbench ? os::spawn_with_channel({executable_}, stderr_->child_end(), cpus_, layout_seed_, env)
                    : os::spawn_with_channel({executable_, std::string(protocol::worker_flag) + "=3,4"},
                                             stderr_->child_end(), cpus_, layout_seed_);
    stderr_->close_child_end();
    if (child_.pid <= 0) {
        return worker_failure{"crash", child_.error};
    }
    reader_.emplace(child_.from_child);
    auto hello = reply("its greeting");
    if (auto* f = std::get_if<worker_failure>(&hello)) {
        f->message += gbench ? ". Is tare::gbench linked into it, with the link options of its CMake target?"
                             : ". Is it a tare benchmark executable (linked with tare::main)?";
        return *f;
    }
    const std::string& line = std::get<std::string>(hello);
    const std::optional<bool> accounting = protocol::parse_hello(line);
    if (!accounting) {
        return fail("crash", "greeted with '" + line + "', not the tare worker protocol " +
                                 std::to_string(protocol::version));
    }
    accounting_ = *accounting;
    return std::nullopt;
}

bool worker_process::send(const std::string& line) {
    return child_.pid > 0 && os::write_all(child_.to_child, line);
}

std::string worker_process::stderr_tail() const {
    if (!stderr_) {
        return "";
    }
    // Called once the worker has been reaped and its process group killed: every writer has
    // closed the pipe, unless a descendant detached, and that one is not waited for long.
    return os::last_words(stderr_->tail(1.0), os::tail_capture::default_keep_bytes);
}

worker_failure worker_process::fail(std::string kind, const std::string& what, bool stop_now) {
    // Reap it (killing it if needed) so the failure says how it ended.
    stop_now = stop_now || kind == "timeout";
    os::child_result end = os::finish_child(child_, stop_now ? 0.0 : 2.0);
    reader_.reset();
    std::string message = executable_ + ": " + what;
    if (kind != "timeout" && end.started) {
        if (end.signal != 0 && !stop_now) {
            kind = "signal";
        }
        message += " (how the worker ended: " + os::describe_end(end) + ")";
    }
    if (std::string tail = stderr_tail(); !tail.empty()) {
        message += "; its last words: " + tail;
    }
    return worker_failure{std::move(kind), std::move(message)};
}

std::variant<std::string, worker_failure> worker_process::reply(const char* waiting_for) {
    if (!reader_) {
        return worker_failure{"crash", executable_ + ": the worker is not running"};
    }
    std::string line;
    switch (reader_->read_line(line, timeout_seconds_)) {
    case os::read_status::ok:
        return line;
    case os::read_status::timeout: {
        std::ostringstream s;
        s << "no answer within the timeout of " << timeout_seconds_ << " s while waiting for " << waiting_for
          << "; the worker was stopped";
        return fail("timeout", s.str());
    }
    case os::read_status::too_long:
        return fail("crash",
                    "sent more than " + std::to_string(os::line_reader::max_line_bytes >> 20) +
                        " MiB without a line break while tare waited for " + waiting_for +
                        "; the worker was stopped",
                    true);
    case os::read_status::eof:
    case os::read_status::error:
        break;
    }
    return fail("crash", std::string("the worker ended while tare waited for ") + waiting_for);
}

std::variant<benchmark_result, worker_failure> worker_process::read_result(const std::string& header) {
    auto n = protocol::parse_result(header);
    if (!n) {
        return fail("crash", "said '" + header + "' where the protocol has a result");
    }
    // One benchmark's tare/1 result: a few hundred kilobytes at tare's most samples. A bound
    // keeps a worker gone wrong from having tare buffer whatever it announces.
    if (*n > max_result_bytes) {
        return fail("crash",
                    "announced a result of " + std::to_string(*n) + " bytes, more than the " +
                        std::to_string(max_result_bytes >> 20) + " MiB a result may have",
                    true);
    }
    std::string text;
    if (reader_->read_bytes(static_cast<std::size_t>(*n), text, timeout_seconds_) != os::read_status::ok) {
        return fail("crash", "the worker ended in the middle of a result");
    }
    auto parsed = io::parse_results(text, executable_ + " (worker result)");
    if (auto* e = std::get_if<io::read_error>(&parsed)) {
        return fail("crash", e->message);
    }
    auto& results = std::get<run_results>(parsed);
    if (results.benchmarks.size() != 1) {
        return fail("crash", "a worker result holds " + std::to_string(results.benchmarks.size()) +
                                 " benchmarks, not 1");
    }
    last_context_ = std::move(results.context);
    return std::move(results.benchmarks.front());
}

std::variant<std::vector<std::string>, worker_failure> worker_process::list() {
    if (!send(protocol::line(protocol::list))) {
        return fail("crash", "the worker did not take the list command");
    }
    auto head = reply("its benchmark list");
    if (auto* f = std::get_if<worker_failure>(&head)) {
        return *f;
    }
    auto n = protocol::parse_names(std::get<std::string>(head));
    if (!n) {
        return fail("crash", "said '" + std::get<std::string>(head) + "' where the protocol has names");
    }
    if (*n > max_names) {
        return fail("crash",
                    "announced " + std::to_string(*n) + " benchmarks, more than the " +
                        std::to_string(max_names) + " a list may have",
                    true);
    }
    std::vector<std::string> names;
    std::uint64_t bytes = 0;
    for (std::uint64_t i = 0; i < *n; ++i) {
        auto line = reply("its benchmark list");
        if (auto* f = std::get_if<worker_failure>(&line)) {
            return *f;
        }
        bytes += std::get<std::string>(line).size() + 1;
        if (bytes > max_names_bytes) {
            return fail("crash",
                        "sent benchmark names of more than " + std::to_string(max_names_bytes >> 20) +
                            " MiB in all, more than a list may have",
                        true);
        }
        names.push_back(std::move(std::get<std::string>(line)));
    }
    return names;
}

std::variant<calibrated, benchmark_result, worker_failure> worker_process::run(const std::string& name,
                                                                               double sample_ns,
                                                                               double warmup_ns) {
    return started(name, protocol::run({sample_ns, warmup_ns, name}));
}

std::variant<calibrated, benchmark_result, worker_failure> worker_process::run_sized(const std::string& name,
                                                                                     std::uint64_t iterations,
                                                                                     double warmup_ns) {
    return started(name, protocol::run_sized({iterations, warmup_ns, name}));
}

std::variant<calibrated, benchmark_result, worker_failure> worker_process::started(const std::string& name,
                                                                                   const std::string& line) {
    if (!send(line)) {
        return fail("crash", "the worker did not take the command to run " + name);
    }
    auto got = reply(("the calibration of " + name).c_str());
    if (auto* f = std::get_if<worker_failure>(&got)) {
        return *f;
    }
    const std::string& text = std::get<std::string>(got);
    if (auto n = protocol::parse_calibrated(text); n && *n > 0) {
        return calibrated{*n};
    }
    auto r = read_result(text);
    if (auto* f = std::get_if<worker_failure>(&r)) {
        return *f;
    }
    return std::move(std::get<benchmark_result>(r));
}

std::variant<protocol::sample_report, benchmark_result, worker_failure> worker_process::sample(
    std::uint64_t iterations) {
    if (!send(protocol::sample_request(iterations))) {
        return fail("crash", "the worker did not take a sample command");
    }
    auto line = reply("a sample");
    if (auto* f = std::get_if<worker_failure>(&line)) {
        return *f;
    }
    const std::string& text = std::get<std::string>(line);
    if (auto s = protocol::parse_sample(text)) {
        return *s;
    }
    auto r = read_result(text);
    if (auto* f = std::get_if<worker_failure>(&r)) {
        return *f;
    }
    return std::move(std::get<benchmark_result>(r));
}

std::variant<benchmark_result, worker_failure> worker_process::stop() {
    if (!send(protocol::line(protocol::stop))) {
        return fail("crash", "the worker did not take the stop command");
    }
    auto line = reply("a result");
    if (auto* f = std::get_if<worker_failure>(&line)) {
        return *f;
    }
    return read_result(std::get<std::string>(line));
}

void worker_process::quit() {
    if (child_.pid > 0) {
        send(protocol::line(protocol::quit));
        os::finish_child(child_, 5.0);
    }
    reader_.reset();
}

}  // namespace tare::compare
