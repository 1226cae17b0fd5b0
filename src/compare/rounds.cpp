#include "compare/rounds.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

#include "compare/worker_process.hpp"
#include "core/sample_driver.hpp"
#include "os/interrupt.hpp"
#include "os/process.hpp"

namespace tare::compare {

namespace {

enum side_index { base_side = 0, head_side = 1 };

struct side_state {
    std::unique_ptr<worker_process> worker;
    std::string name;  // the benchmark's name on this side (head's may be renamed)
    side_round* out = nullptr;
    bool looping = false;  // inside the benchmark's loop, waiting for commands
};

// What a sample cost the side. A tare executable's sample is its loop's time (the round trip
// around it is microseconds). A Google Benchmark worker's sample is two calls of the benchmark
// function, each with its setup, teardown and first iteration (a warm sample, in
// adapters/gbench/runs.cpp), which can cost many times the loop: so its cost is the wall time of
// the round trip, and a body with a slow setup takes fewer samples rather than spending many
// times its budget. Rejected: lengthening such a body's samples until its loop outweighs its
// setup, which under the one block every round needs costs more, not less.
struct sample_clock {
    bool wall = false;  // the worker is a Google Benchmark suite's
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();

    double spent_ns(double loop_ns) const {
        if (!wall) {
            return loop_ns;
        }
        const std::chrono::duration<double, std::nano> d = std::chrono::steady_clock::now() - start;
        return std::max(loop_ns, d.count());
    }
};

void record_failure(side_state& s, const worker_failure& f) {
    s.out->error = error_info{f.kind, f.message};
    s.looping = false;
}

void record_result(side_state& s, benchmark_result r) {
    if (r.error) {
        s.out->error = *r.error;
    } else if (s.out->samples.empty()) {
        s.out->error = error_info{"no_samples", "the loop ended before a sample was measured"};
    }
    s.out->result = std::move(r);
    s.looping = false;
}

// Starts a side's worker if it is not running (the first time, or after a crash).
std::optional<rounds_failure> ensure_started(side_state& s, const std::string& exe, const rounds_options& o,
                                             std::size_t round) {
    if (s.worker && s.worker->running()) {
        return std::nullopt;
    }
    s.worker =
        std::make_unique<worker_process>(exe, o.timeout_seconds, o.cpus, round_layout_seed(o, round), o.kind);
    if (auto f = s.worker->start()) {
        return rounds_failure{3, f->message};
    }
    return std::nullopt;
}

// One benchmark in one round: both sides calibrate, then balanced blocks of samples of one
// common size, then both stop. Errors land in the side's side_round. The blocks end early once
// a side has measured a fifth more than `round_ns` (a body slower than the planned sample, or
// sides far apart in speed: the common size is then long for the slower side), so the round
// keeps to its time; the fifth of slack keeps the planned count when samples merely run a few
// percent over their plan. At least one block is measured.
//
// With `carried` (Google Benchmark workers that answer run_sized), only the first round
// calibrates: the size it picks is kept there, and later rounds start both sides at it, each
// warmed up but not calibrated. Such a worker's calibration is runs of the benchmark function,
// each with its setup, three or more a round, where a warm-up at a known size is one; so a body
// with a slow setup pays for one calibration, not one a round. The rounds stay what the interval
// rests on: every round is still fresh processes of both sides, in a layout of their own, with
// samples of their own; the size is only how long a sample is, one for both sides as before.
// Rejected: fewer rounds for such a body, which would widen its interval behind the rounds the
// user asked for.
void measure_pair(side_state* order[2], double sample_ns, double warmup_ns, std::size_t blocks,
                  double round_ns, bool wall, std::optional<std::uint64_t>* carried) {
    std::uint64_t sizes[2] = {0, 0};
    const bool sized = carried != nullptr && carried->has_value();
    for (int k = 0; k < 2; ++k) {
        side_state& s = *order[k];
        auto c = sized ? s.worker->run_sized(s.name, **carried, warmup_ns)
                       : s.worker->run(s.name, sample_ns, warmup_ns);
        if (auto* cal = std::get_if<calibrated>(&c)) {
            sizes[k] = cal->iterations;
            s.looping = true;
        } else if (auto* r = std::get_if<benchmark_result>(&c)) {
            record_result(s, std::move(*r));
        } else {
            record_failure(s, std::get<worker_failure>(c));
        }
        if (!s.looping) {
            break;  // no pair this round: do not spend the other side's time
        }
    }
    if (order[0]->looping && order[1]->looping) {
        // One size for both sides, whichever calibrated first: the geometric mean of the two
        // calibrations, so neither side's reading decides alone.
        const double n = std::sqrt(static_cast<double>(sizes[0]) * static_cast<double>(sizes[1]));
        const auto iterations = static_cast<std::uint64_t>(std::max(1.0, std::round(n)));
        if (carried != nullptr) {
            *carried = iterations;
        }
        double spent[2] = {0, 0};
        for (std::size_t b = 0; b < blocks && order[0]->looping && order[1]->looping; ++b) {
            if (b > 0 && std::max(spent[0], spent[1]) >= 1.2 * round_ns) {
                break;
            }
            for (int k : block_order(b)) {
                side_state& s = *order[k];
                if (!s.looping) {
                    break;
                }
                const sample_clock clock{wall};
                auto x = s.worker->sample(iterations);
                if (auto* rep = std::get_if<protocol::sample_report>(&x)) {
                    spent[k] += clock.spent_ns(rep->sample.elapsed_ns);
                    s.out->samples.push_back(rep->sample);
                    s.out->peak_live_bytes = std::max(s.out->peak_live_bytes, rep->peak_live_bytes);
                } else if (auto* r = std::get_if<benchmark_result>(&x)) {
                    record_result(s, std::move(*r));
                } else {
                    record_failure(s, std::get<worker_failure>(x));
                }
            }
        }
    }
    for (int k = 0; k < 2; ++k) {
        side_state& s = *order[k];
        if (!s.looping) {
            continue;
        }
        auto r = s.worker->stop();
        if (auto* res = std::get_if<benchmark_result>(&r)) {
            record_result(s, std::move(*res));
        } else {
            record_failure(s, std::get<worker_failure>(r));
        }
    }
}

}  // namespace

bool selected(const rounds_options& o, const std::string& name) {
    return o.filter.matches(name) && (!o.shard || core::in_shard(name, *o.shard));
}

std::optional<std::string> pair_names(const rounds_options& o, std::vector<std::string> base,
                                      std::vector<std::string> head, rounds_data& data) {
    std::erase_if(base, [&](const std::string& n) { return !selected(o, n); });
    std::erase_if(head, [&](const std::string& n) { return !selected(o, o.renames.apply(n)); });
    auto matched = match_names(base, head, o.renames);
    if (auto* why = std::get_if<std::string>(&matched)) {
        return std::move(*why);
    }
    name_pairs& pairs = std::get<name_pairs>(matched);
    for (auto& [b, h] : pairs.both) {
        benchmark_rounds row;
        row.head_name = h == b ? std::string() : std::move(h);
        row.name = std::move(b);
        data.rows.push_back(std::move(row));
    }
    data.only_in_base = std::move(pairs.only_in_base);
    data.only_in_head = std::move(pairs.only_in_head);
    return std::nullopt;
}

std::optional<std::uint64_t> round_layout_seed(const rounds_options& o, std::size_t round, std::size_t row) {
    if (!o.layout_seed) {
        return std::nullopt;
    }
    // Distinct seeds are all a layout needs: os::prepare_layout mixes its seed (splitmix64), so
    // neighbouring rounds get unrelated layouts. The steps are odd constants other than
    // splitmix's own increment, so no round's seed lands on another's later state.
    return *o.layout_seed + 0xbf58476d1ce4e5b9ULL * (round + 1) + 0x94d049bb133111ebULL * row;
}

std::vector<int> block_order(std::size_t block) {
    return block % 2 == 0 ? std::vector<int>{0, 1, 1, 0} : std::vector<int>{1, 0, 0, 1};
}

namespace {

// The first round's start: both sides' lists of benchmarks, paired into data's rows, and what
// each side's allocation accounting can see.
std::optional<rounds_failure> list_and_pair(side_state (&sides)[2], const rounds_options& o,
                                            rounds_data& data) {
    std::vector<std::string> names[2];
    for (int k = 0; k < 2; ++k) {
        auto l = sides[k].worker->list();
        if (auto* f = std::get_if<worker_failure>(&l)) {
            return rounds_failure{3, f->message};
        }
        names[k] = std::move(std::get<std::vector<std::string>>(l));
    }
    if (auto why = pair_names(o, std::move(names[base_side]), std::move(names[head_side]), data)) {
        return rounds_failure{2, std::move(*why)};
    }
    data.base_accounting = sides[base_side].worker->accounting();
    data.head_accounting = sides[head_side].worker->accounting();
    if (o.kind == worker_kind::gbench && (data.base_accounting || data.head_accounting)) {
        data.gbench_memory = "region";  // the region hooks' figures, sample by sample
    }
    return std::nullopt;
}

}  // namespace

std::variant<rounds_data, rounds_failure> run_rounds(const rounds_options& o) {
    rounds_data data;
    const std::size_t rounds = std::max<std::size_t>(o.rounds, 1);
    const std::size_t blocks = std::max<std::size_t>((o.samples_per_round + 1) / 2, 1);
    const std::size_t per_round = 2 * blocks;
    const double round_ns = o.min_time * 1e9 / static_cast<double>(rounds);
    const double sample_ns = round_ns / static_cast<double>(per_round);
    // Warm-up: a tenth of the round's measured time, as a benchmark executable spends it.
    const double warmup_ns = 0.1 * round_ns;
    const std::string* exe[2] = {&o.base, &o.head};
    // The controller runs on the workers' CPU too. Every sample is a round trip (say "sample",
    // wait for the reply); across CPUs each one woke an idle virtual CPU, about 150 us a sample
    // on the project's VM, so short samples cost more than they measured. On one CPU the hand-off
    // is a context switch and the CPU never idles within a round (bench/studies.md, "Samples").
    const os::thread_pin pin(o.cpus);

    std::vector<bool> failed;                         // a benchmark that failed once is not retried
    std::vector<std::optional<std::uint64_t>> sizes;  // o.carry_size: each row's first-round size
    for (std::size_t r = 0; r < rounds; ++r) {
        if (r > 0 && os::interrupted() != 0) {
            data.interrupted = true;  // the rounds that ran are kept (docs/cli.md)
            break;
        }
        side_state sides[2];
        // Which side starts first alternates by round: process start order, and within each
        // benchmark which side calibrates first and leads the blocks.
        const int first = r % 2 == 0 ? base_side : head_side;
        for (int k : {first, 1 - first}) {
            if (auto f = ensure_started(sides[k], *exe[k], o, r)) {
                return *f;
            }
        }
        if (r == 0) {
            if (auto f = list_and_pair(sides, o, data)) {
                return *f;
            }
            failed.assign(data.rows.size(), false);
            sizes.assign(data.rows.size(), std::nullopt);
            if (data.rows.empty()) {
                return data;  // nothing in common: the caller says so
            }
        }
        for (std::size_t i = 0; i < data.rows.size(); ++i) {
            if (failed[i]) {
                continue;
            }
            benchmark_rounds& row = data.rows[i];
            if (o.progress) {
                o.progress(static_cast<std::size_t>(r), static_cast<std::size_t>(rounds), i, data.rows.size(),
                           row.name);
            }
            for (int k : {first, 1 - first}) {
                if (auto f = ensure_started(sides[k], *exe[k], o, r)) {
                    return *f;
                }
            }
            row.base.emplace_back();
            row.head.emplace_back();
            sides[base_side].out = &row.base.back();
            sides[head_side].out = &row.head.back();
            sides[base_side].name = side_name(row, false);
            sides[head_side].name = side_name(row, true);
            side_state* order[2] = {&sides[first], &sides[1 - first]};
            measure_pair(order, sample_ns, warmup_ns, blocks, round_ns, o.kind == worker_kind::gbench,
                         o.carry_size ? &sizes[i] : nullptr);
            failed[i] = row.base.back().error.has_value() || row.head.back().error.has_value();
        }
        for (auto& s : sides) {
            if (s.worker) {
                s.worker->quit();
            }
        }
        data.rounds = r + 1;
    }
    return data;
}

namespace {

// One benchmark in the worker `w`: calibrate and warm up, then samples until the budget is
// measured (sample_driver's rule for a tare executable's loop), then its result.
benchmark_result measure_one(worker_process& w, const alone_options& o, const std::string& name) {
    const double budget_ns = o.min_time * 1e9;
    detail::sample_plan plan;  // a tare executable's rule for when to stop, on this budget
    plan.budget_ns = budget_ns;
    const double sample_ns = std::max(budget_ns / 100.0, o.shortest_sample_s * 1e9);
    const auto failed = [&](const worker_failure& f) {
        benchmark_result r;
        r.name = name;
        r.error = os::interrupted() != 0
                      ? error_info{"interrupted",
                                   std::string("its worker was stopped: the run was interrupted by ") +
                                       os::interrupt_name(os::interrupted())}
                      : error_info{f.kind, f.message};
        return r;
    };
    auto c = w.run(name, sample_ns, 0.1 * budget_ns);
    if (auto* r = std::get_if<benchmark_result>(&c)) {
        return std::move(*r);
    }
    if (auto* f = std::get_if<worker_failure>(&c)) {
        return failed(*f);
    }
    const std::uint64_t iterations = std::get<calibrated>(c).iterations;
    double measured = 0;
    for (std::size_t count = 0;;) {
        const sample_clock clock{o.kind == worker_kind::gbench};
        auto x = w.sample(iterations);
        if (auto* r = std::get_if<benchmark_result>(&x)) {
            return std::move(*r);
        }
        if (auto* f = std::get_if<worker_failure>(&x)) {
            return failed(*f);
        }
        measured += clock.spent_ns(std::get<protocol::sample_report>(x).sample.elapsed_ns);
        ++count;
        if (detail::enough_samples(plan, count, measured) || os::interrupted() != 0) {
            break;
        }
    }
    auto r = w.stop();
    if (os::interrupted() != 0) {
        // As a tare executable's loop cut short: the row says so rather than judge a few samples.
        benchmark_result cut;
        cut.name = name;
        cut.error =
            error_info{"interrupted", std::string("stopped by ") + os::interrupt_name(os::interrupted()) +
                                          " before its samples were complete"};
        return cut;
    }
    if (auto* f = std::get_if<worker_failure>(&r)) {
        return failed(*f);
    }
    return std::move(std::get<benchmark_result>(r));
}

}  // namespace

std::variant<alone_data, rounds_failure> run_alone(const alone_options& o) {
    alone_data data;
    std::unique_ptr<worker_process> w;
    for (std::size_t i = 0; i < o.names.size(); ++i) {
        if (os::interrupted() != 0) {
            data.interrupted = true;  // what finished is kept (docs/cli.md)
            break;
        }
        if (w && (o.fresh_process_each || !w->running())) {
            w->quit();
            w.reset();
        }
        if (!w) {
            w = std::make_unique<worker_process>(o.executable, o.timeout_seconds, std::vector<int>{},
                                                 std::nullopt, o.kind);
            if (o.sites_top) {
                w->set_sites_top(*o.sites_top);
            }
            if (auto f = w->start()) {
                return rounds_failure{3, f->message};
            }
            data.accounting = w->accounting();
        }
        if (o.progress) {
            o.progress(i, o.names.size(), o.names[i]);
        }
        data.rows.push_back(measure_one(*w, o, o.names[i]));
        if (!data.context && w->last_context()) {
            data.context = w->last_context();
        }
        if (data.rows.back().error && data.rows.back().error->kind == "interrupted") {
            data.interrupted = true;
            break;
        }
    }
    if (w) {
        w->quit();
    }
    return data;
}

}  // namespace tare::compare
