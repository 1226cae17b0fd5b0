// JSON "tare-compare/1" for `tare compare` (every field in docs/json-schema.md; the prefix of
// keys CONTRACT section 6 fixes comes first, in its order). Like the other JSON reporters every
// double goes through finite_or_null(), so no NaN or infinity literal can be written, and a
// figure the model leaves empty is null, never 0.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>

#include "report/compare/compare_report.hpp"
#include "report/json_values.hpp"

namespace tare::report {
namespace {

using json = nlohmann::ordered_json;
using detail::finite_or_null;

template <class T>
json optional_number(const std::optional<T>& value) {
    if (!value) {
        return nullptr;
    }
    if constexpr (std::is_floating_point_v<T>) {
        return finite_or_null(*value);
    } else {
        return *value;
    }
}

json change_object(const std::optional<paired_change>& c) {
    return detail::change_json(c, /*with_level=*/true);
}

json side_object(const side_figures& s) {
    json o = json::object();
    // A failed side measured nothing: its time is null, not the model's default 0.
    json time = json::object();
    time["mean"] = s.error ? json(nullptr) : finite_or_null(s.time_ns);
    time["ci_low"] = s.time_ci && !s.error ? finite_or_null(s.time_ci->low) : json(nullptr);
    time["ci_high"] = s.time_ci && !s.error ? finite_or_null(s.time_ci->high) : json(nullptr);
    o["time_ns"] = std::move(time);
    o["samples"] = s.samples;
    o["iterations"] = s.iterations;
    json rounds = json::array();
    for (double ns : s.round_ns) {
        rounds.push_back(finite_or_null(ns));
    }
    o["round_ns"] = std::move(rounds);
    o["allocs_per_iter"] = optional_number(s.allocs_per_iter);
    o["bytes_per_iter"] = optional_number(s.bytes_per_iter);
    o["peak_live_bytes"] = optional_number(s.peak_live_bytes);
    o["page_faults_per_iter"] = optional_number(s.page_faults_per_iter);
    json warnings = json::array();
    for (const warning& w : s.warnings) {
        warnings.push_back(json{{"kind", w.kind}, {"message", w.message}});
    }
    o["warnings"] = std::move(warnings);
    o["error"] = s.error ? json{{"kind", s.error->kind}, {"message", s.error->message}} : json(nullptr);
    return o;
}

}  // namespace

std::string render_compare_json(const compare_results& r) {
    json doc = json::object();
    doc["schema"] = "tare-compare/1";
    json context = json::object();
    context["tare_version"] = r.tare_version;
    context["host"] = r.host;
    context["date"] = r.date;
    context["base"] = r.base_label;
    context["head"] = r.head_label;
    context["mode"] = r.mode == pairing::rounds           ? "rounds"
                      : r.mode == pairing::process_rounds ? "process_rounds"
                                                          : "unpaired";
    context["rounds"] = r.rounds;
    context["cpus"] = r.cpus.empty() ? json(nullptr) : json(r.cpus);
    context["layout"] = r.mode == pairing::unpaired ? json(nullptr)
                        : r.matched_layouts         ? json("matched")
                                                    : json("kernel");
    context["alpha"] = finite_or_null(r.alpha);
    context["comparisons"] = r.comparisons;
    context["family_control"] = r.family == family_control::fdr ? "benjamini_hochberg" : "bonferroni";
    context["selected"] = r.selected;
    context["threshold_pct"] = finite_or_null(r.threshold_pct);
    doc["context"] = std::move(context);
    json rows = json::array();
    for (const compare_row& row : r.rows) {
        json o = json::object();
        o["name"] = row.name;
        o["verdict"] = std::string(verdict_name(row.verdict));
        o["change_pct"] = change_object(row.change);
        o["base"] = side_object(row.base);
        o["head"] = side_object(row.head);
        rows.push_back(std::move(o));
    }
    doc["rows"] = std::move(rows);
    doc["only_in_base"] = r.only_in_base;
    doc["only_in_head"] = r.only_in_head;
    // Names and messages come from other programs: invalid UTF-8 is replaced, never thrown on.
    return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace tare::report
