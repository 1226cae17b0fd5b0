#pragma once
// Checks every command shares: the number flags (NaN, infinities and ranges), where outputs go
// ("-": standard output) and whether standard output took what was printed. docs/cli.md lists
// each flag's range and every exit status.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/atomic_file.hpp"
#include "os/os.hpp"
#include "report/table/document.hpp"

namespace tare::flags {

/// A finite number in [low, high] (or (low, high] when `low_open`). CLI11's PositiveNumber and
/// Range compare with < and >, which NaN passes (`--min-time=nan` ran forever) and infinity
/// passes for an open upper end: this rejects both, and says what the flag takes in words
/// ("must be > 0"). Its description is empty, so --help shows the flag's own type name
/// (SECONDS) rather than CLI11's "NUMBER in (0, 1e+06]"; the range is in the flag's text.
inline CLI::Validator finite_number(double low, double high, bool low_open = false) {
    return CLI::Validator(
        [low, high, low_open](std::string& text) -> std::string {
            double v = 0;
            if (!CLI::detail::lexical_cast(text, v))
                return "'" + text + "' is not a number";
            if (!std::isfinite(v))
                return "'" + text + "' is not a finite number";
            if (low_open && v <= low)
                return "must be > " + CLI::detail::to_string(low) + " (got " + text + ")";
            if (v < low)
                return "must be >= " + CLI::detail::to_string(low) + " (got " + text + ")";
            if (v > high)
                return "must be at most " + CLI::detail::to_string(high) + " (got " + text + ")";
            return {};
        },
        "");
}

/// A whole number in [low, high], said in words as finite_number() does ("must be >= 1"),
/// with no description of its own in --help (CLI11's Range shows "UINT:INT in [1 - 100000]").
inline CLI::Validator whole_number(long long low, long long high) {
    return CLI::Validator(
        [low, high](std::string& text) -> std::string {
            long long v = 0;
            if (!CLI::detail::lexical_cast(text, v))
                return "'" + text + "' is not a whole number";
            if (v < low)
                return "must be >= " + std::to_string(low) + " (got " + text + ")";
            if (v > high)
                return "must be at most " + std::to_string(high) + " (got " + text + ")";
            return {};
        },
        "");
}

/// One of `names`, as CLI::IsMember checks, without its "TEXT:{a,b}" in --help: the flag's
/// type name lists them ("fdr|fwer").
inline CLI::Validator one_of(std::vector<std::string> names) {
    return CLI::Validator(
        [names](std::string& text) -> std::string {
            for (const auto& n : names) {
                if (text == n)
                    return {};
            }
            std::string list;
            for (const auto& n : names)
                list += (list.empty() ? "" : ", ") + n;
            return "'" + text + "' is not one of " + list;
        },
        "");
}

/// Seconds: finite, above 0, at most 10^6 (11.5 days).
inline CLI::Validator positive_seconds() {
    return finite_number(0, 1e6, /*low_open=*/true);
}

/// --pass-env=NAME (repeatable), for --instrument: a variable of this process's environment that
/// the counted processes get beside the pinned few (docs/instructions.md, "Determinism"). A name
/// is letters, digits and '_', not starting with a digit.
/// A flag that takes one value each time it is given and may be repeated (--rename, --export,
/// --pass-env). CLI11 lets a vector-valued flag go on taking the words after it, so the paths
/// that follow (`tare run --export=csv:out.csv ./bench`) would be read as more values.
inline CLI::Option* one_value_each_time(CLI::Option* option) {
    return option->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->allow_extra_args(false);
}

inline CLI::Option* add_pass_env_option(CLI::App* cmd, std::vector<std::string>& names) {
    return one_value_each_time(
               cmd->add_option(
                      "--pass-env", names,
                      "with --instrument: give the counted processes this variable of the environment "
                      "(repeatable); else they get only PATH, HOME, TMPDIR, LD_LIBRARY_PATH and VALGRIND_LIB")
                   ->type_name("NAME"))
        ->check(CLI::Validator(
            [](std::string& text) -> std::string {
                const auto ok = [](char c, bool first) {
                    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
                           (!first && c >= '0' && c <= '9');
                };
                for (std::size_t i = 0; i < text.size(); ++i) {
                    if (!ok(text[i], i == 0))
                        return "'" + text + "' is not a variable's name (letters, digits and _)";
                }
                return text.empty() ? "a variable's name is needed" : "";
            },
            ""));
}

/// CLI11's help less its own syntax: a flag with an optional value is declared with its
/// default in braces ("--fail-on-regression{0}"), which --help would print as the flag's name.
/// Set on an app before its subcommands are added, which copy it.
class help_formatter final : public CLI::Formatter {
public:
    std::string make_option_name(const CLI::Option* opt, bool is_positional) const override {
        std::string name = CLI::Formatter::make_option_name(opt, is_positional);
        for (auto open = name.find('{'); open != std::string::npos; open = name.find('{')) {
            const auto close = name.find('}', open);
            if (close == std::string::npos)
                break;
            name.erase(open, close - open + 1);
        }
        return name;
    }
};

/// `--fail-on-regression[=PCT]` on `cmd`, held in `pct` when given (0 without a value). A flag with
/// an optional "=PCT": an option with an optional value would swallow the next positional
/// ("--fail-on-regression base head" would read "base" as PCT). Its value is held by the
/// subcommand's callback (this sets it; the command has no other), which fills `pct`.
inline void add_fail_on_regression(CLI::App* cmd, std::optional<double>& pct) {
    auto value = std::make_shared<double>(0);
    CLI::Option* flag = cmd->add_flag("--fail-on-regression{0}", *value,
                                      "exit 1 when a benchmark is slower by more than PCT (=PCT; default 0)")
                            ->type_name("[=PCT]");
    cmd->callback([&pct, value, flag] {
        if (flag->count() > 0) {
            pct = *value;
        }
    });
}

/// --wide: every column on a terminal too. One process prints its tables one way, so the flag is
/// the process's (rejected: a field in each command's arguments, five copies of one switch).
inline bool wide_tables = false;

/// `--color=auto|always|never` on `cmd`, held in `color` (default "auto"), and `--wide`: the two
/// flags of how a table is printed.
inline void add_color_option(CLI::App* cmd, std::string& color) {
    cmd->add_option("--color", color,
                    "colour verdicts, warnings and errors: auto (when the output is a terminal and NO_COLOR "
                    "is not set), always or never (default auto)")
        ->type_name("WHEN")
        ->check(one_of({"auto", "always", "never"}));
    cmd->add_flag("--wide", wide_tables,
                  "on a terminal too, print every column (by default a table narrower than the terminal "
                  "leaves out its least important ones)");
}

/// How to write a table to `fd` (standard output): colour as `color` asks ("auto": when `fd` is
/// a terminal and NO_COLOR is unset or empty, as no-color.org asks), and the terminal's width
/// when `fd` is a terminal. A pipe, a file or a CI log gets the plain text the golden tests pin.
inline report::table::console_style terminal_style(const std::string& color, int fd) {
    report::table::console_style style;
    const char* no_color = std::getenv("NO_COLOR");
    const bool terminal = os::is_terminal(fd);
    style.colour =
        color == "always" || (color == "auto" && terminal && (no_color == nullptr || *no_color == '\0'));
    style.width = wide_tables ? 0 : os::terminal_columns(fd).value_or(0);
    return style;
}

/// An output flag's PATH `-`: standard output, for every output flag of every command, as for a
/// benchmark executable's `--json=-` (docs/cli.md, "Output files").
inline bool names_standard_output(const std::optional<std::string>& path) {
    return path && *path == "-";
}

/// Where a command prints its human table: standard error when one of its outputs goes to
/// standard output, so that standard output holds that document alone and can be piped into the
/// next program (`tare run A --json=- | jq`), as a benchmark executable's `--json=-` does; else
/// standard output. Rejected: leaving the table out, which would hide a failed row's error.
inline std::FILE* table_stream(bool an_output_on_stdout) {
    return an_output_on_stdout ? stderr : stdout;
}

/// The refusal of a second output to standard output (`--json=- --html=-`): one stream holds one
/// document, and two would be one that no reader takes. `outputs` pairs each output flag, as
/// written up to its PATH ("--json=", "--export=csv:"), with that PATH, if given.
inline std::optional<std::string> one_standard_output(
    const std::vector<std::pair<std::string, std::optional<std::string>>>& outputs) {
    std::string first;
    for (const auto& [flag, path] : outputs) {
        if (!names_standard_output(path))
            continue;
        if (!first.empty())
            return first + "- and " + flag + "- both name standard output: give one of them a file";
        first = flag;
    }
    return std::nullopt;
}

/// The refusal of standard input named twice among a command's input files (`tare compare - -`):
/// a pipe is read once, so the second would be read empty. `who` is the command ("tare merge").
inline std::optional<std::string> one_standard_input(const std::string& who,
                                                     const std::vector<std::string>& inputs) {
    if (std::count(inputs.begin(), inputs.end(), std::string("-")) < 2)
        return std::nullopt;
    return who +
           ": '-' (standard input) is given more than once, and it can be read once: give the others as "
           "files";
}

/// `content` to `path`: standard output for `-`, else written atomically (io/atomic_file.hpp).
/// The error of writing a file, if any; standard output's is reported once, at the end
/// (check_standard_output).
inline std::optional<std::string> write_output(const std::string& path, std::string_view content) {
    if (path != "-")
        return io::write_file_atomically(path, content);
    std::fwrite(content.data(), 1, content.size(), stdout);
    std::fflush(stdout);
    return std::nullopt;
}

/// What `source` makes, piece by piece, to `path` as write_output() writes a whole content: the
/// content is never in memory at once.
inline std::optional<std::string> write_output(const std::string& path, const io::content_source& source) {
    if (path != "-")
        return io::write_file_atomically(path, source);
    source([](std::string_view piece) { std::fwrite(piece.data(), 1, piece.size(), stdout); });
    std::fflush(stdout);
    return std::nullopt;
}

/// What `reporter` makes of `results` (report/reporter.hpp), to `path` a piece at a time.
template <class Reporter, class Results>
std::optional<std::string> write_report(const std::string& path, const Reporter& reporter,
                                        const Results& results) {
    return write_output(path, [&](const io::piece_sink& put) { reporter.write(results, put); });
}

/// `status`, or `failure` (when higher) after a message, if standard output failed. A table or
/// `--json=-` sent to a full disk or a closed pipe would otherwise end with status 0 and nothing
/// written; checked once, at the end, since stdio keeps the first error (ferror) until then.
inline int check_standard_output(int status, int failure) {
    const bool flushed = std::fflush(stdout) == 0;
    const int error = errno;
    if (flushed && std::ferror(stdout) == 0)
        return status;
    std::fprintf(stderr, "error: cannot write standard output%s%s\n", flushed ? "" : ": ",
                 flushed ? "" : std::strerror(error));
    return status > failure ? status : failure;
}

}  // namespace tare::flags
