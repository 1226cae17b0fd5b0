// The readers of tare's JSON validate what they read (io/json_codec.hpp): a value of the wrong
// type, a negative count or a number out of range is an error naming the file and the key, and
// nothing a document holds makes them throw.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <variant>

#include "io/compare_mapping.hpp"
#include "io/exec_mapping.hpp"
#include "io/gbench_reader.hpp"
#include "io/run_mapping.hpp"

namespace tare {
namespace {

template <class T>
std::string with_position(const std::variant<T, io::read_error>& read) {
    if (const auto* err = std::get_if<io::read_error>(&read))
        return err->message;
    return "(no error)";
}

/// The message without the value's position after the file's name ("r.json:1:65: ..." is
/// "r.json: ..."): the tests below are about what is named; a_refused_value_is_named_by_line_and_column
/// is about where.
template <class T>
std::string error_of(const std::variant<T, io::read_error>& read) {
    std::string message = with_position(read);
    static const std::regex position(R"(^([^:]+\.json):\d+:\d+: )");
    return std::regex_replace(message, position, "$1: ");
}

std::string run_error(const std::string& benchmarks) {
    return error_of(
        io::parse_run_json(R"({"schema": "tare/1", "benchmarks": )" + benchmarks + "}", "r.json"));
}

TEST(io_json_codec, a_wrong_type_names_the_file_and_the_key) {
    EXPECT_EQ(
        run_error(R"([{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "d", "allocs_per_iter": {}}])"),
        "r.json: benchmarks[3].allocs_per_iter: expected a number");
    EXPECT_EQ(run_error(R"([{"name": "a", "time_ns": {"mean": "fast"}}])"),
              "r.json: benchmarks[0].time_ns.mean: expected a number");
    EXPECT_EQ(run_error(R"([{"name": "a", "samples_ns": [1, true]}])"),
              "r.json: benchmarks[0].samples_ns[1]: expected a number");
    EXPECT_EQ(run_error(R"([{"name": "a", "counters": {"ratio": [1]}}])"),
              "r.json: benchmarks[0].counters.ratio: expected a number");
    EXPECT_EQ(run_error(R"([{"name": "a", "warnings": {}}])"),
              "r.json: benchmarks[0].warnings: expected an array");
    EXPECT_EQ(run_error(R"([{"name": "a", "warnings": [{"kind": 1}]}])"),
              "r.json: benchmarks[0].warnings[0].kind: expected a string");
    EXPECT_EQ(run_error(R"([{"name": 7}])"), "r.json: benchmarks[0].name: expected a string");
    EXPECT_EQ(run_error(R"([{}])"), "r.json: benchmarks[0].name: missing");
    EXPECT_EQ(run_error("{}"), "r.json: benchmarks: expected an array");
    EXPECT_EQ(error_of(io::parse_run_json(R"({"schema": "tare/1"})", "r.json")),
              "r.json: benchmarks: missing");
    EXPECT_EQ(error_of(io::parse_run_json(
                  R"({"schema": "tare/1", "context": {"accounting": 1}, "benchmarks": []})", "r.json")),
              "r.json: context.accounting: expected a boolean");
    EXPECT_EQ(
        error_of(io::parse_run_json(R"({"schema": "tare/1", "context": [], "benchmarks": []})", "r.json")),
        "r.json: context: expected an object");
}

TEST(io_json_codec, counts_are_non_negative_integers_that_fit) {
    EXPECT_EQ(run_error(R"([{"name": "a", "iterations": -5}])"),
              "r.json: benchmarks[0].iterations: expected a non-negative integer");
    EXPECT_EQ(run_error(R"([{"name": "a", "iterations": 1.5}])"),
              "r.json: benchmarks[0].iterations: expected an integer");
    EXPECT_EQ(run_error(R"([{"name": "a", "iterations": 1e30}])"),
              "r.json: benchmarks[0].iterations: out of range");
    EXPECT_EQ(run_error(R"([{"name": "a", "outliers": {"high_mild": -1}}])"),
              "r.json: benchmarks[0].outliers.high_mild: expected a non-negative integer");
    EXPECT_EQ(run_error(R"([{"name": "a", "outliers": {"low_mild": 5000000000}}])"),
              "r.json: benchmarks[0].outliers.low_mild: out of range");
    EXPECT_EQ(run_error(R"([{"name": "a", "peak_live_bytes": 0.5}])"),
              "r.json: benchmarks[0].peak_live_bytes: expected an integer");
    // An integral float is a count all the same; null is "not measured".
    const auto read = io::parse_run_json(
        R"({"schema": "tare/1", "benchmarks": [{"name": "a", "iterations": 4096.0, "peak_live_bytes": null}]})",
        "r.json");
    ASSERT_TRUE(std::holds_alternative<run_results>(read)) << error_of(read);
    EXPECT_EQ(std::get<run_results>(read).benchmarks[0].iterations, 4096U);
    EXPECT_FALSE(std::get<run_results>(read).benchmarks[0].peak_live_bytes);
}

// A figure no measurement can have: printed and compared as if measured, it was garbage out.
TEST(io_json_codec, figures_out_of_their_range_are_named) {
    EXPECT_EQ(run_error(R"([{"name": "a", "allocs_per_iter": -3}])"),
              "r.json: benchmarks[0].allocs_per_iter: expected a non-negative number");
    EXPECT_EQ(run_error(R"([{"name": "a", "bytes_per_iter": -0.5}])"),
              "r.json: benchmarks[0].bytes_per_iter: expected a non-negative number");
    EXPECT_EQ(run_error(R"([{"name": "a", "page_faults_per_iter": -1}])"),
              "r.json: benchmarks[0].page_faults_per_iter: expected a non-negative number");
    EXPECT_EQ(run_error(R"([{"name": "a", "peak_live_bytes": -8}])"),
              "r.json: benchmarks[0].peak_live_bytes: expected a non-negative number");
    EXPECT_EQ(run_error(R"([{"name": "a", "samples_ns": [1, -2]}])"),
              "r.json: benchmarks[0].samples_ns[1]: expected a non-negative number");
    EXPECT_EQ(run_error(R"([{"name": "a", "samples_ns": [1, 2], "sample_iterations": [4, 0]}])"),
              "r.json: benchmarks[0].sample_iterations[1]: expected a positive integer (a sample runs at "
              "least one iteration)");
    EXPECT_EQ(run_error(R"([{"name": "a", "throughput": {"bytes_per_second": -1}}])"),
              "r.json: benchmarks[0].throughput.bytes_per_second: expected a non-negative number");
    EXPECT_EQ(run_error(R"([{"name": "a", "time_ns": {"median": -5}}])"),
              "r.json: benchmarks[0].time_ns.median: expected a non-negative number");
    EXPECT_EQ(run_error(R"([{"name": "a", "time_ns": {"min": 9, "max": 3}}])"),
              "r.json: benchmarks[0].time_ns.min: is above max (3.000000)");
    EXPECT_EQ(run_error(R"([{"name": "a", "time_ns": {"ci_low": 100, "ci_high": 1}}])"),
              "r.json: benchmarks[0].time_ns.ci_low: is above ci_high (1.000000)");
    // What measurements do have: a shrinking heap, an interval of the mean reaching below zero,
    // figures not measured (null).
    EXPECT_EQ(run_error(R"([{"name": "a", "retained_bytes_per_iter": -64,
                             "time_ns": {"mean": 2, "max": 4, "ci_low": -1, "ci_high": 5},
                             "allocs_per_iter": null}])"),
              "(no error)");

