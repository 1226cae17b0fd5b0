// The HTML pages' layout rules, checked on their generated text: a comparison's page (golden, a
// forest row per compared benchmark, the sortable change, the threshold band, escaping), and the
// run page's summary (suites, badges, counters for few rows), its robust time axis with the
// samples' distribution beside it, and its plots across a family's argument. The browser test
// (test/browser/check_reports.py) checks the same pages as a browser draws them.

#include <algorithm>
#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "golden/compare_fixtures.hpp"
#include "golden/fixtures.hpp"
#include "golden/golden.hpp"
#include "report/html/html_forest.hpp"
#include "report/html/html_svg.hpp"
#include "report/reporter.hpp"

namespace tare::golden {
namespace {

std::string page_of(const run_results& r) {
    return report::make_html_reporter<run_results>()->render(r);
}

std::string page_of(const compare_results& r) {
    return report::make_html_reporter<compare_results>()->render(r);
}

std::size_t occurrences(const std::string& text, const std::string& needle) {
    std::size_t n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size()))
        ++n;
    return n;
}

// The text between `from` and the next `to` after it.
std::string between(const std::string& text, const std::string& from, const std::string& to) {
    const auto a = text.find(from);
    if (a == std::string::npos)
        return {};
    const auto b = text.find(to, a + from.size());
    return text.substr(a + from.size(), b == std::string::npos ? std::string::npos : b - a - from.size());
}

benchmark_result measured(const std::string& name, std::vector<double> samples_ns) {
    benchmark_result b;
    b.name = name;
    b.samples_ns = std::move(samples_ns);
    double sum = 0;
    for (const double x : b.samples_ns)
        sum += x;
    b.time.mean = sum / static_cast<double>(b.samples_ns.size());
    b.time.median = b.time.mean;
    b.iterations = 1000 * b.samples_ns.size();
    return b;
}

TEST(html_pages, every_comparison_fixture_matches_its_approved_page) {
    for (const auto& f : all_compare_fixtures()) {
        SCOPED_TRACE(f.name);
        expect_matches_approved("compare_" + f.name + ".html", page_of(f.make()));
    }
}

TEST(html_pages, a_comparison_has_a_forest_row_and_a_table_row_per_benchmark) {
    for (const auto& f : all_compare_fixtures()) {
        SCOPED_TRACE(f.name);
        const compare_results r = f.make();
        const std::string html = page_of(r);
        EXPECT_EQ(occurrences(html, "<g class=\"row "), r.rows.size());
        for (std::size_t i = 0; i < r.rows.size(); ++i) {
            const std::string id = "r-" + std::to_string(i + 1);
            EXPECT_NE(html.find("<tr id=\"" + id + "\""), std::string::npos) << id;
            EXPECT_NE(html.find("<a href=\"#" + id + "\">"), std::string::npos) << id;
        }
        // Sortable by change, with the script; the page reads the same without it.
        EXPECT_NE(html.find(r.mode == pairing::counted ? "<th data-sort=\"num\">change<"
                                                       : "<th data-sort=\"num\">change ["),
                  std::string::npos);
        // The flame graphs' zoom script too, where rows have both sides' profiles (--profile).
        const bool flames = std::any_of(r.rows.begin(), r.rows.end(), [](const compare_row& row) {
            return row.base.profile && row.head.profile;
        });
        EXPECT_EQ(occurrences(html, "<script>"), (r.rows.empty() ? 0U : 1U) + (flames ? 1U : 0U));
        EXPECT_EQ(html.find("http"), std::string::npos);
        EXPECT_EQ(html.find(" src="), std::string::npos);
    }
}

TEST(html_pages, the_forest_colours_by_verdict_and_draws_the_band) {
    const compare_results r = compare_threshold_run();
    const std::string html = page_of(r);
    ASSERT_GT(r.threshold_pct, 0);
    EXPECT_EQ(occurrences(html, "<rect class=\"threshold\""), 2U);  // the legend's and the plot's
    for (const compare_row& row : r.rows) {
        const std::string cls = row.verdict == verdict::faster   ? "faster"
                                : row.verdict == verdict::slower ? "slower"
                                                                 : "same";
        EXPECT_NE(html.find("<g class=\"row " + cls + "\"><title>" + row.name + ":"), std::string::npos)
            << row.name;
        EXPECT_NE(html.find("<td class=\"l verdict " + cls + "\">"), std::string::npos) << row.name;
    }
    EXPECT_EQ(occurrences(page_of(compare_rounds_run()), "<rect class=\"threshold\""), 0U);
}

