// Golden tests of the reporters: every fixture through every reporter, compared with reviewed
// output in test/golden/approved/. Rerun with TARE_APPROVE=1 after reviewing a received file.
// The remaining tests check properties a golden file cannot state: JSON strictness and key
// order, column alignment, and the scrubber.

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "golden/fixtures.hpp"
#include "golden/golden.hpp"
#include "report/profile/profile_files.hpp"
#include "report/reporter.hpp"
#include "report/table/units.hpp"
#include "text_helpers.hpp"

namespace tare::golden {
namespace {

using nlohmann::json;

std::vector<std::string> keys_of(const nlohmann::ordered_json& object) {
    std::vector<std::string> keys;
    for (const auto& item : object.items())
        keys.push_back(item.key());
    return keys;
}

// The contract's keys, in its order (CONTRACT.md section 4); tare's additions may follow.
void expect_prefix(const std::vector<std::string>& keys, const std::vector<std::string>& contract) {
    ASSERT_GE(keys.size(), contract.size());
    EXPECT_EQ(
        std::vector<std::string>(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(contract.size())),
        contract);
}

TEST(report_golden, every_fixture_through_every_reporter) {
    const auto console = report::make_console_reporter<run_results>();
    const auto markdown = report::make_markdown_reporter<run_results>();
    const auto json_out = report::make_json_reporter<run_results>();
    for (const auto& fixture : all_fixtures()) {
        SCOPED_TRACE(fixture.name);
        const run_results results = fixture.make();
        expect_matches_approved(fixture.name + ".console.txt", console->render(results));
        expect_matches_approved(fixture.name + ".md", markdown->render(results));
        expect_matches_approved(fixture.name + ".json", json_out->render(results));
    }
}

// --profile's files (docs/profiles.md), each fixture's in one golden file: its files in order,
// each under a line naming it. A fixture with neither a profile nor allocation sites has none.
TEST(report_golden, profile_files_of_every_fixture) {
    std::size_t with_files = 0;
    for (const auto& fixture : all_fixtures()) {
        SCOPED_TRACE(fixture.name);
        const auto files = report::profile_files(fixture.make());
        if (files.empty())
            continue;
        ++with_files;
        std::string all;
        for (const auto& [name, content] : files)
            all += "==> " + name + " <==\n" + content;
        expect_matches_approved(fixture.name + ".profiles.txt", all);
        for (const auto& [name, content] : files) {
            if (name.ends_with(".speedscope.json")) {
                const json doc = json::parse(content);
                EXPECT_EQ(doc.at("$schema"), "https://www.speedscope.app/file-format-schema.json");
                for (const json& profile : doc.at("profiles"))
                    EXPECT_EQ(profile.at("samples").size(), profile.at("weights").size());
            }
        }
    }
    EXPECT_GE(with_files, 2U);  // the counted run's instruction profile, the sites run's allocations
}

TEST(report_golden, json_is_strict_for_every_fixture) {
    const auto reporter = report::make_json_reporter<run_results>();
    for (const auto& fixture : all_fixtures()) {
        SCOPED_TRACE(fixture.name);
        const std::string text = reporter->render(fixture.make());
        EXPECT_EQ(text.back(), '\n');
        EXPECT_EQ(text.find("NaN"), std::string::npos);
        EXPECT_EQ(text.find("Infinity"), std::string::npos);
        const json parsed = json::parse(text);  // throws, failing the test, on non-strict JSON
        EXPECT_EQ(parsed.at("schema"), "tare/1");
    }
}

TEST(report_golden, json_non_finite_figures_are_null) {
    const run_results run = non_finite_run();
    const json root = json::parse(report::make_json_reporter<run_results>()->render(run));
    EXPECT_TRUE(root.at("context").at("loop_overhead_ns").is_null());
    const json& broken = root.at("benchmarks").at(0);
    EXPECT_TRUE(broken.at("time_ns").at("max").is_null());
    EXPECT_TRUE(broken.at("time_ns").at("ci_high").is_null());
    EXPECT_TRUE(broken.at("time_ns").at("stddev").is_null());
    EXPECT_DOUBLE_EQ(broken.at("time_ns").at("mean").get<double>(), run.benchmarks[0].time.mean);
    EXPECT_TRUE(broken.at("samples_ns").at(2).is_null());
    EXPECT_TRUE(broken.at("retained_bytes_per_iter").is_null());
    EXPECT_TRUE(broken.at("counters").at("hit_rate").is_null());
    EXPECT_TRUE(broken.at("counters").at("overflow").is_null());
    EXPECT_DOUBLE_EQ(broken.at("counters").at("delta").get<double>(), -3.5);
    EXPECT_TRUE(broken.at("throughput").at("bytes_per_second").is_null());
    const json& zero = root.at("benchmarks").at(1);
    EXPECT_DOUBLE_EQ(zero.at("retained_bytes_per_iter").get<double>(), -12.5);
    EXPECT_TRUE(zero.at("throughput").at("items_per_second").is_null());
}

TEST(report_golden, json_keys_follow_the_contract_order) {
    const auto root =
        nlohmann::ordered_json::parse(report::make_json_reporter<run_results>()->render(findings_run()));
    expect_prefix(keys_of(root), {"schema", "context", "benchmarks"});
    expect_prefix(keys_of(root.at("context")),
                  {"tare_version", "executable", "host", "date", "cpu", "num_cpus"});
    for (const auto& b : root.at("benchmarks")) {
        expect_prefix(keys_of(b), {"name", "iterations", "time_ns", "samples_ns", "allocs_per_iter",
                                   "bytes_per_iter", "peak_live_bytes", "retained_bytes_per_iter",
                                   "page_faults_per_iter", "counters", "warnings", "error"});
        if (b.at("time_ns").is_object()) {
            expect_prefix(keys_of(b.at("time_ns")),
                          {"mean", "median", "stddev", "min", "max", "ci_low", "ci_high"});
        }
    }
}

// "comparisons" is an addition to tare/1 that only runs with comparison groups carry: a run
// without groups keeps exactly the shape it had before groups existed.
TEST(report_golden, json_comparisons_only_when_groups_ran) {
    EXPECT_FALSE(json::parse(report::make_json_reporter<run_results>()->render(typical_run()))
                     .contains("comparisons"));
    const auto root =
        nlohmann::ordered_json::parse(report::make_json_reporter<run_results>()->render(variants_run()));
    expect_prefix(keys_of(root), {"schema", "context", "benchmarks", "comparisons"});
    const auto& slower = root.at("comparisons").at(2);
    EXPECT_EQ(slower.at("verdict"), "slower");
    EXPECT_GT(slower.at("change_pct").at("ci_low").get<double>(), 0);
    EXPECT_EQ(slower.at("memory").at("allocs_per_iter").at("change").get<double>(), 0.0);
    const auto& failed = root.at("comparisons").at(3);
    EXPECT_TRUE(failed.at("change_pct").is_null());
    EXPECT_EQ(failed.at("verdict"), "no_change");
    EXPECT_TRUE(failed.at("memory").at("allocs_per_iter").at("member").is_null());
}

TEST(report_golden, json_error_row_keeps_name_and_error_and_nulls_figures) {
    const json root = json::parse(report::make_json_reporter<run_results>()->render(findings_run()));
    const json& failed = root.at("benchmarks").back();
    EXPECT_EQ(failed.at("name"), "decode/corrupt_footer");
    EXPECT_EQ(failed.at("error").at("kind"), "exception");
    EXPECT_NE(failed.at("error").at("message").get<std::string>().find('\n'), std::string::npos);
    EXPECT_TRUE(failed.at("iterations").is_null());
    EXPECT_TRUE(failed.at("time_ns").is_null());
    EXPECT_TRUE(failed.at("samples_ns").is_null());
    EXPECT_TRUE(failed.at("allocs_per_iter").is_null());
    EXPECT_TRUE(root.at("benchmarks").at(0).at("error").is_null());
}

TEST(report_golden, json_survives_invalid_utf8) {
    run_results run = typical_run();
    run.benchmarks[0].name = "bad\xff/name";
    const std::string text = report::make_json_reporter<run_results>()->render(run);
    EXPECT_EQ(json::parse(text).at("benchmarks").at(0).at("name"), "bad\xEF\xBF\xBD/name");
}

// Every table line has the same display width, and the "±" and "×" of multi-part cells sit in
// one column: alignment is by display width although "µs", "±" and "—" are multi-byte.
TEST(report_golden, console_table_is_aligned_by_display_width) {
    for (const auto& make : {typical_run, accounting_off_run, non_finite_run}) {
        const auto lines = lines_of(report::make_console_reporter<run_results>()->render(make()));
        const auto header = std::find_if(lines.begin(), lines.end(),
                                         [](const std::string& l) { return l.rfind("benchmark", 0) == 0; });
        ASSERT_NE(header, lines.end());
        const auto end = std::find(header, lines.end(), std::string());
        const auto column_of = [](const std::string& line, std::string_view mark) {
            return report::display_width(std::string_view(line).substr(0, line.find(mark)));
        };
        for (auto line = header; line != end; ++line) {
            EXPECT_EQ(report::display_width(*line), report::display_width(*header)) << *line;
            if (line - header >= 2) {
                EXPECT_EQ(column_of(*line, "±"), column_of(header[2], "±")) << *line;
                EXPECT_EQ(column_of(*line, "×"), column_of(header[2], "×")) << *line;
            }
        }
    }
}

TEST(report_golden, console_comparison_table_is_aligned_and_explained) {
    const auto lines = lines_of(report::make_console_reporter<run_results>()->render(variants_run()));
    const auto header = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
        return l.rfind("comparison ", 0) == 0 && l.find("baseline") != std::string::npos;
    });
    ASSERT_NE(header, lines.end());
    // The groups summed up in one line, directly above their table.
    ASSERT_NE(header, lines.begin());
    EXPECT_EQ(*(header - 1), "comparison groups: 1 faster, 1 slower, 1 no change, 1 not computed");
    const auto note =
        std::find_if(header, lines.end(), [](const std::string& l) { return l.rfind("change: ", 0) == 0; });
    ASSERT_NE(note, lines.end());
    EXPECT_EQ(note - header, 2 + 4);  // header, rule, a row per comparison
    for (auto line = header; line != note; ++line)
        EXPECT_EQ(report::display_width(*line), report::display_width(*header)) << *line;
    EXPECT_NE(note->find("Bonferroni: 95% for the run's 3 comparisons"), std::string::npos) << *note;
}

