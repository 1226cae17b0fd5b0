// The tare-compare/1 mapping (docs/json-schema.md). The keys whose place is fixed (schema,
// rows[].name, .verdict, .change_pct.mean/ci_low/ci_high, only_in_base, only_in_head) come first,
// in their order. A figure the model leaves empty is null, never 0. How the mapping is run is
// io/json_codec.hpp.

#include "io/compare_mapping.hpp"

#include <string>

#include "io/json_codec.hpp"
#include "io/json_document.hpp"
#include "io/shared_mapping.hpp"

namespace tare::io::codec {
namespace {

inline constexpr enum_names<pairing, 5> pairing_codec{{{{pairing::rounds, "rounds"},
                                                        {pairing::process_rounds, "process_rounds"},
                                                        {pairing::unpaired, "unpaired"},
                                                        {pairing::processes, "processes"},
                                                        {pairing::counted, "counted"}}}};

inline constexpr enum_names<family_control, 2> family_codec{
    {{{family_control::fdr, "benjamini_hochberg"}, {family_control::fwer, "bonferroni"}}}};

// "matched" or "kernel"; null for two results files, whose processes tare did not start.
struct layout_codec {
    static constexpr bool reads_null = true;

    json write(const compare_results& r) const {
        if (r.mode == pairing::unpaired || r.mode == pairing::processes || r.mode == pairing::counted)
            return nullptr;
        return r.matched_layouts ? "matched" : "kernel";
    }
    void read(const json& j, compare_results& r, const std::string& path, const json&) const {
        if (j.is_null() || j == "kernel") {
            r.matched_layouts = false;
        } else if (j == "matched") {
            r.matched_layouts = true;
        } else {
            throw field_error(path, "expected \"matched\", \"kernel\" or null");
        }
    }
};

}  // namespace

// A failed side measured nothing: its time is null, not the model's default 0.
template <>
struct fields<side_figures> {
    template <class V, class S>
    static void map(V& v, S& s) {
        const bool ok = !s.error;
        const bool timed = ok && !s.counts;  // a counted side has no time (docs/instructions.md)
        v.object("time_ns", {}, [&](auto& t) {
            t("mean", s.time_ns, figure(timed));
            t("ci_low", s.time_ci, ci_low, figure(timed));
            t("ci_high", s.time_ci, ci_high, figure(timed));
        });
        v("samples", s.samples);
        v("iterations", s.iterations);
        v("round_ns", s.round_ns);
        v("allocs_per_iter", s.allocs_per_iter);
        v("bytes_per_iter", s.bytes_per_iter);
        v("peak_live_bytes", s.peak_live_bytes);
        v("page_faults_per_iter", s.page_faults_per_iter);
        v("copied_bytes_per_iter", s.copied_bytes_per_iter, omit_empty);  // tare::copies linked
        v("set_bytes_per_iter", s.set_bytes_per_iter, omit_empty);
        v("mapped_bytes_per_iter", s.mapped_bytes_per_iter, omit_empty);  // mappings counted
        map_counts(v, s);                                                 // --instrument: the side's counts
        v("instruction_profile", s.profile, omit_empty);                  // --profile: the side's profile
        v("warnings", s.warnings);
        v("error", s.error);
    }
    static void check(const side_figures& s, const std::string& path) {
        check_non_negative(s.time_ns, child_path(path, "time_ns.mean"));
        check_interval(s.time_ci, child_path(path, "time_ns"));
        check_non_negative(s.round_ns, child_path(path, "round_ns"));
        check_non_negative(s.allocs_per_iter, child_path(path, "allocs_per_iter"));
        check_non_negative(s.bytes_per_iter, child_path(path, "bytes_per_iter"));
        check_non_negative(s.peak_live_bytes, child_path(path, "peak_live_bytes"));
        check_non_negative(s.page_faults_per_iter, child_path(path, "page_faults_per_iter"));
        check_non_negative(s.copied_bytes_per_iter, child_path(path, "copied_bytes_per_iter"));
        check_non_negative(s.set_bytes_per_iter, child_path(path, "set_bytes_per_iter"));
        check_non_negative(s.mapped_bytes_per_iter, child_path(path, "mapped_bytes_per_iter"));
        check_counts(s.counts, path);
    }
};

template <>
struct fields<function_change> {
    template <class V, class F>
    static void map(V& v, F& f) {
        v("function", f.function, required);
        v("base", f.base, required);
        v("head", f.head, required);
    }
    static void check(const function_change& f, const std::string& path) {
        check_profile_figure(f.base, child_path(path, "base"));
        check_profile_figure(f.head, child_path(path, "head"));
    }
};

template <>
struct fields<allocation_change> {
    template <class V, class A>
    static void map(V& v, A& a) {
        v("stack", a.stack, required);
        v("thread", a.thread);
        v("base_allocs_per_iter", a.base_allocs, required);
        v("head_allocs_per_iter", a.head_allocs, required);
        v("base_bytes_per_iter", a.base_bytes, required);
        v("head_bytes_per_iter", a.head_bytes, required);
    }
    static void check(const allocation_change& a, const std::string& path) {
        if (a.stack.empty() || a.stack.size() > max_stack_frames)
            throw field_error(child_path(path, "stack"),
                              "expected 1 to " + std::to_string(max_stack_frames) + " frames");
        check_profile_figure(a.base_allocs, child_path(path, "base_allocs_per_iter"));
        check_profile_figure(a.head_allocs, child_path(path, "head_allocs_per_iter"));
        check_profile_figure(a.base_bytes, child_path(path, "base_bytes_per_iter"));
        check_profile_figure(a.head_bytes, child_path(path, "head_bytes_per_iter"));
    }
};

template <>
struct fields<compare_row> {
    template <class V, class R>
    static void map(V& v, R& row) {
        v("name", row.name, required);
        v("verdict", row.verdict, verdict_codec);
        v("change_pct", row.change, change_codec{change_shape::with_level_and_p_value});
        v("base", row.base);
        v("head", row.head);
        // tare additions
        v("not_judged", row.unjudged);
        v("head_name", row.head_name, omit_empty);
        v("changed_functions", row.functions, omit_empty);  // --profile of a counted comparison
        v("changed_allocation_stacks", row.allocations, omit_empty);
    }
};

template <>
struct fields<compare_results> {
    // Read row by row as parsed (read_document).
    static constexpr auto streamed = &compare_results::rows;
    static constexpr std::string_view streamed_key = "rows";

