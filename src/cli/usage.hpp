#pragma once
// The `tare` command's front door, said as git, cargo and hyperfine say it: `tare help
// [COMMAND]`, and a mistyped command or flag answered with the one the user most likely meant
// ("did you mean 'run'?") rather than CLI11's own words. docs/cli.md, "The tare command".

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
class ParseError;
}  // namespace CLI

namespace tare::cli {

/// The candidate `word` most likely meant, when one is close enough: the nearest by edit
/// distance (insertions, deletions, substitutions and swaps of neighbours, each 1) if within a
/// third of `word`'s length (at least 1, at most 3), else the only candidate that `word` begins.
/// Ties go to the earlier candidate.
std::optional<std::string> closest_word(const std::string& word, const std::vector<std::string>& candidates);

/// What the user's words say before CLI11 parses them: a first word that is not a command, or a
/// flag before it that is not tare's own, is an error naming it (with the closest command or
/// flag); the message, or nothing when CLI11 may parse.
std::optional<std::string> misspelt_command(const CLI::App& app, int argc, char** argv);

/// `tare help [COMMAND]`: the help of `app` or of its command `command`, as `--help` prints it; or
/// the error for a command that does not exist.
int print_help(const CLI::App& app, const std::optional<std::string>& command);

/// True when the command being parsed lacks an operand (a positional such as TARGET or FILE). Its
/// command then says what to give, in words, as the first thing it checks: CLI11 would name the
/// operand as --help does ("TARGET is required").
bool missing_operand(const CLI::App& app);

/// A CLI11 parse error in the user's words: an unknown flag of a command with the closest of its
/// flags, an unexpected argument by name; any other error as CLI11 says it (its validators'
/// messages are tare's own, docs/cli.md).
std::string parse_error_message(const CLI::App& app, const CLI::ParseError& e);

/// Where the document `name` (cli.md, compare.md, ...) is, as --help names it: the installed copy
/// when the command runs from an installed tare (share/doc/tare/NAME beside its bin/), else
/// docs/NAME, the document in tare's sources.
std::string doc_path(const std::string& name);

}  // namespace tare::cli
