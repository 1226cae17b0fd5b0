// `tare history check` on simulated histories whose change points are known (bench/README.md,
// "Change points in a history"): how often a step is found, where, and how many false change
// points a history without one gets per 1,000 runs, through the engine users run
// (history::check_history), at its defaults.
//
// Usage: history_simulation [HISTORIES]   (default 400 per scenario)

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "history/check.hpp"
#include "stats/random.hpp"

namespace {

using namespace tare;

constexpr std::size_t runs_per_history = 60;
constexpr std::size_t step_at = 30;

double uniform(stats::xoshiro256ss& rng) {
    return static_cast<double>(rng() >> 11) / 9007199254740992.0;
}

// A normal draw (Box-Muller): run-to-run noise of a time.
double normal(stats::xoshiro256ss& rng) {
    const double u = uniform(rng) + 1e-300;
    const double v = uniform(rng);
    return std::sqrt(-2 * std::log(u)) * std::cos(2 * M_PI * v);
}

struct scenario {
    const char* name;
    const char* measure;  // "time_ns" (noisy) or "allocs_per_iter" (exact)
    double noise = 0.01;  // relative standard deviation of a run
    double step = 0;      // relative step at step_at (0: none)
    double drift = 0;     // relative change per run, over the whole history
    double outliers = 0;  // share of runs 3x slower (a busy machine)
    double missing = 0;   // share of runs without the benchmark
};

struct tally {
    std::size_t histories = 0;
    std::size_t found_near = 0;   // a change point within 2 runs of the step
    std::size_t exact_place = 0;  // at the step itself
    std::size_t false_points = 0;
    std::size_t false_histories = 0;  // with one false change point or more
    std::size_t runs = 0;
};

void simulate_one(const scenario& s, std::uint64_t seed, tally& t) {
    stats::xoshiro256ss rng(seed);
    std::vector<history_run> runs;
    std::vector<std::vector<history_figure>> figures(runs_per_history);
    const bool exact = std::string(s.measure) != "time_ns";
    for (std::size_t i = 0; i < runs_per_history; ++i) {
        runs.push_back(
            {static_cast<std::int64_t>(i + 1), "c" + std::to_string(i), "main", "", "", "tare/1", 1});
        if (uniform(rng) < s.missing)
            continue;
        double level = exact ? 4.0 : 1000.0;
        if (i >= step_at)
            level = exact ? level + s.step : level * (1 + s.step);
        level *= 1 + s.drift * static_cast<double>(i);
        double value = exact ? level : level * (1 + s.noise * normal(rng));
        if (!exact && uniform(rng) < s.outliers)
            value *= 3;
        figures[i].push_back({"b", s.measure, value, {}, {}});
    }
    const history_check r = history::check_history(runs, figures, {});
    ++t.histories;
    t.runs += runs_per_history;
    bool near = false;
    const std::size_t false_before = t.false_points;
    for (const history_change& c : r.changes) {
        const auto d = static_cast<long>(c.after_position) - static_cast<long>(step_at);
        if ((s.step != 0) && !near && std::labs(d) <= 2) {
            near = true;
            t.exact_place += d == 0 ? 1 : 0;
        } else {
            ++t.false_points;
        }
    }
    t.found_near += near ? 1 : 0;
    t.false_histories += t.false_points > false_before ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t histories = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 400;
    const std::vector<scenario> scenarios{
        {"no change, 1 % noise", "time_ns", 0.01},
        {"no change, 5 % noise", "time_ns", 0.05},
        {"no change, 1 % noise, 5 % outliers x3", "time_ns", 0.01, 0, 0, 0.05},
        {"step +1 %, 1 % noise", "time_ns", 0.01, 0.01},
        {"step +2 %, 1 % noise", "time_ns", 0.01, 0.02},
        {"step +5 %, 1 % noise", "time_ns", 0.01, 0.05},
        {"step +10 %, 1 % noise", "time_ns", 0.01, 0.10},
        {"step +10 %, 5 % noise", "time_ns", 0.05, 0.10},
        {"step +5 %, 1 % noise, 20 % of runs missing", "time_ns", 0.01, 0.05, 0, 0, 0.2},
        {"drift +0.2 % a run (12 % in all), 1 % noise", "time_ns", 0.01, 0, 0.002},
        {"one more allocation (exact)", "allocs_per_iter", 0, 1},
        {"no change (exact)", "allocs_per_iter", 0, 0},
    };
    std::printf(
        "%zu histories of %zu runs per scenario, the step at run %zu; found: a change point within 2 "
        "runs of it\n\n",
        histories, runs_per_history, step_at);
    std::printf(
        "| scenario | found | at the run | histories with another change point | other change points "
        "per 1,000 runs |\n");
    std::printf("| --- | ---: | ---: | ---: | ---: |\n");
    for (std::size_t k = 0; k < scenarios.size(); ++k) {
        tally t;
        for (std::size_t h = 0; h < histories; ++h)
            simulate_one(scenarios[k], 0x5eed0000ULL + 1000 * k + h, t);
        const double hs = static_cast<double>(t.histories);
        if (scenarios[k].step != 0)
            std::printf("| %s | %.1f %% | %.1f %% | %.1f %% | %.2f |\n", scenarios[k].name,
                        100.0 * static_cast<double>(t.found_near) / hs,
                        100.0 * static_cast<double>(t.exact_place) / hs,
                        100.0 * static_cast<double>(t.false_histories) / hs,
                        1000.0 * static_cast<double>(t.false_points) / static_cast<double>(t.runs));
        else
            std::printf("| %s | — | — | %.1f %% | %.2f |\n", scenarios[k].name,
                        100.0 * static_cast<double>(t.false_histories) / hs,
                        1000.0 * static_cast<double>(t.false_points) / static_cast<double>(t.runs));
    }
    return 0;
}
