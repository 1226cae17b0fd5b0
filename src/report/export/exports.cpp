#include "report/export/exports.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "io/json_stream.hpp"
#include "model/hash.hpp"
#include "report/export/formats.hpp"

namespace tare::report {

namespace exports {

std::string number_text(double v) {
    return nlohmann::json(v).dump();
}

std::string csv_field(const std::string& s) {
    // A text cell a spreadsheet would take for a formula (=, +, -, @, or a tab or CR before one)
    // is neutralised as OWASP's "CSV Injection" page recommends: a leading single quote, and the
    // cell quoted. A benchmark named "=HYPERLINK(...)" then reads as that text, never runs.
    // Only text goes through here; the figures are numbers tare formats itself.
    const bool formula = !s.empty() && std::string_view("=+-@\t\r").find(s.front()) != std::string_view::npos;
    if (!formula && s.find_first_of(",\"\r\n") == std::string::npos) {
        return s;
    }
    std::string q = formula ? "\"'" : "\"";
    for (char c : s) {
        q += c;
        if (c == '"') {
            q += '"';
        }
    }
    return q + "\"";
}

namespace {

// One BMF metric: its value and, where the figure has one, its interval.
struct bmf_metric {
    double value = 0;
    std::optional<double> lower;
    std::optional<double> upper;
};

using bmf_bench = std::vector<std::pair<std::string, bmf_metric>>;  // measure slug, metric

std::string json_text(const nlohmann::ordered_json& j) {
    return j.dump();
}

// The text nlohmann's dump(2) gives a benchmark's object one level in, written without a tree.
void append_bmf_bench(std::string& out, const std::string& name, const bmf_bench& bench) {
    out += "  " + json_text(name) + ": {\n";
    for (std::size_t i = 0; i < bench.size(); ++i) {
        const bmf_metric& m = bench[i].second;
        out += "    " + json_text(bench[i].first) + ": {\n      \"value\": " + json_text(m.value);
        if (m.lower && m.upper)
            out += ",\n      \"lower_value\": " + json_text(*m.lower) +
                   ",\n      \"upper_value\": " + json_text(*m.upper);
        out += i + 1 < bench.size() ? "\n    },\n" : "\n    }\n";
    }
    out += "  }";
}

// An array of `n` elements written as nlohmann's dump(2) writes it, each element's own dump(2)
// from `element(i)` one level in: the same text, with one element's tree at a time.
template <class Element>
std::string indented_array(std::size_t n, Element element) {
    if (n == 0)
        return "[]\n";
    std::string out = "[\n";
    for (std::size_t i = 0; i < n; ++i) {
        out += "  ";
        io::codec::append_indented(out, element(i).dump(2), "  ");
        out += i + 1 < n ? ",\n" : "\n";
    }
    out += "]\n";  // appended, not `out + ...`: a copy of the whole text
    return out;
}

}  // namespace

std::string render_bmf(const std::vector<export_row>& rows) {
    // One object per benchmark, kept in the order first met, found again by name through a hash
    // map (two rows of one BMF name share an object, a later figure replacing an earlier one in
    // its first place). Rejected: one ordered_json document, whose operator[] finds a key by a
    // linear search (quadratic in the benchmarks), and which as a tree took about ten times the
    // text it makes (bench/README.md, "Big inputs").
    std::vector<std::pair<std::string, bmf_bench>> benches;
    std::unordered_map<std::string, std::size_t> index;
    index.reserve(rows.size());
    for (const auto& r : rows) {
        if (r.measures.empty()) {
            continue;
        }
        std::string name = bmf_name(r.name);
        auto [it, fresh] = index.emplace(name, benches.size());
        if (fresh) {
            benches.emplace_back(std::move(name), bmf_bench{});
        }
        bmf_bench& bench = benches[it->second].second;
        for (const auto& m : r.measures) {
            const bmf_metric metric{m.value, m.lower, m.upper};
            const auto same =
                std::find_if(bench.begin(), bench.end(), [&](const auto& e) { return e.first == m.slug; });
            if (same != bench.end())
                same->second = metric;
            else
                bench.emplace_back(m.slug, metric);
        }
    }
    if (benches.empty()) {
        return "{}\n";
    }
    std::string out = "{\n";
    for (std::size_t i = 0; i < benches.size(); ++i) {
        append_bmf_bench(out, benches[i].first, benches[i].second);
        out += i + 1 < benches.size() ? ",\n" : "\n";
    }
    out += "}\n";
    return out;
}

// github-action-benchmark's custom tools read an array of {name, unit, value, range?, extra?}
// (its README, "Examples" of customSmallerIsBetter); one entry per benchmark and figure, named
// "BENCHMARK (measure)" so that each figure has its own chart.
std::string render_gab(const std::vector<export_row>& rows, bool bigger) {
    std::vector<std::pair<const export_row*, const measure*>> entries;
    for (const auto& r : rows) {
        for (const auto& m : r.measures) {
            if (m.bigger_is_better == bigger)
                entries.emplace_back(&r, &m);
        }
    }
    return indented_array(entries.size(), [&](std::size_t i) {
        const export_row& r = *entries[i].first;
        const measure& m = *entries[i].second;
        nlohmann::ordered_json e = {
            {"name", r.name + " (" + m.slug + ")"}, {"unit", m.unit}, {"value", m.value}};
        if (m.lower && m.upper) {
            e["range"] = "± " + number_text((*m.upper - *m.lower) / 2);
        }
        e["extra"] = r.extra;
        return e;
    });
}

std::string csv_cell(const std::vector<measure>& measures, std::string_view slug) {
    for (const auto& m : measures) {
        if (m.slug == slug) {
            return number_text(m.value);
        }
        if (m.slug == "latency" && slug == "latency_low" && m.lower) {
            return number_text(*m.lower);
        }
        if (m.slug == "latency" && slug == "latency_high" && m.upper) {
            return number_text(*m.upper);
        }
    }
    return {};
}

}  // namespace exports

namespace {

using exports::csv_field;
using exports::number_text;

bool finite(double v) {
    return std::isfinite(v);
}

void add(std::vector<measure>& out, const char* slug, const char* unit, const std::optional<double>& v,
         bool bigger = false) {
    if (v && finite(*v)) {
        out.push_back({slug, unit, *v, std::nullopt, std::nullopt, bigger});
    }
}

// Latency first: the mean per iteration with its interval, when both ends are finite.
measure latency_of(double mean, const std::optional<interval>& ci) {
    measure latency{"latency", "ns", mean, std::nullopt, std::nullopt, false};
    if (ci && finite(ci->low) && finite(ci->high)) {
        latency.lower = ci->low;
        latency.upper = ci->high;
    }
    return latency;
}

std::vector<exports::export_row> export_rows(const run_results& results) {
    std::vector<exports::export_row> rows;
    for (const auto& r : results.benchmarks) {
        rows.push_back({r.name, exports::without_zero_mappings(measures_of(r)),
                        r.samples_ns.empty() && r.iterations == 0
                            ? std::string("aggregates only: no samples")
                            : std::to_string(r.iterations) + " iterations in " +
                                  std::to_string(r.samples_ns.size()) + " samples"});
    }
    return rows;
}

class bmf_reporter final : public reporter<run_results> {
public:
    std::string render(const run_results& results) const override {
        return exports::render_bmf(export_rows(results));
    }
};

class gab_reporter final : public reporter<run_results> {
public:
    explicit gab_reporter(bool bigger) : bigger_(bigger) {}
    std::string render(const run_results& results) const override {
        return exports::render_gab(export_rows(results), bigger_);
    }

private:
    bool bigger_;
};

}  // namespace

// Every measure measures_of can give, in its order, and the interval of the time.
const exports::csv_column exports::csv_columns[] = {
    {"latency", "time (ns)"},
    {"latency_low", "time 95% low (ns)"},
    {"latency_high", "time 95% high (ns)"},
    {"allocs-per-iter", "allocs/iter"},
    {"bytes-per-iter", "bytes/iter (B)"},
    {"peak-live-bytes", "peak live heap (B)"},
    {"retained-bytes-per-iter", "retained/iter (B)"},
    {"page-faults-per-iter", "page faults/iter"},
    {"throughput", "items/s"},
    {"throughput-bytes", "bytes/s (B/s)"},
    {"instructions", "instructions/iter"},
    {"estimated-cycles", "estimated cycles/iter"},
};

std::vector<measure> exports::without_zero_mappings(std::vector<measure> measures) {
    measures.erase(
        std::remove_if(measures.begin(), measures.end(),
                       [](const measure& m) { return m.slug == "mapped-bytes-per-iter" && m.value == 0; }),
        measures.end());
    return measures;
}

bool exports::maps_memory(const std::vector<measure>& measures) {
    return std::any_of(measures.begin(), measures.end(),
                       [](const measure& m) { return m.slug == "mapped-bytes-per-iter" && m.value > 0; });
}

std::vector<exports::csv_column> exports::csv_columns_for(bool mapped) {
    std::vector<csv_column> out(std::begin(csv_columns), std::end(csv_columns));
    if (mapped) {
        const auto bytes = std::find_if(out.begin(), out.end(), [](const csv_column& c) {
            return std::string_view(c.slug) == "bytes-per-iter";
        });
        out.insert(bytes + 1, csv_column{"mapped-bytes-per-iter", "mapped/iter (B)"});
    }
    return out;
}

namespace {

class csv_reporter final : public reporter<run_results> {
public:
    std::string render(const run_results& results) const override {
        const bool mapped =
            std::any_of(results.benchmarks.begin(), results.benchmarks.end(),
                        [](const benchmark_result& r) { return exports::maps_memory(measures_of(r)); });
        const auto columns = exports::csv_columns_for(mapped);
        std::string out = "name";
        for (const auto& c : columns) {
            out += ",";
            out += c.header;
        }
        out += ",iterations,samples,error\r\n";
        for (const benchmark_result& r : results.benchmarks) {
            const auto ms = measures_of(r);
            out += csv_field(r.name);
            for (const auto& c : columns) {
                out += "," + exports::csv_cell(ms, c.slug);
            }
            const bool measured = !r.error;
            out += "," + (measured && r.iterations > 0 ? std::to_string(r.iterations) : std::string());
            out += "," + (measured ? std::to_string(r.samples_ns.size()) : std::string());
            out += "," + (r.error ? csv_field(r.error->kind + ": " + r.error->message) : std::string());
            out += "\r\n";
        }
        return out;
    }
};

}  // namespace

namespace {

// --instrument's counts in place of the latency, under Bencher's own names for them.
void add_counts(std::vector<measure>& out, const instruction_counts& c) {
    add(out, "instructions", "instructions/iter", c.instructions);
    add(out, "estimated-cycles", "cycles/iter", c.estimated_cycles);
}

}  // namespace

std::vector<measure> measures_of(const benchmark_result& r) {
    std::vector<measure> out;
    if (!r.error && r.counts) {  // counted, not timed: no latency, no page faults
        add_counts(out, *r.counts);
        add(out, "allocs-per-iter", "allocs/iter", r.allocs_per_iter);
        add(out, "bytes-per-iter", "B/iter", r.bytes_per_iter);
        add(out, "mapped-bytes-per-iter", "B/iter", r.mapped_bytes_per_iter);
        if (r.peak_live_bytes) {
            add(out, "peak-live-bytes", "B", static_cast<double>(*r.peak_live_bytes));
        }
        add(out, "retained-bytes-per-iter", "B/iter", r.retained_bytes_per_iter);
        return out;
    }
    // A time without samples is one summarised elsewhere (Google Benchmark's aggregates only,
    // a mean of its own): exported; no samples and no mean is no time.
    const bool timed = !r.samples_ns.empty() || r.time.mean > 0;
    if (r.error || !timed || !finite(r.time.mean)) {
        return out;
    }
    out.push_back(latency_of(r.time.mean, r.time.ci));
    add(out, "allocs-per-iter", "allocs/iter", r.allocs_per_iter);
    add(out, "bytes-per-iter", "B/iter", r.bytes_per_iter);
    add(out, "mapped-bytes-per-iter", "B/iter", r.mapped_bytes_per_iter);
    if (r.peak_live_bytes) {
        add(out, "peak-live-bytes", "B", static_cast<double>(*r.peak_live_bytes));
    }
    add(out, "retained-bytes-per-iter", "B/iter", r.retained_bytes_per_iter);
    add(out, "page-faults-per-iter", "faults/iter", r.page_faults_per_iter);
    add(out, "throughput", "items/s", r.items_per_second, true);
    add(out, "throughput-bytes", "B/s", r.bytes_per_second, true);
    return out;
}

std::vector<measure> measures_of(const side_figures& side) {
    std::vector<measure> out;
    if (!side.error && side.counts) {
        add_counts(out, *side.counts);
        add(out, "allocs-per-iter", "allocs/iter", side.allocs_per_iter);
        add(out, "bytes-per-iter", "B/iter", side.bytes_per_iter);
        add(out, "mapped-bytes-per-iter", "B/iter", side.mapped_bytes_per_iter);
        if (side.peak_live_bytes) {
            add(out, "peak-live-bytes", "B", static_cast<double>(*side.peak_live_bytes));
        }
        return out;
    }
    if (side.error || side.samples == 0 || !finite(side.time_ns) || !(side.time_ns > 0)) {
        return out;
    }
    out.push_back(latency_of(side.time_ns, side.time_ci));
    add(out, "allocs-per-iter", "allocs/iter", side.allocs_per_iter);
    add(out, "bytes-per-iter", "B/iter", side.bytes_per_iter);
    add(out, "mapped-bytes-per-iter", "B/iter", side.mapped_bytes_per_iter);
    if (side.peak_live_bytes) {
        add(out, "peak-live-bytes", "B", static_cast<double>(*side.peak_live_bytes));
    }
    add(out, "page-faults-per-iter", "faults/iter", side.page_faults_per_iter);
    return out;
}

std::optional<measure> change_measure_of(const compare_row& row) {
    if (!row.change || !finite(row.change->change_pct)) {
        return std::nullopt;
    }
    // A counted comparison's change is of the instructions (docs/instructions.md).
    measure m{row.base.counts ? "instructions-change" : "latency-change",
              "%",
              row.change->change_pct,
              std::nullopt,
              std::nullopt,
              false};
    if (const auto& ci = row.change->interval_pct; ci && finite(ci->low) && finite(ci->high)) {
        m.lower = ci->low;
        m.upper = ci->high;
    }
    return m;
}

std::optional<export_format> parse_export_format(const std::string& name) {
    if (name == "bmf") {
        return export_format::bmf;
    }
    if (name == "gab") {
        return export_format::gab;
    }
    if (name == "gab-bigger") {
        return export_format::gab_bigger;
    }
    if (name == "csv") {
        return export_format::csv;
    }
    return std::nullopt;
}

std::unique_ptr<reporter<run_results>> make_export_reporter(export_format f) {
    switch (f) {
    case export_format::bmf:
        return std::make_unique<bmf_reporter>();
    case export_format::gab:
        return std::make_unique<gab_reporter>(false);
    case export_format::gab_bigger:
        return std::make_unique<gab_reporter>(true);
    case export_format::csv:
        break;
    }
    return std::make_unique<csv_reporter>();
}

std::string bmf_name(const std::string& name) {
    if (name.size() <= bmf_name_limit) {
        return name;
    }
    // Stable across runs, builds and machines; collisions only matter between names that also
    // share their first 1,007 bytes.
    const std::string suffix = fmt::format("~{:016x}", fnv1a_64(name));
    std::size_t keep = bmf_name_limit - suffix.size();
    while (keep > 0 && (static_cast<unsigned char>(name[keep]) & 0xC0U) == 0x80U) {
        --keep;  // not inside a UTF-8 character: BMF is JSON, its keys text
    }
    return name.substr(0, keep) + suffix;
}

bool nothing_to_export(const std::string& rendered, export_format f) {
    return (f == export_format::gab || f == export_format::gab_bigger) && rendered == "[]\n";
}

std::vector<std::string> rows_left_out(const run_results& results, export_format f) {
    std::vector<std::string> out;
    if (f == export_format::csv) {
        return out;
    }
    for (const auto& r : results.benchmarks) {
        if (measures_of(r).empty()) {
            out.push_back(r.name);
        }
    }
    return out;
}

}  // namespace tare::report