// At 80 columns the comparison groups' table still shows every member's memory change: the run
// is approved as a terminal that narrow prints it, no line is wider, and each member whose
// allocations, bytes or peak differ from its baseline's names that figure on its row.
TEST(report_golden, at_80_columns_every_member_memory_change_stays_in_view) {
    report::table::console_style narrow;
    narrow.width = 80;
    const run_results run = variants_run();
    const std::string text = report::make_console_reporter<run_results>(narrow)->render(run);
    expect_matches_approved("variants.console80.txt", text);
    const auto lines = lines_of(text);
    for (const std::string& line : lines)
        EXPECT_LE(report::display_width(line), 80U) << line;
    const auto header = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
        return l.rfind("comparison groups", 0) == 0;
    });
    ASSERT_NE(header, lines.end());
    ASSERT_GE(lines.end() - header, static_cast<std::ptrdiff_t>(3 + run.comparisons.size()));
    const auto row_of = [&](const std::string& name) {
        return std::find_if(run.benchmarks.begin(), run.benchmarks.end(),
                            [&](const benchmark_result& b) { return b.name == name; });
    };
    for (std::size_t i = 0; i < run.comparisons.size(); ++i) {
        const variant_comparison& c = run.comparisons[i];
        const std::string& line = header[static_cast<std::ptrdiff_t>(3 + i)];
        EXPECT_NE(line.find(c.member), std::string::npos) << line;
        EXPECT_NE(line.find(std::string(verdict_name(c.verdict))), std::string::npos) << line;
        const auto base = row_of(c.baseline);
        const auto member = row_of(c.member);
        if (base == run.benchmarks.end() || member == run.benchmarks.end() || base->error || member->error)
            continue;
        const auto differs = [](const auto& a, const auto& b) { return a && b && *a != *b; };
        // The figure named in the one memory column, or its own column still shown.
        const auto shows = [&](const char* label, const char* column) {
            return header[1].find("  memory") != std::string::npos ? line.find(label)
                                                                   : header[1].find(column);
        };
        if (differs(base->allocs_per_iter, member->allocs_per_iter)) {
            EXPECT_NE(shows("allocs ", "allocs/iter"), std::string::npos) << line;
        }
        if (differs(base->bytes_per_iter, member->bytes_per_iter)) {
            EXPECT_NE(shows("bytes ", "bytes/iter"), std::string::npos) << line;
        }
        if (differs(base->peak_live_bytes, member->peak_live_bytes)) {
            EXPECT_NE(shows("peak ", "peak heap"), std::string::npos) << line;
        }
    }
}

