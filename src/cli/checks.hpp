#pragma once
// Checks every command shares: the number flags (NaN, infinities and ranges) and whether standard
// output took what was printed. docs/cli.md lists each flag's range and every exit status.

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

namespace tare::cli {

/// A finite number in [low, high] (or (low, high] when `low_open`). CLI11's PositiveNumber and
/// Range compare with < and >, which NaN passes (`--min-time=nan` ran forever) and infinity
/// passes for an open upper end: this rejects both, and says what the flag takes.
inline CLI::Validator finite_number(double low, double high, bool low_open = false) {
    const std::string range = std::string(low_open ? "(" : "[") + CLI::detail::to_string(low) + ", " +
                              CLI::detail::to_string(high) + "]";
    return CLI::Validator(
        [low, high, low_open, range](std::string& text) -> std::string {
            double v = 0;
            if (!CLI::detail::lexical_cast(text, v))
                return "'" + text + "' is not a number";
            if (!std::isfinite(v))
                return "'" + text + "' is not a finite number";
            if (v < low || v > high || (low_open && v == low))
                return text + " is outside " + range;
            return {};
        },
        "NUMBER in " + range);
}

/// Seconds: finite, above 0, at most 10^6 (11.5 days).
inline CLI::Validator positive_seconds() {
    return finite_number(0, 1e6, /*low_open=*/true);
}

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

}  // namespace tare::cli
