#include "instrument/counted_run.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/clock.hpp"
#include "core/metrics.hpp"
#include "instrument/callgrind_format.hpp"
#include "instrument/counting_probe.hpp"
#include "os/counters.hpp"
#include "os/os.hpp"

namespace tare::instrument {

namespace {

// Sizes the samples: one counted iteration first, then the measured pass.
class counting_controller final : public detail::sample_controller {
public:
    counting_controller(counter how, callgrind_session* session, os::hw_instruction_counter* hw,
                        counting_probe& probe, std::uint64_t fixed)
        : how_(how), session_(session), hw_(hw), probe_(probe), fixed_(fixed) {}

    std::uint64_t calibrated(std::uint64_t /*iterations*/) override {
        started_ = os::monotonic_seconds();
        probe_.set_counting(true);
        if (fixed_ != 0) {  // the benchmark fixed its iterations: those are counted, in one sample
            per_sample_ = fixed_;
            samples_ = 1;
            measuring_ = true;
            return fixed_;
        }
        return 1;
    }

    std::uint64_t measured(const tare::sample& /*s*/, std::int64_t /*peak*/) override {
        if (!measuring_) {
            auto first = take("first iteration");
            if (!first) {
                return 0;
            }
            const std::uint64_t n = counted_iterations(static_cast<double>(first->get("Ir").value_or(0)));
            samples_ = std::min(counted_samples, n);
            per_sample_ = n / samples_;
            measuring_ = true;
            started_ = os::monotonic_seconds();  // the measured pass's cost, not the first iteration's
            return per_sample_;
        }
        if (++done_ < samples_) {
            return per_sample_;
        }
        totals_ = take("measured");
        seconds_ = os::monotonic_seconds() - started_;
        probe_.set_counting(false);
        return 0;
    }

    double seconds() const noexcept { return seconds_; }

    const std::optional<callgrind_totals>& totals() const noexcept { return totals_; }
    const std::optional<std::string>& error() const noexcept { return error_; }
    std::uint64_t iterations() const noexcept { return per_sample_ * samples_; }

private:
    // The counts since the last take, set back to 0.
    std::optional<callgrind_totals> take(const char* what) {
        if (how_ == counter::hw_instructions) {
            callgrind_totals t;
            t.events.emplace_back("Ir", hw_->read());
            hw_->reset();
            return t;
        }
        auto taken = take_dump(*session_, what);
        if (auto* e = std::get_if<std::string>(&taken)) {
            error_ = std::move(*e);
            return std::nullopt;
        }
        return std::get<callgrind_totals>(std::move(taken));
    }

    counter how_;
    callgrind_session* session_;
    os::hw_instruction_counter* hw_;
    counting_probe& probe_;
    std::uint64_t fixed_;
    bool measuring_ = false;
    std::uint64_t per_sample_ = 0;
    std::uint64_t samples_ = 0;
    std::uint64_t done_ = 0;
    double started_ = 0;
    double seconds_ = 0;
    std::optional<callgrind_totals> totals_;
    std::optional<std::string> error_;
};

benchmark_result error_row(const std::string& name, std::string message) {
    benchmark_result r;
    r.name = name;
    r.error = error_info{"instrument", std::move(message)};
    return r;
}

}  // namespace

run_context counted_context(bool accounting) {
    run_context c = core::make_context(0, 0, accounting);
    c.clock_overhead_ns.reset();
    c.loop_overhead_ns.reset();
    return c;
}

std::variant<callgrind_totals, std::string> take_dump(callgrind_session& session, const char* reason) {
    os::callgrind::dump(reason);
    ++session.dumps;
    const std::string path = session.out_file + "." + std::to_string(session.dumps);
    auto text = io::read_text_file(path);
    if (auto* e = std::get_if<io::read_error>(&text)) {
        return "Callgrind's counts could not be read: " + e->message;
    }
    auto parsed = parse_callgrind_dump(std::get<std::string>(text), path);
    if (auto* e = std::get_if<io::read_error>(&parsed)) {
        return "Callgrind's counts could not be read: " + e->message;
    }
    return std::get<callgrind_totals>(std::move(parsed));
}

void add_allocation_stacks(const core::instance& inst, core::region_probe& probe, benchmark_result& row) {
    if (failed(row) || !probe.accounting()) {
        return;
    }
    // The samples only lead to the pass, their figures unused: one sample of the counted
    // iterations, so that the pass's length, and with it every per-iteration figure of a stack
    // that does not allocate every iteration, is the same in every run of the same program.
    // Rejected: a time budget, which made the pass's length, and so those figures, vary.
    core::steady_clock_source clock;
    detail::sample_plan plan;
    plan.fixed_iterations = std::max<std::uint64_t>(row.iterations, 1);
    plan.fixed_samples = 1;
    plan.alloc_sites = true;
    plan.alloc_sites_top = 5;
    benchmark_result timed = core::run_instance(inst, clock, probe, plan, 0, nullptr);
    if (failed(timed) || !timed.sites) {
        return;
    }
    row.sites = timed.sites;
    row.alloc_sites = std::move(timed.alloc_sites);
    row.retained_sites = std::move(timed.retained_sites);
}

std::uint64_t counted_iterations(double first) {
    const double wanted = std::ceil(counted_budget / std::max(first, 1.0));
    if (wanted <= static_cast<double>(counted_samples)) {
        return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(wanted));
    }
    const double capped = std::min(wanted, 1e9);
    const auto per_sample =
        static_cast<std::uint64_t>(std::ceil(capped / static_cast<double>(counted_samples)));
    return per_sample * counted_samples;
}

