// Golden tests of the exports (src/report/export): every fixture in every format, runs and
// comparisons, compared with
// reviewed output in test/golden/approved/ (TARE_APPROVE=1 re-approves), and the properties the
// services rely on: github-action-benchmark's entry shape, no figure invented for a missing one,
// error rows left out of the JSON formats and kept, with their error, in CSV. BMF is checked
// against Bencher's published schema by test/golden/bmf_schema_check.py.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "alloc/accounting.hpp"
#include "golden/compare_fixtures.hpp"
#include "golden/fixtures.hpp"
#include "golden/golden.hpp"
#include "report/export/exports.hpp"
#include "report/export/formats.hpp"
#include "unit/many_rows.hpp"

namespace tare::golden {
namespace {

using nlohmann::json;
using report::export_format;

struct named_format {
    export_format format;
    const char* suffix;
};
constexpr named_format formats[] = {{export_format::bmf, ".bmf.json"},
                                    {export_format::gab, ".gab.json"},
                                    {export_format::gab_bigger, ".gab-bigger.json"},
                                    {export_format::csv, ".csv"}};

TEST(export_golden, every_fixture_in_every_format) {
    for (const auto& fixture : all_fixtures()) {
        SCOPED_TRACE(fixture.name);
        const run_results results = fixture.make();
        for (const auto& f : formats) {
            expect_matches_approved(fixture.name + f.suffix,
                                    report::make_export_reporter(f.format)->render(results));
        }
    }
}

// The action's documented entry: {"name": string, "unit": string, "value": number, "range":
// string (optional), "extra": string (optional)}, nothing else.
TEST(export_golden, action_entries_have_the_documented_shape) {
    for (const auto& fixture : all_fixtures()) {
        SCOPED_TRACE(fixture.name);
        for (auto f : {export_format::gab, export_format::gab_bigger}) {
            const json doc = json::parse(report::make_export_reporter(f)->render(fixture.make()));
            ASSERT_TRUE(doc.is_array());
            for (const auto& e : doc) {
                ASSERT_TRUE(e.is_object());
                EXPECT_TRUE(e.at("name").is_string());
                EXPECT_TRUE(e.at("unit").is_string());
                EXPECT_TRUE(e.at("value").is_number());
                for (const auto& [key, value] : e.items()) {
                    EXPECT_TRUE(key == "name" || key == "unit" || key == "value" || key == "range" ||
                                key == "extra")
                        << key;
                    if (key == "range" || key == "extra") {
                        EXPECT_TRUE(value.is_string()) << key;
                    }
                }
            }
        }
    }
}

TEST(export_golden, a_figure_not_measured_is_left_out_never_zero) {
    const json doc =
        json::parse(report::make_export_reporter(export_format::bmf)->render(accounting_off_run()));
    ASSERT_FALSE(doc.empty());
    for (const auto& [name, measures] : doc.items()) {
        EXPECT_TRUE(measures.contains("latency")) << name;
        EXPECT_FALSE(measures.contains("allocs-per-iter")) << name;  // accounting was off
        EXPECT_FALSE(measures.contains("bytes-per-iter")) << name;
    }
    // Non-finite figures: gone from the export, which stays strict JSON.
    const std::string text = report::make_export_reporter(export_format::bmf)->render(non_finite_run());
    EXPECT_EQ(text.find("NaN"), std::string::npos);
    EXPECT_EQ(text.find("Infinity"), std::string::npos);
    EXPECT_TRUE(json::accept(text));
}

// BMF's keys are names: benchmarks in the order first met, a name met again one object whose
// later figures replace the earlier, and the text laid out as the whole object's dump(2) is.
TEST(export_golden, bmf_keeps_first_order_and_later_figures_of_a_name_met_twice) {
    run_results run = findings_run();
    run.benchmarks.resize(2);
    run.benchmarks[0].error.reset();
    run.benchmarks[1].error.reset();
    benchmark_result again = run.benchmarks[0];
    again.time.mean *= 3;
    run.benchmarks.push_back(again);
    const std::string text = report::make_export_reporter(export_format::bmf)->render(run);
    const nlohmann::ordered_json bmf = nlohmann::ordered_json::parse(text);
    ASSERT_EQ(bmf.size(), 2U) << text;
    EXPECT_EQ(bmf.begin().key(), run.benchmarks[0].name);
    run_results later;
    later.benchmarks = {again};
    const json alone = json::parse(report::make_export_reporter(export_format::bmf)->render(later));
    EXPECT_EQ(json(bmf[again.name]), alone[again.name]);
    EXPECT_EQ(text, bmf.dump(2) + "\n");
    run_results none;
    EXPECT_EQ(report::make_export_reporter(export_format::bmf)->render(none), "{}\n");
}

TEST(export_golden, error_rows_are_left_out_of_json_and_kept_in_csv) {
    const run_results run = findings_run();
    std::string failed;
    for (const auto& b : run.benchmarks) {
        if (b.error)
            failed = b.name;
    }
    ASSERT_FALSE(failed.empty());
    const json bmf = json::parse(report::make_export_reporter(export_format::bmf)->render(run));
    EXPECT_FALSE(bmf.contains(failed));
    EXPECT_EQ(report::rows_left_out(run, export_format::bmf), std::vector<std::string>{failed});
    EXPECT_TRUE(report::rows_left_out(run, export_format::csv).empty());
    const std::string csv = report::make_export_reporter(export_format::csv)->render(run);
    EXPECT_NE(csv.find(failed), std::string::npos);
    EXPECT_NE(csv.find("exception: "), std::string::npos) << csv;  // kind: message, quoted
    // One header and one record per benchmark; the multi-line message stays inside its quotes.
    std::size_t records = 0;
    bool quoted = false;
    for (std::size_t i = 0; i < csv.size(); ++i) {
        if (csv[i] == '"')
            quoted = !quoted;
        if (!quoted && csv.compare(i, 2, "\r\n") == 0)
            ++records;
    }
    EXPECT_EQ(records, run.benchmarks.size() + 1);
}

// Names a spreadsheet would evaluate are written as text (OWASP's CSV injection advice).
TEST(export_golden, csv_cells_that_look_like_formulas_are_neutralised) {
    run_results run = findings_run();
    const char* hostile[] = {"=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tcmd", "\r=1"};
    ASSERT_GE(run.benchmarks.size(), std::size(hostile));
    for (std::size_t i = 0; i < std::size(hostile); ++i)
        run.benchmarks[i].name = hostile[i];
    const std::string csv = report::make_export_reporter(export_format::csv)->render(run);
    for (const char* name : hostile) {
        std::string quoted = name;
        for (std::size_t at = quoted.find('"'); at != std::string::npos; at = quoted.find('"', at + 2))
            quoted.insert(at, 1, '"');
        EXPECT_NE(csv.find("\r\n\"'" + quoted + "\","), std::string::npos) << name << "\n" << csv;
    }
    EXPECT_EQ(report::exports::csv_field("plain/name"), "plain/name");
}

TEST(export_golden, formats_are_named_as_the_flags_write_them) {
    EXPECT_EQ(report::parse_export_format("bmf"), export_format::bmf);
    EXPECT_EQ(report::parse_export_format("gab"), export_format::gab);
    EXPECT_EQ(report::parse_export_format("gab-bigger"), export_format::gab_bigger);
    EXPECT_EQ(report::parse_export_format("csv"), export_format::csv);
    EXPECT_FALSE(report::parse_export_format("BMF").has_value());
    EXPECT_FALSE(report::parse_export_format("").has_value());
}

TEST(export_golden, every_comparison_in_every_format) {
    for (const auto& fixture : all_compare_fixtures()) {
        SCOPED_TRACE(fixture.name);
        const compare_results results = fixture.make();
        for (const auto& f : formats) {
            expect_matches_approved(
                "compare_" + fixture.name + f.suffix,
                report::make_compare_export_reporter(f.format, report::compare_side::head)->render(results));
        }
    }
}

// Of a comparison, BMF carries the side asked for and the change with its interval; the action's
// formats the side alone; a row whose side failed is left out and named.
TEST(export_golden, a_comparison_exports_one_side_and_the_change) {
    const compare_results results = compare_rounds_run();
    const json head =
        json::parse(report::make_compare_export_reporter(export_format::bmf, report::compare_side::head)
                        ->render(results));
    const json base =
        json::parse(report::make_compare_export_reporter(export_format::bmf, report::compare_side::base)
                        ->render(results));
    ASSERT_EQ(head.size(), results.rows.size());
    for (const compare_row& row : results.rows) {
        SCOPED_TRACE(row.name);
        EXPECT_EQ(head.at(row.name).at("latency").at("value").get<double>(), row.head.time_ns);
        EXPECT_EQ(base.at(row.name).at("latency").at("value").get<double>(), row.base.time_ns);
        ASSERT_TRUE(row.change && row.change->interval_pct);
        const auto& change = head.at(row.name).at("latency-change");
        EXPECT_EQ(change.at("value").get<double>(), row.change->change_pct);
        EXPECT_EQ(change.at("lower_value").get<double>(), row.change->interval_pct->low);
        EXPECT_EQ(change.at("upper_value").get<double>(), row.change->interval_pct->high);
        if (row.head.allocs_per_iter) {
            EXPECT_EQ(head.at(row.name).at("allocs-per-iter").at("value").get<double>(),
                      *row.head.allocs_per_iter);
        }
    }
    const std::string gab =
        report::make_compare_export_reporter(export_format::gab, report::compare_side::head)->render(results);
    EXPECT_EQ(gab.find("latency-change"), std::string::npos);

    const compare_results edges = compare_edges_run();
    std::vector<std::string> failed;
    for (const compare_row& row : edges.rows) {
        if (row.head.error)
            failed.push_back(row.name);
    }
    ASSERT_FALSE(failed.empty());
    EXPECT_EQ(report::rows_left_out(edges, export_format::bmf, report::compare_side::head), failed);
    EXPECT_TRUE(report::rows_left_out(edges, export_format::csv, report::compare_side::head).empty());
    const json edges_bmf = json::parse(
        report::make_compare_export_reporter(export_format::bmf, report::compare_side::head)->render(edges));
    for (const auto& name : failed) {
        EXPECT_FALSE(edges_bmf.contains(name)) << name;
    }
    const std::string csv =
        report::make_compare_export_reporter(export_format::csv, report::compare_side::head)->render(edges);
    EXPECT_NE(csv.find("head: "), std::string::npos) << csv;
}

// A CSV export makes each row's measures as it writes the row: its peak is the text it writes
// (its storage, and the old storage while it grows), not every row's measures at once, which
// were most of the export's peak on a file of a million rows. Measured by tare's accounting.
TEST(export_golden, a_csv_export_holds_no_rows_measures_beside_its_text) {
    if (!alloc::available())
        GTEST_SKIP() << "built without the interposer (the sanitizer owns malloc)";
    const run_results run = test::many_rows(10000);
    const auto csv = report::make_export_reporter(export_format::csv);
    alloc::region_begin();
    const std::string out = csv->render(run);
    const alloc::counters c = alloc::snapshot();
    alloc::region_end();
    EXPECT_LT(c.peak, static_cast<std::int64_t>(3 * out.size() + (64 << 10)))
        << "peak " << c.peak << " B for " << out.size() << " B of text";
}

}  // namespace
}  // namespace tare::golden