TEST(html_pages, a_comparison_marks_errors_and_changed_memory_and_escapes_names) {
    compare_results r = compare_edges_run();
    r.rows[0].name = "sort<int>/\"a&b\"";
    const std::string html = page_of(r);
    EXPECT_EQ(html.find("sort<int>"), std::string::npos);
    EXPECT_NE(html.find("sort&lt;int&gt;/&quot;a&amp;b&quot;"), std::string::npos);
    EXPECT_NE(html.find("<tr id=\"r-2\" class=\"error\">"), std::string::npos);
    EXPECT_NE(html.find("<span class=\"badge error\">head: signal</span>"), std::string::npos);
    EXPECT_NE(html.find("<td class=\"changed\">0 → 1</td>"), std::string::npos);
    EXPECT_NE(html.find("no change computed"), std::string::npos);
    // Findings folded, opened when there is an error.
    EXPECT_NE(html.find("<details open>\n<summary>1 warning, 1 error</summary>"), std::string::npos);
}

TEST(html_pages, an_interval_past_the_forest_axis_ends_in_an_arrow) {
    report::detail::forest_plot plot;
    plot.rows = {{"a", "", 1.0, std::pair{0.5, 1.5}, "same", ""},
                 {"b", "", 2.0, std::pair{-300.0, 400.0}, "same", ""}};
    const std::string svg = report::detail::render_forest(plot);
    EXPECT_EQ(occurrences(svg, "<path class=\"arrow\""), 2U);  // both ends of b's
    // The axis spans the estimates and 0, and as far again: not b's -300 %.
    const std::string ticks = between(svg, "<g class=\"xt\">", "</g>");
    EXPECT_EQ(ticks.find("-300"), std::string::npos) << ticks;
    EXPECT_NE(ticks.find("0%"), std::string::npos) << ticks;
}

TEST(html_pages, one_outlier_does_not_flatten_the_time_axis) {
    run_results run = typical_run();
    std::vector<double> samples(50);
    for (std::size_t i = 0; i < samples.size(); ++i)
        samples[i] = 1.40e6 + 1e3 * static_cast<double>(i % 5);
    samples[17] = 19e6;  // one 19 ms sample among fifty at 1.4 ms
    run.benchmarks = {measured("spiky", samples)};
    const std::string html = page_of(run);
    const std::string svg = between(html, "<svg", "</svg>");
    // The outlier is a triangle on the edge that names it, and the caption counts it.
    EXPECT_NE(svg.find("<path class=\"clipped\""), std::string::npos);
    EXPECT_NE(svg.find("sample 18: 19.0 ms/iter"), std::string::npos);
    EXPECT_NE(html.find("1 sample beyond the axis is drawn as a triangle on its edge"), std::string::npos);
    // The mean (1.75 ms, pulled by the outlier) is said, not drawn off the fifty.
    EXPECT_NE(html.find("The mean, 1.75 ms, lies beyond the axis"), std::string::npos);
    // Every y tick lies within the fifty: no tick at 5, 10 or 15 ms.
    const std::string ticks = between(svg, "<g class=\"yt\">", "</g>");
    const std::regex label(R"(>([0-9.]+) (ns|µs|ms)<)");
    std::size_t n = 0;
    for (std::sregex_iterator it(ticks.begin(), ticks.end(), label), end; it != end; ++it, ++n) {
        const double v = std::stod((*it)[1]) * ((*it)[2] == "ms" ? 1e6 : (*it)[2] == "µs" ? 1e3 : 1);
        EXPECT_GT(v, 1.3e6) << (*it)[0];
        EXPECT_LT(v, 1.5e6) << (*it)[0];
    }
    EXPECT_GE(n, 2U) << ticks;
    // The distribution beside it counts the outlier at its top end, not in a bin.
    EXPECT_NE(svg.find(">▴ 1</text>"), std::string::npos);
}