benchmark_result run_counted(const core::instance& inst, counter how, callgrind_session* session,
                             core::region_probe& probe, detail::sample_plan plan) {
    std::optional<os::hw_instruction_counter> hw;
    if (how == counter::callgrind) {
        if (!os::callgrind::built()) {
            return error_row(inst.name,
                             "this build of tare has no Callgrind client requests (valgrind/callgrind.h "
                             "was not found when it was built)");
        }
        if (!os::callgrind::running() || session == nullptr) {
            return error_row(inst.name, "not running under Valgrind's Callgrind");
        }
    } else {
        hw.emplace();
        if (hw->error()) {
            return error_row(inst.name, *hw->error());
        }
    }
    plan = core::plan_for(*inst.bench, plan);
    const std::uint64_t fixed = plan.fixed_iterations;
    plan.fixed_iterations = 1;  // sizes come from the controller, never from a calibration
    plan.alloc_sites = false;
    still_clock clock;
    counting_probe counted(probe, how, hw ? &*hw : nullptr);
    counting_controller controller(how, session, hw ? &*hw : nullptr, counted, fixed);
    detail::sample_driver driver(clock, counted, plan);
    driver.set_controller(&controller);
    if (how == counter::callgrind && session->profile) {
        // Callgrind learns the call stack only from the calls it simulates: started inside the
        // loop, it would not know the body that the region's callees return to.
        os::callgrind::start_instrumentation();
    }
    detail::loop_outcome loop = driver.run(inst.name, inst.args, inst.bench->function());

    benchmark_result result;
    result.name = inst.name;
    result.counters = loop.counters;
    if (loop.error) {
        result.error = loop.error;
        return result;
    }
    if (controller.error()) {
        return error_row(inst.name, *controller.error());
    }
    if (!controller.totals()) {
        return error_row(inst.name, "the counted pass did not finish");
    }
    // The memory figures of the measured pass alone: the first, sizing iteration is left out,
    // as a timed run leaves out its warm-up.
    if (fixed == 0 && !loop.samples.empty()) {
        loop.samples.erase(loop.samples.begin());
    }
    core::derive_memory(loop, result);
    result.page_faults_per_iter.reset();
    std::erase_if(result.warnings, [](const warning& w) { return w.kind == "fresh_memory"; });
    result.iterations = controller.iterations();

    instruction_counts c;
    c.iterations = controller.iterations();
    c.seconds = controller.seconds();
    if (how == counter::callgrind) {
        const callgrind_figures f = per_iteration(*controller.totals(), c.iterations);
        c.instrument = "callgrind";
        c.instructions = f.instructions;
        c.data_reads = f.data_reads;
        c.data_writes = f.data_writes;
        c.l1_misses = f.l1_misses;
        c.ll_misses = f.ll_misses;
        c.estimated_cycles = f.estimated_cycles;
    } else {
        c.instrument = "hw-instructions";
        c.instructions = static_cast<double>(controller.totals()->get("Ir").value_or(0)) /
                         static_cast<double>(std::max<std::uint64_t>(c.iterations, 1));
    }
    result.counts = c;
    return result;
}

}  // namespace tare::instrument
