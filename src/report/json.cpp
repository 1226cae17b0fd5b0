// The JSON reporter: schema "tare/1" (CONTRACT.md section 4; every field in docs/json-schema.md).
//
// Keys come out in the contract's order (ordered_json keeps insertion order), contract fields
// first and tare's additions after them in each object, so a reader diffing two files or
// checking the contract sees the familiar shape first. Strictness is enforced here, not left to
// the library: nlohmann::json would print NaN and infinity as null by accident of its dump
// routine, and a future version or a different serializer might not; every double goes through
// finite_or_null() so the rule "no NaN or infinity literals" holds by construction.

#include <cmath>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "report/json_values.hpp"
#include "report/reporter.hpp"

namespace tare::report {
namespace {

using json = nlohmann::ordered_json;

using detail::finite_or_null;

json optional_number(const std::optional<double>& value) {
    return value ? finite_or_null(*value) : json(nullptr);
}

json optional_number(const std::optional<std::int64_t>& value) {
    return value ? json(*value) : json(nullptr);
}

json context_object(const run_context& c) {
    json out = json::object();
    out["tare_version"] = c.tare_version;
    out["executable"] = c.executable;
    out["host"] = c.host;
    out["date"] = c.date;
    out["cpu"] = c.cpu;
    out["num_cpus"] = c.num_cpus;
    // tare additions
    out["clock_overhead_ns"] = finite_or_null(c.clock_overhead_ns);
    out["loop_overhead_ns"] = finite_or_null(c.loop_overhead_ns);
    out["accounting"] = c.accounting;
    return out;
}

json time_object(const time_summary& t) {
    json out = json::object();
    out["mean"] = finite_or_null(t.mean);
    out["median"] = finite_or_null(t.median);
    out["stddev"] = finite_or_null(t.stddev);
    out["min"] = finite_or_null(t.min);
    out["max"] = finite_or_null(t.max);
    out["ci_low"] = finite_or_null(t.ci_low);
    out["ci_high"] = finite_or_null(t.ci_high);
    return out;
}

json outliers_object(const outlier_counts& o) {
    json out = json::object();
    out["low_severe"] = o.low_severe;
    out["low_mild"] = o.low_mild;
    out["high_mild"] = o.high_mild;
    out["high_severe"] = o.high_severe;
    return out;
}

json counters_object(const benchmark_result& b) {
    // A name given twice keeps its first position and its last value, as a map would.
    json out = json::object();
    for (const auto& [name, value] : b.counters)
        out[name] = finite_or_null(value);
    return out;
}

json warnings_array(const benchmark_result& b) {
    json out = json::array();
    for (const auto& w : b.warnings)
        out.push_back(json{{"kind", w.kind}, {"message", w.message}});
    return out;
}

// A failed benchmark keeps every key, so readers see one shape, but its figures are null:
// whatever the runner had gathered before the failure is not a measurement. Counters and
// warnings stay, as containers, since a warning can explain the failure.
json benchmark_object(const benchmark_result& b) {
    const bool ok = !b.error;
    const auto figure = [ok](json value) { return ok ? std::move(value) : json(nullptr); };

    json samples_ns = json::array();
    for (const double ns : b.samples_ns)
        samples_ns.push_back(finite_or_null(ns));
    json sample_iterations = json::array();
    json sample_iterations_before = json::array();
    json sample_live_bytes = json::array();
    for (const auto& s : b.samples) {
        sample_iterations.push_back(s.iterations);
        sample_iterations_before.push_back(s.iterations_before);
        sample_live_bytes.push_back(s.live_bytes_end);
    }
    json throughput = json::object();
    throughput["bytes_per_second"] = optional_number(b.bytes_per_second);
    throughput["items_per_second"] = optional_number(b.items_per_second);

    json out = json::object();
    out["name"] = b.name;
    out["iterations"] = figure(b.iterations);
    out["time_ns"] = figure(time_object(b.time));
    out["samples_ns"] = figure(std::move(samples_ns));
    out["allocs_per_iter"] = figure(optional_number(b.allocs_per_iter));
    out["bytes_per_iter"] = figure(optional_number(b.bytes_per_iter));
    out["peak_live_bytes"] = figure(optional_number(b.peak_live_bytes));
    out["retained_bytes_per_iter"] = figure(optional_number(b.retained_bytes_per_iter));
    out["page_faults_per_iter"] = figure(optional_number(b.page_faults_per_iter));
    out["counters"] = counters_object(b);
    out["warnings"] = warnings_array(b);
    out["error"] = ok ? json(nullptr) : json{{"kind", b.error->kind}, {"message", b.error->message}};
    // tare additions
    out["outliers"] = figure(outliers_object(b.outliers));
    out["sample_iterations"] = figure(std::move(sample_iterations));
    // What retained growth is fitted on (docs/accounting.md): the live heap at each sample's end
    // against the iterations run by then. Null without accounting (never invented zeros).
    const bool heap = b.sample_heap_measured;
    out["sample_iterations_before"] = figure(heap ? std::move(sample_iterations_before) : json(nullptr));
    out["sample_live_bytes"] = figure(heap ? std::move(sample_live_bytes) : json(nullptr));
    out["throughput"] = figure(std::move(throughput));
    return out;
}

const benchmark_result* find_row(const run_results& results, const std::string& name) {
    for (const auto& b : results.benchmarks) {
        if (b.name == name)
            return b.error ? nullptr : &b;
    }
    return nullptr;
}

template <class T>
json memory_pair(const benchmark_result* base, const benchmark_result* member,
                 std::optional<T> benchmark_result::*figure) {
    const std::optional<T> none;
    const std::optional<T>& b = base != nullptr ? base->*figure : none;
    const std::optional<T>& m = member != nullptr ? member->*figure : none;
    json out = json::object();
    out["baseline"] = optional_number(b);
    out["member"] = optional_number(m);
    out["change"] = b && m ? optional_number(std::optional<T>(*m - *b)) : json(nullptr);
    return out;
}

json numbers(const std::vector<double>& values) {
    json out = json::array();
    for (const double v : values)
        out.push_back(finite_or_null(v));
    return out;
}

// One comparison of a group (docs/variants.md); "change_pct" and "verdict" read as in
// tare-compare/1 (CONTRACT section 6). Memory figures repeat the members' rows, with the change.
json comparison_object(const run_results& results, const variant_comparison& c) {
    const benchmark_result* base = find_row(results, c.baseline);
    const benchmark_result* member = find_row(results, c.member);
    json out = json::object();
    out["group"] = c.group;
    out["name"] = c.name;
    out["baseline"] = c.baseline;
    out["member"] = c.member;
    out["verdict"] = std::string(verdict_name(c.verdict));
    if (c.change) {
        json change = json::object();
        change["mean"] = finite_or_null(c.change->change_pct);
        change["ci_low"] =
            c.change->interval_pct ? finite_or_null(c.change->interval_pct->low) : json(nullptr);
        change["ci_high"] =
            c.change->interval_pct ? finite_or_null(c.change->interval_pct->high) : json(nullptr);
        out["change_pct"] = std::move(change);
        out["confidence"] = finite_or_null(c.change->confidence);
        out["p_value"] = finite_or_null(c.change->p_value);
    } else {
        out["change_pct"] = nullptr;
        out["confidence"] = nullptr;
        out["p_value"] = nullptr;
    }
    out["blocks"] = c.blocks;
    out["samples_per_block"] = c.samples_per_block;
    out["iterations_per_sample"] = c.iterations;
    out["baseline_block_ns"] = numbers(c.baseline_block_ns);
    out["member_block_ns"] = numbers(c.member_block_ns);
    json memory = json::object();
    memory["allocs_per_iter"] = memory_pair(base, member, &benchmark_result::allocs_per_iter);
    memory["bytes_per_iter"] = memory_pair(base, member, &benchmark_result::bytes_per_iter);
    memory["peak_live_bytes"] = memory_pair(base, member, &benchmark_result::peak_live_bytes);
    memory["page_faults_per_iter"] = memory_pair(base, member, &benchmark_result::page_faults_per_iter);
    out["memory"] = std::move(memory);
    return out;
}

class json_reporter final : public reporter<run_results> {
public:
    std::string render(const run_results& results) const override {
        json root = json::object();
        root["schema"] = "tare/1";
        root["context"] = context_object(results.context);
        root["benchmarks"] = json::array();
        for (const auto& b : results.benchmarks)
            root["benchmarks"].push_back(benchmark_object(b));
        // An addition to tare/1, present only when comparison groups ran (docs/variants.md).
        if (!results.comparisons.empty()) {
            root["comparisons"] = json::array();
            for (const auto& c : results.comparisons)
                root["comparisons"].push_back(comparison_object(results, c));
        }
        // Invalid UTF-8 in a name or message (an exception's what() can hold anything) becomes
        // U+FFFD instead of throwing: a report with one odd character beats no report.
        return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
    }
};

}  // namespace

template <>
std::unique_ptr<reporter<run_results>> make_json_reporter() {
    return std::make_unique<json_reporter>();
}

}  // namespace tare::report
