// Golden tests of the HTML reporter: every fixture against reviewed output in
// test/golden/approved/<fixture>.html (TARE_APPROVE=1 re-approves). The other tests check what a
// golden file cannot state for every input: tags balanced, user text escaped, no non-finite
// number and no outside reference, and the plots' axes.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "golden/fixtures.hpp"
#include "golden/golden.hpp"
#include "report/html/html_svg.hpp"
#include "report/reporter.hpp"

namespace tare::golden {
namespace {

std::string render(const run_results& results) {
    return report::make_html_reporter<run_results>()->render(results);
}

std::size_t count(const std::string& text, const std::string& needle) {
    std::size_t n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size()))
        ++n;
    return n;
}

// Openings of <tag> ("<tag>" or "<tag ") against closings "</tag>".
void expect_balanced(const std::string& html, const std::string& tag) {
    const std::size_t opened = count(html, "<" + tag + ">") + count(html, "<" + tag + " ");
    EXPECT_EQ(opened, count(html, "</" + tag + ">")) << tag;
}

// A run whose samples leave a growing live heap, with an outlier: the heap plot's fitted line.
run_results growing_heap_run() {
    run_results run = typical_run();
    benchmark_result& b = run.benchmarks[1];
    std::int64_t live = 0;
    for (std::size_t i = 0; i < b.samples.size(); ++i) {
        sample s = b.samples[i];
        live += static_cast<std::int64_t>(s.iterations) * 48;
        s.live_bytes_end = live;
        b.samples.set(i, s);
    }
    b.retained_bytes_per_iter = 48;
    b.samples_ns[3] *= 3;
    return run;
}

std::vector<run_results> every_input() {
    std::vector<run_results> inputs;
    for (const auto& fixture : all_fixtures())
        inputs.push_back(fixture.make());
    inputs.push_back(growing_heap_run());
    return inputs;
}

TEST(html_golden, every_fixture_matches_its_approved_page) {
    const auto reporter = report::make_html_reporter<run_results>();
    for (const auto& fixture : all_fixtures()) {
        SCOPED_TRACE(fixture.name);
        expect_matches_approved(fixture.name + ".html", reporter->render(fixture.make()));
    }
}

TEST(html_golden, pages_are_well_formed_enough) {
    for (const auto& input : every_input()) {
        const std::string html = render(input);
        EXPECT_EQ(html.rfind("<!DOCTYPE html>\n", 0), 0U);
        EXPECT_EQ(html.substr(html.size() - 8), "</html>\n");
        for (const char* tag : {"html",  "head",  "body",  "main",   "header",     "section", "svg", "table",
                                "thead", "tbody", "tr",    "figure", "figcaption", "dl",      "ul",  "li",
                                "code",  "pre",   "title", "text",   "a",          "style"}) {
            expect_balanced(html, tag);
        }
        EXPECT_EQ(count(html, "<svg"), count(html, "</svg>"));
        EXPECT_EQ(count(html, "<table"), count(html, "</table>"));
    }
}

TEST(html_golden, pages_are_self_contained_and_deterministic) {
    for (const auto& input : every_input()) {
        const std::string html = render(input);
        EXPECT_EQ(html.find("http"), std::string::npos);
        EXPECT_EQ(html.find(" src="), std::string::npos);
        EXPECT_EQ(html.find("<link"), std::string::npos);
        EXPECT_EQ(html.find("url("), std::string::npos);
        EXPECT_EQ(html.find("@import"), std::string::npos);
        EXPECT_EQ(html, render(input));
    }
}

TEST(html_golden, no_non_finite_number_reaches_the_page) {
    const std::regex non_finite(R"(\b(nan|inf|infinity)\b)", std::regex::icase);
    for (const auto& input : every_input()) {
        const std::string html = render(input);
        EXPECT_FALSE(std::regex_search(html, non_finite));
    }
    // The non-finite fixture's infinite sample is skipped, and said to be.
    const std::string html = render(non_finite_run());
    EXPECT_NE(html.find("1 sample is not finite, not plotted"), std::string::npos);
}

