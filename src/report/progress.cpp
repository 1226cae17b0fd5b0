// Progress lines (progress.hpp). The estimate is the plain pace so far, as hyperfine's and
// cargo's progress bars give it: steps of one suite differ in length, but the order is fixed
// and a user reads "about" as what it is. Rejected: a per-step model (min-time times the steps
// left), which a calibration-heavy or isolated run misses by more than the plain pace does.

#include "report/progress.hpp"

#include <cmath>

#include <fmt/format.h>

#include "report/table/units.hpp"

namespace tare::report {

double seconds_left(const progress_step& step) {
    if (step.done == 0 || step.total < step.done || !std::isfinite(step.elapsed_s))
        return -1;
    return step.elapsed_s / static_cast<double>(step.done) * static_cast<double>(step.total - step.done);
}

std::string clock_text(double seconds) {
    const auto s = static_cast<long long>(std::llround(std::max(seconds, 0.0)));
    if (s >= 3600)
        return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    return fmt::format("{}:{:02}", s / 60, s % 60);
}

namespace {

std::string pace(const progress_step& step) {
    std::string out = clock_text(step.elapsed_s);
    const double left = seconds_left(step);
    if (left >= 0)
        out += ", about " + clock_text(left) + " left";
    return out;
}

}  // namespace

std::string progress_live(const progress_step& step, std::size_t width) {
    return shorten(fmt::format("[{}/{}] {} · {}", step.done + 1, step.total, step.name, pace(step)), width,
                   cut::end);
}

std::string progress_done(const progress_step& step, double step_s) {
    return fmt::format("[{}/{}] {} done in {} · {}\n", step.done, step.total, step.name,
                       format_duration(step_s * 1e9), pace(step));
}

}  // namespace tare::report