    const auto compare = [](const std::string& rows) {
        return error_of(
            io::parse_compare_json(R"({"schema": "tare-compare/1", "rows": )" + rows + "}", "c.json"));
    };
    EXPECT_EQ(compare(R"([{"name": "a", "head": {"allocs_per_iter": -1}}])"),
              "c.json: rows[0].head.allocs_per_iter: expected a non-negative number");
    EXPECT_EQ(compare(R"([{"name": "a", "base": {"round_ns": [3, -3]}}])"),
              "c.json: rows[0].base.round_ns[1]: expected a non-negative number");
    EXPECT_EQ(compare(R"([{"name": "a", "base": {"time_ns": {"mean": 2, "ci_low": 3, "ci_high": 1}}}])"),
              "c.json: rows[0].base.time_ns.ci_low: is above ci_high (1.000000)");
    EXPECT_EQ(compare(R"([{"name": "a", "change_pct": {"mean": 1, "ci_low": 2, "ci_high": -2}}])"),
              "c.json: rows[0].change_pct.ci_low: is above ci_high (-2.000000)");
    EXPECT_EQ(compare(R"([{"name": "a", "change_pct": {"mean": 1, "p_value": 1.5}}])"),
              "c.json: rows[0].change_pct.p_value: expected a number in [0, 1]");
    EXPECT_EQ(compare(R"([{"name": "a", "change_pct": {"mean": 1, "confidence": 95}}])"),
              "c.json: rows[0].change_pct.confidence: expected a number in (0, 1]");

