// Results files read back: what the JSON reporter writes, the reader restores.
#include "io/results_reader.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "alloc/accounting.hpp"
#include "report/reporter.hpp"

namespace tare {
namespace {

run_results sample_run() {
    run_results r;
    r.context.tare_version = "0.1.0";
    r.context.host = "h";
    r.context.num_cpus = 2;
    r.context.accounting = true;
    benchmark_result b;
    b.name = "round_trip/1000";
    b.iterations = 400;
    b.samples_ns = {10.5, 11.0, 12.25};
    b.time = {11.25, 11.0, 0.9, 10.5, 12.25, interval{10.6, 11.9}};
    b.allocs_per_iter = 1;
    b.bytes_per_iter = 4096;
    b.peak_live_bytes = 8192;
    b.retained_bytes_per_iter = 0;
    b.page_faults_per_iter = 0.25;
    b.bytes_per_second = 1e9;
    b.counters = {{"ratio", 0.5}};
    b.warnings = {{"noisy", "spread"}};
    r.benchmarks.push_back(b);
    benchmark_result e;
    e.name = "broken";
    e.error = error_info{"exception", "boom"};
    r.benchmarks.push_back(e);
    return r;
}

TEST(results_reader, round_trips_what_the_json_reporter_writes) {
    std::string text = report::make_json_reporter<run_results>()->render(sample_run());
    auto read = io::parse_results(text, "x.json");
    ASSERT_TRUE(std::holds_alternative<run_results>(read)) << std::get<io::read_error>(read).message;
    const run_results& r = std::get<run_results>(read);
    EXPECT_EQ(r.context.host, "h");
    EXPECT_TRUE(r.context.accounting);
    ASSERT_EQ(r.benchmarks.size(), 2U);
    const benchmark_result& b = r.benchmarks[0];
    EXPECT_EQ(b.name, "round_trip/1000");
    EXPECT_EQ(b.iterations, 400U);
    EXPECT_EQ(b.samples_ns, (std::vector<double>{10.5, 11.0, 12.25}));
    ASSERT_TRUE(b.time.ci);
    EXPECT_DOUBLE_EQ(b.time.ci->high, 11.9);
    EXPECT_EQ(*b.allocs_per_iter, 1.0);
    EXPECT_EQ(*b.peak_live_bytes, 8192);
    EXPECT_EQ(*b.bytes_per_second, 1e9);
    ASSERT_EQ(b.counters.size(), 1U);
    EXPECT_EQ(b.counters[0].first, "ratio");
    ASSERT_EQ(b.warnings.size(), 1U);
    EXPECT_EQ(b.warnings[0].kind, "noisy");
    ASSERT_TRUE(r.benchmarks[1].error);
    EXPECT_EQ(r.benchmarks[1].error->message, "boom");
    EXPECT_FALSE(r.benchmarks[1].allocs_per_iter);
}

// A message about a file of tare's own keeps what is wrong and drops the path, which names a
// private temporary file the user never made.
// A profile read from a file is bounded: a stack of at most 1,024 frames (the reports walk a
// stack by recursion) and figures of at most 10^15 (they are summed): past either, the file is
// refused by path, never drawn as null or infinite.
TEST(results_reader, a_profile_past_its_bounds_is_refused_by_path) {
    const auto with_stack = [](const std::string& frames, const std::string& self) {
        return "{\"schema\": \"tare/1\", \"benchmarks\": [{\"name\": \"b\", \"instruction_profile\": "
               "{\"frames\": [\"body\"], \"stacks\": [{\"frames\": [" +
               frames + "], \"self\": " + self + "}], \"functions\": []}}]}";
    };
    const auto message = [](const std::string& text) {
        auto read = io::parse_results(text, "p.json");
        return std::holds_alternative<io::read_error>(read) ? std::get<io::read_error>(read).message : "read";
    };
    EXPECT_EQ(message(with_stack("0", "12.5")), "read");
    std::string deep = "0";
    for (int i = 0; i < 1024; ++i)
        deep += ",0";
    EXPECT_NE(message(with_stack(deep, "1"))
                  .find("benchmarks[0].instruction_profile.stacks[0].frames: expected 1 to "
                        "1024 frames"),
              std::string::npos)
        << message(with_stack(deep, "1"));
    EXPECT_NE(message(with_stack("0", "1.5e308")).find("stacks[0].self: expected a number from 0 to 1e15"),
              std::string::npos)
        << message(with_stack("0", "1.5e308"));
    EXPECT_NE(message(with_stack("1", "1")).find("stacks[0].frames[0]: expected an index into the 1 frames"),
              std::string::npos)
        << message(with_stack("1", "1"));
}

TEST(results_reader, a_message_without_its_origin_keeps_what_is_wrong) {
    const std::string tmp = "/tmp/tare-AbC123/run-000001.json";
    EXPECT_EQ(io::read_error{tmp + ":3:4: malformed JSON: x"}.without_origin(tmp), "3:4: malformed JSON: x");
    EXPECT_EQ(io::read_error{tmp + ": no such file"}.without_origin(tmp), "no such file");
    EXPECT_EQ(io::read_error{"other.json: no such file"}.without_origin(tmp), "other.json: no such file");
    EXPECT_EQ(io::read_error{tmp + "x: no such file"}.without_origin(tmp), tmp + "x: no such file");
}

// The schema is read from the document's head: what follows it is left to the reader, so a
// command does not parse a file of hundreds of megabytes once more just to learn its kind.
TEST(results_reader, the_schema_is_read_from_the_head_of_the_document) {
    EXPECT_EQ(io::document_schema(R"({"schema": "tare-compare/1", "rows": [)"), "tare-compare/1");
    EXPECT_EQ(io::document_schema(R"({"context": {"schema": "x"}, "schema": "tare/1"})"), "tare/1");
    EXPECT_EQ(io::document_schema(R"({"context": {}, "benchmarks": []})"), std::nullopt);
    EXPECT_EQ(io::document_schema(R"({"schema": 1, "x": "tare/1"})"), std::nullopt);
    EXPECT_EQ(io::document_schema(R"({"schema": {"a": "tare/1"}})"), std::nullopt);
    EXPECT_EQ(io::document_schema(R"([{"schema": "tare/1"}])"), std::nullopt);
    EXPECT_EQ(io::document_schema(R"({"a": [1, {"schema": "no"}], "schema": "tare/1"})"), "tare/1");
    EXPECT_EQ(io::document_schema("{\"sch"), std::nullopt);
    EXPECT_EQ(io::document_schema(""), std::nullopt);
}

TEST(results_reader, malformed_json_reports_line_and_column) {
    auto read = io::parse_results("{\n  \"schema\": \"tare/1\",\n  \"benchmarks\": [,]\n}", "bad.json");
    ASSERT_TRUE(std::holds_alternative<io::read_error>(read));
    EXPECT_EQ(std::get<io::read_error>(read).message.rfind("bad.json:3:18: malformed JSON", 0), 0U)
        << std::get<io::read_error>(read).message;
}

TEST(results_reader, wrong_documents_are_named) {
    auto no_schema = io::parse_results("[]", "a.json");
    ASSERT_TRUE(std::holds_alternative<io::read_error>(no_schema));
    EXPECT_NE(std::get<io::read_error>(no_schema).message.find("a.json"), std::string::npos);
    auto missing = io::read_results_file("/no/such/file.json");
    ASSERT_TRUE(std::holds_alternative<io::read_error>(missing));
    EXPECT_NE(std::get<io::read_error>(missing).message.find("/no/such/file.json"), std::string::npos);
}

// A file of any size was read whole, and a device without end (/dev/zero) until memory ran out.
TEST(results_reader, a_file_past_the_size_limit_is_refused_not_read_whole) {
    const auto error_of = [](const std::string& path, std::size_t limit) {
        auto read = io::read_text_file(path, limit);
        return std::holds_alternative<io::read_error>(read) ? std::get<io::read_error>(read).message : "";
    };
    EXPECT_EQ(error_of("/dev/zero", std::size_t{4} << 20),
              "/dev/zero: more than 4 MiB, larger than any results file tare reads (a tare/1 file holds well "
              "under a megabyte a benchmark)");
    EXPECT_EQ(error_of("/dev/null", std::size_t{4} << 20), "");   // empty: the reader's own message follows
    EXPECT_EQ(io::max_results_file_bytes, std::size_t{2} << 30);  // a million rows' comparison fits
}

// A regular file's size is known before it is read: one past the limit is refused at once, and
// one within it is read into storage of its size. Before, a 3 GB file was read up to the limit
// (grown by doubling, twice that) before it was refused. Measured by tare's own accounting on
// sparse files, which take no disk.
TEST(results_reader, a_regular_file_is_refused_by_its_size_and_read_into_its_size) {
    const std::string path = ::testing::TempDir() + "tare_reader_sparse_" + std::to_string(::getpid());
    const auto sparse = [&](off_t size) {
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ASSERT_GE(fd, 0);
        ASSERT_EQ(::ftruncate(fd, size), 0);
        ::close(fd);
    };
    sparse((off_t{3} << 30) + 1);
    auto huge = io::read_text_file(path);
    ASSERT_TRUE(std::holds_alternative<io::read_error>(huge));
    EXPECT_EQ(std::get<io::read_error>(huge).message,
              path +
                  ": more than 2 GiB, larger than any results file tare reads (a tare/1 file holds well "
                  "under a megabyte a benchmark)");
    if (alloc::available()) {
        sparse((off_t{64} << 20) + 1);
        alloc::region_begin();
        auto over = io::read_text_file(path, std::size_t{4} << 20);
        const alloc::counters refused = alloc::snapshot();
        alloc::region_end();
        EXPECT_TRUE(std::holds_alternative<io::read_error>(over));
        EXPECT_LT(refused.peak, 64 << 10) << "read before it was refused";
        sparse(std::int64_t{3} << 20);
        alloc::region_begin();
        auto within = io::read_text_file(path, std::size_t{4} << 20);
        const alloc::counters read = alloc::snapshot();
        alloc::region_end();
        ASSERT_TRUE(std::holds_alternative<std::string>(within));
        EXPECT_EQ(std::get<std::string>(within).size(), std::size_t{3} << 20);
        // The text at its size and the 1 MiB chunk it is read through (4 MiB, or 4.75 in
        // jemalloc's size classes), not a text grown by doubling (7 MiB).
        EXPECT_LT(read.peak, std::int64_t{5} << 20);
    }
    ::unlink(path.c_str());
}

// Refused before nlohmann parses them: nothing to parse, or a depth whose copies and destructors
// would overflow the stack.
TEST(results_reader, empty_and_deeply_nested_text_is_refused_by_position) {
    auto error_of = [](const std::string& text) {
        auto read = io::parse_results(text, "x.json");
        return std::holds_alternative<io::read_error>(read) ? std::get<io::read_error>(read).message : "";
    };
    EXPECT_EQ(error_of(""), "x.json: empty file");
    EXPECT_EQ(error_of(" \n\t"), "x.json: empty file");
    const std::string deep = std::string(io::max_json_depth, '[') + std::string(io::max_json_depth, ']');
    EXPECT_EQ(error_of(deep),
              "x.json: not a results file (a JSON array, not an object with a \"schema\" field)");
    EXPECT_EQ(error_of("{\"s\": \"[[[\",\n \"a\": [" + deep + "]}"),
              "x.json:2:" + std::to_string(6 + io::max_json_depth) +
                  ": nested too deeply (more than 256 levels of arrays and objects)");
}

}  // namespace
}  // namespace tare

