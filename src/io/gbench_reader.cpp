#include "io/gbench_reader.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <new>
#include <nlohmann/json.hpp>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "core/metrics.hpp"
#include "io/gbench_rows.hpp"
#include "io/json_document.hpp"
#include "stats/outliers.hpp"
#include "stats/summary.hpp"
#include "tare/version.hpp"

namespace tare::io {

namespace {

using nlohmann::json;

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

using gbench::figure;
using gb_row = gbench::row;

struct group {
    std::vector<const gb_row*> iterations;  // one row per repetition
    std::vector<const gb_row*> aggregates;
};

// The region hooks' figures of the group into `r`, when every row that measured has them, and
// tare's memory warnings for them: fresh_memory and unseen_memory on the faults per iteration,
// retained_growth on the live heap a timed run kept (the largest over repetitions: each is a
// region of its own).
// True when they were used.
bool use_region_figures(const group& g, benchmark_result& r) {
    std::vector<const gb_row*> rows = g.iterations;
    if (rows.empty()) {  // aggregates only: GB's mean over repetitions
        for (const gb_row* row : g.aggregates) {
            if (row->aggregate_name() == "mean")
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
    for (const gb_row* row : rows) {
        const auto a = row->number(figure::tare_allocs_per_iter);
        const auto b = row->number(figure::tare_bytes_per_iter);
        const auto n = row->number(figure::tare_retained_per_iter);
        const auto f = row->number(figure::tare_faults_per_iter);
        const auto p = row->number(figure::tare_peak_live_bytes);
        if (!a || !b || !n || !f || !p)
            return false;
        const auto m = row->number(figure::tare_mapped_per_iter);
        mapped_everywhere = mapped_everywhere && m.has_value();
        const double w = std::max(row->number(figure::iterations).value_or(1), 1.0);
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
bool cpu_judged(const std::string& name, const gb_row& row) {
    return name.find("/manual_time") == std::string::npos && row.number(figure::threads).value_or(1) <= 1;
}

void add_counters(benchmark_result& r, const gb_row& row) {
    r.counters.insert(r.counters.end(), row.counters().begin(), row.counters().end());
}

enum class memory_source { none, region, memory_run };

// The repetitions' rows of `g` as samples: time, iterations, GB's CPU time and the noise and
// contention warnings.
void add_repetitions(const std::string& name, const group& g, double scale, const gb_row& first,
                     benchmark_result& r) {
    double cpu_sum = 0;
    double cpu_total = 0;  // over the repetitions, for contention
    double wall_total = 0;
    for (const gb_row* row : g.iterations) {
        const double iters = row->number(figure::iterations).value_or(0);
        r.iterations = add_counts(r.iterations, count_of<std::uint64_t>(iters));
        r.samples_ns.push_back(row->number(figure::real_time).value_or(0) * scale);
        cpu_sum += row->number(figure::cpu_time).value_or(0) * scale;
        cpu_total += row->number(figure::cpu_time).value_or(0) * scale * iters;
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
const gb_row* add_aggregates(const group& g, double scale, benchmark_result& r) {
    const gb_row* mean_row = nullptr;
    bool has_time = false;  // an aggregate with a time (not a complexity fit)
    for (const gb_row* row : g.aggregates) {
        const std::string agg(row->aggregate_name());
        // Complexity rows (->Complexity()): the fitted coefficient and its RMS, no time.
        if (auto c = row->number(figure::real_coefficient)) {
            r.counters.emplace_back("gb_big_o_coefficient_ns", *c * scale);
            r.warnings.push_back({"gbench_complexity",
                                  "Google Benchmark's complexity fit: O(" + std::string(row->big_o()) + ")"});
            continue;
        }
        if (auto rms = row->number(figure::rms)) {
            r.counters.emplace_back("gb_rms", *rms);
            continue;
        }
        has_time = true;
        const bool ratio = row->percentage();
        const double value = row->number(figure::real_time).value_or(0) * (ratio ? 1.0 : scale);
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
void add_memory_run(const group& g, const gb_row& first, benchmark_result& r) {
    // Memory of GB's memory run, one per repetition of min(16, iterations) iterations. GB 1.7.1
    // keeps each repetition's figures behind a pointer into a std::vector that it grows with
    // the next repetition, so every repetition's max_bytes_used and total_allocated_bytes but
    // the last are read from freed memory when the JSON is written (allocs_per_iter, computed
    // before, is sound). So the last repetition's figures stand for all, and figures that
    // cannot be true (a peak above the bytes allocated) are dropped with a warning.
    bool mem_ok = true;
    const gb_row& mem = g.iterations.empty() ? first : *g.iterations.back();
    if (auto a = mem.number(figure::allocs_per_iter)) {
        r.allocs_per_iter = a;
        const double iters = mem.number(figure::iterations).value_or(0);
        const double memory_iterations = std::min(16.0, iters);
        const auto peak = mem.number(figure::max_bytes_used);
        const auto total = mem.number(figure::total_allocated_bytes);
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
        if (auto n = mem.number(figure::net_heap_growth); n && mem_ok && memory_iterations > 0) {
            r.retained_bytes_per_iter = *n / memory_iterations;
        }
    }
}

// Fills `r` from the group's rows, and `source` with what measured its memory figures; the error
// message after the file's name (": benchmark ...") for rows it cannot read.
std::optional<std::string> convert(const std::string& name, const group& g, benchmark_result& r,
                                   memory_source& source) {
    r.name = name;
    const gb_row& first = g.iterations.empty() ? *g.aggregates.front() : *g.iterations.front();
    for (const gb_row* row : g.iterations) {
        if (row->error_occurred()) {
            r.error = error_info{"gbench_error", std::string(row->stop_message())};
            return std::nullopt;
        }
        if (row->skipped()) {
            r.error = error_info{"skipped", std::string(row->stop_message())};
            return std::nullopt;
        }
    }
    for (const auto* rows : {&g.iterations, &g.aggregates}) {
        for (const gb_row* row : *rows) {
            if (auto err = row->problem())
                return err;
        }
    }
    const std::string unit = first.time_unit();
    const std::optional<double> scale = ns_per(unit);
    if (!scale) {
        return ": benchmark \"" + name + "\": unknown time_unit \"" + unit + "\"";
    }
    add_repetitions(name, g, *scale, first, r);
    const gb_row* mean_row = add_aggregates(g, *scale, r);
    // User counters: GB's mean over repetitions when there is one, else the (single) row's.
    const gb_row& counters_row = mean_row != nullptr ? *mean_row : first;
    add_counters(r, counters_row);
    if (!first.label().empty())
        r.label = std::string(first.label());
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
    r.bytes_per_second = counters_row.number(figure::bytes_per_second);
    r.items_per_second = counters_row.number(figure::items_per_second);
    return std::nullopt;
}

// Where the memory figures of the file came from, in its context, and the rows that say so.
void note_memory_sources(const std::vector<memory_source>& sources, run_results& out) {
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
}

// The rows of `benchmarks` (io/gbench_rows.hpp) and their groups in the order each first appears:
// GB writes a benchmark's repetitions and then its aggregates, but with
// --benchmark_enable_random_interleaving they may interleave.
class gb_table {
public:
    void clear() {
        rows_.clear();
        group_of_.clear();
        groups_.clear();
        names_.clear();
        problems_.clear();
    }
    void reserve(std::size_t rows) {
        rows_.reserve(rows);
        group_of_.reserve(rows);
    }
    void add(const json& row) {
        auto [at, fresh] =
            groups_.try_emplace(gbench::group_key(row), static_cast<std::uint32_t>(names_.size()));
        if (fresh)
            names_.push_back(&at->first);
        const gb_row& added = rows_.emplace_back(row, at->first);
        group_of_.push_back(at->second);
        if (fresh)
            problems_.push_back(0);
        // A group's first problem of each kind is the one convert() names; a later one is not kept.
        if (added.problem()) {
            const std::uint8_t kind = added.aggregate() ? 2 : 1;
            if ((problems_[at->second] & kind) != 0)
                rows_.back().forget_problem();
            problems_[at->second] |= kind;
        }
    }

    [[nodiscard]] std::size_t groups() const { return names_.size(); }

    /// Calls `each(name, group)` for every group in order, until it returns false.
    template <class F>
    void each_group(F each) const {
        // The rows' indices sorted by group (a counting sort, which keeps their order within one).
        std::vector<std::size_t> starts(names_.size() + 1, 0);
        for (const std::uint32_t g : group_of_)
            ++starts[g + 1];
        for (std::size_t g = 1; g < starts.size(); ++g)
            starts[g] += starts[g - 1];
        std::vector<std::uint32_t> members(rows_.size());
        std::vector<std::size_t> next(starts.begin(), starts.end() - 1);
        for (std::size_t i = 0; i < rows_.size(); ++i)
            members[next[group_of_[i]]++] = static_cast<std::uint32_t>(i);
        group g;
        for (std::size_t n = 0; n < names_.size(); ++n) {
            g.iterations.clear();
            g.aggregates.clear();
            for (std::size_t k = starts[n]; k < starts[n + 1]; ++k) {
                const gb_row& row = rows_[members[k]];
                (row.aggregate() ? g.aggregates : g.iterations).push_back(&row);
            }
            if (!each(*names_[n], g))
                return;
        }
    }

private:
    std::vector<gb_row> rows_;
    std::vector<std::uint32_t> group_of_;  // each row's group, by first appearance
    std::unordered_map<std::string, std::uint32_t> groups_;
    std::vector<const std::string*> names_;  // the keys of groups_ (nodes that never move), in order
    std::vector<std::uint8_t> problems_;     // each group's: 1, a repetition has a problem; 2, an aggregate
};

// Calls `at(offset, literal, quoted)` for each of GB's bare NaN, Infinity and -Infinity outside
// strings, `quoted` the same-length JSON string quote_non_finite() puts in its place.
template <class F>
void each_non_finite(const std::string& text, F at) {
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
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
        const std::string_view rest(text.data() + i, text.size() - i);
        for (const auto& [literal, quoted] : {std::pair<std::string_view, std::string_view>{"NaN", "\"N\""},
                                              {"Infinity", "\"I\""},
                                              {"-Infinity", "\"-I\""}}) {
            if (rest.starts_with(literal)) {
                at(i, literal, quoted);
                i += literal.size() - 1;
                break;
            }
        }
    }
}

// Parses `text` (GB JSON) into the tree of everything but the rows of `benchmarks`, which go to
// `table` one by one as the parser completes them (io/json_stream.hpp): the tree of the whole
// document took several times its text. Each row is turned into nlohmann::json (keys sorted)
// before it is read, as the whole document's tree had it: the user counters keep their order.
std::variant<json, read_error> parse_gb_json(const std::string& text, const std::string& origin,
                                             gb_table& table) {
    // The bare literals quoted on a copy, made only for a text that has one (few do): a second
    // copy of every text was as big as the file. Rejected: quoting as the parser reads, through
    // an input iterator of nlohmann's that keeps the string state, for the files that have one.
    std::string quoted;
    bool finite = true;
    each_non_finite(text, [&](std::size_t, std::string_view, std::string_view) { finite = false; });
    if (!finite)
        quoted = quote_non_finite(text);
    const std::string& parsed = finite ? text : quoted;
    try {
        table.reserve(codec::count_rows(parsed, "benchmarks"));
    } catch (const std::bad_alloc&) {
        // More rows than memory for them: the parse below says it ran out.
    }
    const auto to_table = [&table](codec::json* row, std::size_t) {
        if (row == nullptr) {
            table.clear();  // a key given twice: the last one counts
            return;
        }
        table.add(json(*row));
        *row = codec::json();
    };
    auto tree = codec::parse_text(parsed, origin, "benchmarks", to_table, &text);
    if (auto* err = std::get_if<read_error>(&tree))
        return *err;
    try {
        return json(std::get<codec::json>(tree));
    } catch (const std::exception& e) {
        return read_error{origin + ": cannot read: " + e.what()};  // out of memory
    }
}

// `doc` is the document without the rows of its `benchmarks` array, which are in `streamed`; when
// `benchmarks` is not an array, its values are the rows, as they were in a tree of the whole.
std::variant<run_results, read_error> from_document(const json& doc, const gb_table& streamed,
                                                    const std::string& origin) {
    try {
        run_results out;
        const json& c = doc.at("context");
        out.context.tare_version = TARE_VERSION_STRING;
        out.context.executable = gbench::text_at(c, "executable");
        out.context.host = gbench::text_at(c, "host_name");
        out.context.date = gbench::text_at(c, "date");
        if (auto mhz = gbench::number_at(c, "mhz_per_cpu")) {
            out.context.cpu = std::to_string(count_of<long long>(*mhz)) + " MHz (Google Benchmark)";
        }
        out.context.num_cpus = count_of<std::uint32_t>(gbench::number_at(c, "num_cpus").value_or(0));
        const json& listed = doc.at("benchmarks");
        gb_table from_tree;
        if (!listed.is_array()) {
            for (const json& row : listed)
                from_tree.add(row);
        }
        const gb_table& table = listed.is_array() ? streamed : from_tree;
        std::optional<read_error> failed;
        std::vector<memory_source> sources;
        // One result a group: reserved, or the vector's last doubling would hold its old and its
        // new storage at once, more than the rows' own.
        out.benchmarks.reserve(table.groups());
        sources.reserve(table.groups());
        table.each_group([&](const std::string& name, const group& g) {
            benchmark_result r;
            memory_source source = memory_source::none;
            if (auto err = convert(name, g, r, source)) {
                failed = read_error{origin + *err};
                return false;
            }
            out.context.accounting = out.context.accounting || r.allocs_per_iter.has_value();
            out.benchmarks.push_back(std::move(r));
            sources.push_back(source);
            return true;
        });
        if (failed)
            return *failed;
        note_memory_sources(sources, out);
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
    each_non_finite(text, [&](std::size_t i, std::string_view literal, std::string_view quoted) {
        // Same length: the quoted form padded with spaces, so offsets do not move.
        out.replace(i, literal.size(),
                    std::string(quoted) + std::string(literal.size() - quoted.size(), ' '));
    });
    return out;
}

std::variant<run_results, read_error> parse_gbench_results(const std::string& text,
                                                           const std::string& origin) {
    gb_table table;
    auto parsed = parse_gb_json(text, origin, table);
    if (auto* err = std::get_if<read_error>(&parsed)) {
        return *err;
    }
    return from_document(std::get<json>(parsed), table, origin);
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
    gb_table table;
    auto parsed = parse_gb_json(text, path, table);
    if (auto* err = std::get_if<read_error>(&parsed)) {
        return *err;
    }
    const json& doc = std::get<json>(parsed);
    const bool gbench_shape = doc.is_object() && !doc.contains("schema") && doc.contains("context") &&
                              doc.contains("benchmarks") && doc["context"].is_object() &&
                              doc["benchmarks"].is_array();
    if (gbench_shape) {
        return from_document(doc, table, path);
    }
    return parse_results(text, path);  // tare/1, or its error naming what is missing
}

}  // namespace tare::io
