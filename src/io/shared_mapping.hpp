#pragma once
// Private to src/io: the mappings tare/1 and tare-compare/1 share (docs/json-schema.md): a run's
// context, which a comparison of files keeps for each side, and --instrument's counts, which a
// counted benchmark and each side of a counted comparison carry.

#include <optional>
#include <string>
#include <type_traits>

#include "io/json_codec.hpp"
#include "model/run.hpp"

namespace tare::io::codec {

template <>
struct fields<run_context> {
    template <class V, class C>
    static void map(V& v, C& c) {
        v("tare_version", c.tare_version);
        v("executable", c.executable);
        v("host", c.host);
        v("date", c.date);
        v("cpu", c.cpu);
        v("num_cpus", c.num_cpus);
        // tare additions
        v("clock_overhead_ns", c.clock_overhead_ns);
        v("loop_overhead_ns", c.loop_overhead_ns);
        v("accounting", c.accounting);
        v("allocator", c.allocator);
        v("processes", c.processes);
        v("interrupted", c.interrupted);
        v("gbench_memory", c.gbench_memory);
        v("instrument", c.instrument, omit_empty);          // --instrument: what counted, and how
        v("instrument_env", c.instrument_env, omit_empty);  // --pass-env: the names passed
        v("merged_from", c.merged_from, omit_empty);        // tare merge's inputs (docs/json-schema.md)
    }
};

// --instrument's counts (`counts`, an optional instruction_counts), flat in the object beside
// "instrument", which says what counted; a timed row or side has none of these keys.
template <class V, class B>
void map_counts(V& v, B& b) {
    if constexpr (std::is_same_v<V, writer>) {
        if (!b.counts)
            return;
        v("instrument", b.counts->instrument);
    } else {
        std::optional<std::string> kind;
        v("instrument", kind);
        if (!kind)
            return;
        b.counts.emplace();
        b.counts->instrument = *kind;
    }
    auto& c = *b.counts;
    v("instrument_iterations", c.iterations, required);
    v("instructions_per_iter", c.instructions, required);
    v("data_reads_per_iter", c.data_reads, omit_empty);
    v("data_writes_per_iter", c.data_writes, omit_empty);
    v("l1_misses_per_iter", c.l1_misses, omit_empty);
    v("ll_misses_per_iter", c.ll_misses, omit_empty);
    v("estimated_cycles_per_iter", c.estimated_cycles, omit_empty);
    v("instrument_seconds", c.seconds);
}

/// The counts' own rules: a known instrument, no negative count.
inline void check_counts(const boxed<instruction_counts>& counts, const std::string& path) {
    if (!counts)
        return;
    const instruction_counts& c = *counts;
    if (c.instrument != "callgrind" && c.instrument != "hw-instructions")
        throw field_error(child_path(path, "instrument"), "expected \"callgrind\" or \"hw-instructions\"");
    check_non_negative(c.instructions, child_path(path, "instructions_per_iter"));
    check_non_negative(c.data_reads, child_path(path, "data_reads_per_iter"));
    check_non_negative(c.data_writes, child_path(path, "data_writes_per_iter"));
    check_non_negative(c.l1_misses, child_path(path, "l1_misses_per_iter"));
    check_non_negative(c.ll_misses, child_path(path, "ll_misses_per_iter"));
    check_non_negative(c.estimated_cycles, child_path(path, "estimated_cycles_per_iter"));
    check_non_negative(c.seconds, child_path(path, "instrument_seconds"));
}

// What a stack read from a file may hold: far deeper than any a program makes, and shallow
// enough that the reports that walk a stack by recursion cannot exhaust theirs.
inline constexpr std::size_t max_stack_frames = 1024;

// A profile's figure per iteration: finite, not negative, and at most 10^15, so that sums of
// thousands of them (a flame graph's widths, speedscope's total) stay finite.
inline void check_profile_figure(double value, const std::string& path) {
    if (!(value >= 0 && value <= 1e15))
        throw field_error(path, "expected a number from 0 to 1e15");
}

// One frame of an allocation's call stack: a site's in tare/1, a changed allocation stack's in
// tare-compare/1.
template <>
struct fields<stack_frame> {
    template <class V, class F>
    static void map(V& v, F& f) {
        v("function", f.function, required);
        v("file", f.file);
        v("line", f.line);
    }
};

// --profile's instruction profile (docs/profiles.md): a table of frames, the stacks as indexes into
// it (outermost first), and the functions by their own instructions.
template <>
struct fields<profile_stack> {
    template <class V, class S>
    static void map(V& v, S& s) {
        v("frames", s.frames, required);
        v("self", s.self, required);
    }
    static void check(const profile_stack& s, const std::string& path) {
        if (s.frames.empty() || s.frames.size() > max_stack_frames)
            throw field_error(child_path(path, "frames"),
                              "expected 1 to " + std::to_string(max_stack_frames) + " frames");
        check_profile_figure(s.self, child_path(path, "self"));
    }
};

template <>
struct fields<function_cost> {
    template <class V, class F>
    static void map(V& v, F& f) {
        v("function", f.function, required);
        v("self", f.self, required);
    }
    static void check(const function_cost& f, const std::string& path) {
        check_profile_figure(f.self, child_path(path, "self"));
    }
};

template <>
struct fields<instruction_profile> {
    template <class V, class P>
    static void map(V& v, P& p) {
        v("frames", p.frames, required);
        v("stacks", p.stacks, required);
        v("functions", p.functions, required);
    }
    static void check(const instruction_profile& p, const std::string& path) {
        for (std::size_t i = 0; i < p.stacks.size(); ++i) {
            for (std::size_t k = 0; k < p.stacks[i].frames.size(); ++k) {
                if (p.stacks[i].frames[k] >= p.frames.size())
                    throw field_error(
                        element_path(child_path(element_path(child_path(path, "stacks"), i), "frames"), k),
                        "expected an index into the " + std::to_string(p.frames.size()) + " frames");
            }
        }
    }
};

}  // namespace tare::io::codec
