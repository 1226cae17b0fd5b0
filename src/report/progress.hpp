#pragma once
// What a long run says while it runs: on a terminal one live line, rewritten at each step; in a
// log (standard error not a terminal, as in CI) one line per finished step, so the log shows
// life. Pure text, like every reporter: the caller writes it and knows which stream it is.

#include <cstddef>
#include <string>

namespace tare::report {

/// Where a run is: `done` of `total` steps finished (a benchmark, or a round of a comparison),
/// `name` the step now running or just finished, `elapsed_s` seconds since the run began.
struct progress_step {
    std::size_t done = 0;
    std::size_t total = 0;
    std::string name;
    double elapsed_s = 0;
};

/// The seconds left at the pace so far, elapsed / done * (total - done); negative when nothing
/// has finished yet (no pace to go by).
double seconds_left(const progress_step& step);

/// "1:05", "12:00", "1:02:03": a duration as a clock reads it.
std::string clock_text(double seconds);

/// The live line of the step now running (done + 1 of total), cut to `width` display columns
/// (0: no limit), without a line break: "[3/12] round_trip/1000 · 0:04, about 0:12 left".
std::string progress_live(const progress_step& step, std::size_t width);

/// The log line of a finished step, with its line break: "[3/12] round_trip/1000 done in 1.2 s ·
/// 0:04, about 0:12 left".
std::string progress_done(const progress_step& step, double step_s);

}  // namespace tare::report
