#include "instrument/judge.hpp"

#include <algorithm>
#include <cmath>

namespace tare::instrument {

paired_change count_change(double base, double head) {
    paired_change c;
    c.pairs = 1;
    c.confidence = 1;
    c.mean_log_ratio = std::log(head / base);
    c.change_pct = 100 * (head / base - 1);
    c.interval_pct = interval{c.change_pct, c.change_pct};
    c.p_value = head == base ? 1 : 0;
    return c;
}

verdict count_verdict(const paired_change& change, double threshold_pct) {
    const double band = std::max(count_floor_pct, threshold_pct);
    if (change.change_pct > band) {
        return verdict::slower;
    }
    if (change.change_pct < -band) {
        return verdict::faster;
    }
    return verdict::no_change;
}

std::vector<variant_comparison> compare_members(const core::group_instance& group,
                                                const std::vector<benchmark_result>& rows) {
    std::vector<variant_comparison> out;
    if (rows.empty() || rows.size() != group.members.size()) {
        return out;
    }
    const benchmark_result& base = rows.front();
    for (std::size_t i = 1; i < rows.size(); ++i) {
        variant_comparison v;
        v.group = group.group;
        v.name = group.name;
        v.baseline = base.name;
        v.member = rows[i].name;
        v.instrument = base.counts ? base.counts->instrument : std::string("instructions");
        if (base.counts && rows[i].counts && base.counts->instructions > 0 &&
            rows[i].counts->instructions > 0) {
            v.change = count_change(base.counts->instructions, rows[i].counts->instructions);
            v.verdict = count_verdict(*v.change);
        }
        out.push_back(std::move(v));
    }
    return out;
}

}  // namespace tare::instrument
