#pragma once
// A run of many plain rows (three samples, an interval, a few allocations): the fixture of the
// tests that check a reader or a writer holds one row, or one section, at a time.

#include <cstddef>
#include <string>

#include "model/run.hpp"

namespace tare::test {

inline run_results many_rows(std::size_t n) {
    run_results r;
    r.context.host = "h";
    for (std::size_t i = 0; i < n; ++i) {
        benchmark_result b;
        b.name = "suite/family_" + std::to_string(i / 4) + "/" + std::to_string(i % 4);
        b.iterations = 3000;
        b.samples_ns = {100.5, 101.25, 99.75};
        b.time = {100.5, 100.5, 0.75, 99.75, 101.25, interval{99.0, 102.0}};
        b.allocs_per_iter = static_cast<double>(i % 3);
        b.bytes_per_iter = 64.0 * static_cast<double>(i % 3);
        r.benchmarks.push_back(b);
    }
    return r;
}

}  // namespace tare::test
