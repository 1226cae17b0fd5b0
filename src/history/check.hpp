#pragma once
// `tare history check`'s engine: the change points of every benchmark and measure over the runs
// of one branch, sized, and grouped where measures of one benchmark moved together
// (docs/history.md, "How a change is found"; stats/change_points.hpp has the statistics).

#include <cstddef>
#include <vector>

#include "model/history.hpp"

namespace tare::history {

struct check_options {
    double alpha = 0.01;             // each noisy series' false-alarm rate
    std::size_t permutations = 199;  // shuffles per test at most
    std::size_t min_segment = 3;     // runs on each side of a noisy series' change at least
    std::size_t recent = 5;          // the newest runs whose regressions are "at the head"
    /// --head: a run's figures to compare with each series' level since its last change point
    /// (history/head.hpp), at `alpha` over all its measures.
    const std::vector<history_figure>* head = nullptr;
};

/// The change points of `runs` (oldest first), whose figures are `figures[i]` for run i.
history_check check_history(const std::vector<history_run>& runs,
                            const std::vector<std::vector<history_figure>>& figures,
                            const check_options& options);

/// Every benchmark's measures over `runs` (figures[i] for run i), by benchmark and then measure.
std::vector<history_series> series_of(const std::vector<history_run>& runs,
                                      const std::vector<std::vector<history_figure>>& figures);

}  // namespace tare::history
