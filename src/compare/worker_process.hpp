#pragma once
// The controller's handle on one worker: a tare benchmark executable started with
// --tare-worker, spoken to over src/protocol/worker_protocol.hpp. Every wait has a deadline, so a
// worker that hangs is killed and reported, never waited on forever.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/run.hpp"
#include "os/capture.hpp"
#include "os/channel.hpp"
#include "os/os.hpp"
#include "protocol/worker_protocol.hpp"

namespace tare::compare {

/// Why a worker stopped answering: kind "signal", "timeout", "crash" (exited, or said something
/// that is not the protocol), with a message naming the executable and how it ended.
struct worker_failure {
    std::string kind;
    std::string message;
};

/// The worker finished calibrating and waits for "sample".
struct calibrated {
    std::uint64_t iterations = 0;
};

/// What serves the protocol: a tare executable (started with protocol::worker_flag) or a Google
/// Benchmark executable with tare::gbench linked (started with protocol::gbench_worker_env).
enum class worker_kind { tare, gbench };

class worker_process {
public:
    /// `timeout_seconds` bounds every wait for a reply (a benchmark's setup included); with
    /// `cpus`, the worker runs on those CPUs alone; with `layout_seed`, in that address-space
    /// layout (src/os/layout.hpp).
    worker_process(std::string executable, double timeout_seconds, std::vector<int> cpus = {},
                   std::optional<std::uint64_t> layout_seed = std::nullopt,
                   worker_kind kind = worker_kind::tare);
    worker_process(const worker_process&) = delete;
    worker_process& operator=(const worker_process&) = delete;
    worker_process(worker_process&&) = delete;
    worker_process& operator=(worker_process&&) = delete;
    ~worker_process();

    /// A Google Benchmark worker's sites pass after each benchmark's samples, its top N
    /// (protocol::gbench_sites_env; a tare executable's is --alloc-sites, outside the protocol).
    /// Before start().
    void set_sites_top(std::size_t top) { sites_top_ = top; }
    /// Starts the process and reads its greeting.
    std::optional<worker_failure> start();
    bool running() const noexcept { return child_.pid > 0; }
    int pid() const noexcept { return child_.pid; }
    bool accounting() const noexcept { return accounting_; }
    /// The context of the last result the worker sent (its host, allocator, tare version), if any.
    const std::optional<run_context>& last_context() const noexcept { return last_context_; }

    std::variant<std::vector<std::string>, worker_failure> list();
    /// Starts benchmark `name`: calibrated, or its result when the body ended before measuring.
    std::variant<calibrated, benchmark_result, worker_failure> run(const std::string& name, double sample_ns,
                                                                   double warmup_ns);
    /// Starts benchmark `name` at `iterations` a sample, warmed up but not calibrated (a Google
    /// Benchmark worker that answers `run_sized`): as run().
    std::variant<calibrated, benchmark_result, worker_failure> run_sized(const std::string& name,
                                                                         std::uint64_t iterations,
                                                                         double warmup_ns);
    /// One sample of `iterations`, or the result when the body ended instead.
    std::variant<protocol::sample_report, benchmark_result, worker_failure> sample(std::uint64_t iterations);
    /// Ends the loop; the benchmark's own result (memory figures and warnings).
    std::variant<benchmark_result, worker_failure> stop();
    /// Says quit and reaps the process.
    void quit();

private:
    // The reply to a start (run, run_sized) of `name`, sent as `line`.
    std::variant<calibrated, benchmark_result, worker_failure> started(const std::string& name,
                                                                       const std::string& line);
    // Reads a reply line; a failure when the worker ended, hung or broke the protocol.
    std::variant<std::string, worker_failure> reply(const char* waiting_for);
    std::variant<benchmark_result, worker_failure> read_result(const std::string& header);
    // Reaps the worker and names how it ended. `stop_now`: kill it at once rather than after a
    // grace period, and keep `kind` (a worker that broke a bound on what it may send is a crash,
    // not the SIGKILL tare sent it). A timeout is always stopped at once.
    worker_failure fail(std::string kind, const std::string& what, bool stop_now = false);
    bool send(const std::string& line);
    // Its last non-empty line of standard error, and how many earlier bytes were not kept.
    std::string stderr_tail() const;

    std::string executable_;
    double timeout_seconds_;
    std::vector<int> cpus_;
    std::optional<std::uint64_t> layout_seed_;
    worker_kind kind_;
    std::optional<std::size_t> sites_top_;
    std::optional<os::tail_capture> stderr_;  // the end of its standard error (made by start())
    os::channel_child child_;
    std::optional<os::line_reader> reader_;
    bool accounting_ = false;
    std::optional<run_context> last_context_;
};

}  // namespace tare::compare
