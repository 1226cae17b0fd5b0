#include "core/clock.hpp"

#include <algorithm>
#include <array>

namespace tare::core {

std::int64_t steady_clock_source::now_ns() noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

double measure_clock_overhead(clock_source& clock) {
    // 201 rounds of 16 back-to-back reads; the median round is immune to a preemption or two.
    constexpr std::size_t rounds = 201;
    constexpr int reads = 16;
    std::array<double, rounds> per_read{};
    for (auto& slot : per_read) {
        std::int64_t start = clock.now_ns();
        std::int64_t last = start;
        for (int i = 0; i < reads; ++i) {
            last = clock.now_ns();
        }
        slot = static_cast<double>(last - start) / reads;
    }
    std::nth_element(per_read.begin(), per_read.begin() + rounds / 2, per_read.end());
    return std::max(per_read[rounds / 2], 1.0);
}

}  // namespace tare::core
