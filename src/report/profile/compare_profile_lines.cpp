#include "report/profile/compare_profile_lines.hpp"

#include <algorithm>
#include <string>

#include "report/run_table.hpp"
#include "report/table/units.hpp"

namespace tare::report::detail {

using table::style;

// Under each changed row of a profiled counted comparison, the three functions whose own
// instructions per iteration changed most: "parse: number() 3,001 → 3,061 (+2.0%), ...".
table::item_list changed_function_items(const compare_results& r) {
    table::item_list items;
    for (const compare_row& row : r.rows) {
        if (row.functions.empty() || (row.verdict != verdict::slower && row.verdict != verdict::faster)) {
            continue;
        }
        std::string text = ": own instructions/iter: ";
        for (std::size_t i = 0; i < std::min<std::size_t>(3, row.functions.size()); ++i) {
            const function_change& f = row.functions[i];
            text += (i == 0 ? "" : ", ") + short_function(f.function) + " " + format_exact_count(f.base) +
                    " → " + format_exact_count(f.head);
            if (f.base > 0) {
                text += " (" + format_signed_percent(100 * (f.head - f.base) / f.base) + ")";
            }
        }
        items.items.push_back({"functions", {{one_line(row.name), style::code}, {text}}});
    }
    return items;
}

// Under each row whose allocation stacks changed (--profile), the three that changed most:
// "map/500: 500 → 510 allocs/iter, 19.5 KiB → 19.9 KiB/iter: map → std::_Rb_tree<…>::…".
table::item_list changed_allocation_items(const compare_results& r) {
    table::item_list items;
    for (const compare_row& row : r.rows) {
        std::string text;
        for (std::size_t i = 0; i < std::min<std::size_t>(3, row.allocations.size()); ++i) {
            const allocation_change& a = row.allocations[i];
            text +=
                (i == 0 ? ": " : "; ") + format_count(a.base_allocs) + " → " + format_count(a.head_allocs) +
                " allocs/iter, " + format_bytes(a.base_bytes) + " → " + format_bytes(a.head_bytes) + "/iter" +
                (a.base_allocs == 0   ? " (new)"
                 : a.head_allocs == 0 ? " (gone)"
                                      : "") +
                ": " + stack_text(a.stack) + (a.thread != 0 ? " in thread " + std::to_string(a.thread) : "");
        }
        if (!text.empty()) {
            items.items.push_back({"allocations", {{one_line(row.name), style::code}, {text}}});
        }
    }
    return items;
}

}  // namespace tare::report::detail
