#pragma once
// Private to src/report: the one rule every JSON reporter writes numbers by. tare's JSON has no
// NaN or infinity literal (CONTRACT section 4): a figure that is not finite is null.

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>

#include "stats/change.hpp"

namespace tare::report::detail {

using json = nlohmann::ordered_json;

inline json finite_or_null(double value) {
    return std::isfinite(value) ? json(value) : json(nullptr);
}

/// A change of head against base as `{mean, ci_low, ci_high, [confidence, pairs,] p_value}`
/// (tare-exec/1 and tare-compare/1); null when there is none. `with_level` adds the interval's
/// level and replicate count, which tare-compare/1 reports because its level is adjusted.
inline json change_json(const std::optional<paired_change>& c, bool with_level) {
    if (!c) {
        return nullptr;
    }
    json o = json::object();
    o["mean"] = finite_or_null(c->change_pct);
    o["ci_low"] = c->interval_pct ? finite_or_null(c->interval_pct->low) : json(nullptr);
    o["ci_high"] = c->interval_pct ? finite_or_null(c->interval_pct->high) : json(nullptr);
    if (with_level) {
        o["confidence"] = finite_or_null(c->confidence);
        o["pairs"] = c->pairs;
    }
    o["p_value"] = finite_or_null(c->p_value);
    return o;
}

}  // namespace tare::report::detail
