#include "report/export/exports.hpp"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

namespace tare::report {

namespace {

bool finite(double v) {
    return std::isfinite(v);
}

void add(std::vector<measure>& out, const char* slug, const char* unit, const std::optional<double>& v,
         bool bigger = false) {
    if (v && finite(*v)) {
        out.push_back({slug, unit, *v, std::nullopt, std::nullopt, bigger});
    }
}

// Numbers as JSON writes them: the shortest text that reads back as the same double.
std::string number_text(double v) {
    return nlohmann::json(v).dump();
}

// RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled.
std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) {
        return s;
    }
    std::string q = "\"";
    for (char c : s) {
        q += c;
        if (c == '"') {
            q += '"';
        }
    }
    return q + "\"";
}

class bmf_reporter final : public reporter<run_results> {
public:
    std::string render(const run_results& results) const override {
        nlohmann::ordered_json doc = nlohmann::ordered_json::object();
        for (const auto& r : results.benchmarks) {
            const auto ms = measures_of(r);
            if (ms.empty()) {
                continue;
            }
            auto& bench = doc[r.name];
            for (const auto& m : ms) {
                nlohmann::ordered_json metric = {{"value", m.value}};
                if (m.lower && m.upper) {
                    metric["lower_value"] = *m.lower;
                    metric["upper_value"] = *m.upper;
                }
                bench[m.slug] = std::move(metric);
            }
        }
        return doc.dump(2) + "\n";
    }
};

// github-action-benchmark's custom tools read an array of {name, unit, value, range?, extra?}
// (its README, "Examples" of customSmallerIsBetter); one entry per benchmark and figure, named
// "BENCHMARK (measure)" so that each figure has its own chart.
class gab_reporter final : public reporter<run_results> {
public:
    explicit gab_reporter(bool bigger) : bigger_(bigger) {}
    std::string render(const run_results& results) const override {
        nlohmann::ordered_json doc = nlohmann::ordered_json::array();
        for (const auto& r : results.benchmarks) {
            for (const auto& m : measures_of(r)) {
                if (m.bigger_is_better != bigger_) {
                    continue;
                }
                nlohmann::ordered_json e = {
                    {"name", r.name + " (" + m.slug + ")"}, {"unit", m.unit}, {"value", m.value}};
                if (m.lower && m.upper) {
                    e["range"] = "± " + number_text((*m.upper - *m.lower) / 2);
                }
                e["extra"] = std::to_string(r.iterations) + " iterations in " +
                             std::to_string(r.samples_ns.size()) + " samples";
                doc.push_back(std::move(e));
            }
        }
        return doc.dump(2) + "\n";
    }

private:
    bool bigger_;
};

struct csv_column {
    const char* slug;
    const char* header;
};

// Every measure measures_of can give, in its order, and the interval of the time.
constexpr csv_column csv_columns[] = {
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
};

class csv_reporter final : public reporter<run_results> {
public:
    std::string render(const run_results& results) const override {
        std::string out = "name";
        for (const auto& c : csv_columns) {
            out += ",";
            out += c.header;
        }
        out += ",iterations,samples,error\r\n";
        for (const auto& r : results.benchmarks) {
            const auto ms = measures_of(r);
            out += csv_field(r.name);
            for (const auto& c : csv_columns) {
                out += ",";
                for (const auto& m : ms) {
                    const std::string slug = c.slug;
                    if (m.slug == slug) {
                        out += number_text(m.value);
                    } else if (m.slug == "latency" && slug == "latency_low" && m.lower) {
                        out += number_text(*m.lower);
                    } else if (m.slug == "latency" && slug == "latency_high" && m.upper) {
                        out += number_text(*m.upper);
                    }
                }
            }
            const bool measured = !r.error;
            out += "," + (measured ? std::to_string(r.iterations) : std::string());
            out += "," + (measured ? std::to_string(r.samples_ns.size()) : std::string());
            out += "," + (r.error ? csv_field(r.error->kind + ": " + r.error->message) : std::string());
            out += "\r\n";
        }
        return out;
    }
};

}  // namespace

std::vector<measure> measures_of(const benchmark_result& r) {
    std::vector<measure> out;
    if (r.error || r.samples_ns.empty() || !finite(r.time.mean)) {
        return out;
    }
    measure latency{"latency", "ns", r.time.mean, std::nullopt, std::nullopt, false};
    if (r.time.ci && finite(r.time.ci->low) && finite(r.time.ci->high)) {
        latency.lower = r.time.ci->low;
        latency.upper = r.time.ci->high;
    }
    out.push_back(latency);
    add(out, "allocs-per-iter", "allocs/iter", r.allocs_per_iter);
    add(out, "bytes-per-iter", "B/iter", r.bytes_per_iter);
    if (r.peak_live_bytes) {
        add(out, "peak-live-bytes", "B", static_cast<double>(*r.peak_live_bytes));
    }
    add(out, "retained-bytes-per-iter", "B/iter", r.retained_bytes_per_iter);
    add(out, "page-faults-per-iter", "faults/iter", r.page_faults_per_iter);
    add(out, "throughput", "items/s", r.items_per_second, true);
    add(out, "throughput-bytes", "B/s", r.bytes_per_second, true);
    return out;
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
