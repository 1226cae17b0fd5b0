// Documents read row by row: the tree never holds more than one row of the streamed array, and
// what the reader returns and says is what a whole tree would give.
#include "io/json_stream.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "alloc/accounting.hpp"
#include "io/compare_mapping.hpp"
#include "io/run_mapping.hpp"
#include "unit/many_rows.hpp"

namespace tare {
namespace {

using json = nlohmann::ordered_json;

struct streamed {
    json root;
    std::vector<std::string> rows;  // each row as it arrived, dumped
    int starts = 0;
};

streamed stream(const std::string& text, std::string_view key) {
    streamed out;
    io::codec::row_streaming_builder builder(out.root, key, [&](json* row, std::size_t index) {
        if (row == nullptr) {
            ++out.starts;
            out.rows.clear();
            return;
        }
        EXPECT_EQ(index, out.rows.size());
        out.rows.push_back(row->dump());
    });
    EXPECT_TRUE(json::sax_parse(text, &builder, json::input_format_t::json, true));
    return out;
}

using test::many_rows;

TEST(json_stream, the_elements_of_the_named_array_go_to_the_sink_and_the_tree_keeps_it_empty) {
    const auto got =
        stream(R"({"a": 1, "rows": [{"x": [1, {"y": 2}]}, 3, [4], null], "z": {"rows": [5]}})", "rows");
    EXPECT_EQ(got.starts, 1);
    EXPECT_EQ(got.rows, (std::vector<std::string>{R"({"x":[1,{"y":2}]})", "3", "[4]", "null"}));
    // Only the top level's key: the same name deeper down is an ordinary value.
    EXPECT_EQ(got.root.dump(), R"({"a":1,"rows":[],"z":{"rows":[5]}})");
}

// Keys after the streamed array (a file whose keys were sorted: jq -S, Python's sort_keys) add
// members to the root, which moves the array's place: their arrays and objects are theirs, not
// rows.
TEST(json_stream, keys_after_the_rows_keep_their_own_values) {
    const std::string text =
        R"({"benchmarks": [{"name": "a"}], "context": {"x": {"y": [1, {"z": 2}]}, "notes": [[3], {"name": "b"}]},)"
        R"( "more": [4, 5], "schema": "tare/1"})";
    const auto got = stream(text, "benchmarks");
    EXPECT_EQ(got.rows, (std::vector<std::string>{R"({"name":"a"})"}));
    json expected = json::parse(text);
    expected["benchmarks"] = json::array();
    EXPECT_EQ(got.root, expected);
    auto read = io::parse_run_json(text, "r.json");
    ASSERT_TRUE(std::holds_alternative<run_results>(read)) << std::get<io::read_error>(read).message;
    ASSERT_EQ(std::get<run_results>(read).benchmarks.size(), 1U);
}

TEST(json_stream, a_file_with_sorted_keys_reads_as_written) {
    const std::string text = io::write_run_json(many_rows(3));
    const std::string sorted = nlohmann::json::parse(text).dump(2);  // std::map: keys sorted
    auto read = io::parse_run_json(sorted, "sorted.json");
    ASSERT_TRUE(std::holds_alternative<run_results>(read)) << std::get<io::read_error>(read).message;
    EXPECT_EQ(io::write_run_json(std::get<run_results>(read)), text);
}

TEST(json_stream, anything_else_is_the_tree_nlohmann_builds) {
    for (const std::string text : {R"([{"rows": [1]}])", R"({"rows": {"a": [1]}})", R"({"rows": 7})", "3",
                                   R"({"a": {"b": [1, 2, {"c": null}]}, "a": true})"}) {
        const auto got = stream(text, "rows");
        EXPECT_EQ(got.root, json::parse(text)) << text;
        EXPECT_TRUE(got.rows.empty()) << text;
    }
    // No key: nothing streamed, even an empty-named array.
    EXPECT_EQ(stream(R"({"": [1]})", "").root, json::parse(R"({"": [1]})"));
}

TEST(json_stream, a_key_given_twice_starts_the_rows_again_as_the_last_one_counts) {
    const auto got = stream(R"({"rows": [1, 2], "b": 0, "rows": [3]})", "rows");
    EXPECT_EQ(got.starts, 2);
    EXPECT_EQ(got.rows, (std::vector<std::string>{"3"}));
    EXPECT_EQ(got.root.dump(), R"({"rows":[],"b":0})");
    EXPECT_EQ(io::codec::count_rows(R"({"rows": [1, 2], "b": 0, "rows": [3]})", "rows"), 1U);
}

TEST(json_stream, count_rows_counts_the_named_arrays_elements_only) {
    EXPECT_EQ(io::codec::count_rows(R"({"rows": [{"rows": [1, 2]}, [3, 4], 5], "other": [6]})", "rows"), 3U);
    EXPECT_EQ(io::codec::count_rows(R"({"rows": []})", "rows"), 0U);
    EXPECT_EQ(io::codec::count_rows(R"([[1, 2]])", "rows"), 0U);
    EXPECT_EQ(io::codec::count_rows(R"({"rows": [1, 2, )", "rows"), 2U);  // malformed: as far as it went
}

std::string stream_error_of(const std::string& text) {
    auto read = io::parse_run_json(text, "r.json");
    return std::holds_alternative<io::read_error>(read) ? std::get<io::read_error>(read).message : "";
}

// Rows are mapped while the parse goes on, yet a file's errors come in the order the whole
// tree gave them: malformed JSON first, then the schema, then the fields in mapping order.
TEST(json_stream, errors_come_in_the_order_a_whole_tree_gives_them) {
    const std::string bad_row = R"({"name": "a", "iterations": -1})";
    EXPECT_EQ(stream_error_of(R"({"schema": "tare/1", "benchmarks": [)" + bad_row + "], ]"),
              "r.json:1:71: malformed JSON: syntax error while parsing object key - unexpected ']'; "
              "expected string literal");
    EXPECT_EQ(stream_error_of(R"({"benchmarks": [)" + bad_row + R"(], "schema": "tare-exec/1"})"),
              "r.json: unsupported schema \"tare-exec/1\" (expected \"tare/1\")");
    EXPECT_EQ(stream_error_of(R"({"schema": "tare/1", "benchmarks": [)" + bad_row + R"(], "context": []})"),
              "r.json:1:82: context: expected an object");
    EXPECT_EQ(stream_error_of(R"({"schema": "tare/1", "benchmarks": [{"name": "a"}, )" + bad_row + ", " +
                              bad_row + "]}"),
              "r.json:1:80: benchmarks[1].iterations: expected a non-negative integer");
    EXPECT_EQ(
        stream_error_of(
            "{\"schema\": \"tare/1\", \"benchmarks\": [\n{\"name\": \"a\", \"allocs_per_iter\": 1e400}]}"),
        "r.json:2:34: malformed JSON: number overflow parsing '1e400'");
    // A key given twice: its last value is the one read, as nlohmann's tree keeps it.
    auto read = io::parse_run_json(
        R"({"schema": "tare/1", "benchmarks": [)" + bad_row + R"(], "benchmarks": [{"name": "b"}]})",
        "r.json");
    ASSERT_TRUE(std::holds_alternative<run_results>(read)) << stream_error_of(R"({"benchmarks": 1})");
    ASSERT_EQ(std::get<run_results>(read).benchmarks.size(), 1U);
    EXPECT_EQ(std::get<run_results>(read).benchmarks[0].name, "b");
}

// What reading and writing hold at their peak beyond what they return, measured by tare's own
// accounting: one row's tree and the text being made, where a tree of the whole document took
// some ten times the text.
TEST(json_stream, reading_and_writing_hold_no_tree_of_the_whole_document) {
    if (!alloc::available())
        GTEST_SKIP() << "built without the interposer (the sanitizer owns malloc)";
    const run_results run = many_rows(4000);
    alloc::region_begin();
    const std::string text = io::write_run_json(run);
    const alloc::counters written = alloc::snapshot();
    alloc::region_end();
    // The text grows by doubling: its old and new storage, at most three times its size.
    EXPECT_LT(written.peak, 3 * static_cast<std::int64_t>(text.capacity()) + (64 << 10));

    alloc::region_begin();
    auto read = io::parse_run_json(text, "r.json");
    const alloc::counters parsed = alloc::snapshot();
    alloc::region_end();
    ASSERT_TRUE(std::holds_alternative<run_results>(read));
    EXPECT_EQ(std::get<run_results>(read).benchmarks.size(), 4000U);
    EXPECT_LT(parsed.peak - parsed.live, static_cast<std::int64_t>(text.size()) / 20)
        << "peak " << parsed.peak << " B, returned " << parsed.live << " B, text " << text.size() << " B";
}

// A document handed on a row at a time (what `tare merge`, `compare --json` and `run --json`
// write to a file): the same bytes, and no more held at a time than a row and the rest's tree.
TEST(json_stream, a_document_is_handed_on_a_row_at_a_time) {
    const run_results run = many_rows(4000);
    const std::string text = io::write_run_json(run);
    std::string joined;
    std::size_t pieces = 0;
    io::write_run_json(run, [&](std::string_view piece) {
        joined += piece;
        ++pieces;
    });
    EXPECT_EQ(joined, text);
    EXPECT_GT(pieces, run.benchmarks.size());
    if (!alloc::available())
        GTEST_SKIP() << "built without the interposer (the sanitizer owns malloc)";
    std::size_t written = 0;
    alloc::region_begin();
    io::write_run_json(run, [&](std::string_view piece) { written += piece.size(); });
    const alloc::counters c = alloc::snapshot();
    alloc::region_end();
    EXPECT_EQ(written, text.size());
    EXPECT_LT(c.peak, static_cast<std::int64_t>(text.size()) / 20) << "peak " << c.peak << " B";
}

TEST(json_stream, a_comparison_is_written_as_one_tree_would_write_it) {
    compare_results c;
    c.rows.resize(2);
    c.rows[0].name = "a\n\"b\"";
    c.rows[1].name = "c";
    const std::string text = io::write_compare_json(c);
    EXPECT_EQ(text, json::parse(text).dump(2) + "\n");
    auto read = io::parse_compare_json(text, "c.json");
    ASSERT_TRUE(std::holds_alternative<compare_results>(read));
    EXPECT_EQ(std::get<compare_results>(read).rows[0].name, "a\n\"b\"");
    c.rows.clear();
    const std::string empty = io::write_compare_json(c);
    EXPECT_NE(empty.find("\n  \"rows\": [],\n"), std::string::npos);
    EXPECT_EQ(empty, json::parse(empty).dump(2) + "\n");
}

}  // namespace
}  // namespace tare