    EXPECT_EQ(error_of(io::parse_exec_json(
                  R"({"schema": "tare-exec/1", "head": {"runs": [{"wall_seconds": -0.1}]}})", "e.json")),
              "e.json: head.runs[0].wall_seconds: expected a non-negative number");
}

TEST(io_json_codec, sample_columns_must_line_up) {
    EXPECT_EQ(run_error(R"([{"name": "a", "samples_ns": [1, 2], "sample_iterations": [10]}])"),
              "r.json: benchmarks[0].sample_iterations: expected 2 entries, one per samples_ns");
    EXPECT_EQ(run_error(R"([{"name": "a", "samples_ns": [1], "sample_iterations": [10],
                            "sample_iterations_before": [0, 1], "sample_live_bytes": [0, 1]}])"),
              "r.json: benchmarks[0].sample_iterations_before: expected 1 entry, one per sample_iterations");
    EXPECT_EQ(run_error(R"([{"name": "a", "samples_ns": [1], "sample_iterations": [10],
                            "sample_live_bytes": [64]}])"),
              "r.json: benchmarks[0].sample_live_bytes: given without sample_iterations_before");
}

// A site is its stack's first frame: a site without a stack, or a share beyond 1, is named.
TEST(io_json_codec, an_allocation_site_needs_its_stack) {
    EXPECT_EQ(run_error(R"([{"name": "a", "alloc_sites": [{"share": 0.5, "stack": []}]}])"),
              "r.json: benchmarks[0].alloc_sites[0].stack: expected 1 to 1024 frames");
    EXPECT_EQ(run_error(R"([{"name": "a", "alloc_sites": [{"share": 0.5}]}])"),
              "r.json: benchmarks[0].alloc_sites[0].stack: missing");
    EXPECT_EQ(run_error(R"([{"name": "a", "retained_sites": [{"share": 2, "stack": [{"function": "f"}]}]}])"),
              "r.json: benchmarks[0].retained_sites[0].share: expected a number in [0, 1]");
    const auto read = io::parse_run_json(
        R"({"schema": "tare/1", "benchmarks": [{"name": "a", "alloc_sites": [{"function": "ignored", "share": 1,
            "stack": [{"function": "f", "file": "a.cpp", "line": 3}]}]}]})",
        "r.json");
    ASSERT_TRUE(std::holds_alternative<run_results>(read)) << error_of(read);
    const auto& site = std::get<run_results>(read).benchmarks[0].alloc_sites.at(0);
    EXPECT_EQ(site.stack.front().function, "f");  // the site is its stack's, not a key of its own
    EXPECT_EQ(site.stack.front().line, 3U);
}

