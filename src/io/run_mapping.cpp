// The tare/1 mapping (docs/json-schema.md): in each object the documented fields come first, in
// their order, then tare's additions, so a reader diffing two files sees the familiar shape first.
// How the mapping is run is io/json_codec.hpp.

#include "io/run_mapping.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "io/json_codec.hpp"
#include "io/json_document.hpp"
#include "io/shared_mapping.hpp"
#include "stats/descriptive.hpp"

namespace tare::io::codec {
namespace {

// The name → value pairs of the benchmark's counters, in the order it set them. A name set twice
// keeps its first position and its last value, as a map would (ordered_json's operator[]).
struct counters_codec {
    json write(const std::vector<std::pair<std::string, double>>& counters) const {
        json out = json::object();
        for (const auto& [name, value] : counters)
            out[name] = finite_or_null(value);
        return out;
    }
    void read(const json& j, std::vector<std::pair<std::string, double>>& counters, const std::string& path,
              const json&) const {
        if (!j.is_object())
            throw field_error(path, "expected an object");
        counters.clear();
        for (const auto& [name, value] : j.items()) {
            double v = 0;
            value_codec<double>::read(value, v, child_path(path, name));
            counters.emplace_back(name, v);
        }
    }
};

std::string entries(std::size_t n) {
    return "expected " + std::to_string(n) + (n == 1 ? " entry" : " entries");
}

// `sample_iterations`, parallel to `samples_ns`: reading it makes the samples, each one's time
// the per-iteration time by its iterations. Empty when the per-sample counts are unknown
// (results imported from elsewhere): then there are per-iteration times only.
struct sample_iterations_codec {
    json write(const benchmark_result& b) const {
        json out = json::array();
        for (const sample& s : b.samples)
            out.push_back(s.iterations);
        return out;
    }
    void read(const json& j, benchmark_result& b, const std::string& path, const json&) const {
        std::vector<std::uint64_t> iterations;
        value_codec<std::vector<std::uint64_t>>::read(j, iterations, path);
        if (!iterations.empty() && iterations.size() != b.samples_ns.size())
            throw field_error(path, entries(b.samples_ns.size()) + ", one per samples_ns");
        // Reserved: grown by doubling, a row of 300 samples took room for 512.
        b.samples.clear();
        b.samples.reserve(iterations.size());
        for (std::size_t i = 0; i < iterations.size(); ++i) {
            sample s;
            s.iterations = iterations[i];
            s.elapsed_ns = b.samples_ns[i] * static_cast<double>(s.iterations);
            b.samples.push_back(s);
        }
    }
};

// `processes` (tare run --processes): each process's share of `samples_ns`, in order, with the
// median of its share. Read after samples_ns, whose partition it must be; the medians are checked
// against the samples, so a file edited by hand cannot compare on figures its samples do not hold.
struct processes_codec {
    const std::vector<double>* samples_ns;

    json write(const std::vector<process_figures>& processes) const {
        json out = json::array();
        for (const process_figures& p : processes) {
            json one = json::object();
            one["samples"] = p.samples;
            one["median_ns"] = finite_or_null(p.median_ns);
            out.push_back(std::move(one));
        }
        return out;
    }
    void read(const json& j, std::vector<process_figures>& processes, const std::string& path,
              const json&) const {
        if (!j.is_array())
            throw field_error(path, "expected an array");
        processes.clear();
        std::size_t at = 0;
        for (std::size_t i = 0; i < j.size(); ++i) {
            const std::string here = element_path(path, i);
            if (!j[i].is_object())
                throw field_error(here, "expected an object");
            process_figures p;
            reader r(j[i], here);
            r("samples", p.samples, required);
            r("median_ns", p.median_ns, required);
            if (p.samples == 0 || p.samples > samples_ns->size() - at)
                throw field_error(child_path(here, "samples"),
                                  "the processes' samples must add up to samples_ns's " +
                                      std::to_string(samples_ns->size()));
            const double median = stats::median(std::span<const double>(*samples_ns).subspan(at, p.samples));
            if (std::abs(median - p.median_ns) > 1e-9 * std::max(1.0, std::abs(median)))
                throw field_error(
                    child_path(here, "median_ns"),
                    "is not the median of the process's samples (" + std::to_string(median) + ")");
            at += p.samples;
            processes.push_back(p);
        }
        if (at != samples_ns->size())
            throw field_error(path, "the processes' samples must add up to samples_ns's " +
                                        std::to_string(samples_ns->size()));
    }
};

// What retained growth is fitted on (docs/accounting.md): the live heap at each sample's end
// against the iterations run by then, one column each. Both or neither: null without accounting
// (never invented zeros), and reading them is what makes `sample_heap_measured`.
template <class M>
struct heap_column {
    M sample::*column;
    const char* partner;

