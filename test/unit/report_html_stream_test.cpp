// A run's HTML page is handed on a section at a time (report/reporter.hpp, write()): `tare
// report` writes a large suite's page, several times its results file, without ever holding it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "alloc/accounting.hpp"
#include "report/reporter.hpp"
#include "unit/many_rows.hpp"

namespace tare {
namespace {

// The shared fixture, from an executable: the page's title names it.
run_results many_benchmarks(std::size_t n) {
    run_results r = test::many_rows(n);
    r.context.executable = "./suite";
    return r;
}

TEST(html_report, a_runs_page_is_handed_on_a_section_at_a_time) {
    const run_results run = many_benchmarks(2000);
    const auto reporter = report::make_html_reporter<run_results>();
    std::string joined;
    std::size_t pieces = 0;
    std::size_t largest = 0;
    reporter->write(run, [&](std::string_view piece) {
        joined += piece;
        ++pieces;
        largest = std::max(largest, piece.size());
    });
    const std::string page = reporter->render(run);
    EXPECT_EQ(joined, page);
    EXPECT_GT(pieces, run.benchmarks.size());
    // The summary table is handed on a row at a time, each section is a piece: no piece
    // grows with the count of benchmarks (the summary of 2,000 was one piece of 369 KB).
    EXPECT_LT(largest, std::size_t{96} << 10) << pieces << " pieces of a " << page.size() << "-byte page";
}

// What stays is what the summary table's columns take while they are built, a line a
// benchmark; with every section held too, the peak was the page and its old storage.
TEST(html_report, writing_a_page_never_holds_the_page) {
    if (!alloc::available())
        GTEST_SKIP() << "built without the interposer (the sanitizer owns malloc)";
    const run_results run = many_benchmarks(2000);
    const auto reporter = report::make_html_reporter<run_results>();
    const std::size_t page = reporter->render(run).size();
    std::size_t written = 0;
    alloc::region_begin();
    reporter->write(run, [&](std::string_view piece) { written += piece.size(); });
    const alloc::counters c = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(written, page);
    EXPECT_LT(c.peak, static_cast<std::int64_t>(page * 2 / 3))
        << "peak " << c.peak << " B for a " << page << "-byte page";
}

}  // namespace
}  // namespace tare
