// The `tare` command end to end: run an executable, read a results file, and the error cases
// with their exit statuses and messages (docs/cli.md).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "executables.hpp"
#include "run_process.hpp"
#include "scratch.hpp"
#include "text_helpers.hpp"

namespace tare {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::run_process;

using test::scratch;

TEST(tare_command, version_and_help) {
    auto v = run_process({tare_cmd, "--version"});
    EXPECT_EQ(v.exit_code, 0);
    EXPECT_EQ(v.out.rfind("tare ", 0), 0U) << v.out;
    auto h = run_process({tare_cmd, "--help"});
    EXPECT_EQ(h.exit_code, 0);
    EXPECT_NE(h.out.find("compare"), std::string::npos);
    // A benchmark executable says its tare version too.
    auto bv = run_process({contract_bench, "--version"});
    EXPECT_EQ(bv.exit_code, 0) << bv.err;
    EXPECT_EQ(bv.out, v.out);
}

// Help in words, not in CLI11's syntax; range errors say what the flag takes.
TEST(tare_command, help_and_range_errors_read_as_words) {
    for (const char* sub : {"run", "compare", "exec", "report", "export", "merge"}) {
        auto h = run_process({tare_cmd, sub, "--help"});
        EXPECT_EQ(h.exit_code, 0) << sub;
        for (const char* leak : {"{0}", "{5}", " in [", " in (", "TEXT:{", "UINT:", ":NUMBER", " TEXT "}) {
            EXPECT_EQ(h.out.find(leak), std::string::npos) << sub << " help shows " << leak << "\n" << h.out;
        }
        // Two examples of the subcommand, as hyperfine's and Google Benchmark's help give them.
        const auto examples = h.out.find("Examples:\n");
        ASSERT_NE(examples, std::string::npos) << sub << "\n" << h.out;
        const std::string line = std::string("\n  tare ") + sub + " ";
        const auto first = h.out.find(line, examples);
        ASSERT_NE(first, std::string::npos) << sub << "\n" << h.out;
        EXPECT_NE(h.out.find(line, first + 1), std::string::npos) << sub << "\n" << h.out;
        // Every command that prints a table takes --color.
        if (std::string(sub) != "report" && std::string(sub) != "export") {
            EXPECT_NE(h.out.find("--color WHEN"), std::string::npos) << sub;
        }
    }
    auto bench_help = run_process({contract_bench, "--help"});
    EXPECT_EQ(bench_help.out.find("{5}"), std::string::npos) << bench_help.out;
    auto zero = run_process({tare_cmd, "compare", "a", "b", "--min-time=0"});
    EXPECT_EQ(zero.exit_code, 2);
    EXPECT_NE(zero.err.find("--min-time: must be > 0 (got 0)"), std::string::npos) << zero.err;
    auto rounds = run_process({tare_cmd, "compare", "a", "b", "--rounds=0"});
    EXPECT_NE(rounds.err.find("--rounds: must be >= 1 (got 0)"), std::string::npos) << rounds.err;
    auto family = run_process({tare_cmd, "compare", "a", "b", "--family=x"});
    EXPECT_NE(family.err.find("'x' is not one of fdr, fwer"), std::string::npos) << family.err;
}

// Bare `tare` lists what it can do, then the error (status 2: no subcommand).
TEST(tare_command, bare_tare_lists_the_subcommands) {
    auto r = run_process({tare_cmd});
    EXPECT_EQ(r.exit_code, 2);
    for (const char* sub : {"run", "compare", "exec", "report", "export", "merge"}) {
        EXPECT_NE(r.err.find(std::string("\n  ") + sub), std::string::npos) << sub << "\n" << r.err;
    }
    EXPECT_NE(r.err.find("error: a subcommand is required"), std::string::npos) << r.err;
}

TEST(tare_command, run_an_executable_prints_the_table_and_writes_json) {
    fs::path out = scratch("run.json");
    auto r = run_process({tare_cmd, "run", contract_bench, "--filter=round_trip", "--min-time=0.01",
                          "--json=" + out.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("round_trip/1000"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("allocs/iter"), std::string::npos) << r.out;
    std::ifstream in(out);
    json doc = json::parse(in);
    EXPECT_EQ(doc["schema"], "tare/1");
    EXPECT_EQ(doc["benchmarks"].size(), 2U);
}

TEST(tare_command, run_reads_a_results_file_and_prints_markdown) {
    fs::path file = scratch("results.json");
    auto made =
        run_process({contract_bench, "--filter=round_trip/1$", "--min-time=0.01", "--json=" + file.string()});
    ASSERT_EQ(made.exit_code, 0) << made.err;
    auto r = run_process({tare_cmd, "run", file.string(), "--md"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("| `round_trip/1`"), std::string::npos) << r.out;
}

// --json=/dev/stdout writes through to standard output (a pipe here), after the table; the
// benchmark executable's own --json does the same.
TEST(tare_command, json_to_dev_stdout_is_written_through) {
    fs::path file = scratch("results_stdout.json");
    auto made =
        run_process({contract_bench, "--filter=round_trip/1$", "--min-time=0.01", "--json=" + file.string()});
    ASSERT_EQ(made.exit_code, 0) << made.err;
    auto r = run_process({tare_cmd, "run", file.string(), "--json=/dev/stdout"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const std::size_t table = r.out.find("round_trip/1");
    const std::size_t doc = r.out.find("\"schema\": \"tare/1\"");
    EXPECT_NE(table, std::string::npos) << r.out;
    ASSERT_NE(doc, std::string::npos) << r.out;
    EXPECT_LT(table, doc);
    auto direct =
        run_process({contract_bench, "--filter=round_trip/1$", "--min-time=0.01", "--json=/dev/stdout"});
    EXPECT_EQ(direct.exit_code, 0) << direct.err;
    const std::size_t direct_doc = direct.out.find("\"schema\": \"tare/1\"");
    ASSERT_NE(direct_doc, std::string::npos) << direct.out;
    EXPECT_LT(direct.out.find("round_trip/1"), direct_doc) << direct.out;
}

// Every number flag of the tare command refuses NaN, infinities and values outside its range
// with status 2, naming the flag: --min-time=nan once ran a benchmark forever.
TEST(tare_command, number_flags_refuse_nan_infinity_and_out_of_range) {
    const std::vector<std::vector<std::string>> cases = {
        {"run", contract_bench, "--min-time=nan"},
        {"run", contract_bench, "--min-time=inf"},
        {"run", contract_bench, "--min-time=-1"},
        {"compare", contract_bench, contract_bench, "--threshold=nan"},
        {"compare", contract_bench, contract_bench, "--min-time=inf"},
        {"compare", contract_bench, contract_bench, "--timeout=nan"},
        {"exec", "--timeout=nan", "--", "true"},
        {"exec", "--threshold=inf", "--", "true"},
    };
    for (const auto& c : cases) {
        std::vector<std::string> argv{tare_cmd};
        argv.insert(argv.end(), c.begin(), c.end());
        auto r = run_process(argv);
        const std::string& arg = c[c[0] == "exec" ? 1 : c.size() - 1];
        EXPECT_EQ(r.exit_code, 2) << arg << ": " << r.err;
        EXPECT_NE(r.err.find(arg.substr(0, arg.find('='))), std::string::npos) << arg << ": " << r.err;
    }
}

// Output that standard output does not take (a full device) is an error, not status 0: 2 from
// tare, 1 from a benchmark executable.
TEST(tare_command, a_standard_output_that_fails_is_reported) {
    if (!fs::exists("/dev/full")) {
        GTEST_SKIP() << "no /dev/full";
    }
    fs::path file = scratch("results_full.json");
    ASSERT_EQ(
        run_process({contract_bench, "--filter=round_trip/1$", "--min-time=0.01", "--json=" + file.string()})
            .exit_code,
        0);
    const auto to_full = [](const std::string& command) {
        return run_process({"/bin/sh", "-c", "exec " + command + " >/dev/full"});
    };
    auto run = to_full(tare_cmd + " run " + file.string());
    EXPECT_EQ(run.exit_code, 2) << run.err;
    EXPECT_NE(run.err.find("cannot write standard output"), std::string::npos) << run.err;
    auto list = to_full(contract_bench + " --list");
    EXPECT_EQ(list.exit_code, 1) << list.err;
    EXPECT_NE(list.err.find("cannot write standard output"), std::string::npos) << list.err;
    auto to_stdout = to_full(contract_bench + " '--filter=round_trip/1$' --min-time=0.01 --json=-");
    EXPECT_EQ(to_stdout.exit_code, 1) << to_stdout.err;
}

TEST(tare_command, a_failing_benchmark_is_shown_and_exits_1) {
    auto r = run_process({tare_cmd, "run", contract_bench, "--filter=throws", "--min-time=0.01"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.out.find("fixture exploded"), std::string::npos) << r.out;
}

TEST(tare_command, malformed_json_names_file_line_and_column) {
    fs::path bad = scratch("bad.json");
    write_text(bad, "{\n  \"schema\": \"tare/1\",\n  \"benchmarks\": [1, 2,, 3]\n}\n");
    auto r = run_process({tare_cmd, "run", bad.string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(bad.string() + ":3:"), std::string::npos) << r.err;
}

TEST(tare_command, wrong_schema_and_missing_files_exit_2) {
    fs::path other = scratch("other.json");
    write_text(other, R"({"schema": "something/9", "benchmarks": []})");
    auto r = run_process({tare_cmd, "run", other.string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("something/9"), std::string::npos) << r.err;

    auto missing = run_process({tare_cmd, "run", "/no/such/bench"});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("/no/such/bench"), std::string::npos) << missing.err;
}

TEST(tare_command, an_executable_that_cannot_run_exits_3) {
    fs::path not_exec = scratch("no_format");
    write_text(not_exec, "just text");  // executable, but no program: the kernel refuses it
    fs::permissions(not_exec, fs::perms::owner_all);
    auto r = run_process({tare_cmd, "run", not_exec.string()});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("no_format"), std::string::npos) << r.err;
}

// A file that is not executable can only be a results file: whatever is wrong with it is
// unreadable input (2) with the reader's message, never an executable that failed (3).
TEST(tare_command, a_file_that_is_not_executable_is_read_as_results_and_exits_2) {
    const std::string nested(100000, '[');
    const struct {
        const char* name;
        std::string text;
        std::string message;  // after "FILE"
    } cases[] = {
        {"empty", "", ": empty file"},
        {"text", "just text", ":1:1: malformed JSON: "},
        {"elf",
         std::string("\x7f"
                     "ELF\x02\x01\x01\0\0\0",
                     10),  // the ten bytes of an ELF header's start, NULs included
         ":1:1: malformed JSON: "},
        {"array", "[1,2]", ": not a results file (a JSON array"},
        {"nested", nested + std::string(100000, ']'), ":1:257: nested too deeply"},
        {"nested_unclosed", nested, ":1:257: nested too deeply"},
    };
    for (const auto& c : cases) {
        const fs::path file = scratch(c.name);
        write_text(file, c.text);
        auto r = run_process({tare_cmd, "run", file.string()});
        EXPECT_EQ(r.exit_code, 2) << c.name << ": " << r.err;
        EXPECT_EQ(r.err.find("error: " + file.string() + c.message), 0U) << c.name << ": " << r.err;
        EXPECT_EQ(r.err.find("executable ("), std::string::npos) << r.err;
    }
}

TEST(tare_command, json_nested_deep_inside_a_results_file_is_refused_without_crashing) {
    fs::path file = scratch("deep.json");
    auto made =
        run_process({contract_bench, "--filter=round_trip/1$", "--min-time=0.01", "--json=" + file.string()});
    ASSERT_EQ(made.exit_code, 0) << made.err;
    std::ifstream in(file);
    json doc = json::parse(in);
    in.close();
    doc["benchmarks"][0]["counters"] = {{"x", "DEEP"}};
    std::string text = doc.dump();
    text.replace(text.find("\"DEEP\""), 6, std::string(200000, '[') + std::string(200000, ']'));
    write_text(file, text);
    auto r = run_process({tare_cmd, "run", file.string()});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(file.string() + ":1:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("nested too deeply"), std::string::npos) << r.err;
}

TEST(tare_command, counters_of_the_wrong_type_are_refused_naming_the_key) {
    fs::path file = scratch("counters.json");
    auto made =
        run_process({contract_bench, "--filter=round_trip/1$", "--min-time=0.01", "--json=" + file.string()});
    ASSERT_EQ(made.exit_code, 0) << made.err;
    std::ifstream in(file);
    json doc = json::parse(in);
    in.close();
    for (const json& wrong : {json::object(), json("1"), json::array()}) {
        doc["benchmarks"][0]["counters"] = {{"x", wrong}};
        const std::string text = doc.dump(2);
        write_text(file, text);
        // Named by the line and column of the value, as an editor shows them.
        const std::size_t at = text.find("\"x\": ") + 5;
        const std::size_t line = 1 + static_cast<std::size_t>(std::count(
                                         text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
        const std::size_t column = at - text.rfind('\n', at - 1);
        auto r = run_process({tare_cmd, "run", file.string()});
        EXPECT_EQ(r.exit_code, 2) << wrong << ": " << r.err;
        EXPECT_EQ(r.err, "error: " + file.string() + ":" + std::to_string(line) + ":" +
                             std::to_string(column) + ": benchmarks[0].counters.x: expected a number\n");
    }
}

TEST(tare_command, a_bad_filter_is_one_error_and_exits_2) {
    auto r = run_process({tare_cmd, "run", contract_bench, "--filter=("});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("error: --filter: '(' is not a valid regular expression: ", 0), 0U) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.out, "");
}

// tare runs an executable with --json=TMP, a file of its own: its errors name the executable.
TEST(tare_command, an_executable_that_writes_no_results_is_named_not_tares_temporary_file) {
    auto r = run_process({tare_cmd, "run", "/bin/true"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_EQ(r.err,
              "error: /bin/true: not a tare or Google Benchmark executable: it wrote no results (exit status "
              "0)\n");

    fs::path script = scratch("writes_garbage");
    write_text(
        script,
        "#!/bin/sh\nfor a; do case $a in --json=*) echo '{\"schema\": \"tare/1\",,' > \"${a#--json=}\";; "
        "esac; done\n");
    fs::permissions(script, fs::perms::owner_all);
    auto g = run_process({tare_cmd, "run", script.string()});
    EXPECT_EQ(g.exit_code, 3) << g.err;
    EXPECT_EQ(
        g.err.rfind(
            "error: " + script.string() + ": the results it wrote cannot be read: 1:21: malformed JSON", 0),
        0U)
        << g.err;
    EXPECT_EQ(g.err.find("tare-run-"), std::string::npos) << g.err;
}

TEST(tare_command, several_targets_make_one_document_and_a_broken_one_loses_nothing) {
    fs::path file = scratch("first.json");
    auto made =
        run_process({contract_bench, "--filter=round_trip/1$", "--min-time=0.01", "--json=" + file.string()});
    ASSERT_EQ(made.exit_code, 0) << made.err;
    fs::path merged = scratch("merged.json");
    auto r = run_process({tare_cmd, "run", file.string(), "/no/such/suite", contract_bench,
                          "--filter=round_trip/1000", "--min-time=0.01", "--json=" + merged.string()});
    EXPECT_EQ(r.exit_code, 2) << "a missing target is reported, the others still run";
    EXPECT_NE(r.err.find("/no/such/suite"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("== " + contract_bench), std::string::npos) << r.out;
    std::ifstream in(merged);
    json doc = json::parse(in);
    ASSERT_EQ(doc["benchmarks"].size(), 2U);
    EXPECT_EQ(doc["benchmarks"][0]["name"], "first/round_trip/1");
    EXPECT_EQ(doc["benchmarks"][1]["name"], "contract_bench/round_trip/1000");
}

// Standard output and standard error joined into one log, as CI keeps them (`> log 2>&1`): each
// suite's progress lines (from the executable, on standard error) come whole and before its
// table, and the next suite's after it; buffered, both suites' progress came before either table.
TEST(tare_command, a_joined_log_keeps_each_suites_progress_before_its_table) {
    const std::string a = test::private_copy(contract_bench, "suite_a");
    const std::string b = test::private_copy(contract_bench, "suite_b");
    auto r = run_process({"/bin/sh", "-c", "exec \"$@\" 2>&1", "sh", tare_cmd, "run", a, b,
                          "--filter=round_trip", "--min-time=0.01"});
    ASSERT_EQ(r.exit_code, 0) << r.out;
    EXPECT_EQ(r.out.find('\r'), std::string::npos) << "no terminal codes in a log";
    EXPECT_EQ(r.out.find("\033["), std::string::npos) << "no terminal codes in a log";
    std::vector<std::string> lines;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    const auto at = [&](const std::string& line) {
        return std::find(lines.begin(), lines.end(), line) - lines.begin();
    };
    const auto head_a = at("== " + a);
    const auto head_b = at("== " + b);
    ASSERT_LT(head_b, static_cast<std::ptrdiff_t>(lines.size())) << r.out;
    const auto progress = [](const std::string& line) {
        return line.rfind("[", 0) == 0 && line.find(" done in ") != std::string::npos;
    };
    std::vector<std::ptrdiff_t> steps;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (progress(lines[i]))
            steps.push_back(static_cast<std::ptrdiff_t>(i));
    }
    ASSERT_EQ(steps.size(), 4U) << r.out;
    EXPECT_LT(steps[1], head_a) << r.out;
    // Suite b's progress after the whole of suite a's table: its last row, and its warnings.
    std::ptrdiff_t a_table_end = head_a;
    for (auto i = head_a; i < head_b; ++i) {
        if (!progress(lines[static_cast<std::size_t>(i)]) && !lines[static_cast<std::size_t>(i)].empty())
            a_table_end = i;
    }
    EXPECT_GT(steps[2], a_table_end) << r.out;
    EXPECT_LT(steps[3], head_b) << r.out;

    // --processes in a log: which process runs, a whole line before each one's own progress.
    auto p = run_process({"/bin/sh", "-c", "exec \"$@\" 2>&1", "sh", tare_cmd, "run", a, "--processes=2",
                          "--filter=round_trip/1$", "--min-time=0.01"});
    ASSERT_EQ(p.exit_code, 0) << p.out;
    const auto first = p.out.find(a + ": process 1 of 2\n[1/1] round_trip/1 done in ");
    const auto second = p.out.find("\n" + a + ": process 2 of 2\n[1/1] round_trip/1 done in ");
    EXPECT_NE(first, std::string::npos) << p.out;
    EXPECT_NE(second, std::string::npos) << p.out;
    EXPECT_EQ(p.out.find('\r'), std::string::npos) << p.out;
}

// tare run --shard passes the shard to a tare executable: the shards' results are disjoint and
// together the whole suite; a malformed shard is refused before anything runs.
TEST(tare_command, shards_of_a_run_cover_the_suite_once) {
    auto listed = run_process({contract_bench, "--list"});
    ASSERT_EQ(listed.exit_code, 0);
    std::multiset<std::string> all;
    std::istringstream lines(listed.out);
    for (std::string line; std::getline(lines, line);)
        all.insert(line);
    std::multiset<std::string> seen;
    for (const char* shard : {"1/3", "2/3", "3/3"}) {
        const fs::path out = scratch(std::string("shard") + shard[0] + ".json");
        auto r = run_process({tare_cmd, "run", contract_bench, std::string("--shard=") + shard,
                              "--min-time=0.01", "--json=" + out.string()});
        ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;  // the suite has a throwing benchmark
        std::ifstream in(out);
        const json doc = json::parse(in);  // named: a range-for over a temporary's member dangles
        for (const auto& b : doc.at("benchmarks"))
            seen.insert(b.at("name").get<std::string>());
    }
    EXPECT_EQ(seen, all);
    auto bad = run_process({tare_cmd, "run", contract_bench, "--shard=1/x"});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_TRUE(bad.out.empty());
}

// The CI workflow of docs/ci.md in miniature: shards recorded apart, merged into one file that
// holds the whole suite and each shard's context, then exported; an overlap is refused.
TEST(tare_command, shard_files_merge_into_the_whole_suite) {
    std::vector<std::string> files;
    for (const char* shard : {"1/2", "2/2"}) {
        const fs::path out = scratch(std::string("part") + shard[0] + ".json");
        auto r = run_process({tare_cmd, "run", contract_bench, std::string("--shard=") + shard,
                              "--min-time=0.01", "--json=" + out.string()});
        ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
        files.push_back(out.string());
    }
    const fs::path merged = scratch("merged.json");
    auto m = run_process({tare_cmd, "merge", files[0], files[1], "--json=" + merged.string()});
    ASSERT_EQ(m.exit_code, 0) << m.err;
    EXPECT_NE(m.out.find("round_trip/1000"), std::string::npos) << m.out;  // its table
    std::ifstream in(merged);
    const json doc = json::parse(in);
    std::multiset<std::string> names;
    for (const auto& b : doc.at("benchmarks"))
        names.insert(b.at("name").get<std::string>());
    auto listed = run_process({contract_bench, "--list"});
    std::multiset<std::string> all;
    std::istringstream lines(listed.out);
    for (std::string line; std::getline(lines, line);)
        all.insert(line);
    EXPECT_EQ(names, all);
    EXPECT_EQ(doc.at("context").at("merged_from").size(), 2U);
    auto exported = run_process({tare_cmd, "export", merged.string(), "--format=csv"});
    EXPECT_EQ(exported.exit_code, 0) << exported.err;

    auto twice =
        run_process({tare_cmd, "merge", files[0], files[0], "--json=" + scratch("no.json").string()});
    EXPECT_EQ(twice.exit_code, 2);
    EXPECT_NE(twice.err.find("shards are disjoint"), std::string::npos) << twice.err;
    EXPECT_FALSE(fs::exists(scratch("no.json")));
    auto no_out = run_process({tare_cmd, "merge", files[0], files[1]});
    EXPECT_EQ(no_out.exit_code, 2);
}

}  // namespace
}  // namespace tare
