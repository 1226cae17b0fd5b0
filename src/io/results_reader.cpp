#include "io/results_reader.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace tare::io {

namespace {

using nlohmann::json;

std::optional<double> opt_number(const json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number()) {
        return std::nullopt;
    }
    return it->get<double>();
}

double number(const json& j, const char* key) {
    return opt_number(j, key).value_or(0.0);
}

std::string string_or_empty(const json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

benchmark_result to_result(const json& b) {
    benchmark_result r;
    r.name = b.at("name").get<std::string>();
    if (auto e = b.find("error"); e != b.end() && e->is_object()) {
        r.error = error_info{string_or_empty(*e, "kind"), string_or_empty(*e, "message")};
    }
    if (auto it = b.find("iterations"); it != b.end() && it->is_number()) {
        r.iterations = it->get<std::uint64_t>();
    }
    if (auto t = b.find("time_ns"); t != b.end() && t->is_object()) {
        r.time = {number(*t, "mean"), number(*t, "median"), number(*t, "stddev"), number(*t, "min"),
                  number(*t, "max"),  number(*t, "ci_low"), number(*t, "ci_high")};
    }
    if (auto s = b.find("samples_ns"); s != b.end() && s->is_array()) {
        for (const json& v : *s) {
            r.samples_ns.push_back(v.is_number() ? v.get<double>() : 0.0);
        }
    }
    // The samples themselves, from the parallel arrays tare writes (absent in older files and
    // in other tools' output: then there are per-iteration times only).
    const json* its = nullptr;
    if (auto s = b.find("sample_iterations");
        s != b.end() && s->is_array() && s->size() == r.samples_ns.size()) {
        its = &*s;
    }
    if (its != nullptr) {
        const auto parallel = [&](const char* key) -> const json* {
            auto a = b.find(key);
            return a != b.end() && a->is_array() && a->size() == its->size() ? &*a : nullptr;
        };
        const json* before = parallel("sample_iterations_before");
        const json* live = parallel("sample_live_bytes");
        r.sample_heap_measured = before != nullptr && live != nullptr;
        for (std::size_t i = 0; i < its->size(); ++i) {
            sample s;
            s.iterations = (*its)[i].is_number_unsigned() ? (*its)[i].get<std::uint64_t>() : 0;
            s.elapsed_ns = r.samples_ns[i] * static_cast<double>(s.iterations);
            if (before != nullptr && (*before)[i].is_number_unsigned()) {
                s.iterations_before = (*before)[i].get<std::uint64_t>();
            }
            if (live != nullptr && (*live)[i].is_number_integer()) {
                s.live_bytes_end = (*live)[i].get<std::int64_t>();
            }
            r.samples.push_back(s);
        }
    }
    r.allocs_per_iter = opt_number(b, "allocs_per_iter");
    r.bytes_per_iter = opt_number(b, "bytes_per_iter");
    if (auto p = opt_number(b, "peak_live_bytes")) {
        r.peak_live_bytes = static_cast<std::int64_t>(*p);
    }
    r.retained_bytes_per_iter = opt_number(b, "retained_bytes_per_iter");
    r.page_faults_per_iter = opt_number(b, "page_faults_per_iter");
    if (auto t = b.find("throughput"); t != b.end() && t->is_object()) {
        r.bytes_per_second = opt_number(*t, "bytes_per_second");
        r.items_per_second = opt_number(*t, "items_per_second");
    }
    if (auto c = b.find("counters"); c != b.end() && c->is_object()) {
        for (const auto& [k, v] : c->items()) {
            r.counters.emplace_back(k, v.is_number() ? v.get<double>() : 0.0);
        }
    }
    if (auto w = b.find("warnings"); w != b.end() && w->is_array()) {
        for (const json& x : *w) {
            r.warnings.push_back({string_or_empty(x, "kind"), string_or_empty(x, "message")});
        }
    }
    return r;
}

std::vector<double> numbers_of(const json& j, const char* key) {
    std::vector<double> out;
    if (auto a = j.find(key); a != j.end() && a->is_array()) {
        for (const json& v : *a) {
            out.push_back(v.is_number() ? v.get<double>() : 0.0);
        }
    }
    return out;
}

// A comparison of a group (docs/variants.md), so `tare run` and `tare report` show them too.
variant_comparison to_comparison(const json& c) {
    variant_comparison v;
    v.group = string_or_empty(c, "group");
    v.name = string_or_empty(c, "name");
    v.baseline = string_or_empty(c, "baseline");
    v.member = string_or_empty(c, "member");
    v.verdict = verdict_from_name(string_or_empty(c, "verdict")).value_or(verdict::no_change);
    if (auto ch = c.find("change_pct"); ch != c.end() && ch->is_object()) {
        paired_change change;
        change.change_pct = number(*ch, "mean");
        if (opt_number(*ch, "ci_low") && opt_number(*ch, "ci_high"))
            change.interval_pct = interval{number(*ch, "ci_low"), number(*ch, "ci_high")};
        change.confidence = opt_number(c, "confidence").value_or(0.95);
        change.p_value = opt_number(c, "p_value").value_or(1);
        v.change = change;
    }
    v.blocks = static_cast<std::size_t>(number(c, "blocks"));
    v.samples_per_block = static_cast<std::uint64_t>(number(c, "samples_per_block"));
    v.iterations = static_cast<std::uint64_t>(number(c, "iterations_per_sample"));
    v.baseline_block_ns = numbers_of(c, "baseline_block_ns");
    v.member_block_ns = numbers_of(c, "member_block_ns");
    return v;
}

}  // namespace

