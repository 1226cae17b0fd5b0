// tare::gbench's coefficient of variation: Google Benchmark's `_cv` aggregate row, kept valid JSON.
//
// With --benchmark_repetitions, Google Benchmark 1.7.1 computes each aggregate of every counter
// as stddev / mean (statistics.cc, StatisticsCV). A counter that is 0 in every repetition — the
// allocations of a body that allocates nothing, tare_allocs_per_iter = 0 — gives 0 / 0, and its
// JSON reporter writes a bare `NaN`, which strict JSON parsers (Python's with parse_constant,
// JavaScript's JSON.parse, the CI services that ingest the file) reject. Linking tare::gbench
// must not break a suite's JSON, so the adapter replaces that one statistic: the same quotient,
// from Google Benchmark's own mean and standard deviation, except that values that do not vary
// have a variation of 0.
//
// How it takes the place of the library's: the library takes the function's address in
// benchmark_register.cc ("cv" is one of every benchmark's statistics). With a static
// libbenchmark that reference is an undefined symbol of another object, which the adapter's link
// option --wrap sends to __wrap_ below. With a shared libbenchmark it goes through the library's
// GOT, which the executable's own definition (weak below, so the static archive's strong one
// wins there) interposes, as the allocator's entry points are interposed.
//
// Rejected: leaving zero counters out of the row (a 0 is a measured figure, and a reader tells a
// row with the hooks by their counters); rewriting the output file after the run (the suite
// writes it, possibly to a stream tare never sees); a reporter of tare's own (the suite's main
// chooses its reporters).
//
// The one case left non-finite: a counter whose repetitions differ but whose mean is exactly 0
// (a retained figure of +x in one repetition and -x in another). No coefficient exists there,
// and the quotient Google Benchmark would give is kept.

#include <vector>

namespace benchmark {
// Google Benchmark's own statistics (statistics.h, not installed; exported by the library).
double StatisticsMean(const std::vector<double>& v);
double StatisticsStdDev(const std::vector<double>& v);
double StatisticsCV(const std::vector<double>& v);
}  // namespace benchmark

namespace tare::gbench {
namespace {

double coefficient_of_variation(const std::vector<double>& v) {
    if (v.size() < 2) {
        return 0.0;  // as Google Benchmark: no spread from one value
    }
    const double stddev = ::benchmark::StatisticsStdDev(v);
    const double mean = ::benchmark::StatisticsMean(v);
    if (stddev == 0.0) {
        return 0.0;  // values that do not vary, zeros included
    }
    return stddev / mean;
}

}  // namespace
}  // namespace tare::gbench

// The shared library's reference (interposed by the executable's definition).
__attribute__((weak)) double benchmark::StatisticsCV(const std::vector<double>& v) {
    return tare::gbench::coefficient_of_variation(v);
}

// The static library's reference (--wrap; also the symbol the link option -u names, which pulls
// this object out of the archive).
extern "C" double __wrap__ZN9benchmark12StatisticsCVERKSt6vectorIdSaIdEE(const std::vector<double>& v) {
    return tare::gbench::coefficient_of_variation(v);
}
