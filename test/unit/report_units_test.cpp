// The number formatting of the console and Markdown reporters (src/report/table/units.hpp).

#include <cmath>
#include <limits>
#include <optional>

#include <gtest/gtest.h>

#include "report/compare_table.hpp"
#include "report/table/units.hpp"

namespace tare::report {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

TEST(report_units, duration_three_significant_digits_in_scaled_units) {
    EXPECT_EQ(format_duration(12.34), "12.3 ns");
    EXPECT_EQ(format_duration(1.0), "1.00 ns");
    EXPECT_EQ(format_duration(0.312), "0.312 ns");
    EXPECT_EQ(format_duration(999.4), "999 ns");
    EXPECT_EQ(format_duration(1253.7), "1.25 µs");
    EXPECT_EQ(format_duration(12'345.0), "12.3 µs");
    EXPECT_EQ(format_duration(812.4e6), "812 ms");
    EXPECT_EQ(format_duration(2.5e9), "2.50 s");
    EXPECT_EQ(format_duration(3600e9), "3600 s");  // no unit beyond seconds
}

TEST(report_units, duration_rounding_moves_to_the_next_unit_or_digit) {
    EXPECT_EQ(format_duration(999.7), "1.00 µs");  // not "1000 ns"
    EXPECT_EQ(format_duration(999'999.0), "1.00 ms");
    EXPECT_EQ(format_duration(9.996), "10.0 ns");  // not "10.00 ns"
    EXPECT_EQ(format_duration(99.96), "100 ns");   // not "100.0 ns"
    EXPECT_EQ(format_duration(0.09996), "0.100 ns");
    EXPECT_EQ(format_duration(0.1), "0.100 ns");
    EXPECT_EQ(format_duration(0.001), "0.00100 ns");
}

TEST(report_units, duration_zero_negative_tiny_and_non_finite) {
    EXPECT_EQ(format_duration(0), "0 ns");
    EXPECT_EQ(format_duration(-0.0), "0 ns");
    EXPECT_EQ(format_duration(-1253.7), "-1.25 µs");
    EXPECT_EQ(format_duration(0.0004), "<0.001 ns");
    EXPECT_EQ(format_duration(-0.0004), ">-0.001 ns");
    EXPECT_EQ(format_duration(nan), "—");
    EXPECT_EQ(format_duration(inf), "∞");
    EXPECT_EQ(format_duration(-inf), "-∞");
}

TEST(report_units, bytes_in_binary_units) {
    EXPECT_EQ(format_bytes(0), "0 B");
    EXPECT_EQ(format_bytes(1), "1 B");
    EXPECT_EQ(format_bytes(48), "48 B");
    EXPECT_EQ(format_bytes(40.5), "40.5 B");
    EXPECT_EQ(format_bytes(0.25), "0.25 B");
    EXPECT_EQ(format_bytes(1000), "1000 B");
    EXPECT_EQ(format_bytes(1023), "1023 B");
    EXPECT_EQ(format_bytes(1024), "1.00 KiB");
    EXPECT_EQ(format_bytes(4096), "4.00 KiB");
    EXPECT_EQ(format_bytes(1536), "1.50 KiB");
    EXPECT_EQ(format_bytes(1024.0 * 1024), "1.00 MiB");
    EXPECT_EQ(format_bytes(1023.9 * 1024), "1.00 MiB");  // rounding reaches 1024 KiB
    EXPECT_EQ(format_bytes(602.0 * 1024 * 1024), "602 MiB");
    EXPECT_EQ(format_bytes(1.6e9), "1.49 GiB");
    EXPECT_EQ(format_bytes(-4096), "-4.00 KiB");
    EXPECT_EQ(format_bytes(-12.5), "-12.5 B");
    EXPECT_EQ(format_bytes(nan), "—");
    EXPECT_EQ(format_bytes(inf), "∞");
}

TEST(report_units, counts_drop_trailing_zeros) {
    EXPECT_EQ(format_count(0), "0");
    EXPECT_EQ(format_count(17), "17");
    EXPECT_EQ(format_count(0.5), "0.5");
    EXPECT_EQ(format_count(1.06), "1.06");
    EXPECT_EQ(format_count(1.0), "1");
    EXPECT_EQ(format_count(0.4375), "0.438");
    EXPECT_EQ(format_count(128), "128");
    EXPECT_EQ(format_count(999), "999");
    EXPECT_EQ(format_count(999.7), "1k");
    EXPECT_EQ(format_count(1843), "1.84k");
    EXPECT_EQ(format_count(12'300), "12.3k");
    EXPECT_EQ(format_count(16'000), "16k");
    EXPECT_EQ(format_count(4.5e6), "4.5M");
    EXPECT_EQ(format_count(2.0e9), "2G");
    EXPECT_EQ(format_count(7.5e12), "7.5T");
    EXPECT_EQ(format_count(0.0012), "0.0012");
    EXPECT_EQ(format_count(0.0004), "<0.001");
    EXPECT_EQ(format_count(-3.5), "-3.5");
    EXPECT_EQ(format_count(-12'300), "-12.3k");
    EXPECT_EQ(format_count(nan), "—");
    EXPECT_EQ(format_count(-inf), "-∞");
}

TEST(report_units, rates_keep_fixed_precision) {
    EXPECT_EQ(format_byte_rate(1.6e9), "1.49 GiB/s");
    EXPECT_EQ(format_byte_rate(512), "512 B/s");
    EXPECT_EQ(format_byte_rate(0), "0 B/s");
    EXPECT_EQ(format_byte_rate(inf), "∞");
    EXPECT_EQ(format_item_rate(12.3e6), "12.3M items/s");
    EXPECT_EQ(format_item_rate(4.5e6), "4.50M items/s");
    EXPECT_EQ(format_item_rate(17), "17.0 items/s");
    EXPECT_EQ(format_item_rate(0), "0 items/s");
    EXPECT_EQ(format_item_rate(nan), "—");
}

TEST(report_units, percentages) {
    EXPECT_EQ(format_percent(0.8), "0.8%");
    EXPECT_EQ(format_percent(0.04), "0.0%");
    EXPECT_EQ(format_percent(0), "0.0%");
    EXPECT_EQ(format_percent(12.46), "12.5%");
    EXPECT_EQ(format_percent(99.96), "100%");
    EXPECT_EQ(format_percent(250), "250%");
    EXPECT_EQ(format_percent(99999), "99999%");
    EXPECT_EQ(format_percent(1.234e5), "1.23e+05%");
    EXPECT_EQ(format_percent(4.2e80), "4.20e+80%");  // an interval of two far-apart rounds
    EXPECT_EQ(format_percent(-1e300), "-1.00e+300%");
    EXPECT_EQ(format_percent(-3.26), "-3.3%");
    EXPECT_EQ(format_percent(nan), "—");
    EXPECT_EQ(format_percent(inf), "∞");
}

// Beyond the largest unit a figure is read from a file, not measured: it must not fill the column.
TEST(report_units, figures_past_the_largest_unit_keep_three_digits) {
    EXPECT_EQ(format_duration(86400e9), "86400 s");
    EXPECT_EQ(format_duration(1e300), "1.00e+291 s");
    EXPECT_EQ(format_duration(-1e300), "-1.00e+291 s");
    EXPECT_EQ(format_bytes(1e300), "8.67e+281 EiB");
    EXPECT_EQ(format_count(1e300), "1.00e+288T");
}

TEST(report_units, relative_half_width_of_an_interval) {
    EXPECT_EQ(format_relative_half_width(100, 99, 101), "1.0%");
    EXPECT_EQ(format_relative_half_width(1253.7, 1243.7, 1263.7), "0.8%");
    EXPECT_EQ(format_relative_half_width(-100, -101, -99), "1.0%");  // relative to |mean|
    EXPECT_EQ(format_relative_half_width(100, 100, 100), "0.0%");
    EXPECT_EQ(format_relative_half_width(0, 0, 0), "—");
    EXPECT_EQ(format_relative_half_width(nan, 1, 2), "—");
    EXPECT_EQ(format_relative_half_width(inf, 1, 2), "—");
    EXPECT_EQ(format_relative_half_width(100, 90, inf), "∞");
    EXPECT_EQ(format_relative_half_width(100, nan, 110), "—");
}

TEST(report_units, format_or_missing) {
    EXPECT_EQ(format_or_missing(std::optional<double>{}, format_bytes), "—");
    EXPECT_EQ(format_or_missing(std::optional<double>{4096}, format_bytes), "4.00 KiB");
}

TEST(report_units, display_width_counts_code_points) {
    EXPECT_EQ(display_width(""), 0U);
    EXPECT_EQ(display_width("ns"), 2U);
    EXPECT_EQ(display_width("µs"), 2U);  // 3 bytes
    EXPECT_EQ(display_width("1.25 µs ± 0.8%"), 14U);
    EXPECT_EQ(display_width("—"), 1U);  // 3 bytes
    EXPECT_EQ(display_width("∞"), 1U);
}

TEST(report_units, padding_by_display_width) {
    EXPECT_EQ(pad_left("µs", 4), "  µs");
    EXPECT_EQ(pad_right("µs", 4), "µs  ");
    EXPECT_EQ(pad_left("toolong", 3), "toolong");  // never truncates
    EXPECT_EQ(pad_right("—", 1), "—");
}

TEST(report_units, one_line_flattens_control_characters) {
    EXPECT_EQ(one_line("plain"), "plain");
    EXPECT_EQ(one_line("first\nsecond"), "first second");
    EXPECT_EQ(one_line("a\r\n\tb"), "a b");
    EXPECT_EQ(one_line("trailing\n"), "trailing");
    EXPECT_EQ(one_line("µs — ok"), "µs — ok");
    EXPECT_EQ(one_line(""), "");
}

// One shortening for names and lines: the kept code points, never a split one, and "…".
TEST(units, shorten_keeps_the_end_both_ends_or_the_start) {
    EXPECT_EQ(shorten("abcdefgh", 5, cut::start), "…efgh");
    EXPECT_EQ(shorten("abcdefgh", 5, cut::middle), "ab…gh");
    EXPECT_EQ(shorten("abcdefgh", 5, cut::end), "abcd…");
    EXPECT_EQ(shorten("µsµsµsµs", 4, cut::start), "…sµs");
    EXPECT_EQ(display_width(shorten("µsµsµsµs", 4, cut::middle)), 4U);
    EXPECT_EQ(shorten("short", 5, cut::end), "short");
    EXPECT_EQ(shorten("anything", 0, cut::end), "anything");
    EXPECT_EQ(shorten("anything", 2, cut::middle), "anything");
}

// --instrument's counts keep every digit: their point is that they do not vary.
TEST(units, exact_counts_keep_every_digit_grouped) {
    EXPECT_EQ(format_exact_count(5788952), "5,788,952");
    EXPECT_EQ(format_exact_count(1003.4), "1,003.4");
    EXPECT_EQ(format_exact_count(58104.96), "58,105");  // rounded whole: no ".0"
    EXPECT_EQ(format_exact_count(209692.76), "209,693");
    EXPECT_EQ(format_exact_count(0.14), "0.14");
    EXPECT_EQ(format_exact_count(3), "3");
    EXPECT_EQ(format_exact_count(0), "0");
    EXPECT_EQ(format_exact_count(999), "999");
    EXPECT_EQ(format_exact_count(1000), "1,000");
    EXPECT_EQ(format_exact_count(-1234.5), "-1,234.5");
    EXPECT_EQ(format_exact_count(std::nan("")), "—");
}

TEST(units, count_changes_are_shown_to_the_hundredth) {
    EXPECT_EQ(format_count_change(0.1002), "+0.10%");
    EXPECT_EQ(format_count_change(-1.176), "-1.18%");
    EXPECT_EQ(format_count_change(0.004), "0.00%");
    EXPECT_EQ(format_count_change(-0.004), "0.00%");
    EXPECT_EQ(format_count_change(0), "0.00%");
    EXPECT_EQ(format_count_change(std::nan("")), "—");
}

// The summary line's memory count: allocations and bytes exactly, the peak beyond the slack an
// allocator's choice of blocks gives one executable compared with itself (glibc: 16 bytes on a
// 3.2 KB peak, seen in an A/A of a real suite).
TEST(compare_summary, a_peak_a_few_bytes_apart_is_not_a_memory_change) {
    const auto changed = [](double allocs_head, std::int64_t peak_base, std::int64_t peak_head) {
        compare_results r;
        compare_row row;
        row.name = "BinaryToCbor/1024";
        row.base.allocs_per_iter = 9;
        row.head.allocs_per_iter = allocs_head;
        row.base.peak_live_bytes = peak_base;
        row.head.peak_live_bytes = peak_head;
        r.rows.push_back(row);
        const table::line l = detail::compare_summary_line(r);
        std::string text;
        for (const auto& span : l)
            text += span.text;
        return text.substr(text.find("memory: "));
    };
    EXPECT_EQ(changed(9, 3200, 3216), "memory: 0 rows changed");
    EXPECT_EQ(changed(9, 3216, 3200), "memory: 0 rows changed");
    EXPECT_EQ(changed(9, 1'000'000, 1'009'000), "memory: 0 rows changed");  // 0.9 %
    EXPECT_EQ(changed(9, 3200, 3300), "memory: 1 row changed");             // 100 B, 3 %
    EXPECT_EQ(changed(9, 1'000'000, 1'020'000), "memory: 1 row changed");
    EXPECT_EQ(changed(10, 3200, 3200), "memory: 1 row changed");  // one allocation more: exact
}

}  // namespace
}  // namespace tare::report
