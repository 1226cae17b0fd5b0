// JSON "tare-exec/1" for `tare exec` (every field in docs/json-schema.md). Like the tare/1
// reporter, every double goes through finite_or_null(), so no NaN or infinity literal can be
// written whatever a figure turned out to be.

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "report/exec_report.hpp"
#include "report/json_values.hpp"

namespace tare::report {
namespace {

using json = nlohmann::ordered_json;

using detail::finite_or_null;

json run_object(const exec_run& r) {
    json o = json::object();
    o["position"] = r.position;
    o["wall_seconds"] = finite_or_null(r.wall_seconds);
    o["user_seconds"] = finite_or_null(r.user_seconds);
    o["system_seconds"] = finite_or_null(r.system_seconds);
    o["max_rss_kib"] = finite_or_null(r.max_rss_kib);
    o["minor_faults"] = finite_or_null(r.minor_faults);
    o["major_faults"] = finite_or_null(r.major_faults);
    return o;
}

json side_object(const exec_side& side) {
    json o = json::object();
    o["argv"] = side.argv;
    json runs = json::array();
    for (const exec_run& r : side.runs) {
        runs.push_back(run_object(r));
    }
    o["runs"] = std::move(runs);
    json summary = json::object();
    for (exec_metric m : all_exec_metrics) {
        std::vector<double> values;
        double sum = 0;
        for (const exec_run& r : side.runs) {
            values.push_back(exec_metric_value(r, m));
            sum += values.back();
        }
        json s = json::object();
        s["mean"] = values.empty() ? json(nullptr) : finite_or_null(sum / static_cast<double>(values.size()));
        std::optional<interval> ci = stats::student_mean_interval(values);
        s["ci_low"] = ci ? finite_or_null(ci->low) : json(nullptr);
        s["ci_high"] = ci ? finite_or_null(ci->high) : json(nullptr);
        summary[std::string(exec_metric_key(m))] = std::move(s);
    }
    o["summary"] = std::move(summary);
    return o;
}

json change_object(const std::optional<paired_change>& c) {
    return detail::change_json(c, /*with_level=*/false);
}

json comparison_object(const exec_comparison& c) {
    json o = json::object();
    o["verdict"] = std::string(verdict_name(c.verdict));
    o["change_pct"] = change_object(c.changes[static_cast<std::size_t>(exec_metric::wall)]);
    o["pairs"] = c.pairs;
    o["confidence"] = 0.95;
    o["threshold_pct"] = finite_or_null(c.threshold_pct);
    json metrics = json::object();
    for (exec_metric m : all_exec_metrics) {
        metrics[std::string(exec_metric_key(m))] = change_object(c.changes[static_cast<std::size_t>(m)]);
    }
    o["metrics"] = std::move(metrics);
    return o;
}

}  // namespace

std::string render_exec_json(const exec_results& results) {
    json doc = json::object();
    doc["schema"] = "tare-exec/1";
    json context = json::object();
    context["tare_version"] = results.tare_version;
    context["host"] = results.host;
    context["date"] = results.date;
    context["warmup_runs"] = results.warmup_runs;
    context["order"] = results.base ? "ABBA" : "sequential";
    doc["context"] = std::move(context);
    doc["head"] = side_object(results.head);
    doc["base"] = results.base ? side_object(*results.base) : json(nullptr);
    doc["comparison"] = results.comparison ? comparison_object(*results.comparison) : json(nullptr);
    return doc.dump(2) + "\n";
}

}  // namespace tare::report
