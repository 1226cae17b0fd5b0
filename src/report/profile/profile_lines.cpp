#include "report/profile/profile_lines.hpp"

#include <algorithm>
#include <string>

#include "report/run_table.hpp"
#include "report/table/units.hpp"

namespace tare::report::detail {

// Where each profiled benchmark's instructions went: its three functions of most instructions of
// their own, with their share of the region (docs/profiles.md).
table::item_list profile_items(const run_results& results) {
    table::item_list items;
    for (const auto& b : results.benchmarks) {
        if (!b.profile || failed(b) || b.profile->functions.empty())
            continue;
        double total = 0;
        for (const profile_stack& s : b.profile->stacks)
            total += s.self;
        std::string text = ": own instructions/iter: ";
        for (std::size_t i = 0; i < std::min<std::size_t>(3, b.profile->functions.size()); ++i) {
            const function_cost& f = b.profile->functions[i];
            text += (i == 0 ? "" : ", ") + short_function(f.function) + " " + format_exact_count(f.self) +
                    (total > 0 ? " (" + format_percent(100 * f.self / total) + ")" : "");
        }
        items.items.push_back({"profile", {{one_line(b.name), table::style::code}, {text}}});
    }
    return items;
}

}  // namespace tare::report::detail