// A pull request's comment shows the table first: the warnings are folded under one line, the
// errors stay in view after them.
TEST(report_golden, markdown_folds_the_warnings_and_shows_the_errors) {
    const run_results run = findings_run();
    const std::string md = report::make_markdown_reporter<run_results>()->render(run);
    std::size_t warnings = 0;
    for (const auto& b : run.benchmarks)
        warnings += b.warnings.size();
    ASSERT_GT(warnings, 1U);
    const auto open =
        md.find("<details><summary>" + std::to_string(warnings) + " warnings</summary>\n\n- **warning**");
    ASSERT_NE(open, std::string::npos) << md;
    const auto close = md.find("\n</details>\n", open);
    ASSERT_NE(close, std::string::npos);
    const auto error = md.find("- **error**");
    ASSERT_NE(error, std::string::npos);
    EXPECT_GT(error, close) << "the error is outside the fold";
    EXPECT_EQ(md.find("- **warning**", close), std::string::npos) << "every warning inside the fold";
    // The console is not Markdown: no fold there.
    EXPECT_EQ(report::make_console_reporter<run_results>()->render(run).find("<details>"), std::string::npos);
}

// The times beside a variant's change are the figures the change is computed from (the
// blocks' medians), not the rows' means, which one slow sample can inflate.
TEST(report_golden, a_variant_groups_times_are_the_ones_its_change_uses) {
    run_results run;
    for (const char* name : {"outside", "inside"}) {
        benchmark_result b;
        b.name = name;
        b.samples_ns = {10000, 10000, 60000};
        b.time.mean = std::string(name) == "outside" ? 20200 : 13800;  // outlier-inflated
        run.benchmarks.push_back(b);
    }
    variant_comparison c;
    c.group = "g";
    c.name = "g";
    c.baseline = "outside";
    c.member = "inside";
    c.blocks = 4;
    c.samples_per_block = 3;
    c.iterations = 10;
    c.baseline_block_ns = {10000, 10000, 10000, 10000};
    c.member_block_ns = {11000, 11000, 11000, 11000};
    paired_change change;
    change.change_pct = 10.0;
    change.interval_pct = interval{9, 11};
    c.change = change;
    c.verdict = verdict::slower;
    run.comparisons.push_back(c);
    const std::string text = report::make_console_reporter<run_results>()->render(run);
    const auto row = text.find("g           outside");
    ASSERT_NE(row, std::string::npos) << text;
    const std::string line = text.substr(row, text.find('\n', row) - row);
    EXPECT_NE(line.find("10.0 µs"), std::string::npos) << line;
    EXPECT_NE(line.find("11.0 µs"), std::string::npos) << line;
    EXPECT_EQ(line.find("20.2 µs"), std::string::npos) << line;
}

