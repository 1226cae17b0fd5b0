#pragma once
// Checks for the number flags of every command. CLI11's PositiveNumber and Range compare with <
// and >, which NaN passes (`--min-time=nan` ran forever) and infinity passes for an open upper
// end: these reject both, and say what the flag takes. docs/cli.md lists each flag's range.

#include <CLI/CLI.hpp>
#include <cmath>
#include <string>

namespace tare::cli {

/// A finite number in [low, high] (or (low, high] when `low_open`).
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

}  // namespace tare::cli
