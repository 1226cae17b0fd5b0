// Where the tests find the Google Benchmark suites they run (test/gbench/suites.cmake), and what
// their figures can be held to: one home for the test files that a unity batch compiles together.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

namespace tare::test {

// The suite built beside the tests, against the installed libbenchmark; or, when the environment
// names a folder in TARE_GBENCH_SUITES, the suite of the same name there: the static libbenchmark
// build (test/gbench/static), on which the same tests run a second time.
inline const char* static_suites_dir() {
    const char* dir = std::getenv("TARE_GBENCH_SUITES");
    return dir == nullptr || *dir == '\0' ? nullptr : dir;
}

inline std::string suite(const char* built_here) {
    const char* dir = static_suites_dir();
    if (dir == nullptr)
        return built_here;
    return (std::filesystem::path(dir) / std::filesystem::path(built_here).filename()).string();
}

}  // namespace tare::test

namespace tare {

// What the suites' figures can be held to, from the build's definitions.
inline constexpr bool accounting_expected = TARE_ACCOUNTING_EXPECTED != 0;
// Exact allocation counts need the interposer and an unsanitized allocator path.
inline constexpr bool exact_counts = accounting_expected && TARE_SANITIZED == 0;

}  // namespace tare
