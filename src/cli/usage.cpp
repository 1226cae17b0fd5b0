// The words of `tare help`, and of a mistyped command or flag (usage.hpp).
#include "cli/usage.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "cli/commands.hpp"
#include "os/os.hpp"

namespace tare::cli {

namespace {

std::string lowered(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::string_view without_dashes(std::string_view s) {
    s.remove_prefix(std::min(s.find_first_not_of('-'), s.size()));
    return s;
}

// Optimal string alignment distance: Levenshtein's insertions, deletions and substitutions, and a
// swap of two neighbours as one edit, since "comapre" is one slip of the fingers, not two.
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    }
    return d[a.size()][b.size()];
}

// The names of `app`'s own flags, as they are written: "--json", "-h".
std::vector<std::string> flag_names(const CLI::App& app) {
    std::vector<std::string> names;
    for (const CLI::Option* opt : app.get_options()) {
        for (const auto& n : opt->get_lnames())
            names.push_back("--" + n);
        for (const auto& n : opt->get_snames())
            names.push_back("-" + n);
    }
    return names;
}

std::vector<std::string> command_names(const CLI::App& app) {
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
        names.push_back(sub->get_name());
    return names;
}

// "run, exec or compare".
std::string listed(const std::vector<std::string>& names) {
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i)
        list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return list;
}

// "'rn' is not a tare command; did you mean 'run'?", or the commands there are; `who` is "tare"
// or a command with commands of its own ("tare history").
std::string unknown_command(const CLI::App& app, const std::string& word, const std::string& who = "tare") {
    const std::vector<std::string> names = command_names(app);
    std::string message = "'" + word + "' is not a " + who + " command";
    if (auto meant = closest_word(word, names))
        return message + "; did you mean '" + *meant + "'?";
    return message + " (" + listed(names) + ")";
}

// For a command with commands of its own (`tare history add`), the word after it, checked as
// misspelt_command() checks the first: nothing when it names one, or --help is asked.
std::optional<std::string> misspelt_inner(const CLI::App& command, int from, int argc, char** argv) {
    const std::vector<std::string> names = command_names(command);
    const std::string who = "tare " + command.get_name();
    for (int i = from; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "-h" || arg == "--help")
            return std::nullopt;
        if (arg.size() > 1 && arg[0] == '-')
            continue;  // a flag before the command: CLI11 says what is wrong with it
        if (std::find(names.begin(), names.end(), arg) != names.end())
            return std::nullopt;
        return unknown_command(command, arg, who);
    }
    return who + ": a command is required (" + listed(names) + ")";
}

// "tare run: unknown flag '--jsn'; did you mean '--json'?", the flag without its "=VALUE".
std::string unknown_flag(const CLI::App& where, const std::string& who, const std::string& arg,
                         const std::string& otherwise) {
    const std::string flag = arg.substr(0, arg.find('='));
    std::string message = who + "unknown flag '" + flag + "'";
    if (auto meant = closest_word(flag, flag_names(where)))
        return message + "; did you mean '" + *meant + "'?";
    return message + " " + otherwise;
}

}  // namespace

std::optional<std::string> closest_word(const std::string& word, const std::vector<std::string>& candidates) {
    const std::string w = lowered(without_dashes(word));
    if (w.empty())
        return std::nullopt;
    // A third of the word, as cargo's and clap's thresholds go, and fewer edits than letters:
    // one edit turns any one letter into any other, which says nothing of what was meant.
    const std::size_t limit =
        std::min<std::size_t>({3, std::max<std::size_t>(1, w.size() / 3), w.size() - 1});
    std::optional<std::string> best;
    std::size_t best_distance = limit + 1;
    for (const auto& c : candidates) {
        const std::size_t d = edit_distance(w, lowered(without_dashes(c)));
        if (d < best_distance) {
            best = c;
            best_distance = d;
        }
    }
    if (best || w.size() < 2)
        return best;
    std::optional<std::string> begun;
    for (const auto& c : candidates) {
        if (lowered(without_dashes(c)).rfind(w, 0) == 0) {
            if (begun)
                return std::nullopt;  // "ex": exec or export, no telling
            begun = c;
        }
    }
    return begun;
}

std::optional<std::string> misspelt_command(const CLI::App& app, int argc, char** argv) {
    const std::vector<std::string> own = flag_names(app);
    const std::vector<std::string> commands = command_names(app);
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--")
            return std::nullopt;  // CLI11's own error: nothing before it names a command
        if (arg.size() > 1 && arg[0] == '-') {
            if (std::find(own.begin(), own.end(), arg.substr(0, arg.find('='))) != own.end())
                continue;
            return unknown_flag(app, "", arg,
                                "(a command's flags go after it: tare help COMMAND lists them)");
        }
        if (std::find(commands.begin(), commands.end(), arg) == commands.end())
            return unknown_command(app, arg);
        const CLI::App* command = app.get_subcommand(arg);
        if (command_names(*command).empty())
            return std::nullopt;
        return misspelt_inner(*command, i + 1, argc, argv);
    }
    return std::nullopt;
}