// A file's processes partition its samples, each with the median of its share: what a later
// comparison replicates on cannot disagree with the samples the file holds.
TEST(io_json_codec, processes_must_partition_the_samples) {
    EXPECT_EQ(
        run_error(R"([{"name": "a", "samples_ns": [1, 2, 3], "processes": [{"samples": 1, "median_ns": 1},
                            {"samples": 2, "median_ns": 2.5}]}])"),
        "(no error)");
    EXPECT_EQ(
        run_error(
            R"([{"name": "a", "samples_ns": [1, 2, 3], "processes": [{"samples": 1, "median_ns": 1}]}])"),
        "r.json: benchmarks[0].processes: the processes' samples must add up to samples_ns's 3");
    EXPECT_EQ(
        run_error(R"([{"name": "a", "samples_ns": [1, 2], "processes": [{"samples": 3, "median_ns": 2}]}])"),
        "r.json: benchmarks[0].processes[0].samples: the processes' samples must add up to samples_ns's 2");
    EXPECT_EQ(
        run_error(R"([{"name": "a", "samples_ns": [1, 2], "processes": [{"samples": 0, "median_ns": 2},
                            {"samples": 2, "median_ns": 1.5}]}])"),
        "r.json: benchmarks[0].processes[0].samples: the processes' samples must add up to samples_ns's 2");
    EXPECT_NE(
        run_error(R"([{"name": "a", "samples_ns": [1, 2], "processes": [{"samples": 2, "median_ns": 9}]}])")
            .find("r.json: benchmarks[0].processes[0].median_ns: is not the median of the process's samples"),
        std::string::npos);
    EXPECT_EQ(run_error(R"([{"name": "a", "samples_ns": [1], "processes": [{"median_ns": 1}]}])"),
              "r.json: benchmarks[0].processes[0].samples: missing");
    EXPECT_EQ(run_error(R"([{"name": "a", "samples_ns": [1], "processes": {}}])"),
              "r.json: benchmarks[0].processes: expected an array");
}

// A value the reader refuses is named by its line and column, where an editor shows it, as a
// malformed text is; so is a number beyond any double, and a count past 2^63 - 1 is refused.
TEST(io_json_codec, a_refused_value_is_named_by_line_and_column) {
    const std::string doc =
        "{\n  \"schema\": \"tare/1\",\n  \"benchmarks\": [\n    {\"name\": \"a\"},\n"
        "    {\"name\": \"b\", \"iterations\": 9223372036854775808}\n  ]\n}\n";
    EXPECT_EQ(with_position(io::parse_run_json(doc, "r.json")),
              "r.json:5:33: benchmarks[1].iterations: out of range");
    const std::string fits =
        R"({"schema": "tare/1", "benchmarks": [{"name": "a", "iterations": 9223372036854775807}]})";
    EXPECT_EQ(with_position(io::parse_run_json(fits, "r.json")), "(no error)");
    EXPECT_EQ(with_position(io::parse_run_json(
                  R"({"schema": "tare/1", "benchmarks": [{"name": "a", "iterations": 1e300}]})", "r.json")),
              "r.json:1:65: benchmarks[0].iterations: out of range");
    EXPECT_EQ(
        with_position(io::parse_run_json(
            "{\"schema\": \"tare/1\",\n \"benchmarks\": [{\"name\": \"1e400\", \"iterations\": 1e400}]}",
            "r.json")),
        "r.json:2:49: malformed JSON: number overflow parsing '1e400'");
    // A key with a dot of its own (a user counter's name) is found all the same.
    EXPECT_EQ(with_position(io::parse_run_json(
                  R"({"schema": "tare/1", "benchmarks": [{"name": "a", "counters": {"rows.read": "x"}}]})",
                  "r.json")),
              "r.json:1:77: benchmarks[0].counters.rows.read: expected a number");
}

TEST(io_json_codec, a_number_beyond_any_double_is_an_error_not_a_crash) {
    const std::string huge = R"({"schema": "tare/1", "benchmarks": [{"name": "a", "iterations": 1e400}]})";
    EXPECT_EQ(error_of(io::parse_run_json(huge, "r.json")),
              "r.json: malformed JSON: number overflow parsing '1e400'");
    EXPECT_EQ(error_of(io::parse_compare_json(R"({"schema": "tare-compare/1", "rows": [1e400]})", "c.json")),
              "c.json: malformed JSON: number overflow parsing '1e400'");
    EXPECT_EQ(error_of(io::parse_exec_json(R"({"schema": "tare-exec/1", "x": -1e400})", "e.json")),
              "e.json: malformed JSON: number overflow parsing '-1e400'");
    EXPECT_EQ(error_of(io::parse_gbench_results(R"({"context": {}, "benchmarks": [{"real_time": 1e400}]})",
                                                "g.json")),
              "g.json: malformed JSON: number overflow parsing '1e400'");
}