    template <class V, class R>
    static void map(V& v, R& r) {
        v.object("context", {}, [&](auto& c) {
            c("tare_version", r.tare_version);
            c("host", r.host);
            c("date", r.date);
            c("base", r.base_label);
            c("head", r.head_label);
            c("mode", r.mode, pairing_codec);
            c("rounds", r.rounds);
            c("base_processes", r.base_processes);
            c("head_processes", r.head_processes);
            c("cpus", r.cpus, null_if_empty{}, nullable);
            c("layout", r, layout_codec{});
            c("alpha", r.alpha);
            c("comparisons", r.comparisons);
            c("family_control", r.family, family_codec);
            c("selected", r.selected);
            c("threshold_pct", r.threshold_pct);
            c("interrupted", r.interrupted);
            // What differs in how the sides were instrumented; [] when they are alike.
            c("mixed_instrumentation", r.mixed_instrumentation);
            c("mixed_instrumentation_allowed", r.mixed_instrumentation_allowed);
        });
        v("rows", r.rows, required);
        v("only_in_base", r.only_in_base);
        v("only_in_head", r.only_in_head);
        // Two results files compared: each file's own context (when and where it was recorded).
        v("base_context", r.base_context, omit_empty);
        v("head_context", r.head_context, omit_empty);
    }
};

}  // namespace tare::io::codec

namespace tare::io {

std::string write_compare_json(const compare_results& results) {
    return codec::write_document("tare-compare/1", results);
}

void write_compare_json(const compare_results& results, const std::function<void(std::string_view)>& put) {
    codec::write_document("tare-compare/1", results, put);
}

std::variant<compare_results, read_error> parse_compare_json(const std::string& text,
                                                             const std::string& origin) {
    return codec::read_document<compare_results>(text, origin, "tare-compare/1");
}

}  // namespace tare::io
