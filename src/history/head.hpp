#pragma once
// `tare history check --head=FILE`: one run beside the history (a pull request's head) against
// the branch's level since each series' last change point (docs/history.md, "A pull request
// against the history").

#include <cstddef>
#include <string>
#include <vector>

#include "model/history.hpp"

namespace tare::history {

/// One series of the branch from its last change point on: the runs at its present level.
struct head_segment {
    std::string benchmark;
    std::string measure;
    bool exact = false;          // checked by its steps (an exact count that counts exactly)
    std::vector<double> values;  // oldest first
    std::string since;           // the commit of the first
};

/// The figures of `head` against `segments` (one per series of the branch). An exact count
/// changed when it differs from the level at all. A noisy measure's run is tested against the
/// segment's runs as one more draw from them: on the logs, d = log(head) - mean, whose standard
/// error is s * sqrt(1 + 1/n) (the prediction interval of one new observation, Student's t with
/// n - 1 degrees of freedom), so that a run within the branch's run-to-run noise is no change.
/// The p-values are adjusted by Holm's step-down method over the noisy measures compared, so
/// that the whole report's false-alarm rate is `alpha` (Holm 1979); `min_runs` runs are needed.
history_head compare_head(const std::vector<head_segment>& segments, const std::vector<history_figure>& head,
                          double alpha, std::size_t min_runs);

}  // namespace tare::history
