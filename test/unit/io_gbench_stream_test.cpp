// Google Benchmark files read row by row: the keys in either order, a key given twice, and no tree
// of the whole document held while reading.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <variant>

#include "alloc/accounting.hpp"
#include "io/gbench_reader.hpp"
#include "io/run_mapping.hpp"

namespace tare {
namespace {

// A file as Google Benchmark 1.7.1 writes it: `context`, then `benchmarks`. Every fourth
// benchmark runs three repetitions and has their mean, median and stddev, every fifth a user
// counter; one counter is NaN, which GB writes bare.
std::string gb_file(std::size_t n) {
    std::string out = R"({
  "context": {
    "date": "2026-12-05T10:00:00+00:00",
    "host_name": "h",
    "executable": "./suite",
    "num_cpus": 2,
    "mhz_per_cpu": 2300,
    "library_build_type": "release"
  },
  "benchmarks": [)";
    const auto row = [&](std::size_t i, const std::string& run_type, const std::string& tail) {
        const std::string name = "BM_family_" + std::to_string(i / 4) + "/" + std::to_string(1 << (i % 4));
        out += out.back() == '[' ? "\n    {" : ",\n    {";
        out +=
            "\n      \"name\": \"" + name + tail + "\",\n      \"family_index\": " + std::to_string(i / 4) +
            ",\n      \"per_family_instance_index\": " + std::to_string(i % 4) + ",\n      \"run_name\": \"" +
            name + "\",\n      \"run_type\": \"" + run_type + "\",\n      \"repetitions\": 1,\n";
        out += "      \"threads\": 1,\n      \"iterations\": " + std::to_string(1000 + i) +
               ",\n      \"real_time\": " + std::to_string(100.0 + static_cast<double>(i % 17)) +
               ",\n      \"cpu_time\": " + std::to_string(99.5 + static_cast<double>(i % 13)) +
               ",\n      \"time_unit\": \"ns\"";
        if (i % 5 == 0)
            out += ",\n      \"items\": " + std::to_string(i % 7);
        if (i == 7)
            out += ",\n      \"ratio\": NaN";
        out += "\n    }";
    };
    for (std::size_t i = 0; i < n; ++i) {
        const int repetitions = i % 4 == 0 ? 3 : 1;
        for (int r = 0; r < repetitions; ++r)
            row(i, "iteration", "");
        if (repetitions > 1) {
            for (const char* aggregate : {"mean", "median", "stddev"})
                row(i, "aggregate", std::string("_") + aggregate);
        }
    }
    out += "\n  ]\n}\n";
    return out;
}

std::string read_as_tare(const std::string& text) {
    auto read = io::parse_gbench_results(text, "gb.json");
    if (auto* e = std::get_if<io::read_error>(&read))
        return "error: " + e->message;
    return io::write_run_json(std::get<run_results>(read));
}

std::string read_any_as_tare(const std::string& text) {
    auto read = io::parse_any_results(text, "gb.json");
    if (auto* e = std::get_if<io::read_error>(&read))
        return "error: " + e->message;
    return io::write_run_json(std::get<run_results>(read));
}

TEST(gbench_reader_stream, sorted_keys_put_benchmarks_first_and_read_the_same) {
    const std::string text = gb_file(40);
    // As `jq -S` writes it: every object's keys sorted, so `benchmarks` comes before `context`
    // (the NaN written as a string: no JSON tool writes it bare).
    std::string nan_quoted = io::quote_non_finite(text);
    const std::string sorted = nlohmann::json::parse(nan_quoted).dump(2);
    ASSERT_LT(sorted.find("\"benchmarks\""), sorted.find("\"context\""));
    const std::string in_order = read_as_tare(nan_quoted);
    ASSERT_EQ(in_order.rfind("error", 0), std::string::npos) << in_order;
    EXPECT_EQ(read_as_tare(sorted), in_order);
    EXPECT_EQ(read_any_as_tare(sorted), in_order);
    EXPECT_EQ(read_any_as_tare(text), read_as_tare(text));
}

TEST(gbench_reader_stream, a_key_given_twice_reads_as_its_last_value) {
    const std::string one = R"({"name": "a", "iterations": 2, "real_time": 5, "time_unit": "ns"})";
    const std::string two = R"({"name": "b", "iterations": 3, "real_time": 7, "time_unit": "ns"})";
    const std::string last = read_as_tare(R"({"context": {}, "benchmarks": [)" + two + "]}");
    ASSERT_EQ(last.rfind("error", 0), std::string::npos) << last;
    EXPECT_EQ(read_as_tare(R"({"context": {}, "benchmarks": [)" + one + R"(], "benchmarks": [)" + two + "]}"),
              last);
    EXPECT_EQ(read_as_tare(R"({"benchmarks": [)" + one + R"(], "context": {}, "benchmarks": [)" + two + "]}"),
              last);
    // The array replaced by an object: its values are the rows, as a tree would iterate them.
    EXPECT_EQ(
        read_as_tare(R"({"context": {}, "benchmarks": [)" + one + R"(], "benchmarks": {"x": )" + two + "}}"),
        last);
}

TEST(gbench_reader_stream, reading_holds_no_tree_of_the_whole_document) {
    if (!alloc::available())
        GTEST_SKIP() << "built without the interposer (the sanitizer owns malloc)";
    const std::string text = gb_file(4000);
    alloc::region_begin();
    auto read = io::parse_gbench_results(text, "gb.json");
    const alloc::counters parsed = alloc::snapshot();
    alloc::region_end();
    ASSERT_TRUE(std::holds_alternative<run_results>(read)) << std::get<io::read_error>(read).message;
    EXPECT_EQ(std::get<run_results>(read).benchmarks.size(), 4000U);
    // Beyond what it returns, the reader holds the rows in short (io/gbench_rows.hpp) and their
    // groups: about a third of the text here. A tree of the whole document took 4.4 times it.
    EXPECT_LT(parsed.peak - parsed.live, static_cast<std::int64_t>(text.size()) / 2)
        << "peak " << parsed.peak << " B, returned " << parsed.live << " B, text " << text.size() << " B";
}

// A file of rows that are not objects: they fall into one group, and the reader names only that
// group's first problem, so it keeps that one and no message for each of the others (a file of
// a million such rows held a million messages). Measured by tare's accounting.
TEST(gbench_reader_stream, rows_that_are_not_objects_keep_one_message_between_them) {
    if (!alloc::available())
        GTEST_SKIP() << "built without the interposer (the sanitizer owns malloc)";
    constexpr std::size_t rows = 20000;
    std::string text = R"({"context": {"date": "2026-12-05T10:00:00+00:00"}, "benchmarks": [1)";
    for (std::size_t i = 1; i < rows; ++i)
        text += ", 1";
    text += "]}";
    alloc::region_begin();
    auto read = io::parse_gbench_results(text, "gb.json");
    const alloc::counters c = alloc::snapshot();
    alloc::region_end();
    ASSERT_TRUE(std::holds_alternative<io::read_error>(read));
    EXPECT_NE(std::get<io::read_error>(read).message.find("gb.json"), std::string::npos)
        << std::get<io::read_error>(read).message;
    // A row in short and its group's index, about 60 bytes; a message each was some 200 more.
    EXPECT_LT(c.peak, static_cast<std::int64_t>(rows * 100))
        << c.peak / static_cast<std::int64_t>(rows) << " B a row at the peak";
}

}  // namespace
}  // namespace tare