    json write(const benchmark_result& b) const {
        json out = json::array();
        for (const sample& s : b.samples)
            out.push_back(s.*column);
        return out;
    }
    void read(const json& j, benchmark_result& b, const std::string& path, const json& parent) const {
        const auto other = parent.find(partner);
        if (other == parent.end() || other->is_null())
            throw field_error(path, std::string("given without ") + partner);
        std::vector<M> values;
        value_codec<std::vector<M>>::read(j, values, path);
        if (values.size() != b.samples.size())
            throw field_error(path, entries(b.samples.size()) + ", one per sample_iterations");
        for (std::size_t i = 0; i < values.size(); ++i) {
            sample s = b.samples[i];
            s.*column = values[i];
            b.samples.set(i, s);
        }
        b.sample_heap_measured = true;
    }
};

// The level or the p-value of a group comparison's change, written beside its change_pct.
struct change_member {
    double paired_change::*member;
    static constexpr bool reads_null = true;

    json write(const std::optional<paired_change>& c) const {
        return c ? finite_or_null((*c).*member) : json(nullptr);
    }
    void read(const json& j, std::optional<paired_change>& c, const std::string& path, const json&) const {
        double v = 0;
        value_codec<double>::read(j, v, path);
        if (c)  // without a change there is nothing it could be the level or p-value of
            (*c).*member = v;
    }
};

const benchmark_result* measured_row(const run_results& results, const std::string& name) {
    for (const auto& b : results.benchmarks) {
        if (b.name == name)
            return b.error ? nullptr : &b;
    }
    return nullptr;
}

template <class T>
json memory_pair(const benchmark_result* base, const benchmark_result* member,
                 std::optional<T> benchmark_result::*figure_of) {
    const std::optional<T> none;
    const std::optional<T>& b = base != nullptr ? base->*figure_of : none;
    const std::optional<T>& m = member != nullptr ? member->*figure_of : none;
    json out = json::object();
    out["baseline"] = value_codec<std::optional<T>>::write(b);
    out["member"] = value_codec<std::optional<T>>::write(m);
    out["change"] = b && m ? value_codec<std::optional<T>>::write(*m - *b) : json(nullptr);
    return out;
}

// The memory figures of both members, repeated from their rows in `benchmarks` with the change.
json memory_block(const run_results& results, const variant_comparison& c) {
    const benchmark_result* base = measured_row(results, c.baseline);
    const benchmark_result* member = measured_row(results, c.member);
    json memory = json::object();
    memory["allocs_per_iter"] = memory_pair(base, member, &benchmark_result::allocs_per_iter);
    memory["bytes_per_iter"] = memory_pair(base, member, &benchmark_result::bytes_per_iter);
    memory["peak_live_bytes"] = memory_pair(base, member, &benchmark_result::peak_live_bytes);
    memory["page_faults_per_iter"] = memory_pair(base, member, &benchmark_result::page_faults_per_iter);
    return memory;
}

// One comparison of a group (docs/variants.md); "change_pct" and "verdict" read as in
// tare-compare/1. `run` holds the members' rows, for the derived memory block.
template <class V, class C>
void map_comparison(V& v, C& c, const run_results& run) {
    v("group", c.group);
    v("name", c.name);
    v("baseline", c.baseline);
    v("member", c.member);
    v("verdict", c.verdict, verdict_codec);
    v("change_pct", c.change, change_codec{change_shape::interval_only});
    v("confidence", c.change, change_member{&paired_change::confidence});
    v("p_value", c.change, change_member{&paired_change::p_value});
    v("blocks", c.blocks);
    v("samples_per_block", c.samples_per_block);
    v("iterations_per_sample", c.iterations);
    v("baseline_block_ns", c.baseline_block_ns);
    v("member_block_ns", c.member_block_ns);
    v("instrument", c.instrument, omit_empty);  // counts compared, not time (docs/instructions.md)
    // Derived from the members' rows, which are read back themselves: not read.
    v.derived("memory", [&] { return memory_block(run, c); });
}

struct comparisons_codec {
    const run_results* run;

