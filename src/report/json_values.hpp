#pragma once
// Private to src/report: the one rule every JSON reporter writes numbers by. tare's JSON has no
// NaN or infinity literal (CONTRACT section 4): a figure that is not finite is null.

#include <cmath>
#include <nlohmann/json.hpp>

namespace tare::report::detail {

using json = nlohmann::ordered_json;

inline json finite_or_null(double value) {
    return std::isfinite(value) ? json(value) : json(nullptr);
}

}  // namespace tare::report::detail