namespace tare {
namespace {

// The samples (iterations, live heap at each end, iterations before) and the comparisons of
// groups survive a round trip, so `tare run` and `tare report` see what the executable saw.
TEST(results_reader, samples_and_comparisons_round_trip) {
    run_results r;
    r.context.accounting = true;
    for (const char* name : {"a", "b"}) {
        benchmark_result b;
        b.name = name;
        b.allocs_per_iter = 1;
        b.sample_heap_measured = true;
        for (int i = 0; i < 3; ++i) {
            sample s;
            s.iterations = 10;
            s.elapsed_ns = 100.0 * (i + 1);
            s.iterations_before = 5 + 10 * static_cast<std::uint64_t>(i);
            s.live_bytes_end = 4096 * (i + 1);
            b.samples.push_back(s);
            b.samples_ns.push_back(s.elapsed_ns / 10);
        }
        r.benchmarks.push_back(b);
    }
    variant_comparison c;
    c.group = "g";
    c.name = "g";
    c.baseline = "a";
    c.member = "b";
    c.blocks = 2;
    c.samples_per_block = 3;
    c.iterations = 10;
    c.baseline_block_ns = {10, 11};
    c.member_block_ns = {20, 22};
    paired_change change;
    change.change_pct = 100;
    change.interval_pct = interval{90, 110};
    change.p_value = 0.001;
    c.change = change;
    c.verdict = verdict::slower;
    r.comparisons.push_back(c);

    auto read = io::parse_results(report::make_json_reporter<run_results>()->render(r), "mem");
    ASSERT_TRUE(std::holds_alternative<run_results>(read)) << std::get<io::read_error>(read).message;
    const run_results& back = std::get<run_results>(read);
    ASSERT_EQ(back.benchmarks.size(), 2U);
    EXPECT_TRUE(back.benchmarks[0].sample_heap_measured);
    const auto& samples = back.benchmarks[0].samples;
    ASSERT_EQ(samples.size(), 3U);
    EXPECT_EQ(samples[2].iterations, 10U);
    EXPECT_DOUBLE_EQ(samples[2].elapsed_ns, 300.0);
    EXPECT_EQ(samples[2].iterations_before, 25U);
    EXPECT_EQ(samples[2].live_bytes_end, 3 * 4096);
    ASSERT_EQ(back.comparisons.size(), 1U);
    const variant_comparison& cb = back.comparisons[0];
    EXPECT_EQ(cb.member, "b");
    EXPECT_EQ(cb.verdict, verdict::slower);
    EXPECT_EQ(cb.blocks, 2U);
    EXPECT_EQ(cb.iterations, 10U);
    EXPECT_EQ(cb.member_block_ns, (std::vector<double>{20, 22}));
    ASSERT_TRUE(cb.change);
    EXPECT_DOUBLE_EQ(cb.change->interval_pct->low, 90);
    EXPECT_DOUBLE_EQ(cb.change->p_value, 0.001);
}

// A row read back holds its samples in little more than their text: a file of tare's own loop
// keeps hundreds of samples a row, at some 27 bytes of JSON each (per-iteration time,
// iterations, iterations before, live bytes; 59 in this test's). Held as whole sample records
// grown by doubling, they took 119 bytes each here, beside their text.
TEST(results_reader, a_rows_samples_take_little_more_than_their_text) {
    if (!alloc::available())
        GTEST_SKIP() << "tare's allocation accounting is not in this build";
    run_results r;
    r.context.accounting = true;
    benchmark_result b;
    b.name = "loop";
    b.allocs_per_iter = 1;
    b.sample_heap_measured = true;
    const std::size_t n = 3000;
    for (std::size_t i = 0; i < n; ++i) {
        sample s;
        s.iterations = 1000;
        s.elapsed_ns = 41000.0 + static_cast<double>(i % 7);
        s.iterations_before = 1000 * i;
        s.live_bytes_end = static_cast<std::int64_t>(64 * (i % 5));
        b.samples.push_back(s);
        b.samples_ns.push_back(s.elapsed_ns / 1000);
    }
    r.benchmarks.push_back(b);
    const std::string text = report::make_json_reporter<run_results>()->render(r);

    alloc::region_begin();
    std::optional<run_results> held;
    {
        auto read = io::parse_results(text, "mem");
        ASSERT_TRUE(std::holds_alternative<run_results>(read)) << std::get<io::read_error>(read).message;
        held = std::move(std::get<run_results>(read));
    }
    const alloc::counters kept = alloc::snapshot();
    alloc::region_end();
    ASSERT_EQ(held->benchmarks.at(0).samples.size(), n);
    EXPECT_EQ(held->benchmarks[0].samples[n - 1].iterations_before, 1000 * (n - 1));
    const double per_sample = static_cast<double>(kept.live) / static_cast<double>(n);
    // 32 bytes of time and heap level and 8 of per-iteration time a sample, and the row's own.
    EXPECT_LT(per_sample, 48.0) << "bytes held a sample, against "
                                << static_cast<double>(text.size()) / static_cast<double>(n) << " of text";
}

}  // namespace
}  // namespace tare
