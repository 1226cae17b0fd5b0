// Golden tests of the `tare compare` reporters: every fixture of compare_fixtures.hpp through
// the console table, the Markdown table and JSON "tare-compare/1", and properties that must hold
// whatever the approved text says: strict JSON, the contract's key order, verdicts that agree
// with the printed intervals, and columns that line up.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "golden/compare_fixtures.hpp"
#include "golden/golden.hpp"
#include "report/reporter.hpp"
#include "report/table/units.hpp"
#include "text_helpers.hpp"

namespace tare::golden {
namespace {

using ordered = nlohmann::ordered_json;

// A line as code points, so positions are display columns (the reporters count the same way).
std::vector<std::string> code_points(const std::string& line) {
    std::vector<std::string> points;
    for (const char c : line) {
        if ((static_cast<unsigned char>(c) & 0xC0U) == 0x80U && !points.empty()) {
            points.back() += c;
        } else {
            points.emplace_back(1, c);
        }
    }
    return points;
}

std::vector<std::string> keys(const ordered& object) {
    std::vector<std::string> out;
    for (const auto& item : object.items()) {
        out.push_back(item.key());
    }
    return out;
}

TEST(compare_golden, every_fixture_through_every_reporter) {
    for (const auto& f : all_compare_fixtures()) {
        SCOPED_TRACE(f.name);
        const compare_results r = f.make();
        expect_matches_approved("compare_" + f.name + ".console.txt",
                                report::make_reporter<compare_results>(report::format::console)->render(r));
        expect_matches_approved("compare_" + f.name + ".md",
                                report::make_reporter<compare_results>(report::format::markdown)->render(r));
        expect_matches_approved("compare_" + f.name + ".json",
                                report::make_json_reporter<compare_results>()->render(r));
    }
}

TEST(compare_golden, json_keys_follow_the_contract_order) {
    for (const auto& f : all_compare_fixtures()) {
        SCOPED_TRACE(f.name);
        const compare_results r = f.make();
        const ordered doc = ordered::parse(report::make_json_reporter<compare_results>()->render(r));
        // The contract's keys first; each file's own context after them, when two files were compared.
        std::vector<std::string> expected{"schema", "context", "rows", "only_in_base", "only_in_head"};
        if (r.base_context)
            expected.insert(expected.end(), {"base_context", "head_context"});
        EXPECT_EQ(keys(doc), expected);
        EXPECT_EQ(doc["schema"], "tare-compare/1");
        EXPECT_EQ(
            keys(doc["context"]),
            (std::vector<std::string>{
                "tare_version", "host", "date", "base", "head", "mode", "rounds", "base_processes",
                "head_processes", "cpus", "layout", "alpha", "comparisons", "family_control", "selected",
                "threshold_pct", "interrupted", "mixed_instrumentation", "mixed_instrumentation_allowed"}));
        for (const auto& row : doc["rows"]) {
            std::vector<std::string> expected_row{"name", "verdict", "change_pct",
                                                  "base", "head",    "not_judged"};
            if (row.contains("changed_functions"))  // both sides profiled (--profile)
                expected_row.emplace_back("changed_functions");
            if (row.contains("changed_allocation_stacks"))  // both sides' allocation stacks
                expected_row.emplace_back("changed_allocation_stacks");
            EXPECT_EQ(keys(row), expected_row);
            if (!row["change_pct"].is_null()) {
                EXPECT_EQ(keys(row["change_pct"]),
                          (std::vector<std::string>{"mean", "ci_low", "ci_high", "confidence", "pairs",
                                                    "p_value", "log_se", "df"}));
            }
            for (const char* side : {"base", "head"}) {
                std::vector<std::string> expected_side{
                    "time_ns",         "samples",        "iterations",      "round_ns",
                    "allocs_per_iter", "bytes_per_iter", "peak_live_bytes", "page_faults_per_iter"};
                if (row[side].contains("mapped_bytes_per_iter"))  // where mappings were counted
                    expected_side.emplace_back("mapped_bytes_per_iter");
                if (row[side].contains("instrument"))  // a counted side (--instrument): its counts next
                    expected_side.insert(
                        expected_side.end(),
                        {"instrument", "instrument_iterations", "instructions_per_iter",
                         "data_reads_per_iter", "data_writes_per_iter", "l1_misses_per_iter",
                         "ll_misses_per_iter", "estimated_cycles_per_iter", "instrument_seconds"});
                if (row[side].contains("instruction_profile"))  // --profile: the side's profile
                    expected_side.emplace_back("instruction_profile");
                expected_side.insert(expected_side.end(), {"warnings", "error"});
                EXPECT_EQ(keys(row[side]), expected_side);
            }
        }
    }
}

// CONTRACT section 6: no_change whenever the interval includes 0; slower needs ci_low > 0,
// faster ci_high < 0; and the table prints the same verdict as the JSON.
TEST(compare_golden, verdicts_agree_with_intervals_and_with_the_table) {
    for (const auto& f : all_compare_fixtures()) {
        SCOPED_TRACE(f.name);
        const compare_results r = f.make();
        const ordered doc = ordered::parse(report::make_json_reporter<compare_results>()->render(r));
        const auto table =
            lines_of(report::make_reporter<compare_results>(report::format::console)->render(r));
        for (const auto& row : doc["rows"]) {
            const std::string name = row["name"];
            const std::string verdict = row["verdict"];
            const auto& c = row["change_pct"];
            const bool failed = !row["base"]["error"].is_null() || !row["head"]["error"].is_null();
            if (failed) {
                EXPECT_EQ(verdict, "error") << name;  // nothing measured to judge
            } else if (c.is_null() || c["ci_low"].is_null()) {
                EXPECT_EQ(verdict, "no_change") << name;
            } else {
                const double low = c["ci_low"];
                const double high = c["ci_high"];
                if (low <= 0 && high >= 0) {
                    EXPECT_EQ(verdict, "no_change") << name;
                }
                if (verdict == "slower") {
                    EXPECT_GT(low, 0) << name;
                }
                if (verdict == "faster") {
                    EXPECT_LT(high, 0) << name;
                }
            }
            std::string line;
            for (const auto& l : table) {
                if (l.rfind(name + " ", 0) == 0) {
                    line = l;
                }
            }
            ASSERT_FALSE(line.empty()) << name;
            // Counts say what changed in their own words: fewer or more instructions, not time.
            const bool counted = r.mode == pairing::counted;
            const std::string shown = c.is_null()                      ? "—"
                                      : row["not_judged"].is_string()  ? "not judged"
                                      : verdict == "no_change"         ? "no change"
                                      : counted && verdict == "faster" ? "fewer instr."
                                      : counted && verdict == "slower" ? "more instr."
                                                                       : verdict;
            EXPECT_NE(line.find("  " + shown), std::string::npos) << line;
        }
    }
}

// The run table's style: a rule of "─" under the header marks each column's extent; in every
// row the gaps between columns are blank, right-aligned columns end at the rule's end and
// left-aligned ones start at its start.
TEST(compare_golden, console_columns_are_aligned) {
    for (const auto& f : all_compare_fixtures()) {
        SCOPED_TRACE(f.name);
        const auto lines =
            lines_of(report::make_reporter<compare_results>(report::format::console)->render(f.make()));
        std::size_t rule_at = 0;
        while (rule_at < lines.size() && lines[rule_at].rfind("─", 0) != 0) {
            ++rule_at;
        }
        ASSERT_LT(rule_at, lines.size());
        ASSERT_GT(rule_at, 0U);
        const auto rule = code_points(lines[rule_at]);
        std::vector<std::pair<std::size_t, std::size_t>> spans;  // [first, last] display columns
        for (std::size_t i = 0; i < rule.size(); ++i) {
            if (rule[i] == "─" && (i == 0 || rule[i - 1] != "─")) {
                spans.push_back({i, i});
            }
            if (rule[i] == "─") {
                spans.back().second = i;
            }
        }
        ASSERT_GE(spans.size(), 5U);
        for (std::size_t l = rule_at - 1; l < lines.size() && !lines[l].empty(); ++l) {
            if (l == rule_at) {
                continue;
            }
            const auto cells = code_points(lines[l]);
            EXPECT_LE(cells.size(), rule.size()) << lines[l];
            const auto at = [&](std::size_t i) { return i < cells.size() ? cells[i] : std::string(" "); };
            for (std::size_t s = 0; s < spans.size(); ++s) {
                if (s + 1 < spans.size()) {
                    for (std::size_t g = spans[s].second + 1; g < spans[s + 1].first; ++g) {
                        EXPECT_EQ(at(g), " ") << "gap after column " << s << ": " << lines[l];
                    }
                }
                // Column 0 (benchmark) and 4 (verdict) are left-aligned, the others right-aligned.
                bool blank = true;
                for (std::size_t i = spans[s].first; i <= spans[s].second; ++i) {
                    blank = blank && at(i) == " ";
                }
                if (blank) {
                    continue;
                }
                const bool left = s == 0 || s == 4;
                EXPECT_NE(at(left ? spans[s].first : spans[s].second), " ")
                    << "column " << s << ": " << lines[l];
            }
        }
    }
}

TEST(compare_golden, markdown_escapes_pipes_in_names) {
    const std::string md =
        report::make_reporter<compare_results>(report::format::markdown)->render(compare_edges_run());
    EXPECT_NE(md.find("`sort<int>\\|64`"), std::string::npos) << md;
    EXPECT_NE(md.find("`read/a\\|b`"), std::string::npos) << md;
    EXPECT_EQ(md.find("sort<int>|64"), std::string::npos) << md;
}

TEST(compare_golden, unpaired_mode_says_so) {
    const std::string text =
        report::make_reporter<compare_results>(report::format::console)->render(compare_unpaired_run());
    EXPECT_NE(text.find("TIME NOT JUDGED"), std::string::npos);
    EXPECT_NE(text.find("tare compare BASE_EXE HEAD_EXE"), std::string::npos);
    EXPECT_EQ(report::make_reporter<compare_results>(report::format::console)
                  ->render(compare_rounds_run())
                  .find("NOT JUDGED"),
              std::string::npos);
}

TEST(compare_golden, memory_columns_only_with_memory_figures) {
    EXPECT_EQ(report::make_reporter<compare_results>(report::format::console)
                  ->render(compare_threshold_run())
                  .find("allocs/iter"),
              std::string::npos);
    EXPECT_NE(report::make_reporter<compare_results>(report::format::console)
                  ->render(compare_rounds_run())
                  .find("allocs/iter"),
              std::string::npos);
}

TEST(compare_golden, json_stays_strict_with_non_finite_figures) {
    compare_results r = compare_rounds_run();
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    constexpr double inf = std::numeric_limits<double>::infinity();
    r.alpha = nan;
    r.rows[0].base.time_ns = nan;
    r.rows[0].head.round_ns[1] = inf;
    r.rows[0].head.allocs_per_iter = -inf;
    r.rows[1].change->interval_pct = interval{-inf, inf};
    r.rows[2].base.error = error_info{"exception", "bad \xff byte"};
    const std::string text = report::make_json_reporter<compare_results>()->render(r);
    nlohmann::json doc;
    ASSERT_NO_THROW(doc = nlohmann::json::parse(text)) << text;
    EXPECT_TRUE(doc["context"]["alpha"].is_null());
    EXPECT_TRUE(doc["rows"][0]["base"]["time_ns"]["mean"].is_null());
    EXPECT_TRUE(doc["rows"][0]["head"]["round_ns"][1].is_null());
    EXPECT_TRUE(doc["rows"][0]["head"]["allocs_per_iter"].is_null());
    EXPECT_TRUE(doc["rows"][1]["change_pct"]["ci_low"].is_null());
    EXPECT_TRUE(doc["rows"][2]["base"]["time_ns"]["mean"].is_null());  // a failed side measured nothing
    EXPECT_TRUE(doc["rows"][2]["base"]["error"].is_object());
    // The tables take the same input without breaking.
    EXPECT_FALSE(report::make_reporter<compare_results>(report::format::console)->render(r).empty());
    EXPECT_FALSE(report::make_reporter<compare_results>(report::format::markdown)->render(r).empty());
}

TEST(compare_golden, missing_change_and_memory_are_null) {
    const nlohmann::json doc =
        nlohmann::json::parse(report::make_json_reporter<compare_results>()->render(compare_edges_run()));
    EXPECT_TRUE(doc["rows"][1]["change_pct"].is_null());  // an error on head
    EXPECT_TRUE(doc["rows"][2]["change_pct"].is_null());  // a base time of 0
    EXPECT_TRUE(doc["rows"][1]["head"]["allocs_per_iter"].is_null());
    EXPECT_EQ(doc["only_in_head"], (nlohmann::json{"write/new_format", "read/a|b"}));
    const nlohmann::json off =
        nlohmann::json::parse(report::make_json_reporter<compare_results>()->render(compare_threshold_run()));
    EXPECT_TRUE(off["rows"][0]["base"]["peak_live_bytes"].is_null());
}

// The first line counts the verdicts and the rows whose memory changed.
TEST(compare_golden, the_first_line_sums_up_the_comparison) {
    const auto first_line = [](const compare_results& r) {
        const std::string text = report::make_reporter<compare_results>(report::format::console)->render(r);
        return text.substr(0, text.find('\n'));
    };
    EXPECT_EQ(first_line(compare_rounds_run()), "2 faster, 1 slower, 1 no change; memory: 2 rows changed");
    EXPECT_EQ(first_line(compare_edges_run()),
              "0 faster, 1 slower, 2 no change, 1 failed; memory: 1 row changed");
    EXPECT_EQ(first_line(compare_unpaired_run()).substr(0, 40), "0 faster, 0 slower, 0 no change, 2 not j");
}

// At 80 columns a reviewer still sees every memory change: each fixture's table is approved as a
// terminal that narrow prints it, no line is wider, and the row of every benchmark whose
// allocations, bytes or peak differ between the sides names that figure, beside its name,
// change and verdict.
TEST(compare_golden, at_80_columns_every_memory_change_stays_in_view) {
    report::table::console_style narrow;
    narrow.width = 80;
    for (const auto& f : all_compare_fixtures()) {
        SCOPED_TRACE(f.name);
        const compare_results r = f.make();
        const std::string text = report::make_console_reporter<compare_results>(narrow)->render(r);
        expect_matches_approved("compare_" + f.name + ".console80.txt", text);
        const auto lines = lines_of(text);
        for (const std::string& line : lines) {
            EXPECT_LE(report::display_width(line), 80U) << line;
        }
        const auto header = std::find_if(lines.begin(), lines.end(),
                                         [](const std::string& l) { return l.rfind("benchmark ", 0) == 0; });
        if (r.rows.empty()) {
            continue;
        }
        ASSERT_NE(header, lines.end());
        ASSERT_GE(lines.end() - header, static_cast<std::ptrdiff_t>(2 + r.rows.size()));
        for (std::size_t i = 0; i < r.rows.size(); ++i) {
            const compare_row& row = r.rows[i];
            const std::string& line = header[static_cast<std::ptrdiff_t>(2 + i)];
            EXPECT_EQ(line.rfind(row.name.substr(0, 6), 0), 0U) << line;
            if (row.change) {
                const std::string change = r.mode == pairing::counted
                                               ? report::format_count_change(row.change->change_pct)
                                               : report::format_signed_percent(row.change->change_pct);
                EXPECT_NE(line.find(change), std::string::npos) << line;
            }
            const auto differs = [](const auto& a, const auto& b) { return a && b && *a != *b; };
            // The figure named in the one memory column, or its own column still shown.
            const auto shows = [&](const char* label, const char* column) {
                return header->find("  memory") != std::string::npos ? line.find(label)
                                                                     : header->find(column);
            };
            if (differs(row.base.allocs_per_iter, row.head.allocs_per_iter)) {
                EXPECT_NE(shows("allocs ", "allocs/iter"), std::string::npos) << line;
            }
            if (differs(row.base.bytes_per_iter, row.head.bytes_per_iter)) {
                EXPECT_NE(shows("bytes ", "bytes/iter"), std::string::npos) << line;
            }
            if (differs(row.base.peak_live_bytes, row.head.peak_live_bytes)) {
                EXPECT_NE(shows("peak ", "peak heap"), std::string::npos) << line;
            }
        }
    }
}

}  // namespace
}  // namespace tare::golden