TEST(report_golden, console_lists_findings_warnings_first_then_errors) {
    const auto lines = lines_of(report::make_console_reporter<run_results>()->render(findings_run()));
    ASSERT_GE(lines.size(), 5U);
    EXPECT_EQ(lines[lines.size() - 5].rfind("warning: parquet/round_trip/growing: live heap grows", 0), 0U);
    EXPECT_EQ(
        lines.back(),
        "error: decode/corrupt_footer: exception: parquet::ParquetException: bad magic number in footer "
        "while reading column chunk 3");
}

TEST(report_golden, scrub_replaces_volatile_context) {
    run_results run = typical_run();
    run.context.tare_version = "1.4.2-rc1";
    run.context.executable = "/home/someone/build/bench_x";
    run.context.host = "laptop.local";
    run.context.cpu = "Apple M3 Max";
    run.context.date = "2031-12-24T23:59:59.123+01:00";
    run.context.num_cpus = 1;
    for (const auto& reporter :
         {report::make_console_reporter<run_results>(), report::make_markdown_reporter<run_results>(),
          report::make_json_reporter<run_results>()}) {
        const std::string scrubbed = scrub(reporter->render(run));
        for (const char* volatile_text :
             {"1.4.2", "/home/someone", "laptop.local", "Apple M3", "2031", "18.2", "glibc 2.36"}) {
            EXPECT_EQ(scrubbed.find(volatile_text), std::string::npos) << volatile_text << "\n" << scrubbed;
        }
        EXPECT_EQ(scrub(scrubbed), scrubbed);  // idempotent
    }
    const std::string expected_context =
        "tare <version> · <executable> · <date>\n"
        "host <host> · cpu <cpu> · <n> cpus · clock <clock> · loop overhead <loop>\n"
        "accounting: on — <allocator>\n\nbenchmark";
    EXPECT_EQ(
        scrub(report::make_console_reporter<run_results>()->render(run)).substr(0, expected_context.size()),
        expected_context);
    const json scrubbed_json = json::parse(scrub(report::make_json_reporter<run_results>()->render(run)));
    EXPECT_EQ(scrubbed_json.at("context").at("host"), "<host>");
    EXPECT_EQ(scrubbed_json.at("context").at("num_cpus"), "<num_cpus>");
    EXPECT_EQ(scrubbed_json.at("benchmarks").at(0).at("name"), "crc32/64");
}

bool approving() {
    const char* value = std::getenv("TARE_APPROVE");
    return value != nullptr && std::string_view(value) == "1";
}

TEST(report_golden, harness_reports_a_missing_approved_file) {
    if (approving())
        GTEST_SKIP() << "approving: the harness writes, not compares";
    const std::string name = "harness_selftest_missing.txt";
    EXPECT_NONFATAL_FAILURE(expect_matches_approved(name, "anything\n"), "no approved output");
    const auto received = golden_dir() / "received" / name;
    EXPECT_TRUE(std::filesystem::exists(received));
    std::filesystem::remove(received);
}

TEST(report_golden, harness_points_at_the_first_difference) {
    if (approving())
        GTEST_SKIP() << "approving: the harness writes, not compares";
    const std::string approved = report::make_console_reporter<run_results>()->render(empty_run());
    std::string changed = approved;
    changed.replace(changed.find("no benchmarks"), 2, "NO");
    EXPECT_NONFATAL_FAILURE(expect_matches_approved("empty.console.txt", changed),
                            "first difference at line 5");
    std::filesystem::remove(golden_dir() / "received" / "empty.console.txt");
}

}  // namespace
}  // namespace tare::golden
