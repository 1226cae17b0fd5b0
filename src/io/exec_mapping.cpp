// The tare-exec/1 mapping (docs/json-schema.md). How the mapping is run is io/json_codec.hpp.

#include "io/exec_mapping.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "io/json_codec.hpp"
#include "io/json_document.hpp"

namespace tare::io::codec {
namespace {

// An object with one key per metric (exec_metric_key), in table order, each value written by
// `element`; a metric missing on reading keeps the model's value.
template <class Element>
struct per_metric {
    Element element;
    static constexpr bool reads_null = false;

    template <class T>
    json write(const std::array<T, exec_metric_count>& values) const {
        json out = json::object();
        for (const exec_metric m : all_exec_metrics)
            out[std::string(exec_metric_key(m))] = element.write(values[static_cast<std::size_t>(m)]);
        return out;
    }
    template <class T>
    void read(const json& j, std::array<T, exec_metric_count>& values, const std::string& path,
              const json&) const {
        if (!j.is_object())
            throw field_error(path, "expected an object");
        reader r(j, path);
        for (const exec_metric m : all_exec_metrics)
            r(exec_metric_key(m), values[static_cast<std::size_t>(m)], element);
    }
};

// A summary is always an object, its figures null when there is none (no runs): one shape for
// every side. Reading all-null figures gives no summary.
struct summary_codec {
    json write(const std::optional<exec_summary>& s) const {
        return value_codec<exec_summary>::write(
            s.value_or(exec_summary{std::numeric_limits<double>::quiet_NaN(), {}}));
    }
    void read(const json& j, std::optional<exec_summary>& s, const std::string& path,
              const json& parent) const {
        exec_summary out;
        value_codec<exec_summary>::read(j, out, path, parent);
        if (std::isnan(out.mean) && !out.ci) {
            s.reset();
        } else {
            s = out;
        }
    }
};

}  // namespace

template <>
struct fields<exec_run> {
    template <class V, class R>
    static void map(V& v, R& r) {
        v("position", r.position);
        v("wall_seconds", r.wall_seconds);
        v("user_seconds", r.user_seconds);
        v("system_seconds", r.system_seconds);
        v("max_rss_kib", r.max_rss_kib);
        v("minor_faults", r.minor_faults);
        v("major_faults", r.major_faults);
    }
    static void check(const exec_run& r, const std::string& path) {
        check_non_negative(r.wall_seconds, child_path(path, "wall_seconds"));
        check_non_negative(r.user_seconds, child_path(path, "user_seconds"));
        check_non_negative(r.system_seconds, child_path(path, "system_seconds"));
        check_non_negative(r.max_rss_kib, child_path(path, "max_rss_kib"));
        check_non_negative(r.minor_faults, child_path(path, "minor_faults"));
        check_non_negative(r.major_faults, child_path(path, "major_faults"));
    }
};

template <>
struct fields<exec_summary> {
    template <class V, class S>
    static void map(V& v, S& s) {
        v("mean", s.mean);
        v("ci_low", s.ci, ci_low);
        v("ci_high", s.ci, ci_high);
    }
    static void check(const exec_summary& s, const std::string& path) {
        check_non_negative(s.mean, child_path(path, "mean"));
        check_interval(s.ci, path);
    }
};

template <>
struct fields<exec_side> {
    template <class V, class S>
    static void map(V& v, S& s) {
        v("argv", s.argv);
        v("runs", s.runs);
        v("summary", s.summaries, per_metric<summary_codec>{});
    }
};

template <>
struct fields<exec_comparison> {
    template <class V, class C>
    static void map(V& v, C& c) {
        constexpr change_codec change{change_shape::with_p_value};
        v("verdict", c.verdict, verdict_codec);
        // Wall time's change, repeated from metrics.wall_seconds beside the verdict it decides:
        // derived, not read back.
        v.derived("change_pct",
                  [&] { return change.write(c.changes[static_cast<std::size_t>(exec_metric::wall)]); });
        v("pairs", c.pairs);
        // The level of every interval of tare exec (docs/statistics.md): a constant, not read back.
        v.derived("confidence", [] { return json(0.95); });
        v("threshold_pct", c.threshold_pct);
        v("metrics", c.changes, per_metric<change_codec>{change});
    }
};

template <>
struct fields<exec_results> {
    template <class V, class R>
    static void map(V& v, R& r) {
        v.object("context", {}, [&](auto& c) {
            c("tare_version", r.tare_version);
            c("host", r.host);
            c("date", r.date);
            c("warmup_runs", r.warmup_runs);
            // Derived from whether there is a base: not read back.
            c.derived("order", [&] { return json(r.base ? "ABBA" : "sequential"); });
        });
        v("head", r.head, required);
        v("base", r.base);
        v("comparison", r.comparison);
    }
};

}  // namespace tare::io::codec

namespace tare::io {

std::string write_exec_json(const exec_results& results) {
    return codec::write_document("tare-exec/1", results);
}

std::variant<exec_results, read_error> parse_exec_json(const std::string& text, const std::string& origin) {
    return codec::read_document<exec_results>(text, origin, "tare-exec/1");
}

}  // namespace tare::io
