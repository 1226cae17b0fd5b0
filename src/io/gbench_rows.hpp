#pragma once
// One row of Google Benchmark's `benchmarks` array, reduced to what io/gbench_reader.cpp maps,
// so that the reader holds the rows of a file and not their JSON trees.
//
// The reader groups rows by benchmark (a repetition's rows and its aggregates, interleaved under
// --benchmark_enable_random_interleaving) and maps a group only once every row is read. A row's
// tree (nlohmann's map of some fifteen keys) takes several times its text; a row here is the
// four figures every row has, its unit and aggregate in a byte each, and, behind one pointer,
// whatever else it wrote (memory figures, user counters, a label, an error): 48 bytes for a row
// of a plain suite. Rejected: mapping each group as its rows arrive, which would have turned
// every rule of the mapping (first row, last repetition, mean row, first error) into a running
// state of its own.
//
// What a row would make the reader say (a figure no benchmark can have) is worked out here, from
// the row's tree, and kept as the message: word for word what the reader said from the tree.

#include <array>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tare::io::gbench {

/// The numbers of a row the mapping reads. The first four are in nearly every row.
enum class figure : std::uint8_t {
    iterations,
    real_time,
    cpu_time,
    threads,
    bytes_per_second,
    items_per_second,
    allocs_per_iter,
    max_bytes_used,
    total_allocated_bytes,
    net_heap_growth,
    real_coefficient,
    rms,
    tare_allocs_per_iter,
    tare_bytes_per_iter,
    tare_retained_per_iter,
    tare_faults_per_iter,
    tare_peak_live_bytes,
    tare_mapped_per_iter,
};

/// A number GB wrote, with quote_non_finite()'s strings read back as NaN and the infinities;
/// NaN for anything else.
double number_of(const nlohmann::json& v);

/// The value of `key` in `object` as number_of() reads it; nullopt when absent or null (or
/// `object` is no object).
std::optional<double> number_at(const nlohmann::json& object, const char* key);

/// The string value of `key` in `object`; "" when absent or not a string.
std::string text_at(const nlohmann::json& object, const char* key);

/// The key a row is grouped by: its `run_name`, else its `name`.
std::string group_key(const nlohmann::json& row);

class row {
public:
    /// `j` is one element of `benchmarks`, its keys sorted (nlohmann::json, as the tree of the
    /// whole document had them); `key` is group_key(j).
    row(const nlohmann::json& j, const std::string& key);

    /// The figure as written; nullopt when absent or null.
    [[nodiscard]] std::optional<double> number(figure f) const;
    [[nodiscard]] bool aggregate() const { return (flags_ & aggregate_flag) != 0; }
    [[nodiscard]] bool error_occurred() const { return (flags_ & error_flag) != 0; }
    [[nodiscard]] bool skipped() const { return (flags_ & skipped_flag) != 0; }
    /// `aggregate_unit` is "percentage" (GB's cv).
    [[nodiscard]] bool percentage() const { return (flags_ & percentage_flag) != 0; }
    /// The string fields ("" when absent or not a string).
    [[nodiscard]] std::string time_unit() const;
    [[nodiscard]] std::string_view aggregate_name() const;
    [[nodiscard]] std::string_view label() const;
    [[nodiscard]] std::string_view big_o() const;
    /// `error_message` when error_occurred(), else `skip_message` when skipped().
    [[nodiscard]] std::string_view stop_message() const;
    /// Every key GB does not define, with number_of() its value, in the keys' order.
    [[nodiscard]] const std::vector<std::pair<std::string, double>>& counters() const;
    /// What the reader says of this row after the file's name, when a figure is one no benchmark
    /// can have (": benchmark \"x\": iterations: missing"); nullptr when there is nothing to say.
    [[nodiscard]] std::optional<std::string> problem() const;
    /// Drops the problem, for a row whose group already keeps one of its kind: the reader names
    /// only a group's first among its repetitions and its first among its aggregates, and a file
    /// of a million rows that are not objects kept a message for each.
    void forget_problem();

private:
    static constexpr std::uint8_t aggregate_flag = 1;
    static constexpr std::uint8_t error_flag = 2;
    static constexpr std::uint8_t skipped_flag = 4;
    static constexpr std::uint8_t percentage_flag = 8;
    static constexpr std::size_t inline_figures = 4;

    // The strings a row may have, kept in extra::texts when not empty.
    enum class text : std::uint8_t { time_unit, aggregate_name, label, big_o, stop_message, problem };

    // What few rows have: memory figures, user counters, labels, errors, names GB does not
    // define. Each list holds only what the row wrote: a memory run's row pays for its five
    // figures, not for every field a row could have.
    struct extra {
        std::vector<double> numbers;  // the figures past the inline ones that are present, in order
        std::vector<std::pair<text, std::string>> texts;
        std::vector<std::pair<std::string, double>> counters;
    };
    extra& more();
    [[nodiscard]] std::string_view text_of(text which) const;
    void keep(text which, std::string value);

    std::array<double, inline_figures> numbers_{};
    std::uint32_t present_ = 0;  // a bit per figure
    std::uint8_t flags_ = 0;
    std::uint8_t unit_ = 0;       // in the units GB writes; 0: "" or one in extra::texts
    std::uint8_t aggregate_ = 0;  // in GB's own aggregates; 0: none or one in extra::texts
    std::unique_ptr<extra> extra_;
};

}  // namespace tare::io::gbench
