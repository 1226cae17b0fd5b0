#include "history/interchange.hpp"

#include <array>
#include <cmath>
#include <ctime>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>

#include "history/provenance.hpp"
#include "history/store.hpp"

namespace tare::history {
namespace {

using nlohmann::json;

// tare's export slugs (report/export/exports.cpp, docs/exports.md) and the history's names.
constexpr std::array<std::pair<const char*, const char*>, 11> slugs{{
    {"latency", "time_ns"},
    {"allocs-per-iter", "allocs_per_iter"},
    {"bytes-per-iter", "bytes_per_iter"},
    {"mapped-bytes-per-iter", "mapped_bytes_per_iter"},
    {"peak-live-bytes", "peak_live_bytes"},
    {"retained-bytes-per-iter", "retained_bytes_per_iter"},
    {"page-faults-per-iter", "page_faults_per_iter"},
    {"throughput", "items_per_second"},
    {"throughput-bytes", "bytes_per_second"},
    {"instructions", "instructions"},
    {"estimated-cycles", "estimated_cycles"},
}};

bool known_slug(const std::string& slug) {
    for (const auto& [s, m] : slugs) {
        if (slug == s)
            return true;
    }
    return false;
}

std::optional<double> number(const json& j) {
    if (!j.is_number())
        return std::nullopt;
    const double v = j.get<double>();
    return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

std::string text_of(const json& j) {
    return j.is_string() ? j.get<std::string>() : std::string();
}

io::read_error at(const std::string& origin, const std::string& what) {
    return io::read_error{origin + ": " + what};
}

// One benchmark's BMF object ({measure: {value, lower_value, upper_value}}) as figures.
void bmf_figures(const std::string& benchmark, const json& by_measure, std::vector<history_figure>& out) {
    if (!by_measure.is_object())
        return;
    for (const auto& [slug, m] : by_measure.items()) {
        const auto value = m.is_object() && m.contains("value") ? number(m["value"]) : std::nullopt;
        if (!value)
            continue;
        history_figure f{benchmark, measure_of_slug(slug), *value, std::nullopt, std::nullopt};
        if (m.contains("lower_value") && m.contains("upper_value")) {
            f.low = number(m["lower_value"]);
            f.high = number(m["upper_value"]);
            if (!f.low || !f.high)
                f.low = f.high = std::nullopt;
        }
        out.push_back(std::move(f));
    }
}

std::variant<std::vector<imported_run>, io::read_error> bmf_dump(const json& doc, const std::string& origin,
                                                                 const std::string& branch) {
    std::vector<imported_run> out;
    for (std::size_t i = 0; i < doc.size(); ++i) {
        const json& e = doc[i];
        const std::string where = "[" + std::to_string(i) + "]";
        if (!e.is_object() || !e.contains("results") || !e["results"].is_object())
            return at(origin, where + ": expected an object with \"results\" (a BMF object)");
        imported_run r;
        r.run.commit = text_of(e.value("commit", json()));
        r.run.branch =
            e.contains("branch") && e["branch"].is_string() ? e["branch"].get<std::string>() : branch;
        const auto date = normalize_date(text_of(e.value("date", json())));
        if (r.run.commit.empty() || !date)
            return at(origin, where + ": a run needs a \"commit\" and an ISO 8601 \"date\"");
        r.run.date = *date;
        r.run.source = origin;
        r.run.kind = "bmf";
        for (const auto& [name, by_measure] : e["results"].items())
            bmf_figures(name, by_measure, r.figures);
        r.run.benchmarks = e["results"].size();
        r.digest = "bmf:" + digest_of(e.dump());
        out.push_back(std::move(r));
    }
    return out;
}

// Milliseconds since the epoch as a date; nothing beyond the years a date can name.
std::optional<std::string> utc_of_milliseconds(double ms) {
    if (!(std::fabs(ms) < 1e15))  // about 31,700 years either side of 1970
        return std::nullopt;
    const auto t = static_cast<std::time_t>(std::floor(ms / 1000));
    std::tm tm{};
    gmtime_r(&t, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

// A github-action-benchmark bench as a figure: tare's own entries ("NAME (slug)") by their slug,
// another tool's by its unit (a time per iteration in ns, µs, ms or s; else a counter).
history_figure gab_figure(const json& b) {
    const std::string name = text_of(b.value("name", json()));
    const std::string unit = text_of(b.value("unit", json()));
    const double value = number(b.value("value", json())).value_or(std::nan(""));
    const auto open = name.rfind(" (");
    if (open != std::string::npos && name.back() == ')') {
        const std::string slug = name.substr(open + 2, name.size() - open - 3);
        if (known_slug(slug)) {
            history_figure f{name.substr(0, open), measure_of_slug(slug), value, std::nullopt, std::nullopt};
            const std::string range = text_of(b.value("range", json()));
            if (slug == "latency" && range.rfind("± ", 0) == 0) {
                char* end = nullptr;
                const double half = std::strtod(range.c_str() + std::string("± ").size(), &end);
                if (end != nullptr && *end == '\0' && std::isfinite(half)) {
                    f.low = value - half;
                    f.high = value + half;
                }
            }
            return f;
        }
    }
    static const std::map<std::string, double> per_ns{
        {"ns", 1},        {"ns/iter", 1}, {"us", 1e3},      {"us/iter", 1e3}, {"µs", 1e3},
        {"µs/iter", 1e3}, {"ms", 1e6},    {"ms/iter", 1e6}, {"s", 1e9},       {"s/iter", 1e9}};
    if (const auto scale = per_ns.find(unit); scale != per_ns.end())
        return {name, "time_ns", value * scale->second, std::nullopt, std::nullopt};
    return {name, "counter:" + (unit.empty() ? std::string("value") : unit), value, std::nullopt,
            std::nullopt};
}

std::variant<std::vector<imported_run>, io::read_error> gab_data(const json& doc, const std::string& origin,
                                                                 const std::string& branch) {
    if (!doc.contains("entries") || !doc["entries"].is_object())
        return at(origin, "expected github-action-benchmark's data (an object with \"entries\")");
    std::map<std::pair<std::string, std::string>, imported_run> runs;  // by date and commit
    for (const auto& [suite, entries] : doc["entries"].items()) {
        if (!entries.is_array())
            return at(origin, "entries." + suite + ": expected an array");
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const json& e = entries[i];
            const std::string where = "entries." + suite + "[" + std::to_string(i) + "]";
            const json commit = e.is_object() ? e.value("commit", json()) : json();
            const std::string id = commit.is_object() ? text_of(commit.value("id", json())) : "";
            std::optional<std::string> date;
            if (commit.is_object())
                date = normalize_date(text_of(commit.value("timestamp", json())));
            if (const auto ms = e.is_object() ? number(e.value("date", json())) : std::nullopt; !date && ms)
                date = normalize_date(utc_of_milliseconds(*ms).value_or(""));
            if (id.empty() || !date || !e.contains("benches") || !e["benches"].is_array())
                return at(origin, where + ": an entry needs \"commit.id\", a date and \"benches\"");
            imported_run& r = runs[{*date, id}];
            r.run.commit = id;
            r.run.branch = branch;
            r.run.date = *date;
            r.run.source = origin;
            r.run.kind = "gab-data";
            r.digest += digest_of(e.dump());
            for (const json& b : e["benches"]) {
                if (b.is_object()) {
                    history_figure f = gab_figure(b);
                    if (std::isfinite(f.value))
                        r.figures.push_back(std::move(f));
                }
            }
        }
    }
    std::vector<imported_run> out;
    for (auto& [key, r] : runs) {
        std::map<std::string, int> names;
        for (const history_figure& f : r.figures)
            names[f.benchmark] = 1;
        r.run.benchmarks = names.size();
        r.digest = "gab:" + digest_of(r.digest);
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace

std::string measure_of_slug(const std::string& slug) {
    for (const auto& [s, m] : slugs) {
        if (slug == s)
            return m;
    }
    return "counter:" + slug;
}

run_results results_of(const std::vector<history_figure>& figures) {
    run_results r;
    std::map<std::string, std::size_t> at;
    for (const history_figure& f : figures) {
        auto [it, added] = at.emplace(f.benchmark, r.benchmarks.size());
        if (added) {
            r.benchmarks.emplace_back();
            r.benchmarks.back().name = f.benchmark;
        }
        benchmark_result& b = r.benchmarks[it->second];
        const std::string& m = f.measure;
        auto counts = [&b]() -> instruction_counts& {
            if (!b.counts)
                b.counts = instruction_counts{"", 1, 0, {}, {}, {}, {}, {}, 0};
            return *b.counts;
        };
        if (m == "time_ns") {
            b.time.mean = f.value;
            b.time.median = f.value;
            if (f.low && f.high)
                b.time.ci = interval{*f.low, *f.high};
        } else if (m == "allocs_per_iter") {
            b.allocs_per_iter = f.value;
        } else if (m == "bytes_per_iter") {
            b.bytes_per_iter = f.value;
        } else if (m == "peak_live_bytes") {
            if (std::fabs(f.value) < 9e18)  // an int64, as tare/1 keeps it
                b.peak_live_bytes = static_cast<std::int64_t>(std::llround(f.value));
        } else if (m == "retained_bytes_per_iter") {
            b.retained_bytes_per_iter = f.value;
        } else if (m == "page_faults_per_iter") {
            b.page_faults_per_iter = f.value;
        } else if (m == "copied_bytes_per_iter") {
            b.copied_bytes_per_iter = f.value;
        } else if (m == "set_bytes_per_iter") {
            b.set_bytes_per_iter = f.value;
        } else if (m == "mapped_bytes_per_iter") {
            b.mapped_bytes_per_iter = f.value;
        } else if (m == "bytes_per_second") {
            b.bytes_per_second = f.value;
        } else if (m == "items_per_second") {
            b.items_per_second = f.value;
        } else if (m == "instructions") {
            counts().instructions = f.value;
        } else if (m == "data_reads") {
            counts().data_reads = f.value;
        } else if (m == "data_writes") {
            counts().data_writes = f.value;
        } else if (m == "l1_misses") {
            counts().l1_misses = f.value;
        } else if (m == "ll_misses") {
            counts().ll_misses = f.value;
        } else if (m == "estimated_cycles") {
            counts().estimated_cycles = f.value;
        } else if (m.rfind("counter:", 0) == 0) {
            b.counters.emplace_back(m.substr(8), f.value);
        }
    }
    return r;
}

std::variant<std::vector<imported_run>, io::read_error> parse_import(const std::string& text,
                                                                     const std::string& origin,
                                                                     const std::string& branch) {
    // data.js is one JavaScript assignment of a JSON object: the object is read.
    std::string body = text;
    const std::string prefix = "window.BENCHMARK_DATA";
    if (const auto p = text.find_first_not_of(" \t\r\n\xef\xbb\xbf");
        p != std::string::npos && text.compare(p, prefix.size(), prefix) == 0) {
        const std::size_t offset = text.find('{', p);
        const auto end = text.rfind('}');
        if (offset == std::string::npos || end == std::string::npos || end < offset)
            return at(origin, "window.BENCHMARK_DATA holds no object");
        // The assignment around the object becomes blanks: lines and columns stay the file's.
        for (std::size_t i = 0; i < body.size(); ++i) {
            if ((i < offset || i > end) && body[i] != '\n')
                body[i] = ' ';
        }
    }
    if (auto e = io::check_json_text(body, origin))
        return *e;
    json doc;
    try {
        doc = json::parse(body);
    } catch (const json::parse_error& e) {
        return io::malformed_json(body, origin, e.what(), e.byte);
    } catch (const json::exception& e) {
        return io::unreadable_json(body, origin, e.what());
    }
    if (doc.is_array())
        return bmf_dump(doc, origin, branch);
    if (doc.is_object())
        return gab_data(doc, origin, branch);
    return at(origin, "expected tare's BMF dump (an array) or github-action-benchmark's data (an object)");
}

}  // namespace tare::history
