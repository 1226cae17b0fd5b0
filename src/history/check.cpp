#include "history/check.hpp"

#include <algorithm>
#include <map>
#include <span>
#include <string>
#include <utility>

#include "history/head.hpp"
#include "history/measures.hpp"
#include "stats/change_points.hpp"
#include "stats/descriptive.hpp"
#include "stats/difference.hpp"

namespace tare::history {
namespace {

// One benchmark's measure over the runs that have it, as the statistics take it.
struct series {
    std::vector<std::size_t> positions;  // among the runs checked
    std::vector<double> values;
};

series values_of(const history_series& h) {
    series s;
    for (const history_point& p : h.points) {
        s.positions.push_back(p.position);
        s.values.push_back(p.value);
    }
    return s;
}

// A measure's change and where it is, before it joins its benchmark's group.
struct found_change {
    std::size_t before_position = 0;
    std::size_t after_position = 0;
    bool last_of_series = false;
    history_measure_change change;
};

// The change at `at` (the first value after it) between the segments [from, at) and [at, to).
history_measure_change size_change(const std::string& measure, const series& s, std::size_t from,
                                   std::size_t at, std::size_t to, bool exact, double p) {
    const std::span<const double> all(s.values);
    const std::span<const double> before = all.subspan(from, at - from);
    const std::span<const double> after = all.subspan(at, to - at);
    history_measure_change c;
    c.measure = measure;
    c.exact = exact;
    c.p_value = p;
    c.runs_before = before.size();
    c.runs_after = after.size();
    // An exact series' level before: where it began (the peak's slack lets later runs sit a few
    // bytes off it); after: the step's first run.
    c.before = exact ? stats::last_level(before, level_slack_of(measure)) : stats::mean(before);
    c.after = exact ? after.front() : stats::mean(after);
    const bool positive = std::all_of(before.begin(), before.end(), [](double v) { return v > 0; }) &&
                          std::all_of(after.begin(), after.end(), [](double v) { return v > 0; });
    if (!exact && positive) {
        // Welch's interval on the logs: the runs of each segment are independent replicates,
        // as two stored files' processes are (stats/difference.hpp).
        if (auto w = stats::welch_log_change(before, after)) {
            c.change_pct = w->change_pct;
            c.interval_pct = w->interval_pct;
        }
    } else if (c.before > 0) {
        c.change_pct = 100 * (c.after / c.before - 1);
    }
    c.direction = direction_of(measure, c.before, c.after);
    return c;
}

// The changes of one series, sized against the segments on either side.
std::vector<found_change> changes_of(const std::string& measure, const series& s, const check_options& o) {
    std::vector<std::pair<std::size_t, double>> points;  // index, p-value
    bool exact = false;
    if (exact_measure(measure)) {
        if (auto steps = stats::exact_steps(s.values, level_slack_of(measure))) {
            exact = true;
            for (const std::size_t i : *steps)
                points.emplace_back(i, 0.0);
        }
    }
    if (!exact) {
        stats::change_point_options co;
        co.alpha = o.alpha;
        co.permutations = o.permutations;
        co.min_segment = o.min_segment;
        for (const stats::change_point& cp : stats::e_divisive(s.values, co))
            points.emplace_back(cp.index, cp.p_value);
    }
    std::vector<found_change> out;
    for (std::size_t k = 0; k < points.size(); ++k) {
        const std::size_t from = k == 0 ? 0 : points[k - 1].first;
        const std::size_t to = k + 1 < points.size() ? points[k + 1].first : s.values.size();
        const std::size_t at = points[k].first;
        out.push_back({s.positions[at - 1], s.positions[at], k + 1 == points.size(),
                       size_change(measure, s, from, at, to, exact, points[k].second)});
    }
    return out;
}

// Joins one benchmark's changes whose first runs after are at most one run apart: a noisy
// series' split may land a run from an exact one's. The group is placed where its exact member
// is, if any (that run is certain), else at its earliest.
std::vector<history_change> group(const std::string& benchmark, std::vector<found_change> found,
                                  const std::vector<history_run>& runs, std::size_t recent) {
    std::sort(found.begin(), found.end(), [](const found_change& a, const found_change& b) {
        return a.after_position != b.after_position
                   ? a.after_position < b.after_position
                   : measure_rank(a.change.measure) < measure_rank(b.change.measure);
    });
    std::vector<history_change> out;
    std::size_t first = 0;
    for (std::size_t i = 0; i <= found.size(); ++i) {
        if (i < found.size() && found[i].after_position <= found[first].after_position + 1)
            continue;
        const auto begin = found.begin() + static_cast<std::ptrdiff_t>(first);
        const auto end = found.begin() + static_cast<std::ptrdiff_t>(i);
        if (begin == end)
            break;
        const auto anchor = std::find_if(begin, end, [](const found_change& f) { return f.change.exact; });
        const found_change& at = anchor != end ? *anchor : *begin;
        history_change c;
        c.benchmark = benchmark;
        c.before = runs[at.before_position];
        c.after = runs[at.after_position];
        c.after_position = at.after_position;
        for (auto it = begin; it != end; ++it) {
            c.measures.push_back(it->change);
            if (it->change.direction == history_direction::regression && it->last_of_series &&
                it->after_position + recent >= runs.size())
                c.at_head = true;
        }
        std::stable_sort(c.measures.begin(), c.measures.end(), [](const auto& a, const auto& b) {
            return measure_rank(a.measure) < measure_rank(b.measure);
        });
        out.push_back(std::move(c));
        first = i;
    }
    return out;
}

// The series from its last change point on (its own, not its group's place), for --head.
head_segment segment_of(const history_series& h, const std::vector<found_change>& found,
                        const std::vector<history_run>& runs) {
    std::size_t from = 0;
    for (const found_change& f : found) {
        if (f.last_of_series)
            from = f.after_position;
    }
    head_segment s;
    s.benchmark = h.benchmark;
    s.measure = h.measure;
    for (const history_point& p : h.points) {
        if (p.position >= from)
            s.values.push_back(p.value);
    }
    std::vector<double> all;
    for (const history_point& p : h.points)
        all.push_back(p.value);
    s.exact = exact_measure(h.measure) && stats::exact_steps(all, level_slack_of(h.measure)).has_value();
    const auto first = std::find_if(h.points.begin(), h.points.end(),
                                    [&](const history_point& p) { return p.position >= from; });
    s.since = first == h.points.end() ? std::string() : runs[first->position].commit;
    return s;
}

}  // namespace

std::vector<history_series> series_of(const std::vector<history_run>& runs,
                                      const std::vector<std::vector<history_figure>>& figures) {
    std::map<std::pair<std::string, std::string>, std::vector<history_point>> by_name;
    for (std::size_t i = 0; i < runs.size() && i < figures.size(); ++i) {
        for (const history_figure& f : figures[i])
            by_name[{f.benchmark, f.measure}].push_back({i, f.value, f.low, f.high});
    }
    std::vector<history_series> out;
    for (auto& [name, points] : by_name)
        out.push_back({name.first, name.second, std::move(points)});
    std::stable_sort(out.begin(), out.end(), [](const history_series& a, const history_series& b) {
        return a.benchmark != b.benchmark ? a.benchmark < b.benchmark
                                          : measure_rank(a.measure) < measure_rank(b.measure);
    });
    return out;
}

history_check check_history(const std::vector<history_run>& runs,
                            const std::vector<std::vector<history_figure>>& figures,
                            const check_options& options) {
    history_check out;
    out.runs = runs;
    out.alpha = options.alpha;
    out.permutations = options.permutations;
    out.recent = options.recent;
    const std::vector<history_series> all = series_of(runs, figures);
    std::vector<head_segment> segments;
    for (std::size_t i = 0; i < all.size();) {
        const std::string& benchmark = all[i].benchmark;
        std::vector<found_change> found;
        for (; i < all.size() && all[i].benchmark == benchmark; ++i) {
            if (all[i].points.size() < 2) {
                if (options.head != nullptr)
                    segments.push_back(segment_of(all[i], {}, runs));
                continue;
            }
            ++out.series;
            std::vector<found_change> more = changes_of(all[i].measure, values_of(all[i]), options);
            if (options.head != nullptr)
                segments.push_back(segment_of(all[i], more, runs));
            found.insert(found.end(), std::make_move_iterator(more.begin()),
                         std::make_move_iterator(more.end()));
        }
        std::vector<history_change> grouped = group(benchmark, std::move(found), runs, options.recent);
        out.changes.insert(out.changes.end(), std::make_move_iterator(grouped.begin()),
                           std::make_move_iterator(grouped.end()));
    }
    std::stable_sort(
        out.changes.begin(), out.changes.end(),
        [](const history_change& a, const history_change& b) { return a.after_position > b.after_position; });
    if (options.head != nullptr)
        out.head = compare_head(segments, *options.head, options.alpha, options.min_segment);
    return out;
}

}  // namespace tare::history