TEST(io_json_codec, malformed_json_and_schemas_keep_their_messages) {
    EXPECT_EQ(with_position(io::parse_compare_json("{\n  \"rows\": [,]\n}", "c.json"))
                  .rfind("c.json:2:12: malformed JSON", 0),
              0U);
    EXPECT_EQ(error_of(io::parse_compare_json(R"({"schema": "tare/1", "rows": []})", "c.json")),
              "c.json: unsupported schema \"tare/1\" (expected \"tare-compare/1\")");
    EXPECT_EQ(error_of(io::parse_exec_json("[]", "e.json")),
              "e.json: not a results file (a JSON array, not an object with a \"schema\" field)");
    EXPECT_EQ(error_of(io::parse_exec_json(R"({"rows": []})", "e.json")),
              "e.json: not a results file (no \"schema\" field)");
    EXPECT_EQ(error_of(io::parse_run_json(R"({"schema": 1})", "r.json")),
              "r.json: schema: expected a string");
}

TEST(io_json_codec, compare_and_exec_documents_are_validated_too) {
    const auto compare = [](const std::string& rows) {
        return error_of(
            io::parse_compare_json(R"({"schema": "tare-compare/1", "rows": )" + rows + "}", "c.json"));
    };
    EXPECT_EQ(compare(R"([{"name": "a", "verdict": "quicker"}])"),
              "c.json: rows[0].verdict: expected \"faster\", \"slower\", \"no_change\" or \"error\"");
    EXPECT_EQ(compare(R"([{"name": "a", "base": {"samples": -1}}])"),
              "c.json: rows[0].base.samples: expected a non-negative integer");
    EXPECT_EQ(compare(R"([{"name": "a", "head": {"time_ns": {"ci_low": "x"}}}])"),
              "c.json: rows[0].head.time_ns.ci_low: expected a number");
    EXPECT_EQ(compare(R"([{"name": "a", "change_pct": {"pairs": 2.5}}])"),
              "c.json: rows[0].change_pct.pairs: expected an integer");
    EXPECT_EQ(error_of(io::parse_compare_json(R"({"schema": "tare-compare/1", "context": {"mode": "paired"},
                                                  "rows": []})",
                                              "c.json")),
              "c.json: context.mode: expected \"rounds\", \"process_rounds\", \"unpaired\", \"processes\" or "
              "\"counted\"");
    EXPECT_EQ(error_of(io::parse_compare_json(R"({"schema": "tare-compare/1", "context": {"layout": 1},
                                                  "rows": []})",
                                              "c.json")),
              "c.json: context.layout: expected \"matched\", \"kernel\" or null");
    EXPECT_EQ(error_of(io::parse_compare_json(
                  R"({"schema": "tare-compare/1", "rows": [], "only_in_head": [3]})", "c.json")),
              "c.json: only_in_head[0]: expected a string");

    const auto exec = [](const std::string& head) {
        return error_of(io::parse_exec_json(R"({"schema": "tare-exec/1", "head": )" + head + "}", "e.json"));
    };
    EXPECT_EQ(exec(R"({"runs": [{}, {"wall_seconds": "slow"}]})"),
              "e.json: head.runs[1].wall_seconds: expected a number");
    EXPECT_EQ(exec(R"({"runs": [{"position": -2}]})"),
              "e.json: head.runs[0].position: expected a non-negative integer");
    EXPECT_EQ(exec(R"({"summary": {"max_rss_kib": 5}})"),
              "e.json: head.summary.max_rss_kib: expected an object");
    EXPECT_EQ(exec(R"({"argv": "true"})"), "e.json: head.argv: expected an array");
    EXPECT_EQ(error_of(io::parse_exec_json(R"({"schema": "tare-exec/1"})", "e.json")),
              "e.json: head: missing");
}

}  // namespace
}  // namespace tare
