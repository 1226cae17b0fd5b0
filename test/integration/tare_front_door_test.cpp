// The `tare` command's front door: a misspelt command or flag, `tare help`, a missing operand or
// file said in the user's words, and `-` as standard output for every output flag (docs/cli.md,
// "The tare command" and "Output files").
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "executables.hpp"
#include "run_process.hpp"
#include "scratch.hpp"

namespace tare {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::run_process;
using test::scratch;

// A mistyped command or flag is named with the one meant, as git, cargo and hyperfine do; CLI11's
// own "A subcommand is required" said nothing of the word typed.
TEST(tare_front_door, a_misspelt_command_or_flag_gets_did_you_mean) {
    const struct {
        std::vector<std::string> args;
        std::string err;
    } cases[] = {
        {{"rn"}, "error: 'rn' is not a tare command; did you mean 'run'?\n"},
        {{"comapre", "a", "b"}, "error: 'comapre' is not a tare command; did you mean 'compare'?\n"},
        {{"--verison"}, "error: unknown flag '--verison'; did you mean '--version'?\n"},
        {{"run", "x.json", "--jsn=out.json"},
         "error: tare run: unknown flag '--jsn'; did you mean '--json'?\n"},
        {{"compare", "a", "b", "--rouns=3"},
         "error: tare compare: unknown flag '--rouns'; did you mean '--rounds'?\n"},
        {{"export", "x.json", "--fromat=csv"},
         "error: tare export: unknown flag '--fromat'; did you mean '--format'?\n"},
        {{"help", "reprot"}, "error: tare help: 'reprot' is not a tare command; did you mean 'report'?\n"},
    };
    for (const auto& c : cases) {
        std::vector<std::string> argv{tare_cmd};
        argv.insert(argv.end(), c.args.begin(), c.args.end());
        auto r = run_process(argv);
        EXPECT_EQ(r.exit_code, 2) << c.args[0] << ": " << r.err;
        EXPECT_EQ(r.err, c.err);
        EXPECT_EQ(r.out, "");
    }
    // Nothing close: the commands there are, or where the flags are listed.
    auto far = run_process({tare_cmd, "bake"});
    EXPECT_EQ(far.exit_code, 2);
    EXPECT_EQ(
        far.err,
        "error: 'bake' is not a tare command (run, exec, compare, report, export, merge, history or help)\n");
    auto flag = run_process({tare_cmd, "run", "x.json", "--zzzzzz"});
    EXPECT_EQ(flag.exit_code, 2);
    EXPECT_EQ(flag.err, "error: tare run: unknown flag '--zzzzzz' (tare run --help lists its flags)\n");
    auto extra = run_process({tare_cmd, "report", "a.json", "b.json", "--html=x.html"});
    EXPECT_EQ(extra.exit_code, 2);
    EXPECT_EQ(extra.err,
              "error: tare report: unexpected argument 'b.json' (tare report --help says what it takes)\n");
}

// `tare help` and `tare help COMMAND` print what --help prints; -V is --version.
TEST(tare_front_door, help_command_and_short_version) {
    auto top = run_process({tare_cmd, "help"});
    EXPECT_EQ(top.exit_code, 0) << top.err;
    EXPECT_EQ(top.out, run_process({tare_cmd, "--help"}).out);
    EXPECT_NE(top.out.find("\n  help "), std::string::npos) << top.out;
    for (const char* sub : {"run", "compare", "exec", "report", "export", "merge"}) {
        auto h = run_process({tare_cmd, "help", sub});
        EXPECT_EQ(h.exit_code, 0) << sub << ": " << h.err;
        EXPECT_EQ(h.out, run_process({tare_cmd, sub, "--help"}).out) << sub;
        EXPECT_NE(h.out.find(std::string("Usage: tare ") + sub), std::string::npos) << h.out;
    }
    auto v = run_process({tare_cmd, "-V"});
    EXPECT_EQ(v.exit_code, 0) << v.err;
    EXPECT_EQ(v.out, run_process({tare_cmd, "--version"}).out);
}

// A missing operand is said in the user's words, never by CLI11's name for it ("targets is
// required").
TEST(tare_front_door, a_missing_operand_says_what_to_give) {
    const std::vector<std::vector<std::string>> cases = {
        {"run"},
        {"run", "--md"},
        {"compare"},
        {"compare", "base.json"},
        {"exec"},
        {"report", "--html=x.html"},
        {"export", "--format=csv"},
        {"merge", "--json=x.json"},
    };
    for (const auto& c : cases) {
        std::vector<std::string> argv{tare_cmd};
        argv.insert(argv.end(), c.begin(), c.end());
        auto r = run_process(argv);
        EXPECT_EQ(r.exit_code, 2) << c[0] << ": " << r.err;
        EXPECT_EQ(r.err.rfind("error: tare " + c[0] + ": give ", 0), 0U) << r.err;
        EXPECT_EQ(r.err.find("is required"), std::string::npos) << r.err;
    }
    auto format = run_process({tare_cmd, "export", "x.json"});
    EXPECT_EQ(format.exit_code, 2);
    EXPECT_EQ(format.err, "error: tare export: --format=FORMAT is required (bmf, gab, gab-bigger or csv)\n");
}

// One wording for a file that cannot be opened, whichever command reads it.
TEST(tare_front_door, a_missing_file_or_a_directory_is_worded_alike_everywhere) {
    const std::string missing = scratch("absent.json").string();
    const std::string dir = scratch("a_directory").string();
    fs::create_directories(dir);
    for (const std::string& path : {missing, dir}) {
        const std::string expected =
            "error: " + path + (path == dir ? ": is a directory\n" : ": no such file\n");
        const std::vector<std::vector<std::string>> cases = {
            {"run", path},
            {"compare", path, path},
            {"report", path, "--html=" + scratch("never.html").string()},
            {"export", path, "--format=csv"},
            {"merge", path, path, "--json=" + scratch("never.json").string()},
            {"exec", "--runs=1", "--", path},
            {"exec", "--runs=1", "--vs=" + path, "--", "/bin/true"},
        };
        for (const auto& c : cases) {
            std::vector<std::string> argv{tare_cmd};
            argv.insert(argv.end(), c.begin(), c.end());
            auto r = run_process(argv);
            // tare exec's commands are run, not read: one that cannot be is status 3, as before.
            EXPECT_EQ(r.exit_code, c[0] == "exec" ? 3 : 2) << c[0];
            EXPECT_EQ(r.err, expected) << c[0];
        }
    }
}

// A flag without its value, or with one that is not a number, is said with the flag as typed and
// what it takes, not in the parser's words ("1 required SECONDS missing", "Could not convert").
TEST(tare_front_door, a_flag_without_its_value_or_with_a_wrong_one_is_said_in_the_users_words) {
    const struct {
        std::vector<std::string> args;
        std::string err;
    } cases[] = {
        {{"run", "x.json", "--min-time"},
         "error: tare run: --min-time needs a value: --min-time=SECONDS (tare run --help says what it "
         "takes)\n"},
        {{"run", "x.json", "--json="},
         "error: tare run: --json needs a value: --json=PATH (tare run --help says what it takes)\n"},
        {{"compare", "a", "b", "--fail-on-regression=abc"},
         "error: tare compare: --fail-on-regression=abc: expected PCT (tare compare --help says what it "
         "takes)\n"},
    };
    for (const auto& c : cases) {
        std::vector<std::string> argv{tare_cmd};
        argv.insert(argv.end(), c.args.begin(), c.args.end());
        auto r = run_process(argv);
        EXPECT_EQ(r.exit_code, 2) << c.args.back();
        EXPECT_EQ(r.err, c.err);
    }
}

// An output into a directory that does not exist names the user's path and the directory, not the
// temporary file tare writes first; standard input named twice is refused before it is read.
TEST(tare_front_door, an_output_without_its_directory_and_standard_input_twice_are_named) {
    const std::string file = scratch("in.json").string();
    ASSERT_EQ(run_process({contract_bench, "--filter=round_trip/1$", "--min-time=0.01", "--json=" + file})
                  .exit_code,
              0);
    const std::string nowhere = scratch("no_such_dir").string() + "/out.csv";
    auto r = run_process({tare_cmd, "export", file, "--format=csv", "--output=" + nowhere});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "error: cannot write '" + nowhere + "': its directory '" +
                         scratch("no_such_dir").string() + "' does not exist\n");
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"compare", "-", "-"}, {"merge", "-", "-", "--json=" + scratch("m.json").string()}}) {
        std::vector<std::string> argv{"/bin/sh", "-c", "exec \"$0\" \"$@\" < \"$TARE_IN\"", tare_cmd};
        argv.insert(argv.end(), args.begin(), args.end());
        auto piped = run_process([&] {
            std::vector<std::string> v{"/usr/bin/env", "TARE_IN=" + file};
            v.insert(v.end(), argv.begin(), argv.end());
            return v;
        }());
        EXPECT_EQ(piped.exit_code, 2) << args[0] << ": " << piped.err;
        EXPECT_EQ(piped.err,
                  "error: tare " + args[0] +
                      ": '-' (standard input) is given more than once, and it can be read once: give "
                      "the others as files\n");
    }
}

