#include "io/gbench_rows.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <set>

namespace tare::io::gbench {

namespace {

using nlohmann::json;

// Every key GB 1.7.1 (and 1.8's skip fields) writes in a benchmark row; anything else in a row
// is a user counter, which GB flattens into the row beside them.
// clang-format off
const std::set<std::string, std::less<>> gb_known_keys = {
    "name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
    "repetition_index", "threads", "aggregate_name", "aggregate_unit", "iterations", "real_time",
    "cpu_time", "time_unit", "bytes_per_second", "items_per_second", "label", "error_occurred",
    "error_message", "skipped", "skip_message", "allocs_per_iter", "max_bytes_used",
    "total_allocated_bytes", "net_heap_growth", "big_o", "real_coefficient", "cpu_coefficient", "rms",
    // tare::gbench's region hooks (src/adapters/gbench/region_hooks.cpp), read as memory figures
    "tare_allocs_per_iter", "tare_bytes_per_iter", "tare_retained_per_iter", "tare_faults_per_iter",
    "tare_peak_live_bytes", "tare_mapped_per_iter"};
// clang-format on

// The keys of the figures, in the order of `figure`.
constexpr std::array<const char*, 18> figure_keys = {"iterations",
                                                     "real_time",
                                                     "cpu_time",
                                                     "threads",
                                                     "bytes_per_second",
                                                     "items_per_second",
                                                     "allocs_per_iter",
                                                     "max_bytes_used",
                                                     "total_allocated_bytes",
                                                     "net_heap_growth",
                                                     "real_coefficient",
                                                     "rms",
                                                     "tare_allocs_per_iter",
                                                     "tare_bytes_per_iter",
                                                     "tare_retained_per_iter",
                                                     "tare_faults_per_iter",
                                                     "tare_peak_live_bytes",
                                                     "tare_mapped_per_iter"};

// The time units GB writes, by row::unit_ (0: none of them, or none written).
constexpr std::array<std::string_view, 5> gb_units = {"", "ns", "us", "ms", "s"};

// GB's own aggregates, by row::aggregate_ (0: none of them, or none written).
constexpr std::array<std::string_view, 5> gb_aggregates = {"", "mean", "median", "stddev", "cv"};

bool row_flag(const json& row, const char* key) {
    auto it = row.find(key);
    return it != row.end() && it->is_boolean() && it->get<bool>();
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
        if (auto agg = text_at(row, "aggregate_name"); !agg.empty())
            at += " (" + agg + ")";
        return at + ": " + key;
    };
    for (const char* key : {"iterations", "real_time", "cpu_time"}) {
        if (auto v = number_at(row, key); v && (*v < 0 || std::isinf(*v)))
            return where(key) + ": expected a finite non-negative number, not " + shown(row.at(key));
    }
    for (const char* key : {"bytes_per_second", "items_per_second", "allocs_per_iter"}) {
        if (auto v = number_at(row, key); v && *v < 0)
            return where(key) + ": expected a non-negative number, not " + shown(row.at(key));
    }
    // A repetition that ran (an error or a skip ends the reading before) ran one iteration at
    // least; read as a sample of none, it went into a tare/1 file that tare's reader refuses.
    if (text_at(row, "run_type") != "aggregate") {
        const auto n = number_at(row, "iterations");
        if (!n)
            return where("iterations") + ": missing";
        if (!(*n >= 1))
            return where("iterations") + ": expected at least 1, not " + shown(row.at("iterations"));
    }
    return std::nullopt;
}

}  // namespace

std::optional<double> number_at(const json& row, const char* key) {
    auto it = row.find(key);
    if (it == row.end() || it->is_null()) {
        return std::nullopt;
    }
    return number_of(*it);
}

std::string text_at(const json& row, const char* key) {
    auto it = row.find(key);
    return it != row.end() && it->is_string() ? it->get<std::string>() : std::string();
}

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

std::string group_key(const json& row) {
    std::string key = text_at(row, "run_name");
    return key.empty() ? text_at(row, "name") : key;
}

row::extra& row::more() {
    if (!extra_)
        extra_ = std::make_unique<extra>();
    return *extra_;
}

void row::keep(text which, std::string value) {
    if (!value.empty())
        more().texts.emplace_back(which, std::move(value));
}

