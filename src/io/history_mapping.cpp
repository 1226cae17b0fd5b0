// The tare-history-check/1 mapping (docs/json-schema.md). How the mapping is run is
// io/json_codec.hpp.

#include "io/history_mapping.hpp"

#include <string>

#include "io/json_codec.hpp"
#include "io/json_document.hpp"

namespace tare::io::codec {
namespace {

/// "regression", "improvement" or "changed" (model/history.hpp).
inline constexpr enum_names<history_direction, 3> direction_codec{
    {{{history_direction::regression, "regression"},
      {history_direction::improvement, "improvement"},
      {history_direction::changed, "changed"}}}};

}  // namespace

template <>
struct fields<history_run> {
    template <class V, class R>
    static void map(V& v, R& r) {
        v("id", r.id);
        v("commit", r.commit);
        v("branch", r.branch);
        v("date", r.date);
        v("source", r.source);
        v("kind", r.kind);
        v("benchmarks", r.benchmarks);
    }
};

template <>
struct fields<history_measure_change> {
    template <class V, class M>
    static void map(V& v, M& m) {
        v("measure", m.measure, required);
        v("exact", m.exact);
        v("before", m.before);
        v("after", m.after);
        v("runs_before", m.runs_before);
        v("runs_after", m.runs_after);
        v("change_pct", m.change_pct);
        v("ci_low_pct", m.interval_pct, ci_low);
        v("ci_high_pct", m.interval_pct, ci_high);
        v("p_value", m.p_value);
        v("direction", m.direction, direction_codec);
    }
    static void check(const history_measure_change& m, const std::string& path) {
        check_interval(m.interval_pct, path);
    }
};

template <>
struct fields<history_change> {
    template <class V, class C>
    static void map(V& v, C& c) {
        v("benchmark", c.benchmark, required);
        v("before", c.before, required);
        v("after", c.after, required);
        v("after_position", c.after_position);
        v("measures", c.measures);
        v("at_head", c.at_head);
    }
};

template <>
struct fields<history_head_change> {
    template <class V, class M>
    static void map(V& v, M& m) {
        v("benchmark", m.benchmark, required);
        v("measure", m.measure, required);
        v("exact", m.exact);
        v("level", m.level);
        v("head", m.head);
        v("runs", m.runs);
        v("since", m.since);
        v("change_pct", m.change_pct);
        v("ci_low_pct", m.interval_pct, ci_low);
        v("ci_high_pct", m.interval_pct, ci_high);
        v("p_value", m.p_value);
        v("direction", m.direction, direction_codec);
    }
    static void check(const history_head_change& m, const std::string& path) {
        check_interval(m.interval_pct, path);
        if (!(m.p_value >= 0 && m.p_value <= 1))
            throw field_error(child_path(path, "p_value"), "expected a number in [0, 1]");
    }
};

template <>
struct fields<history_head> {
    template <class V, class H>
    static void map(V& v, H& h) {
        v("source", h.source);
        v("compared", h.compared);
        v("too_few_runs", h.too_few);
        v("not_in_history", h.not_in_history);
        v("changes", h.changes);
    }
};

template <>
struct fields<history_check> {
    template <class V, class R>
    static void map(V& v, R& r) {
        v("store", r.store);
        v("branch", r.branch);
        v("runs", r.runs);
        v("series", r.series);
        v("alpha", r.alpha);
        v("permutations", r.permutations);
        v("recent", r.recent);
        v("changes", r.changes);
        v("head", r.head, omit_empty);  // --head
    }
};

}  // namespace tare::io::codec

namespace tare::io {

std::string write_history_check_json(const history_check& check) {
    return codec::write_document("tare-history-check/1", check);
}

std::variant<history_check, read_error> parse_history_check_json(const std::string& text,
                                                                 const std::string& origin) {
    return codec::read_document<history_check>(text, origin, "tare-history-check/1");
}

}  // namespace tare::io
