#include "io/gbench_reader.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>

#include "core/metrics.hpp"
#include "stats/outliers.hpp"
#include "stats/summary.hpp"
#include "tare/version.hpp"

namespace tare::io {

namespace {

using nlohmann::json;

// Every key GB 1.7.1 (and 1.8's skip fields) writes in a benchmark row; anything else in a row
// is a user counter, which GB flattens into the row beside them.
// clang-format off
const std::set<std::string, std::less<>> known_keys = {
    "name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
    "repetition_index", "threads", "aggregate_name", "aggregate_unit", "iterations", "real_time",
    "cpu_time", "time_unit", "bytes_per_second", "items_per_second", "label", "error_occurred",
    "error_message", "skipped", "skip_message", "allocs_per_iter", "max_bytes_used",
    "total_allocated_bytes", "net_heap_growth", "big_o", "real_coefficient", "cpu_coefficient", "rms",
    // tare::gbench's region hooks (src/adapters/gbench/region_hooks.cpp), read as memory figures
    "tare_allocs_per_iter", "tare_bytes_per_iter", "tare_retained_per_iter", "tare_faults_per_iter",
    "tare_peak_live_bytes", "tare_mapped_per_iter"};
// clang-format on

// The strings quote_non_finite() puts in place of the bare literals.
double number_of(const json& v) {
    if (v.is_number()) {
        return v.get<double>();
    }
    if (v.is_string()) {
        const std::string& s = v.get_ref<const std::string&>();
        if (s == "N") {
            return std::numeric_limits<double>::quiet_NaN();
        }
        if (s == "I") {
            return std::numeric_limits<double>::infinity();
        }
        if (s == "-I") {
            return -std::numeric_limits<double>::infinity();
        }
    }
    return std::numeric_limits<double>::quiet_NaN();
}

// The largest count a tare/1 file holds (docs/json-schema.md): a count read past it would be
// written by `tare run FILE --json`, `tare merge` or `tare export` into a file that no reader,
// tare's own included, takes back.
constexpr std::uint64_t max_count = std::numeric_limits<std::int64_t>::max();

// A count from a number Google Benchmark wrote: NaN, negative and fractional parts give what
// is left, 0 at least, and a value past the type's range or past max_count the smaller of the
// two (a cast of either is undefined behaviour: NaN became INT64_MIN, "-8.00 EiB").
template <class Int>
Int count_of(double v) {
    constexpr auto high = std::min<std::uint64_t>(std::numeric_limits<Int>::max(), max_count);
    if (!(v > 0))
        return 0;
    // Rounded up to a power of two when it has more than 53 bits (2^63), so `v < top` casts.
    constexpr auto top = static_cast<double>(high);
    return v >= top ? static_cast<Int>(high) : static_cast<Int>(v);
}

// `a + b`, counts up to max_count, stopping there: repetitions' iterations summed, each clamped,
// would otherwise pass it too, or wrap.
std::uint64_t add_counts(std::uint64_t a, std::uint64_t b) {
    return b > max_count - a ? max_count : a + b;
}

std::optional<double> opt_number(const json& row, const char* key) {
    auto it = row.find(key);
    if (it == row.end() || it->is_null()) {
        return std::nullopt;
    }
    return number_of(*it);
}

std::string text_of(const json& row, const char* key) {
    auto it = row.find(key);
    return it != row.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool flag_of(const json& row, const char* key) {
    auto it = row.find(key);
    return it != row.end() && it->is_boolean() && it->get<bool>();
}

// ns per `unit`; GB's time units are exactly these four.
std::optional<double> ns_per(const std::string& unit) {
    if (unit == "ns" || unit.empty()) {
        return 1.0;
    }
    if (unit == "us") {
        return 1e3;
    }
    if (unit == "ms") {
        return 1e6;
    }
    if (unit == "s") {
        return 1e9;
    }
    return std::nullopt;
}

// A value as GB wrote it (quote_non_finite() undone), for a message.
std::string shown(const json& v) {
    if (v == "N")
        return "NaN";
    if (v == "I")
        return "Infinity";
    if (v == "-I")
        return "-Infinity";
    return v.dump();
}

// A figure GB measured is never negative, and a time or a count never infinite; null or absent
// is "not written". The message names the row the way GB's own output does.
std::optional<std::string> check_row(const std::string& name, const json& row) {
    const auto where = [&](const char* key) {
        std::string at = "benchmark \"" + name + "\"";
        if (auto it = row.find("repetition_index"); it != row.end() && it->is_number())
            at += " repetition " + it->dump();
        if (auto agg = text_of(row, "aggregate_name"); !agg.empty())
            at += " (" + agg + ")";
        return at + ": " + key;
    };
    for (const char* key : {"iterations", "real_time", "cpu_time"}) {
        if (auto v = opt_number(row, key); v && (*v < 0 || std::isinf(*v)))
            return where(key) + ": expected a finite non-negative number, not " + shown(row.at(key));
    }
    for (const char* key : {"bytes_per_second", "items_per_second", "allocs_per_iter"}) {
        if (auto v = opt_number(row, key); v && *v < 0)
            return where(key) + ": expected a non-negative number, not " + shown(row.at(key));
    }
    // A repetition that ran (an error or a skip ends the reading before) ran one iteration at
    // least; read as a sample of none, it went into a tare/1 file that tare's reader refuses.
    if (text_of(row, "run_type") != "aggregate") {
        const auto n = opt_number(row, "iterations");
        if (!n)
            return where("iterations") + ": missing";
        if (!(*n >= 1))
            return where("iterations") + ": expected at least 1, not " + shown(row.at("iterations"));
    }
    return std::nullopt;
}

struct group {
    std::vector<const json*> iterations;  // one row per repetition
    std::vector<const json*> aggregates;
};

// The region hooks' figures of the group into `r`, when every row that measured has them, and
// tare's memory warnings for them: fresh_memory and unseen_memory on the faults per iteration,
// retained_growth on the live heap a timed run kept (the largest over repetitions: each is a
// region of its own).
// True when they were used.
bool use_region_figures(const group& g, benchmark_result& r) {
    std::vector<const json*> rows = g.iterations;
    if (rows.empty()) {  // aggregates only: GB's mean over repetitions
        for (const json* row : g.aggregates) {
            if (text_of(*row, "aggregate_name") == "mean")
                rows.push_back(row);
        }
    }
    if (rows.empty())
        return false;
    double iterations = 0;
    double allocs = 0;
    double bytes = 0;
    double retained = 0;
    double faults = 0;
    double peak = 0;
    double grown = 0;  // the most live heap one timed run kept
    double mapped = 0;
    bool mapped_everywhere = true;  // older suites, and TSan builds, have no mapped counter
    for (const json* row : rows) {
        const auto a = opt_number(*row, "tare_allocs_per_iter");
        const auto b = opt_number(*row, "tare_bytes_per_iter");
        const auto n = opt_number(*row, "tare_retained_per_iter");
        const auto f = opt_number(*row, "tare_faults_per_iter");
        const auto p = opt_number(*row, "tare_peak_live_bytes");
        if (!a || !b || !n || !f || !p)
            return false;
        const auto m = opt_number(*row, "tare_mapped_per_iter");
        mapped_everywhere = mapped_everywhere && m.has_value();
        const double w = std::max(opt_number(*row, "iterations").value_or(1), 1.0);
        iterations += w;
        allocs += *a * w;
        bytes += *b * w;
        retained += *n * w;
        mapped += m.value_or(0) * w;
        faults += *f * w;
        peak = std::max(peak, *p);
        grown = std::max(grown, *n * w);
    }
    r.allocs_per_iter = allocs / iterations;
    r.bytes_per_iter = bytes / iterations;
    r.retained_bytes_per_iter = retained / iterations;
    r.page_faults_per_iter = faults / iterations;
    if (mapped_everywhere)
        r.mapped_bytes_per_iter = mapped / iterations;
    r.peak_live_bytes = count_of<std::int64_t>(peak);
    if (auto w = core::fresh_memory_warning(*r.page_faults_per_iter, *r.bytes_per_iter))
        r.warnings.push_back(std::move(*w));
    const double held = std::max(static_cast<double>(peak), *r.retained_bytes_per_iter);
    const double seen = *r.bytes_per_iter + r.mapped_bytes_per_iter.value_or(0);
    if (auto w = core::unseen_memory_warning(*r.page_faults_per_iter, seen, held))
        r.warnings.push_back(std::move(*w));
    if (auto w = core::retained_growth_warning(*r.retained_bytes_per_iter, grown, grown, "a timed run"))
        r.warnings.push_back(std::move(*w));
    return true;
}

// Whether a row's CPU time can be set against its real time: not under manual time (the real
// time is then the body's own figure) nor ->Threads(n) (Google Benchmark's CPU time is then the
// threads' together).
bool cpu_judged(const std::string& name, const json& row) {
    return name.find("/manual_time") == std::string::npos && opt_number(row, "threads").value_or(1) <= 1;
}

void add_counters(benchmark_result& r, const json& row) {
    for (const auto& [key, value] : row.items()) {
        if (known_keys.count(key) == 0) {
            r.counters.emplace_back(key, number_of(value));
        }
    }
}

enum class memory_source { none, region, memory_run };

// The repetitions' rows of `g` as samples: time, iterations, GB's CPU time and the noise and
// contention warnings.
void add_repetitions(const std::string& name, const group& g, double scale, const json& first,
                     benchmark_result& r) {
    double cpu_sum = 0;
    double cpu_total = 0;  // over the repetitions, for contention
    double wall_total = 0;
    for (const json* row : g.iterations) {
        const double iters = opt_number(*row, "iterations").value_or(0);
        r.iterations = add_counts(r.iterations, count_of<std::uint64_t>(iters));
        r.samples_ns.push_back(opt_number(*row, "real_time").value_or(0) * scale);
        cpu_sum += opt_number(*row, "cpu_time").value_or(0) * scale;
        cpu_total += opt_number(*row, "cpu_time").value_or(0) * scale * iters;
        wall_total += r.samples_ns.back() * iters;
        sample s;
        s.iterations = count_of<std::uint64_t>(iters);
        s.elapsed_ns = r.samples_ns.back() * iters;
        r.samples.push_back(s);
    }
    if (!r.samples_ns.empty()) {
        r.time = stats::summarize(r.samples_ns);
        r.outliers = stats::classify_outliers(r.samples_ns);
        // Repetitions are samples: tare's own rule for them (docs/statistics.md). One repetition
        // is no spread to judge; its "± —" already says there is no interval.
        if (r.samples_ns.size() >= 2) {
            if (auto w = stats::noise_warning(r.time, r.outliers, r.samples_ns.size())) {
                r.warnings.push_back(*w);
            }
        }
        r.counters.emplace_back("gb_cpu_time_ns", cpu_sum / static_cast<double>(r.samples_ns.size()));
        if (cpu_judged(name, first)) {
            if (auto w = core::contended_warning(cpu_total, wall_total)) {
                r.warnings.push_back(std::move(*w));
            }
        }
    }
}

// GB's aggregate rows as counters (gb_mean_ns...), and the time's mean, median and stddev when
// they are all there is. The mean's row, or nullptr.
const json* add_aggregates(const group& g, double scale, benchmark_result& r) {
    const json* mean_row = nullptr;
    bool has_time = false;  // an aggregate with a time (not a complexity fit)
    for (const json* row : g.aggregates) {
        const std::string agg = text_of(*row, "aggregate_name");
        // Complexity rows (->Complexity()): the fitted coefficient and its RMS, no time.
        if (auto c = opt_number(*row, "real_coefficient")) {
            r.counters.emplace_back("gb_big_o_coefficient_ns", *c * scale);
            r.warnings.push_back({"gbench_complexity",
                                  "Google Benchmark's complexity fit: O(" + text_of(*row, "big_o") + ")"});
            continue;
        }
        if (auto rms = opt_number(*row, "rms")) {
            r.counters.emplace_back("gb_rms", *rms);
            continue;
        }
        has_time = true;
        const bool ratio = text_of(*row, "aggregate_unit") == "percentage";
        const double value = opt_number(*row, "real_time").value_or(0) * (ratio ? 1.0 : scale);
        r.counters.emplace_back("gb_" + agg + (ratio ? "" : "_ns"), value);
        if (agg == "mean") {
            mean_row = row;
        }
        // Aggregates only (--benchmark_report_aggregates_only): GB's figures are all there is.
        if (g.iterations.empty()) {
            if (agg == "mean") {
                r.time.mean = value;  // no interval: GB's aggregates do not carry one
            } else if (agg == "median") {
                r.time.median = value;
            } else if (agg == "stddev") {
                r.time.stddev = value;
            }
        }
    }
    if (g.iterations.empty() && has_time) {
        // No repetition's row: no min, no max, no iteration count (GB's aggregate rows count
        // repetitions there). Unknown, not 0: NaN is written as null and shown as missing.
        r.time.min = std::numeric_limits<double>::quiet_NaN();
        r.time.max = std::numeric_limits<double>::quiet_NaN();
        r.warnings.push_back({"aggregates_only",
                              "Google Benchmark wrote aggregates only: no samples, no interval, no min/max"});
    }
    return mean_row;
}

// The figures of GB's memory run (its MemoryManager), as far as they can be trusted.
void add_memory_run(const group& g, const json& first, benchmark_result& r) {
    // Memory of GB's memory run, one per repetition of min(16, iterations) iterations. GB 1.7.1
    // keeps each repetition's figures behind a pointer into a std::vector that it grows with
    // the next repetition, so every repetition's max_bytes_used and total_allocated_bytes but
    // the last are read from freed memory when the JSON is written (allocs_per_iter, computed
    // before, is sound). So the last repetition's figures stand for all, and figures that
    // cannot be true (a peak above the bytes allocated) are dropped with a warning.
    bool mem_ok = true;
    const json& mem = g.iterations.empty() ? first : *g.iterations.back();
    if (auto a = opt_number(mem, "allocs_per_iter")) {
        r.allocs_per_iter = a;
        const double iters = opt_number(mem, "iterations").value_or(0);
        const double memory_iterations = std::min(16.0, iters);
        const auto peak = opt_number(mem, "max_bytes_used");
        const auto total = opt_number(mem, "total_allocated_bytes");
        if (peak && total &&
            (*peak > *total || *peak < 0 || !std::isfinite(*peak) || !std::isfinite(*total))) {
            r.warnings.push_back({"gbench_memory_garbled",
                                  "Google Benchmark wrote impossible memory figures (a peak above the "
                                  "bytes allocated): only allocs/iter is kept"});
            mem_ok = false;
        }
        if (peak && mem_ok && std::isfinite(*peak)) {
            r.peak_live_bytes = count_of<std::int64_t>(*peak);
        }
        // Per iteration of GB's memory run; its raw totals are these times memory_iterations.
        if (total && mem_ok && memory_iterations > 0) {
            r.bytes_per_iter = *total / memory_iterations;
        }
        if (auto n = opt_number(mem, "net_heap_growth"); n && mem_ok && memory_iterations > 0) {
            r.retained_bytes_per_iter = *n / memory_iterations;
        }
    }
}

// Fills `r` from the group's rows, and `source` with what measured its memory figures; an error
// message (without the file name) for rows it cannot read.
std::optional<std::string> convert(const std::string& name, const group& g, benchmark_result& r,
                                   memory_source& source) {
    r.name = name;
    const json& first = g.iterations.empty() ? *g.aggregates.front() : *g.iterations.front();
    for (const json* row : g.iterations) {
        if (flag_of(*row, "error_occurred")) {
            r.error = error_info{"gbench_error", text_of(*row, "error_message")};
            return std::nullopt;
        }
        if (flag_of(*row, "skipped")) {
            r.error = error_info{"skipped", text_of(*row, "skip_message")};
            return std::nullopt;
        }
    }
    for (const auto* rows : {&g.iterations, &g.aggregates}) {
        for (const json* row : *rows) {
            if (auto err = check_row(name, *row))
                return err;
        }
    }
    const std::string unit = text_of(first, "time_unit");
    const std::optional<double> scale = ns_per(unit);
    if (!scale) {
        return "benchmark \"" + name + "\": unknown time_unit \"" + unit + "\"";
    }
    add_repetitions(name, g, *scale, first, r);
    const json* mean_row = add_aggregates(g, *scale, r);
    // User counters: GB's mean over repetitions when there is one, else the (single) row's.
    const json& counters_row = mean_row != nullptr ? *mean_row : first;
    add_counters(r, counters_row);
    if (auto it = first.find("label");
        it != first.end() && it->is_string() && !it->get_ref<const std::string&>().empty()) {
        r.label = it->get<std::string>();
    }
    add_memory_run(g, first, r);
    // The region hooks' figures, when the suite has them, replace the memory run's: the timed
    // region alone. Each row's are per iteration of its own run; over repetitions, the mean
    // weighted by iterations, which is the figure of all the iterations together.
    if (use_region_figures(g, r)) {
        r.warnings.erase(std::remove_if(r.warnings.begin(), r.warnings.end(),
                                        [](const warning& w) { return w.kind == "gbench_memory_garbled"; }),
                         r.warnings.end());
        source = memory_source::region;
    } else if (r.allocs_per_iter) {
        source = memory_source::memory_run;
    }
    r.bytes_per_second = opt_number(counters_row, "bytes_per_second");
    r.items_per_second = opt_number(counters_row, "items_per_second");
    return std::nullopt;
}

std::variant<json, read_error> parse_json(const std::string& text, const std::string& origin) {
    if (auto err = check_json_text(text, origin)) {
        return *err;
    }
    try {
        return json::parse(quote_non_finite(text));
    } catch (const json::parse_error& e) {
        // Offsets are those of `text`: quote_non_finite() keeps every byte where it was.
        return malformed_json(text, origin, e.what(), e.byte);
    } catch (const json::exception& e) {
        return unreadable_json(text, origin, e.what());  // a number beyond any double (1e400)
    } catch (const std::exception& e) {
        return read_error{origin + ": cannot read: " + e.what()};  // out of memory
    }
}

std::variant<run_results, read_error> from_document(const json& doc, const std::string& origin) {
    try {
        run_results out;
        const json& c = doc.at("context");
        out.context.tare_version = TARE_VERSION_STRING;
        out.context.executable = text_of(c, "executable");
        out.context.host = text_of(c, "host_name");
        out.context.date = text_of(c, "date");
        if (auto mhz = opt_number(c, "mhz_per_cpu")) {
            out.context.cpu = std::to_string(count_of<long long>(*mhz)) + " MHz (Google Benchmark)";
        }
        out.context.num_cpus = count_of<std::uint32_t>(opt_number(c, "num_cpus").value_or(0));
        // Groups in first-appearance order: GB writes a benchmark's repetitions and then its
        // aggregates, but with --benchmark_enable_random_interleaving they may interleave.
        std::vector<std::string> order;
        std::map<std::string, group> groups;
        for (const json& row : doc.at("benchmarks")) {
            std::string key = text_of(row, "run_name");
            if (key.empty()) {
                key = text_of(row, "name");
            }
            if (groups.find(key) == groups.end()) {
                order.push_back(key);
            }
            group& g = groups[key];
            (text_of(row, "run_type") == "aggregate" ? g.aggregates : g.iterations).push_back(&row);
        }
        std::vector<memory_source> sources;
        for (const std::string& name : order) {
            benchmark_result r;
            memory_source source = memory_source::none;
            if (auto err = convert(name, groups[name], r, source)) {
                return read_error{origin + ": " + *err};
            }
            out.context.accounting = out.context.accounting || r.allocs_per_iter.has_value();
            out.benchmarks.push_back(std::move(r));
            sources.push_back(source);
        }
        const auto any = [&](memory_source s) {
            return std::find(sources.begin(), sources.end(), s) != sources.end();
        };
        if (any(memory_source::region) && any(memory_source::memory_run)) {
            out.context.gbench_memory = "mixed";
            for (std::size_t i = 0; i < sources.size(); ++i) {
                if (sources[i] == memory_source::memory_run)
                    out.benchmarks[i].warnings.push_back(
                        {"gbench_memory_run",
                         "memory figures from Google Benchmark's memory run (the whole function, setup and "
                         "pauses included), not the timed region: this row has no figures of tare::gbench's "
                         "region hooks"});
            }
        } else if (any(memory_source::region)) {
            out.context.gbench_memory = "region";
        } else if (any(memory_source::memory_run)) {
            out.context.gbench_memory = "memory_run";
        } else if (!out.benchmarks.empty() &&
                   std::all_of(out.benchmarks.begin(), out.benchmarks.end(),
                               [](const benchmark_result& b) { return b.error.has_value(); })) {
            // No row ran to its end: whether the suite has memory figures is not known, and
            // "accounting: off" or "link tare::gbench" would say what the file cannot.
            out.context.gbench_memory = "none_measured";
        }
        return out;
    } catch (const json::exception& e) {
        return read_error{origin + ": not a valid Google Benchmark document: " + e.what()};
    } catch (const std::exception& e) {
        return read_error{origin + ": cannot read: " + e.what()};
    }
}

}  // namespace

std::string quote_non_finite(const std::string& text) {
    std::string out = text;
    bool in_string = false;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const char ch = out[i];
        if (in_string) {
            if (ch == '\\') {
                ++i;  // the escaped character cannot end the string
            } else if (ch == '"') {
                in_string = false;
            }
            continue;
        }
        if (ch == '"') {
            in_string = true;
            continue;
        }
        const std::string_view rest(out.data() + i, out.size() - i);
        auto replace = [&](std::string_view literal, std::string_view quoted) {
            // Same length: the quoted form padded with spaces, so offsets do not move.
            std::string with = std::string(quoted) + std::string(literal.size() - quoted.size(), ' ');
            out.replace(i, literal.size(), with);
            i += literal.size() - 1;
        };
        if (rest.starts_with("NaN")) {
            replace("NaN", "\"N\"");
        } else if (rest.starts_with("Infinity")) {
            replace("Infinity", "\"I\"");
        } else if (rest.starts_with("-Infinity")) {
            replace("-Infinity", "\"-I\"");
        }
    }
    return out;
}

std::variant<run_results, read_error> parse_gbench_results(const std::string& text,
                                                           const std::string& origin) {
    auto parsed = parse_json(text, origin);
    if (auto* err = std::get_if<read_error>(&parsed)) {
        return *err;
    }
    return from_document(std::get<json>(parsed), origin);
}

std::variant<run_results, read_error> read_any_results_file(const std::string& path) {
    auto read = read_text_file(path);
    if (auto* err = std::get_if<read_error>(&read)) {
        return *err;
    }
    return parse_any_results(std::get<std::string>(read), path);
}

std::variant<run_results, read_error> parse_any_results(const std::string& text, const std::string& path) {
    // A file that names its schema is tare's (a Google Benchmark file names none): parsed once,
    // by tare's reader, rather than a first time here only to look at its shape.
    if (document_schema(text)) {
        return parse_results(text, path);
    }
    auto parsed = parse_json(text, path);
    if (auto* err = std::get_if<read_error>(&parsed)) {
        return *err;
    }
    const json& doc = std::get<json>(parsed);
    const bool gbench_shape = doc.is_object() && !doc.contains("schema") && doc.contains("context") &&
                              doc.contains("benchmarks") && doc["context"].is_object() &&
                              doc["benchmarks"].is_array();
    if (gbench_shape) {
        return from_document(doc, path);
    }
    return parse_results(text, path);  // tare/1, or its error naming what is missing
}

}  // namespace tare::io