std::string_view row::text_of(text which) const {
    if (extra_) {
        for (const auto& [kind, value] : extra_->texts) {
            if (kind == which)
                return value;
        }
    }
    return {};
}

// The unit and the aggregate's name in a byte each when they are GB's own: a row of a plain
// suite then has nothing in extra_.
row::row(const json& j, const std::string& key) {
    for (std::size_t f = 0; f < figure_keys.size(); ++f) {
        const auto v = number_at(j, figure_keys[f]);
        if (!v)
            continue;
        present_ |= std::uint32_t{1} << f;
        if (f < inline_figures)
            numbers_[f] = *v;
        else
            more().numbers.push_back(*v);
    }
    flags_ = static_cast<std::uint8_t>((text_at(j, "run_type") == "aggregate" ? aggregate_flag : 0) |
                                       (row_flag(j, "error_occurred") ? error_flag : 0) |
                                       (row_flag(j, "skipped") ? skipped_flag : 0) |
                                       (text_at(j, "aggregate_unit") == "percentage" ? percentage_flag : 0));
    std::string unit = text_at(j, "time_unit");
    unit_ = static_cast<std::uint8_t>(std::find(gb_units.begin(), gb_units.end(), unit) - gb_units.begin());
    if (unit_ == gb_units.size()) {
        unit_ = 0;
        keep(text::time_unit, std::move(unit));
    }
    std::string aggregate = text_at(j, "aggregate_name");
    aggregate_ = static_cast<std::uint8_t>(std::find(gb_aggregates.begin(), gb_aggregates.end(), aggregate) -
                                           gb_aggregates.begin());
    if (aggregate_ == gb_aggregates.size()) {
        aggregate_ = 0;
        keep(text::aggregate_name, std::move(aggregate));
    }
    keep(text::label, text_at(j, "label"));
    keep(text::big_o, text_at(j, "big_o"));
    if (error_occurred())
        keep(text::stop_message, text_at(j, "error_message"));
    else if (skipped())
        keep(text::stop_message, text_at(j, "skip_message"));
    // A row that is not an object has no counters (items() would give its value under the name
    // ""), only the problem check_row() names.
    if (j.is_object()) {
        for (const auto& [name, value] : j.items()) {
            if (gb_known_keys.count(name) == 0)
                more().counters.emplace_back(name, number_of(value));
        }
    }
    try {
        if (auto err = check_row(key, j))
            keep(text::problem, ": " + *err);
    } catch (const json::exception& e) {
        // A value shown in the message that does not dump (a string of invalid UTF-8).
        keep(text::problem, std::string(": not a valid Google Benchmark document: ") + e.what());
    }
}

std::optional<double> row::number(figure f) const {
    const auto at = static_cast<std::size_t>(f);
    const std::uint32_t bit = std::uint32_t{1} << at;
    if ((present_ & bit) == 0)
        return std::nullopt;
    if (at < inline_figures)
        return numbers_[at];
    // Its place among the present figures past the inline ones.
    const std::uint32_t before = present_ & (bit - 1) & ~((std::uint32_t{1} << inline_figures) - 1);
    return extra_->numbers[static_cast<std::size_t>(std::popcount(before))];
}

std::string row::time_unit() const {
    return unit_ != 0 ? std::string(gb_units[unit_]) : std::string(text_of(text::time_unit));
}

std::string_view row::aggregate_name() const {
    return aggregate_ != 0 ? gb_aggregates[aggregate_] : text_of(text::aggregate_name);
}

std::string_view row::label() const {
    return text_of(text::label);
}

std::string_view row::big_o() const {
    return text_of(text::big_o);
}

std::string_view row::stop_message() const {
    return text_of(text::stop_message);
}

const std::vector<std::pair<std::string, double>>& row::counters() const {
    static const std::vector<std::pair<std::string, double>> none;
    return extra_ ? extra_->counters : none;
}

void row::forget_problem() {
    if (!extra_)
        return;
    std::erase_if(extra_->texts, [](const auto& t) { return t.first == text::problem; });
    if (extra_->texts.empty() && extra_->numbers.empty() && extra_->counters.empty())
        extra_.reset();
}

std::optional<std::string> row::problem() const {
    const std::string_view p = text_of(text::problem);
    return p.empty() ? std::nullopt : std::optional<std::string>(p);
}

}  // namespace tare::io::gbench
