#pragma once
// The change of a head against a base, its interval and its verdict: the plain data every
// comparison in tare reports (compare rows, exec metrics, variant groups). How they are computed
// is src/stats/difference.hpp; how they are judged is docs/statistics.md, "Paired change".

#include <cstddef>
#include <optional>
#include <string_view>

namespace tare {

/// A two-sided interval [low, high].
struct interval {
    double low = 0;
    double high = 0;
};

/// Head against base: "slower" needs the interval's low end above 0 (or above the threshold
/// band), "faster" its high end below 0; anything else, no interval included, is no_change.
/// `error`: a compare row one side of which failed, so there is nothing to judge (a script that
/// reads verdicts must not take it for a pass).
enum class verdict { faster, slower, no_change, error };

/// "faster", "slower" or "no_change", as in the JSON.
constexpr std::string_view verdict_name(verdict v) noexcept {
    switch (v) {
    case verdict::faster:
        return "faster";
    case verdict::slower:
        return "slower";
    case verdict::error:
        return "error";
    case verdict::no_change:
        break;
    }
    return "no_change";
}

/// The verdict named `name` ("faster", "slower", "no_change", "error"); empty for any other text.
constexpr std::optional<verdict> verdict_from_name(std::string_view name) noexcept {
    for (const verdict v : {verdict::faster, verdict::slower, verdict::no_change, verdict::error}) {
        if (verdict_name(v) == name)
            return v;
    }
    return std::nullopt;
}

/// Two peaks of the live heap are the same level unless they are more than this many bytes and
/// this fraction of the larger apart. The peak is in usable bytes (docs/accounting.md, "The live
/// heap in usable bytes"), and glibc hands a request a whole free chunk when what is left of it
/// would be too small to keep, up to 31 bytes more, depending on what the process freed before:
/// one executable compared with itself showed peaks 16 to 176 bytes apart on a few rows.
/// Rejected: exact equality, as allocations and bytes have (their requested sizes do not depend
/// on the allocator), which called such rows changed in an A/A. Used by `tare compare`'s summary
/// and by `tare history`, which must not find a change point where compare sees none.
inline constexpr double peak_slack_bytes = 64;
inline constexpr double peak_slack_fraction = 0.01;

/// Whether peaks `a` and `b` differ beyond that slack.
constexpr bool peaks_differ(double a, double b) noexcept {
    const double gap = a > b ? a - b : b - a;
    const double larger = a > b ? a : b;
    return gap > peak_slack_bytes && gap > peak_slack_fraction * larger;
}

/// Counted changes (pairing::counted, a counted run's variants): changes of at most this many percent get no
/// verdict, 0.01 %, one instruction in 10,000 (docs/instructions.md, "Verdicts"). Counts per iteration carry
/// a few per-chunk and first-iteration instructions spread over an iteration count that moves with the body's
/// size, so two bodies that differ only in that count differ by far less than this.
inline constexpr double count_floor_pct = 0.01;

/// The change of head against base, in percent of base (negative = head smaller/faster).
struct paired_change {
    std::size_t pairs = 0;                 // replicates used
    double confidence = 0.95;              // level of `interval_pct`
    double mean_log_ratio = 0;             // mean of log(head / base)
    double change_pct = 0;                 // 100 (exp(mean_log_ratio) - 1)
    std::optional<interval> interval_pct;  // empty: fewer than 2 pairs (infinite interval)
    double p_value = 1;                    // two-sided test of "no change"
    double log_se = 0;                     // standard error of mean_log_ratio (0: no spread)
    double df = 0;                         // degrees of freedom of its t distribution (0: none)
};

}  // namespace tare
