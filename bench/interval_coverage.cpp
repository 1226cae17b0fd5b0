// How often the interval of a benchmark's mean contains the true mean: seeded simulations on data
// whose mean is known, for the interval tare reports (Student t below
// stats::bootstrap_min_samples, BCa from there) beside each method alone. Prints a Markdown
// table; bench/README.md ("Interval coverage") has its output and the command.
//
// Usage: interval_coverage [TRIALS]   (default 4000; the BCa cells use a quarter of them, since
// each BCa interval costs ~n x 10,000 resamples)

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "stats/difference.hpp"
#include "stats/interval.hpp"
#include "stats/random.hpp"
#include "stats/summary.hpp"

namespace {

using namespace tare;

struct shape {
    const char* name;
    double truth;
    std::function<double(stats::xoshiro256ss&)> draw;
};

double normal(stats::xoshiro256ss& rng) {
    return stats::standard_normal_pair(rng)[0];
}

}  // namespace

int main(int argc, char** argv) {
    const int trials = argc > 1 ? std::atoi(argv[1]) : 4000;
    const std::vector<shape> shapes{
        {"normal, cv 10 %", 1.0, [](auto& rng) { return 1 + 0.1 * normal(rng); }},
        {"lognormal, sigma 0.25", std::exp(0.25 * 0.25 / 2),
         [](auto& rng) { return std::exp(0.25 * normal(rng)); }},
        {"lognormal, sigma 0.5", std::exp(0.5 * 0.5 / 2),
         [](auto& rng) { return std::exp(0.5 * normal(rng)); }},
        {"5 % of samples 3x slower", 1.1,
         [](auto& rng) {
             const double base = 1 + 0.02 * normal(rng);
             return stats::uniform01(rng) < 0.05 ? 3 * base : base;
         }},
    };
    std::printf("| data | n | tare (t below %zu, BCa from there) | Student t | BCa |\n",
                stats::bootstrap_min_samples);
    std::printf("| --- | --- | --- | --- | --- |\n");
    stats::xoshiro256ss rng(20261201);
    for (const shape& s : shapes) {
        for (const std::size_t n : std::vector<std::size_t>{2, 3, 5, 10, 20, 40, 60, 100}) {
            const int bca_trials = trials / 4;
            int tare_in = 0;
            int t_in = 0;
            int bca_in = 0;
            int tare_runs = 0;
            std::vector<double> xs(n);
            for (int k = 0; k < trials; ++k) {
                for (double& x : xs)
                    x = s.draw(rng);
                const bool bca_trial = k < bca_trials;
                const auto t = stats::student_mean_interval(xs);
                t_in += t && t->low <= s.truth && s.truth <= t->high ? 1 : 0;
                if (bca_trial) {
                    const interval b = stats::mean_interval(xs);
                    bca_in += b.low <= s.truth && s.truth <= b.high ? 1 : 0;
                }
                if (n < stats::bootstrap_min_samples || bca_trial) {
                    const auto c = stats::mean_confidence_interval(xs);
                    tare_in += c && c->low <= s.truth && s.truth <= c->high ? 1 : 0;
                    ++tare_runs;
                }
            }
            std::printf("| %s | %zu | %.1f %% | %.1f %% | %.1f %% |\n", s.name, n,
                        100.0 * tare_in / tare_runs, 100.0 * t_in / trials, 100.0 * bca_in / bca_trials);
            std::fflush(stdout);
        }
    }
    return 0;
}