int print_help(const CLI::App& app, const std::optional<std::string>& command) {
    if (!command) {
        // Not app.help(), which would give the help of the command parsed: `help` itself.
        std::fputs(app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal).c_str(),
                   stdout);
        return exit_ok;
    }
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
        if (sub->get_name() == *command) {
            // What `tare COMMAND --help` prints, "Usage: tare COMMAND ..." included.
            std::fputs(sub->help(app.get_name()).c_str(), stdout);
            return exit_ok;
        }
    }
    return fail(exit_usage, "tare help: " + unknown_command(app, *command));
}

bool missing_operand(const CLI::App& app) {
    const CLI::App* at = &app;
    while (!at->get_subcommands().empty())
        at = at->get_subcommands().back();  // the innermost: `tare history add`
    if (at == &app)
        return false;
    for (const CLI::Option* opt : at->get_options()) {
        if (opt->get_positional() && opt->get_required() && opt->count() == 0)
            return true;
    }
    return false;
}

namespace {

// The flag's value placeholder as its help shows it ("SECONDS"), or "VALUE".
std::string placeholder(const CLI::App& where, const std::string& flag) {
    const CLI::Option* opt = where.get_option_no_throw(flag);
    std::string type = opt != nullptr ? opt->get_type_name() : std::string();
    std::erase_if(type, [](char c) { return c == '[' || c == ']' || c == '='; });  // "[=PCT]"
    return type.empty() ? std::string("VALUE") : type;
}

// CLI11's words for a flag without its value ("--min-time: 1 required SECONDS missing") and for a
// value it could not convert ("Could not convert: --fail-on-regression = abc"), in the user's:
// the flag as typed and what it takes. Empty for any other message.
std::string in_users_words(const CLI::App& where, const std::string& who, const CLI::ParseError& e) {
    const std::string what = e.what();
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr && what.rfind("--", 0) == 0) {
        const std::string flag = what.substr(0, what.find(':'));
        return who + ": " + flag + " needs a value: " + flag + "=" + placeholder(where, flag) + " (" + who +
               " --help says what it takes)";
    }
    const std::string converting = "Could not convert: ";
    if (dynamic_cast<const CLI::ConversionError*>(&e) != nullptr && what.rfind(converting, 0) == 0) {
        const std::string rest = what.substr(converting.size());
        const std::size_t eq = rest.find(" = ");
        if (eq != std::string::npos) {
            const std::string flag = rest.substr(0, eq);
            return who + ": " + flag + "=" + rest.substr(eq + 3) + ": expected " + placeholder(where, flag) +
                   " (" + who + " --help says what it takes)";
        }
    }
    return {};
}

}  // namespace

std::string parse_error_message(const CLI::App& app, const CLI::ParseError& e) {
    // The innermost command parsed, and its name as typed: "tare history check".
    const CLI::App* at = &app;
    std::string who = "tare";
    while (!at->get_subcommands().empty()) {
        at = at->get_subcommands().back();
        who += " " + at->get_name();
    }
    const CLI::App& where = *at;
    if (dynamic_cast<const CLI::ExtrasError*>(&e) == nullptr) {
        std::string ours = in_users_words(where, who, e);
        return ours.empty() ? std::string(e.what()) : ours;
    }
    const std::vector<std::string> extras = where.remaining();
    for (const auto& arg : extras) {
        if (arg.size() > 1 && arg[0] == '-')
            return unknown_flag(where, who + ": ", arg, "(" + who + " --help lists its flags)");
    }
    if (extras.empty())
        return e.what();
    return who + ": unexpected argument '" + extras.front() + "' (" + who + " --help says what it takes)";
}

std::string doc_path(const std::string& name) {
    // The install puts docs/ flat in share/doc/tare/; TARE_DOCS_FROM_BINDIR is that folder seen from
    // the install's bin/ ("../share/doc/tare"), so the copy beside this executable is found under
    // any prefix, including one given only to `cmake --install --prefix`.
    namespace fs = std::filesystem;
    const std::string exe = os::executable_path();
    if (!exe.empty()) {
        const fs::path installed =
            (fs::path(exe).parent_path() / TARE_DOCS_FROM_BINDIR / name).lexically_normal();
        std::error_code ec;
        if (fs::is_regular_file(installed, ec)) {
            return installed.string();
        }
    }
    return "docs/" + name;
}

}  // namespace tare::cli
