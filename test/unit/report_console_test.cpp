// The table engine on a terminal (report/table/console.cpp with a console_style) and the
// progress lines (report/progress.cpp): what a width, colour and a long run do to the text.

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alloc/accounting.hpp"
#include "report/progress.hpp"
#include "report/run_table.hpp"
#include "report/table/document.hpp"
#include "report/table/units.hpp"
#include "text_helpers.hpp"
#include "unit/many_rows.hpp"

namespace tare::report {
namespace {

using table::align;
using table::column;
using table::console_style;
using table::document;
using table::grid;
using table::tone;

document sample_document() {
    column names{
        "benchmark", align::left, {}, {{"suite_bench/family/Repetition:0/BatchSize:1000"}, {"short"}}, true};
    column time{"time", align::right, {}, {{"1.25 µs"}, {"3.00 ns"}}, false};
    column samples{"samples", align::right, {}, {{"100 × 16k"}, {"90 × 1k"}}, false, 4};
    column peak{"peak heap", align::right, {}, {{"1.00 MiB"}, {"0 B"}}, false, 1};
    column verdict{"verdict", align::left, {}, {{"slower"}, {"faster"}}, false, 0, {tone::bad, tone::good}};
    document doc;
    doc.add(table::paragraph{{{{"tare 0.1.0 · "}, {"2 rows", table::style::strong}}}});
    doc.add(grid{{names, time, samples, peak, verdict}});
    doc.add(table::item_list{{{"warning",
                               {{"suite_bench/family: samples spread ±9.7% around the mean; results are "
                                 "unreliable: close other programs, raise --min-time, or pin the CPU"}}},
                              {"error", {{"short: exception"}}}}});
    return doc;
}

TEST(report_console, the_default_style_is_plain_and_whole) {
    const std::string text = table::render_console(sample_document());
    EXPECT_EQ(text.find('\033'), std::string::npos);
    EXPECT_NE(text.find("suite_bench/family/Repetition:0/BatchSize:1000"), std::string::npos);
    EXPECT_NE(text.find("peak heap"), std::string::npos);
    EXPECT_EQ(text.find("not shown"), std::string::npos);
}

TEST(report_console, a_narrow_terminal_drops_columns_by_rank_then_shortens_names) {
    for (const std::size_t width : {80U, 60U, 40U}) {
        SCOPED_TRACE(width);
        const std::string text = table::render_console(sample_document(), {false, width});
        for (const auto& line : lines_of(text))
            EXPECT_LE(display_width(line), width) << line;
        // The samples (rank 4) go before the peak (rank 1); the time and verdict (0) stay.
        EXPECT_NE(text.find("time"), std::string::npos);
        EXPECT_NE(text.find("verdict"), std::string::npos);
        EXPECT_EQ(text.find("90 × 1k"), std::string::npos);
        EXPECT_NE(text.find("samples"), std::string::npos) << "named in the note";
    }
    // At 80 the samples alone go and the name stays whole.
    const std::string wide = table::render_console(sample_document(), {false, 80});
    EXPECT_NE(wide.find("(samples not shown at 80 columns"), std::string::npos) << wide;
    EXPECT_NE(wide.find("1.00 MiB"), std::string::npos);
    EXPECT_NE(wide.find("suite_bench/family/Repetition:0/BatchSize:1000"), std::string::npos);
    // At 40 the name is cut in the middle: both its ends stay.
    const std::string narrow = table::render_console(sample_document(), {false, 40});
    EXPECT_EQ(narrow.find("1.00 MiB"), std::string::npos);
    EXPECT_TRUE(std::regex_search(narrow, std::regex("suite_b[^ ]*…[^ ]*e:1000"))) << narrow;
    // Findings wrap at blanks, continued two columns in.
    EXPECT_NE(narrow.find("\n  "), std::string::npos) << narrow;
}

// A stand-in takes the place of the columns it tells briefly, where the first of them stood,
// when the first of them would go; the note says so. Wide enough, or in Markdown, it never shows.
TEST(report_console, a_stand_in_replaces_its_columns_and_is_cut_last) {
    column name{"benchmark", align::left, {}, {{"parse"}, {"encode"}}, true};
    column allocs{"allocs/iter", align::right, {}, {{"1 → 0"}, {"= 3"}}, false, 2};
    column bytes{"bytes/iter", align::right, {}, {{"512 B → 0 B"}, {"= 48 B"}}, false, 2};
    column peak{"peak heap", align::right, {}, {{"512 B → 0 B"}, {"= 48 B"}}, false, 2};
    column verdict{"verdict", align::left, {}, {{"faster"}, {"no change"}}, false};
    column samples{"samples", align::right, {}, {{"100 × 16k"}, {"90 × 1k"}}, false, 4};
    column memory{"memory", align::left, {}, {{"allocs -1, peak -512 B, bytes -512 B"}, {"="}}, false};
    memory.cut_at_end = true;
    document doc;
    doc.add(grid{{name, allocs, bytes, peak, verdict, samples},
                 {{{"allocs/iter", "bytes/iter", "peak heap"}, memory, "memory shows only what changed"}}});
    const std::string whole = table::render_console(doc, {false, 0});
    EXPECT_EQ(whole.find("memory"), std::string::npos) << whole;
    EXPECT_EQ(table::render_markdown(doc).find("memory"), std::string::npos);

    // The samples go first (rank 4); then the three memory columns, as one, where the first stood.
    const std::string narrow = table::render_console(doc, {false, 58});
    const auto lines = lines_of(narrow);
    ASSERT_GE(lines.size(), 4U) << narrow;
    EXPECT_TRUE(std::regex_search(lines[0], std::regex("^benchmark +memory +verdict$"))) << narrow;
    EXPECT_NE(lines[2].find("allocs -1, peak -512 B, bytes -512 B"), std::string::npos) << narrow;
    EXPECT_EQ(narrow.find("allocs/iter"), std::string::npos) << narrow;
    EXPECT_NE(narrow.find("(samples not shown at 58 columns; memory shows only what\n changed: widen"),
              std::string::npos)
        << narrow;
    for (const auto& line : lines)
        EXPECT_LE(display_width(line), 58U) << line;

    // Narrower still: the stand-in's cells are cut at their end, the first figures kept.
    const std::string cut = table::render_console(doc, {false, 50});
    EXPECT_NE(cut.find("allocs -1, peak -512 B, "), std::string::npos) << cut;
    EXPECT_NE(cut.find("…"), std::string::npos) << cut;
    for (const auto& line : lines_of(cut))
        EXPECT_LE(display_width(line), 50U) << line;
}

TEST(report_console, colour_repeats_what_the_text_says) {
    const std::string text = table::render_console(sample_document(), {true, 0});
    EXPECT_NE(text.find("\033[31mslower\033[0m"), std::string::npos) << text;
    EXPECT_NE(text.find("\033[32mfaster\033[0m"), std::string::npos);
    EXPECT_NE(text.find("\033[1m2 rows\033[0m"), std::string::npos);
    EXPECT_NE(text.find("\033[33mwarning\033[0m: "), std::string::npos);
    EXPECT_NE(text.find("\033[1;31merror\033[0m: short: exception"), std::string::npos);
    // Without the codes, the same text as without colour: nothing moved, no trailing blanks.
    const std::string plain = std::regex_replace(text, std::regex("\033\\[[0-9;]*m"), "");
    EXPECT_EQ(plain, table::render_console(sample_document()));
}

TEST(report_progress, the_pace_so_far_gives_the_time_left) {
    EXPECT_EQ(clock_text(0), "0:00");
    EXPECT_EQ(clock_text(65.4), "1:05");
    EXPECT_EQ(clock_text(3723), "1:02:03");
    EXPECT_LT(seconds_left({0, 10, "a", 5}), 0) << "no pace before the first step ends";
    EXPECT_DOUBLE_EQ(seconds_left({2, 10, "a", 4}), 16);
    EXPECT_EQ(progress_live({2, 12, "round_trip/1000", 4}, 0),
              "[3/12] round_trip/1000 · 0:04, about 0:20 left");
    EXPECT_EQ(progress_live({0, 12, "first", 0}, 0), "[1/12] first · 0:00");
    const std::string cut = progress_live({2, 12, "a_very_long_benchmark_name/with/arguments:1000", 4}, 30);
    EXPECT_EQ(display_width(cut), 30U) << cut;
    EXPECT_EQ(cut.substr(cut.size() - 3), "…");
    EXPECT_EQ(progress_done({3, 12, "round_trip/1000", 6}, 1.2),
              "[3/12] round_trip/1000 done in 1.20 s · 0:06, about 0:18 left\n");
}

// A table of `rows` rows of a name and two figures of two parts each, as a run's table has.
grid wide_grid(std::size_t rows) {
    column names{"benchmark", align::left, {}, {}, true};
    column time{"time", align::right, {" ±"}, {}, false};
    column bytes{"bytes/iter", align::right, {}, {}, false, 2};
    for (std::size_t i = 0; i < rows; ++i) {
        names.cells.push_back({"suite/family_" + std::to_string(i / 4) + "/" + std::to_string(i % 4)});
        time.cells.push_back({"1.25 µs", std::to_string(i % 10) + ".8%"});
        bytes.cells.push_back({"64 B", "= 3"});
    }
    return grid{{names, time, bytes}};
}

// A million benchmarks' table is a dozen columns of a million cells: each cell holds its text and
// where its parts end, measured by tare's own accounting on the run table's own columns as its
// builder makes them. A vector of strings a cell took some 100 bytes besides.
TEST(report_console, a_runs_columns_take_little_beside_their_text) {
    if (!alloc::available())
        GTEST_SKIP() << "built without the interposer (the sanitizer owns malloc)";
    constexpr std::size_t rows = 10000;
    const run_results run = test::many_rows(rows);
    alloc::region_begin();
    const std::vector<column> columns = detail::build_columns(run);
    const alloc::counters c = alloc::snapshot();
    alloc::region_end();
    ASSERT_EQ(columns.front().cells.size(), rows);
    std::size_t text = 0;
    for (const column& k : columns) {
        for (std::size_t row = 0; row < rows; ++row)
            text += table::join_cell(k, k.cells[row]).size();
    }
    // The text, the ends of its parts and cells, and their storage's growth by doubling.
    const auto per_row = static_cast<std::int64_t>(rows);
    EXPECT_LT(c.live, static_cast<std::int64_t>(2 * text) + 200 * per_row)
        << columns.size() << " columns, " << text / rows << " B of text and " << c.live / per_row
        << " B held a row";
}

// Laying a table out measures and writes its cells where they are: the peak is the text made
// (grown by doubling), never a copy of the cells.
TEST(report_console, rendering_a_table_copies_none_of_its_cells) {
    if (!alloc::available())
        GTEST_SKIP() << "built without the interposer (the sanitizer owns malloc)";
    document doc;
    doc.add(wide_grid(10000));
    const std::size_t text = table::render_console(doc).size();
    alloc::region_begin();
    const std::string out = table::render_console(doc);
    const alloc::counters c = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(out.size(), text);
    EXPECT_LT(c.peak, static_cast<std::int64_t>(3 * out.size() + (64 << 10)))
        << "peak " << c.peak << " B for " << out.size() << " B of text";
}

// Markdown measures its columns in one pass and writes them in another, making each cell in each:
// the peak is the text it writes (its storage and the old storage while it grows), not a copy of
// every cell as Markdown.
TEST(report_console, a_markdown_table_holds_none_of_its_cells_as_text) {
    if (!alloc::available())
        GTEST_SKIP() << "built without the interposer (the sanitizer owns malloc)";
    document doc;
    doc.add(wide_grid(10000));
    const std::size_t text = table::render_markdown(doc).size();
    alloc::region_begin();
    const std::string out = table::render_markdown(doc);
    const alloc::counters c = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(out.size(), text);
    EXPECT_LT(c.peak, static_cast<std::int64_t>(3 * out.size() + (64 << 10)))
        << "peak " << c.peak << " B for " << out.size() << " B of text";
}

}  // namespace
}  // namespace tare::report
