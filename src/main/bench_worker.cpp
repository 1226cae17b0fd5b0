#include "main/bench_worker.hpp"

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "core/probes.hpp"
#include "os/channel.hpp"
#include "protocol/worker_protocol.hpp"
#include "report/reporter.hpp"

namespace tare::driver {

namespace {

/// The controller's side of each sample boundary, seen from inside the body's loop.
class remote_controller final : public detail::sample_controller {
public:
    remote_controller(os::line_reader& in, int out) : in_(in), out_(out) {}

    std::uint64_t calibrated(std::uint64_t iterations) override {
        return send(protocol::calibrated(iterations)) ? next_command() : 0;
    }
    std::uint64_t measured(const tare::sample& s, std::int64_t peak) override {
        return send(protocol::format_sample(s, peak)) ? next_command() : 0;
    }
    bool lost() const noexcept { return lost_; }

private:
    bool send(const std::string& line) {
        if (!os::write_all(out_, line)) {
            lost_ = true;
        }
        return !lost_;
    }
    // "sample N" continues the loop with N iterations; "stop" ends it. Anything else is a
    // broken controller: end the loop and leave after this benchmark.
    std::uint64_t next_command() {
        std::string line;
        if (in_.read_line(line, -1) != os::read_status::ok) {
            lost_ = true;
            return 0;
        }
        if (auto n = protocol::parse_sample_request(line)) {
            return *n;
        }
        if (line != protocol::stop) {
            std::fprintf(stderr, "tare worker: unexpected command '%s'\n", line.c_str());
            lost_ = true;
        }
        return 0;
    }

    os::line_reader& in_;
    int out_;
    bool lost_ = false;
};

benchmark_result missing(const std::string& name) {
    benchmark_result r;
    r.name = name;
    r.error = error_info{"not_found", "no benchmark of this name in this executable"};
    return r;
}

}  // namespace

int run_worker(const std::string& spec, const std::vector<core::instance>& instances) {
    (void)spec;  // the descriptors are fixed (os::child_read_fd / child_write_fd)
    os::ignore_sigpipe();
    os::line_reader in(os::child_read_fd);
    const int out = os::child_write_fd;

    core::steady_clock_source clock;
    core::system_probe probe;
    const double clock_overhead = core::measure_clock_overhead(clock);
    run_results results;
    // The context travels with every result: the controller learns accounting from it.
    results.context = core::make_context(clock_overhead, 0, probe.accounting());
    if (!os::write_all(out, protocol::hello(probe.accounting()))) {
        return 2;
    }
    const auto json = report::make_json_reporter<run_results>();
    for (std::string line; in.read_line(line, -1) == os::read_status::ok;) {
        if (line == protocol::quit) {
            return 0;
        }
        if (line == protocol::list) {
            std::vector<std::string> names;
            for (const auto& i : instances) {
                names.push_back(i.name);
            }
            if (!os::write_all(out, protocol::names(names))) {
                return 2;
            }
            continue;
        }
        auto cmd = protocol::parse_run(line);
        if (!cmd) {
            std::fprintf(stderr, "tare worker: unexpected command '%s'\n", line.c_str());
            return 2;
        }
        const core::instance* inst = nullptr;
        for (const auto& i : instances) {
            if (i.name == cmd->name) {
                inst = &i;
                break;
            }
        }
        remote_controller controller(in, out);
        benchmark_result result;
        if (inst == nullptr) {
            result = missing(cmd->name);
        } else {
            // One sample of sample_ns is the unit both sides share; warm-up as asked.
            detail::sample_plan plan;
            plan.budget_ns = cmd->sample_ns;
            plan.target_samples = 1;
            plan.min_samples = 1;
            plan.warmup_fraction = cmd->warmup_ns / cmd->sample_ns;
            plan.clock_overhead_ns = clock_overhead;
            result = core::run_instance(*inst, clock, probe, plan, 0, &controller);
        }
        results.benchmarks.assign(1, std::move(result));
        const std::string text = json->render(results);
        if (!os::write_all(out, protocol::result(text)) || controller.lost()) {
            return controller.lost() ? 2 : 0;
        }
    }
    return 0;
}

}  // namespace tare::driver