    json write(const std::vector<variant_comparison>& comparisons) const {
        json out = json::array();
        for (const variant_comparison& c : comparisons) {
            writer w;
            map_comparison(w, c, *run);
            out.push_back(w.take());
        }
        return out;
    }
    void read(const json& j, std::vector<variant_comparison>& comparisons, const std::string& path,
              const json&) const {
        if (!j.is_array())
            throw field_error(path, "expected an array");
        comparisons.clear();
        for (std::size_t i = 0; i < j.size(); ++i) {
            if (!j[i].is_object())
                throw field_error(element_path(path, i), "expected an object");
            variant_comparison c;
            reader r(j[i], element_path(path, i));
            map_comparison(r, c, *run);
            comparisons.push_back(std::move(c));
        }
    }
};

}  // namespace

template <>
struct fields<time_summary> {
    template <class V, class T>
    static void map(V& v, T& t) {
        v("mean", t.mean);
        v("median", t.median);
        v("stddev", t.stddev);
        v("min", t.min);
        v("max", t.max);
        v("ci_low", t.ci, ci_low);
        v("ci_high", t.ci, ci_high);
    }
    // The interval of the mean may reach below 0 (a t interval over noisy samples); the figures
    // themselves may not.
    static void check(const time_summary& t, const std::string& path) {
        check_non_negative(t.mean, child_path(path, "mean"));
        check_non_negative(t.median, child_path(path, "median"));
        check_non_negative(t.stddev, child_path(path, "stddev"));
        check_non_negative(t.min, child_path(path, "min"));
        check_non_negative(t.max, child_path(path, "max"));
        if (t.min > t.max)
            throw field_error(child_path(path, "min"), "is above max (" + std::to_string(t.max) + ")");
        check_interval(t.ci, path);
    }
};

template <>
struct fields<outlier_counts> {
    template <class V, class O>
    static void map(V& v, O& o) {
        v("low_severe", o.low_severe);
        v("low_mild", o.low_mild);
        v("high_mild", o.high_mild);
        v("high_severe", o.high_severe);
    }
};

template <>
struct fields<thread_share> {
    template <class V, class T>
    static void map(V& v, T& t) {
        v("thread", t.thread);
        v("allocs_per_iter", t.allocs_per_iter);
        v("bytes_per_iter", t.bytes_per_iter);
    }
    static void check(const thread_share& t, const std::string& path) {
        check_profile_figure(t.allocs_per_iter, child_path(path, "allocs_per_iter"));
        check_profile_figure(t.bytes_per_iter, child_path(path, "bytes_per_iter"));
    }
};

template <>
struct fields<alloc_site> {
    template <class V, class S>
    static void map(V& v, S& s) {
        // The site is its stack's first frame: written for readers, not read back.
        v.derived("function", [&] { return json(s.stack.front().function); });
        v.derived("file", [&] { return s.stack.front().file ? json(*s.stack.front().file) : json(nullptr); });
        v.derived("line", [&] { return s.stack.front().line ? json(*s.stack.front().line) : json(nullptr); });
        v("allocs_per_iter", s.allocs_per_iter);
        v("bytes_per_iter", s.bytes_per_iter);
        v("share", s.share);
        v("thread", s.thread);
        v("threads", s.threads, omit_empty);  // several threads by this stack: each one's part
        v("stack", s.stack, required);
    }
    static void check(const alloc_site& s, const std::string& path) {
        if (s.stack.empty() || s.stack.size() > max_stack_frames)
            throw field_error(child_path(path, "stack"),
                              "expected 1 to " + std::to_string(max_stack_frames) + " frames");
        check_profile_figure(s.allocs_per_iter, child_path(path, "allocs_per_iter"));
        check_profile_figure(s.bytes_per_iter, child_path(path, "bytes_per_iter"));
        if (!(s.share >= 0 && s.share <= 1))
            throw field_error(child_path(path, "share"), "expected a number in [0, 1]");
    }
};

template <>
struct fields<sites_pass> {
    template <class V, class P>
    static void map(V& v, P& p) {
        v("iterations", p.iterations);
        v("seconds", p.seconds);
        v("allocations", p.allocations);
        v("dropped", p.dropped);
        v("source_lines", p.source_lines);
        v("stacks", p.stacks);
    }
};

// A failed benchmark keeps every key, so readers see one shape, but its figures are null:
// whatever the runner had gathered before the failure is not a measurement. Counters and
// warnings stay, as containers, since a warning can explain the failure.
template <>
struct fields<benchmark_result> {
    template <class V, class B>
    static void map(V& v, B& b) {
        const bool ok = !b.error;
        const bool timed = ok && !b.counts;  // a counted row has no time (docs/instructions.md)
        const bool heap = b.sample_heap_measured;
        v("name", b.name, required);
        // 0 iterations is no count (a Google Benchmark file of aggregates only): null.
        v("iterations", b.iterations, figure(ok && b.iterations > 0));
        v("time_ns", b.time, figure(timed));
        v("samples_ns", b.samples_ns, figure(timed));
        v("allocs_per_iter", b.allocs_per_iter, figure(ok));
        v("bytes_per_iter", b.bytes_per_iter, figure(ok));
        v("peak_live_bytes", b.peak_live_bytes, figure(ok));
        v("retained_bytes_per_iter", b.retained_bytes_per_iter, figure(ok));
        v("page_faults_per_iter", b.page_faults_per_iter, figure(ok));
        v("counters", b.counters, counters_codec{});
        v("warnings", b.warnings);
        v("error", b.error);
        // tare additions
        v("label", b.label, omit_empty);
        v("outliers", b.outliers, figure(timed));
        v("sample_iterations", b, sample_iterations_codec{}, figure(timed));
        v("sample_iterations_before", b,
          heap_column<std::uint64_t>{&sample::iterations_before, "sample_live_bytes"}, figure(ok && heap));
        v("sample_live_bytes", b,
          heap_column<std::int64_t>{&sample::live_bytes_end, "sample_iterations_before"}, figure(ok && heap));
        v.object("throughput", figure(timed), [&](auto& t) {
            t("bytes_per_second", b.bytes_per_second);
            t("items_per_second", b.items_per_second);
        });
        v("processes", b.processes, processes_codec{&b.samples_ns}, omit_empty);
        // tare::copies linked: the bytes through memcpy/memmove/mempcpy and memset per iteration.
        v("copied_bytes_per_iter", b.copied_bytes_per_iter, omit_empty);
        v("set_bytes_per_iter", b.set_bytes_per_iter, omit_empty);
        // Counted mappings (not in the TSan build): the body's anonymous mmap bytes per iteration.
        v("mapped_bytes_per_iter", b.mapped_bytes_per_iter, omit_empty);
        // --alloc-sites: present, the lists perhaps empty, when the pass was asked for.
        const field_options sites = b.sites ? field_options{} : omit_empty;
        v("alloc_sites_pass", b.sites, omit_empty);
        v("alloc_sites", b.alloc_sites, sites);
        v("retained_sites", b.retained_sites, sites);
        map_counts(v, b);
        v("instruction_profile", b.profile, omit_empty);  // --profile of a counted run
    }
    // retained_bytes_per_iter may be negative (a heap that shrinks); no other figure may.
    static void check(const benchmark_result& b, const std::string& path) {
        check_non_negative(b.samples_ns, child_path(path, "samples_ns"));
        check_non_negative(b.allocs_per_iter, child_path(path, "allocs_per_iter"));
        check_non_negative(b.bytes_per_iter, child_path(path, "bytes_per_iter"));
        check_non_negative(b.peak_live_bytes, child_path(path, "peak_live_bytes"));
        check_non_negative(b.page_faults_per_iter, child_path(path, "page_faults_per_iter"));
        check_non_negative(b.copied_bytes_per_iter, child_path(path, "copied_bytes_per_iter"));
        check_non_negative(b.set_bytes_per_iter, child_path(path, "set_bytes_per_iter"));
        check_non_negative(b.mapped_bytes_per_iter, child_path(path, "mapped_bytes_per_iter"));
        check_non_negative(b.bytes_per_second, child_path(path, "throughput.bytes_per_second"));
        check_non_negative(b.items_per_second, child_path(path, "throughput.items_per_second"));
        check_counts(b.counts, path);
        for (std::size_t i = 0; i < b.samples.size(); ++i) {
            if (b.samples[i].iterations == 0)
                throw field_error(element_path(child_path(path, "sample_iterations"), i),
                                  "expected a positive integer (a sample runs at least one iteration)");
        }
    }
};

template <>
struct fields<run_results> {
    // Read row by row as parsed (read_document).
    static constexpr auto streamed = &run_results::benchmarks;
    static constexpr std::string_view streamed_key = "benchmarks";

    template <class V, class R>
    static void map(V& v, R& r) {
        v("context", r.context);
        v("benchmarks", r.benchmarks, required);
        // An addition to tare/1, present only when comparison groups ran (docs/variants.md).
        v("comparisons", r.comparisons, comparisons_codec{&r}, omit_empty);
    }
};

}  // namespace tare::io::codec

namespace tare::io {

std::string write_run_json(const run_results& results) {
    return codec::write_document("tare/1", results);
}

void write_run_json(const run_results& results, const std::function<void(std::string_view)>& put) {
    codec::write_document("tare/1", results, put);
}

std::variant<run_results, read_error> parse_run_json(const std::string& text, const std::string& origin) {
    return codec::read_document<run_results>(text, origin, "tare/1");
}

}  // namespace tare::io