// Runs `argv` in directory `dir`, so that a file it creates by a relative name is found there.
test::process_result run_in(const fs::path& dir, std::vector<std::string> argv) {
    argv.insert(argv.begin(), {"/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", dir.string()});
    return run_process(argv);
}

// `-` is standard output for every output flag of every command: the document alone on standard
// output (the table, if any, on standard error), and no file named `-`. Two documents cannot
// share the stream.
TEST(tare_front_door, dash_is_standard_output_for_every_output_flag) {
    const fs::path dir = scratch("dash");
    fs::create_directories(dir);
    const std::string file = (dir / "results.json").string();
    ASSERT_EQ(run_process({contract_bench, "--filter=round_trip/1$", "--min-time=0.01", "--json=" + file})
                  .exit_code,
              0);
    const std::string other = (dir / "other.json").string();
    ASSERT_EQ(run_process({contract_bench, "--filter=round_trip/1000", "--min-time=0.01", "--json=" + other})
                  .exit_code,
              0);
    const std::string cmp = (dir / "compare.json").string();
    ASSERT_EQ(run_process({tare_cmd, "compare", file, file, "--json=" + cmp}).exit_code, 0);
    const std::string run_table = "accounting:";
    const struct {
        std::vector<std::string> args;
        std::string begins;  // standard output
        std::string ends;
        std::string table;  // a line of the command's table, on standard error; "": no table
    } cases[] = {
        {{"run", file, "--json=-"}, "{\n  \"schema\": \"tare/1\"", "}\n", run_table},
        {{"run", file, "--html=-"}, "<!DOCTYPE html>", "</html>\n", run_table},
        {{"run", file, "--export=csv:-"}, "name,time (ns)", "\n", run_table},
        {{"compare", file, file, "--json=-"}, "{\n  \"schema\": \"tare-compare/1\"", "}\n", "───"},
        {{"compare", file, file, "--html=-"}, "<!DOCTYPE html>", "</html>\n", "───"},
        {{"exec", "--runs=1", "--warmup=0", "--json=-", "--", "/bin/true"},
         "{\n  \"schema\": \"tare-exec/1\"",
         "}\n",
         "tare exec: /bin/true"},
        {{"merge", file, other, "--json=-"}, "{\n  \"schema\": \"tare/1\"", "}\n", run_table},
        {{"report", file, "--html=-"}, "<!DOCTYPE html>", "</html>\n", ""},
        {{"report", cmp, "--html=-"}, "<!DOCTYPE html>", "</html>\n", ""},
        {{"export", file, "--format=csv", "--output=-"}, "name,time (ns)", "\n", ""},
    };
    for (const auto& c : cases) {
        std::vector<std::string> argv{tare_cmd};
        argv.insert(argv.end(), c.args.begin(), c.args.end());
        auto r = run_in(dir, argv);
        const std::string what = c.args[0] + " " + c.args[c.args.size() - 1];
        EXPECT_EQ(r.exit_code, 0) << what << ": " << r.err;
        EXPECT_EQ(r.out.rfind(c.begins, 0), 0U) << what << ": " << r.out.substr(0, 200);
        ASSERT_GE(r.out.size(), c.ends.size()) << what;
        EXPECT_EQ(r.out.substr(r.out.size() - c.ends.size()), c.ends) << what;
        if (c.begins[0] == '{') {
            EXPECT_TRUE(json::accept(r.out)) << what << ": not one document\n" << r.out;
        }
        if (!c.table.empty()) {
            EXPECT_EQ(r.out.find(c.table), std::string::npos) << what << ": the table is on standard output";
            EXPECT_NE(r.err.find(c.table), std::string::npos) << what << ": no table on standard error\n"
                                                              << r.err;
        }
        EXPECT_FALSE(fs::exists(dir / "-")) << what;
    }
    for (const auto& two : std::vector<std::vector<std::string>>{
             {"run", file, "--json=-", "--export=bmf:-"}, {"compare", file, file, "--json=-", "--html=-"}}) {
        std::vector<std::string> argv{tare_cmd};
        argv.insert(argv.end(), two.begin(), two.end());
        auto r = run_in(dir, argv);
        EXPECT_EQ(r.exit_code, 2) << two[0];
        EXPECT_NE(r.err.find("both name standard output"), std::string::npos) << r.err;
        EXPECT_EQ(r.out, "");
    }
}

}  // namespace
}  // namespace tare
