#include "stats/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "stats/random.hpp"

namespace tare::stats {
namespace {

double pairs(std::size_t n) {
    return static_cast<double>(n) * static_cast<double>(n - 1) / 2;
}

// Q of a split into m and k runs, from the sums of distances across (`across`) and within each
// part (`left`, `right`). A part of one run has no pairs: its mean distance within is 0.
double energy_q(std::size_t m, std::size_t k, double across, double left, double right) {
    const double fm = static_cast<double>(m);
    const double fk = static_cast<double>(k);
    const double within_left = m > 1 ? left / pairs(m) : 0;
    const double within_right = k > 1 ? right / pairs(k) : 0;
    const double e = 2 * across / (fm * fk) - within_left - within_right;
    return fm * fk / (fm + fk) * e;
}

// The p-value of `observed`, the best split's Q of `xs`, by shuffles of `xs`, stopped once it can
// no longer come under `alpha` (Besag & Clifford 1991).
double permutation_p(std::span<const double> xs, double observed, const change_point_options& o,
                     std::uint64_t seed) {
    std::vector<double> shuffled(xs.begin(), xs.end());
    xoshiro256ss rng(seed);
    const double limit = o.alpha * static_cast<double>(o.permutations + 1) - 1;  // b above it: p > alpha
    std::size_t at_least = 0;
    std::size_t done = 0;
    // A shuffle's statistic equal to the observed one up to rounding counts as reaching it: a
    // constant segment's every split scores 0, and must not look significant.
    const double reach = observed - 1e-12 * std::fabs(observed);
    while (done < o.permutations) {
        for (std::size_t i = shuffled.size() - 1; i > 0; --i)
            std::swap(shuffled[i], shuffled[bounded(rng, i + 1)]);
        ++done;
        const std::optional<best_split> s = energy_best_split(shuffled, o.min_segment);
        if (s && s->q >= reach && static_cast<double>(++at_least) > limit)
            break;
    }
    return static_cast<double>(1 + at_least) / static_cast<double>(1 + done);
}

}  // namespace

std::optional<best_split> energy_best_split(std::span<const double> xs, std::size_t min_segment) {
    const std::size_t n = xs.size();
    const std::size_t least = std::max<std::size_t>(min_segment, 1);
    if (n < 2 * least)
        return std::nullopt;
    // Matteson & James compare the runs before t with the runs from t up to any later end k,
    // not only to the segment's end: a step that is undone later (a bump) is then found in one
    // test. All (t, k) in O(n^2) time and O(n) memory, from two running sums:
    //   before[k] = sum over i < k of |x_k - x_i|   (fixed)
    //   near[j]   = sum over i < t of |x_j - x_i|   (grows with t)
    // so that adding run k to the right part adds near[k] to the distances across and
    // before[k] - near[k] to those within the right part.
    std::vector<double> before(n, 0.0);
    for (std::size_t k = 0; k < n; ++k) {
        for (std::size_t i = 0; i < k; ++i)
            before[k] += std::fabs(xs[k] - xs[i]);
    }
    std::vector<double> near(n, 0.0);
    double left = 0;
    std::optional<best_split> best;
    for (std::size_t t = 1; t + least <= n; ++t) {
        for (std::size_t j = t; j < n; ++j)
            near[j] += std::fabs(xs[j] - xs[t - 1]);
        left += before[t - 1];
        if (t < least)
            continue;
        double across = 0;
        double right = 0;
        for (std::size_t k = t; k < n; ++k) {
            across += near[k];
            right += before[k] - near[k];
            if (k + 1 - t < least)
                continue;
            const double q = energy_q(t, k + 1 - t, across, left, right);
            if (!best || q > best->q)
                best = best_split{t, q};
        }
    }
    return best;
}

std::vector<change_point> e_divisive(std::span<const double> xs, const change_point_options& options) {
    std::vector<change_point> found;
    std::vector<std::pair<std::size_t, std::size_t>> segments{{0, xs.size()}};
    while (!segments.empty()) {
        const auto [lo, hi] = segments.back();
        segments.pop_back();
        const std::span<const double> part = xs.subspan(lo, hi - lo);
        const std::optional<best_split> s = energy_best_split(part, options.min_segment);
        if (!s || !(s->q > 0))
            continue;
        // Each segment's shuffles from a seed of its own place: the answer for one segment does
        // not depend on the order the others were tested in.
        std::uint64_t seed = options.seed ^ (std::uint64_t{lo} << 32) ^ hi;
        const double p = permutation_p(part, s->q, options, splitmix64(seed));
        if (p > options.alpha)
            continue;
        found.push_back({lo + s->index, p});
        segments.emplace_back(lo, lo + s->index);
        segments.emplace_back(lo + s->index, hi);
    }
    std::sort(found.begin(), found.end(),
              [](const change_point& a, const change_point& b) { return a.index < b.index; });
    return found;
}

bool same_level(double a, double b, const level_slack& slack) noexcept {
    const double gap = std::fabs(a - b);
    return gap <= slack.absolute || gap <= slack.fraction * std::max(std::fabs(a), std::fabs(b));
}

double last_level(std::span<const double> xs, const level_slack& slack) {
    if (xs.empty())
        return std::numeric_limits<double>::quiet_NaN();
    double level = xs.front();
    for (const double x : xs) {
        if (!same_level(level, x, slack))
            level = x;
    }
    return level;
}

std::optional<std::vector<std::size_t>> exact_steps(std::span<const double> xs, const level_slack& slack) {
    std::vector<std::size_t> steps;
    // Against the level's first value, not the value before: a peak creeping up 50 bytes a run
    // never moves past the slack in one step, but does from where its level began.
    double level = xs.empty() ? 0 : xs.front();
    for (std::size_t i = 1; i < xs.size(); ++i) {
        if (!same_level(level, xs[i], slack)) {
            steps.push_back(i);
            level = xs[i];
        }
    }
    if (steps.size() > std::max<std::size_t>(1, xs.size() / 4))
        return std::nullopt;
    return steps;
}

}  // namespace tare::stats