// nlohmann reports a byte offset; people want line and column (1-based, columns in bytes).
std::string text_position(const std::string& text, std::size_t byte) {
    std::size_t line = 1;
    std::size_t column = 1;
    for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return std::to_string(line) + ":" + std::to_string(column);
}

read_error malformed_json(const std::string& text, const std::string& origin, const std::string& what,
                          std::size_t byte) {
    // Keep nlohmann's description, drop its own "[json.exception...] parse error at ...:".
    auto colon = what.find(": ", what.find("parse error"));
    std::string detail = colon == std::string::npos ? what : what.substr(colon + 2);
    // nlohmann's byte is one past the offending character.
    return read_error{origin + ":" + text_position(text, byte == 0 ? 0 : byte - 1) +
                      ": malformed JSON: " + detail};
}

std::variant<run_results, read_error> parse_results(const std::string& text, const std::string& origin) {
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        return malformed_json(text, origin, e.what(), e.byte);
    }
    try {
        if (!doc.is_object() || !doc.contains("schema")) {
            return read_error{origin + ": not a results file (no \"schema\" field)"};
        }
        const std::string schema = doc["schema"].get<std::string>();
        if (schema != "tare/1") {
            return read_error{origin + ": unsupported schema \"" + schema + "\" (expected \"tare/1\")"};
        }
        run_results out;
        if (auto c = doc.find("context"); c != doc.end() && c->is_object()) {
            out.context.tare_version = string_or_empty(*c, "tare_version");
            out.context.executable = string_or_empty(*c, "executable");
            out.context.host = string_or_empty(*c, "host");
            out.context.date = string_or_empty(*c, "date");
            out.context.cpu = string_or_empty(*c, "cpu");
            out.context.num_cpus = static_cast<std::uint32_t>(number(*c, "num_cpus"));
            out.context.clock_overhead_ns = number(*c, "clock_overhead_ns");
            out.context.loop_overhead_ns = number(*c, "loop_overhead_ns");
            if (auto a = c->find("accounting"); a != c->end() && a->is_boolean()) {
                out.context.accounting = a->get<bool>();
            }
        }
        for (const json& b : doc.at("benchmarks")) {
            out.benchmarks.push_back(to_result(b));
        }
        if (auto c = doc.find("comparisons"); c != doc.end() && c->is_array()) {
            for (const json& x : *c) {
                out.comparisons.push_back(to_comparison(x));
            }
        }
        return out;
    } catch (const json::exception& e) {
        return read_error{origin + ": not a valid tare/1 document: " + e.what()};
    }
}

std::variant<run_results, read_error> read_results_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return read_error{path + ": cannot open the file"};
    }
    std::stringstream ss;
    ss << in.rdbuf();
    return parse_results(ss.str(), path);
}

}  // namespace tare::io