TEST(html_golden, user_text_is_escaped_everywhere) {
    run_results run = findings_run();
    const std::string evil = R"(sort<int>/"a&b"/'c'<script>)";
    run.context.executable = evil;
    run.context.host = evil;
    run.benchmarks[0].name = evil;
    run.benchmarks[0].warnings[0].kind = evil;
    run.benchmarks[0].warnings[0].message = evil;
    run.benchmarks[0].counters = {{evil, 1}};
    run.benchmarks.back().error->kind = evil;
    run.benchmarks.back().error->message = evil;
    const std::string html = render(run);
    EXPECT_EQ(html.find("<script"), std::string::npos);
    EXPECT_EQ(html.find("<int>"), std::string::npos);
    EXPECT_EQ(html.find("\"a&b\""), std::string::npos);
    EXPECT_NE(html.find("sort&lt;int&gt;/&quot;a&amp;b&quot;/&#39;c&#39;&lt;script&gt;"), std::string::npos);
    EXPECT_EQ(report::detail::html_escape("a\x01"
                                          "b\nc"),
              "a b\nc");
}

TEST(html_golden, every_benchmark_has_a_section_and_a_summary_link) {
    const run_results run = findings_run();
    const std::string html = render(run);
    for (std::size_t i = 0; i < run.benchmarks.size(); ++i) {
        const std::string id = "b-" + std::to_string(i + 1);
        EXPECT_NE(html.find("<section class=\"benchmark\" id=\"" + id + "\">"), std::string::npos) << id;
        EXPECT_NE(html.find("<a href=\"#" + id + "\">"), std::string::npos) << id;
    }
    // Findings in full, the multi-line error message too.
    EXPECT_NE(html.find("bad magic number in footer\n  while reading column chunk 3"), std::string::npos);
    EXPECT_NE(html.find("the timed loop keeps what it allocates"), std::string::npos);
    // A time plot with its distribution for each of the six measured rows, and a heap plot for
    // each whose heap moved (accounting on); a flat heap is one sentence.
    std::size_t moving = 0;
    std::size_t flat = 0;
    for (const auto& b : run.benchmarks) {
        if (b.error || b.samples.empty())
            continue;
        const bool same = std::all_of(b.samples.begin(), b.samples.end(), [&](const sample& s) {
            return s.live_bytes_end == b.samples.front().live_bytes_end;
        });
        (same ? flat : moving) += 1;
    }
    EXPECT_EQ(count(html, "<svg"), 6U + moving);
    EXPECT_EQ(count(html, "<path class=\"bar\""), 6U);
    EXPECT_EQ(count(html, "Live heap of the timed region at every sample's end"), flat);
}

TEST(html_golden, plots_follow_the_figures) {
    const std::string off = render(accounting_off_run());
    EXPECT_EQ(count(off, "<svg"), 2U) << "no heap plot without accounting";
    const std::string growing = render(growing_heap_run());
    EXPECT_NE(growing.find("<line class=\"fit\""), std::string::npos);
    EXPECT_NE(growing.find("<circle class=\"outlier severe\""), std::string::npos);
    EXPECT_NE(growing.find("<rect class=\"band\""), std::string::npos);
    EXPECT_NE(growing.find("<line class=\"mean\""), std::string::npos);
    EXPECT_EQ(count(render(empty_run()), "<svg"), 0U);
}