TEST(html_pages, the_distribution_has_the_rice_rule_bins) {
    EXPECT_EQ(report::detail::histogram_bins(1), 5U);
    EXPECT_EQ(report::detail::histogram_bins(100), 10U);  // 2 * 100^(1/3) = 9.28
    EXPECT_EQ(report::detail::histogram_bins(1000000), 30U);
    run_results run = typical_run();
    std::vector<double> samples;
    for (int i = 0; i < 100; ++i)
        samples.push_back(1000 + i);  // evenly spread: every one of the 10 bins holds 10
    run.benchmarks = {measured("even", samples)};
    const std::string html = page_of(run);
    const std::string bars = between(html, "<path class=\"bar\" d=\"", "\"");
    EXPECT_EQ(occurrences(bars, "z"), 10U) << bars;
    EXPECT_NE(html.find("their distribution (10 bins)"), std::string::npos);
}

TEST(html_pages, a_family_is_plotted_across_its_argument) {
    run_results run = typical_run();
    run.benchmarks.clear();
    for (const int batch : {1, 10, 100, 1000}) {
        benchmark_result b =
            measured("skip/BatchSize:" + std::to_string(batch), {10.0 * batch, 10.0 * batch});
        b.allocs_per_iter = 1;
        b.bytes_per_iter = batch / 8.0;
        run.benchmarks.push_back(b);
    }
    run.benchmarks.push_back(measured("other/fast", {5, 5}));
    const std::string html = page_of(run);
    const std::string families = between(html, "<section id=\"families\">", "</section>");
    EXPECT_NE(families.find("<h3><code>skip</code> across BatchSize</h3>"), std::string::npos);
    // A logarithmic axis: 1, 10, 100, 1k evenly apart.
    EXPECT_NE(families.find("<text x=\"78\" y=\"192\">1</text>"), std::string::npos) << families;
    EXPECT_NE(families.find(">1k</text>"), std::string::npos);
    EXPECT_NE(families.find("(logarithmic axis)"), std::string::npos);
    // Bytes change across the argument and are plotted; time too.
    EXPECT_EQ(occurrences(families, "<svg"), 2U);
    EXPECT_NE(families.find("bytes / iteration"), std::string::npos);
    // Two members are not a family.
    run.benchmarks.resize(2);
    EXPECT_EQ(page_of(run).find("id=\"families\""), std::string::npos);
}

TEST(html_pages, a_summary_groups_suites_and_shows_warnings_as_badges) {
    run_results run = findings_run();
    run.context.executable = "./build/a_bench ./build/b_bench";
    for (std::size_t i = 0; i < run.benchmarks.size(); ++i)
        run.benchmarks[i].name = (i < 2 ? "a_bench/" : "b_bench/") + run.benchmarks[i].name;
    const std::string html = page_of(run);
    const std::string summary = between(html, "<section id=\"summary\">", "</section>");
    EXPECT_EQ(occurrences(summary, "<tr class=\"suite\">"), 2U);
    EXPECT_NE(summary.find("<code>a_bench</code>"), std::string::npos);
    EXPECT_EQ(summary.find("<code>a_bench/"), std::string::npos) << "names shown without their suite";
    // Both executables on their own line.
    EXPECT_NE(html.find("<dt>executables</dt><dd>./build/a_bench<br>./build/b_bench</dd>"),
              std::string::npos);
    // Each row's warnings beside its name, its error too.
    for (const auto& b : run.benchmarks) {
        for (const auto& w : b.warnings) {
            EXPECT_NE(summary.find("<span class=\"badge\">" + w.kind), std::string::npos) << w.kind;
        }
        if (b.error) {
            EXPECT_NE(summary.find("<span class=\"badge error\">" + b.error->kind + "</span>"),
                      std::string::npos);
        }
    }
    // One executable: no suite rows.
    EXPECT_EQ(page_of(findings_run()).find("<tr class=\"suite\">"), std::string::npos);
}

TEST(html_pages, a_counter_of_few_rows_goes_to_their_sections) {
    run_results run = typical_run();
    for (auto& b : run.benchmarks)
        b.counters.clear();
    run.benchmarks[0].counters = {{"rare_counter", 3}};
    const std::string html = page_of(run);
    const std::string summary = between(html, "<section id=\"summary\">", "</section>");
    EXPECT_EQ(summary.find("rare_counter"), std::string::npos);
    EXPECT_NE(html.find("<dt>rare_counter</dt><dd>3</dd>"), std::string::npos);
    for (auto& b : run.benchmarks)
        b.counters = {{"common_counter", 1}};
    EXPECT_NE(between(page_of(run), "<section id=\"summary\">", "</section>").find("common_counter"),
              std::string::npos);
}

}  // namespace
}  // namespace tare::golden
