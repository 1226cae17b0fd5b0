#include "history/provenance.hpp"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "os/process.hpp"

namespace tare::history {
namespace {

// The first line of git's answer to `args`, or nothing (no git, not a repository, no such
// commit). Its standard error is discarded: "not a git repository" is for the caller to say.
std::optional<std::string> git(const std::vector<std::string>& args) {
    const char* path = std::getenv("PATH");
    const std::optional<std::string> program =
        os::find_in_path("git", path != nullptr ? path : "/usr/bin:/bin");
    if (!program)
        return std::nullopt;
    std::vector<std::string> argv{*program};
    argv.insert(argv.end(), args.begin(), args.end());
    os::child_options o;
    o.discard_stderr = true;
    o.timeout_seconds = 30;
    const os::captured_child r = os::run_child_capturing(argv, o, std::size_t{1} << 16);
    if (!r.result.started || r.result.exit_code != 0 || r.over)
        return std::nullopt;
    std::string line = r.output.substr(0, r.output.find('\n'));
    if (line.empty())
        return std::nullopt;
    return line;
}

std::optional<std::string> first_variable(std::initializer_list<const char*> names) {
    for (const char* n : names) {
        const char* v = std::getenv(n);
        if (v != nullptr && *v != '\0')
            return std::string(v);
    }
    return std::nullopt;
}

std::string format_utc(std::time_t t) {
    std::tm tm{};
    gmtime_r(&t, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

}  // namespace

std::optional<std::string> normalize_date(std::string_view text) {
    const std::string s(text);
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, used = 0;
    if (std::sscanf(s.c_str(), "%4d-%2d-%2d%n", &year, &month, &day, &used) != 3 || used != 10)
        return std::nullopt;
    std::size_t at = 10;
    long offset = 0;  // seconds east of UTC
    if (at < s.size()) {
        if ((s[at] != 'T' && s[at] != ' ') ||
            std::sscanf(s.c_str() + at + 1, "%2d:%2d%n", &hour, &minute, &used) != 2 || used != 5)
            return std::nullopt;
        at += 6;
        if (at < s.size() && s[at] == ':') {
            if (std::sscanf(s.c_str() + at + 1, "%2d%n", &second, &used) != 1 || used != 2)
                return std::nullopt;
            at += 3;
        }
        while (at < s.size() && s[at] == '.')  // fractions of a second: dropped
            for (++at; at < s.size() && s[at] >= '0' && s[at] <= '9';)
                ++at;
        if (at < s.size() && s[at] == 'Z') {
            ++at;
        } else if (at < s.size() && (s[at] == '+' || s[at] == '-')) {
            const long sign = s[at] == '-' ? -1 : 1;
            int oh = 0, om = 0;
            const char* rest = s.c_str() + at + 1;
            if (std::sscanf(rest, "%2d:%2d%n", &oh, &om, &used) == 2 && used == 5) {
                at += 6;
            } else if (std::sscanf(rest, "%2d%2d%n", &oh, &om, &used) == 2 && used == 4) {
                at += 5;
            } else {
                return std::nullopt;
            }
            offset = sign * (oh * 3600L + om * 60L);
        }
        if (at != s.size())
            return std::nullopt;
    }
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
        return std::nullopt;
    std::tm tm{};
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = second;
    const std::time_t t = timegm(&tm);
    if (t == static_cast<std::time_t>(-1) || tm.tm_mday != day)
        return std::nullopt;  // 2026-02-30 normalises to March: not a date given
    // From 1970 (github-action-benchmark's dates are milliseconds since then) to 9999: the form
    // written is read back. Year 330 was written "330-11-03T…", which no reader took again.
    if (t - offset < 0)
        return std::nullopt;
    std::string out = format_utc(t - offset);
    if (out.size() != 20)
        return std::nullopt;
    return out;
}

std::variant<provenance, std::string> complete_provenance(provenance given, const std::string& results_date) {
    if (given.commit.empty()) {
        if (auto c = git({"rev-parse", "--verify", "-q", "HEAD"}))
            given.commit = *c;
        else if (auto v = first_variable({"GITHUB_SHA", "CI_COMMIT_SHA"}))
            given.commit = *v;
        else
            return std::string("no commit: not in a git repository with a commit; give it with --commit=SHA");
    }
    if (given.branch.empty()) {
        if (auto b = git({"symbolic-ref", "--short", "-q", "HEAD"}))
            given.branch = *b;
        else if (auto v = first_variable({"GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME"}))
            given.branch = *v;
        else
            return std::string(
                "no branch: git's HEAD is on none (a detached checkout); give it with --branch=NAME");
    }
    if (!given.date.empty()) {
        const std::optional<std::string> d = normalize_date(given.date);
        if (!d)
            return "--date: '" + given.date +
                   "' is not an ISO 8601 date (2026-12-04 or 2026-12-04T10:30:00Z)";
        given.date = *d;
    } else if (auto g = git({"show", "-s", "--format=%cI", given.commit + "^{commit}", "--"})) {
        given.date = normalize_date(*g).value_or("");
    }
    if (given.date.empty())
        given.date = normalize_date(results_date).value_or(format_utc(std::time(nullptr)));
    return given;
}

}  // namespace tare::history
