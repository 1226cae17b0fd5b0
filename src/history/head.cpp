#include "history/head.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <span>
#include <utility>

#include "history/measures.hpp"
#include "stats/change_points.hpp"
#include "stats/descriptive.hpp"
#include "stats/difference.hpp"

namespace tare::history {
namespace {

// A noisy measure's change and its unadjusted two-sided p-value.
struct tested {
    history_head_change change;
    double p = 1;
};

tested test_noisy(history_head_change c, std::span<const double> values) {
    const bool positive =
        c.head > 0 && std::all_of(values.begin(), values.end(), [](double v) { return v > 0; });
    std::vector<double> xs(values.begin(), values.end());
    double y = c.head;
    if (positive) {
        std::transform(xs.begin(), xs.end(), xs.begin(), [](double v) { return std::log(v); });
        y = std::log(y);
    }
    const auto n = static_cast<double>(xs.size());
    const double mean = stats::mean(xs);
    const double d = y - mean;
    const double se = stats::stddev(xs) * std::sqrt(1 + 1 / n);
    tested t{std::move(c), 1};
    // The level the head is judged against: on the logs, the geometric mean, so that its
    // direction and the change in percent say the same thing.
    t.change.level = positive ? std::exp(mean) : mean;
    t.change.direction = direction_of(t.change.measure, t.change.level, t.change.head);
    if (se > 0) {
        // The lower tail at -|t|, doubled: 1 - cdf would round a tiny p-value to 0.
        t.p = 2 * stats::student_t_cdf(-std::fabs(d) / se, n - 1);
    } else {
        // Runs without any spread: only the same value (to rounding: the level is a mean) is no change.
        t.p = std::fabs(d) <= 1e-9 * std::max(1.0, std::fabs(mean)) ? 1 : 0;
    }
    if (positive) {
        const double q = stats::student_t_quantile(0.975, n - 1);
        t.change.change_pct = 100 * std::expm1(d);
        t.change.interval_pct = interval{100 * std::expm1(d - q * se), 100 * std::expm1(d + q * se)};
    } else if (t.change.level > 0) {
        t.change.change_pct = 100 * (t.change.head / t.change.level - 1);
    }
    return t;
}

// Holm's step-down adjustment: the k-th smallest of m p-values times (m - k + 1), never below
// the one before it, at most 1.
void holm(std::vector<tested>& tests) {
    std::vector<std::size_t> order(tests.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return tests[a].p < tests[b].p; });
    double running = 0;
    for (std::size_t k = 0; k < order.size(); ++k) {
        const double adjusted = std::min(1.0, static_cast<double>(order.size() - k) * tests[order[k]].p);
        running = std::max(running, adjusted);
        tests[order[k]].change.p_value = running;
    }
}

}  // namespace

history_head compare_head(const std::vector<head_segment>& segments, const std::vector<history_figure>& head,
                          double alpha, std::size_t min_runs) {
    std::map<std::pair<std::string, std::string>, double> figures;
    for (const history_figure& f : head)
        figures.emplace(std::make_pair(f.benchmark, f.measure), f.value);
    history_head out;
    std::vector<tested> noisy;
    std::size_t matched = 0;
    for (const head_segment& s : segments) {
        const auto it = figures.find({s.benchmark, s.measure});
        if (it == figures.end() || s.values.empty() || !std::isfinite(it->second))
            continue;
        ++matched;
        history_head_change c;
        c.benchmark = s.benchmark;
        c.measure = s.measure;
        c.exact = s.exact;
        c.head = it->second;
        c.runs = s.values.size();
        c.since = s.since;
        c.direction = direction_of(s.measure, s.values.back(), c.head);
        if (s.exact) {
            ++out.compared;
            c.level = stats::last_level(s.values, level_slack_of(s.measure));
            c.direction = direction_of(s.measure, c.level, c.head);
            if (c.level > 0)
                c.change_pct = 100 * (c.head / c.level - 1);
            if (!stats::same_level(c.head, c.level, level_slack_of(s.measure)))
                out.changes.push_back(std::move(c));
            continue;
        }
        if (s.values.size() < min_runs) {
            ++out.too_few;
            continue;
        }
        ++out.compared;
        noisy.push_back(test_noisy(std::move(c), s.values));
    }
    out.not_in_history = figures.size() - matched;
    holm(noisy);
    for (tested& t : noisy) {
        if (t.change.p_value <= alpha)
            out.changes.push_back(std::move(t.change));
    }
    std::stable_sort(out.changes.begin(), out.changes.end(), [](const auto& a, const auto& b) {
        return a.benchmark != b.benchmark ? a.benchmark < b.benchmark
                                          : measure_rank(a.measure) < measure_rank(b.measure);
    });
    return out;
}

}  // namespace tare::history