// A benchmark of 100,000 samples once gave a page of 100,000 dots per plot (630 MB for a file
// of 2.5 M samples): a plot draws a bounded number, and says which.
TEST(html_golden, a_page_stays_small_however_many_samples) {
    run_results run = typical_run();
    benchmark_result& b = run.benchmarks[1];
    const std::size_t n = 100000;
    b.samples_ns.resize(n);
    b.samples.clear();
    for (std::size_t i = 0; i < n; ++i) {
        b.samples_ns[i] = 100 + static_cast<double>(i % 7);
        sample s;
        s.iterations = 1000;
        s.iterations_before = 1000 * i;
        s.live_bytes_end = static_cast<std::int64_t>(48 * i);  // a heap to plot
        b.samples.push_back(s);
    }
    b.samples_ns[77777] = 90;  // the fastest, off the stride: drawn all the same
    const std::string page = render(run);
    EXPECT_LT(page.size(), std::size_t{3} << 20);
    EXPECT_NE(page.find("Drawn: every 50th of the 100000 samples, and the fastest and slowest"),
              std::string::npos);
    EXPECT_NE(page.find("Drawn: every 50th of the 100000 samples, and the last."), std::string::npos);
    EXPECT_NE(page.find("sample 77778: 90.0 ns/iter"), std::string::npos);
    EXPECT_LE(count(page, "<circle"), 2U * 2002U + 100U);  // the other benchmarks' few dots
}

TEST(html_golden, the_caption_names_the_stride_as_an_ordinal) {
    for (const auto& [n, said] : {std::pair<std::size_t, const char*>{3000, "every 2nd of the 3000"},
                                  {4001, "every 3rd of the 4001"},
                                  {42001, "every 22nd of the 42001"},
                                  {22001, "every 12th of the 22001"}}) {
        run_results run = typical_run();
        benchmark_result& b = run.benchmarks[1];
        b.samples_ns.assign(n, 100);
        b.samples.assign(n, sample{});
        EXPECT_NE(render(run).find(said), std::string::npos) << said;
    }
}

TEST(html_golden, axis_ticks_are_round_and_inside_the_domain) {
    using report::detail::axis_kind;
    using report::detail::axis_ticks;
    using report::detail::tick_labels;
    EXPECT_EQ(axis_ticks(0, 10, axis_kind::count, true), (std::vector<double>{0, 2, 4, 6, 8, 10}));
    EXPECT_EQ(axis_ticks(0.5, 3.5, axis_kind::count, true), (std::vector<double>{1, 2, 3}));
    EXPECT_EQ(tick_labels(axis_ticks(0, 1e6, axis_kind::duration, false), axis_kind::duration),
              (std::vector<std::string>{"0 ns", "200 µs", "400 µs", "600 µs", "800 µs", "1.00 ms"}));
    // Binary steps for bytes: multiples of 512 KiB, not of 500 000 bytes.
    EXPECT_EQ(tick_labels(axis_ticks(0, 3.0 * 1024 * 1024, axis_kind::bytes, false), axis_kind::bytes),
              (std::vector<std::string>{"0 B", "512 KiB", "1.00 MiB", "1.50 MiB", "2.00 MiB", "2.50 MiB",
                                        "3.00 MiB"}));
    // Three significant digits cannot tell these apart: fixed decimals in one unit.
    EXPECT_EQ(tick_labels(axis_ticks(12.29, 12.39, axis_kind::duration, false), axis_kind::duration),
              (std::vector<std::string>{"12.30 ns", "12.32 ns", "12.34 ns", "12.36 ns", "12.38 ns"}));
    EXPECT_TRUE(axis_ticks(0, std::numeric_limits<double>::infinity(), axis_kind::count, false).empty());
    EXPECT_TRUE(axis_ticks(-1e308, 1e308, axis_kind::count, false).empty());
    EXPECT_TRUE(axis_ticks(1, 1, axis_kind::count, false).empty());
}

TEST(html_golden, a_plot_with_nothing_finite_is_not_drawn) {
    report::detail::scatter_plot plot;
    plot.points = {{1, std::nan(""), 0, ""}, {std::numeric_limits<double>::infinity(), 2, 0, ""}};
    EXPECT_EQ(report::detail::render_scatter(plot), "");
    plot.points.push_back({3, 4, 0, "3, 4"});
    plot.band = {0, std::numeric_limits<double>::infinity()};
    const std::string svg = report::detail::render_scatter(plot);
    EXPECT_NE(svg.find("<circle class=\"dot\""), std::string::npos);
    EXPECT_EQ(svg.find("band"), std::string::npos);
}

}  // namespace
}  // namespace tare::golden
