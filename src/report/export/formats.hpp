#pragma once
// The shapes the JSON exports share, whatever result they come from (a run's benchmarks or one
// side of a comparison's rows), and the text helpers of CSV. Internal to src/report/export/.

#include <string>
#include <string_view>
#include <vector>

#include "report/export/exports.hpp"

namespace tare::report::exports {

/// One benchmark as the JSON exports carry it: its name, its measures, and what they rest on
/// (the action's `extra`).
struct export_row {
    std::string name;
    std::vector<measure> measures;
    std::string extra;
};

/// Bencher Metric Format: {benchmark: {measure: {value, lower_value?, upper_value?}}}; a row
/// without measures is left out.
std::string render_bmf(const std::vector<export_row>& rows);

/// github-action-benchmark's custom format: one {name, unit, value, range?, extra} entry per
/// benchmark and measure whose bigger_is_better is `bigger`.
std::string render_gab(const std::vector<export_row>& rows, bool bigger);

/// Numbers as JSON writes them: the shortest text that reads back as the same double.
std::string number_text(double v);

/// RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled; one
/// that begins as a formula would (=, +, -, @, tab, CR) is quoted behind a single quote.
std::string csv_field(const std::string& s);

/// A CSV column: the measure it holds ("latency_low" and "latency_high": latency's interval) and
/// its header, unit included.
struct csv_column {
    const char* slug;
    const char* header;
};

/// The run's CSV columns after `name`: every measure measures_of() can give, in its order,
/// latency's interval after it.
extern const csv_column csv_columns[12];

/// `measures` without a mapped-bytes measure of 0: in BMF and github-action-benchmark files a
/// series per benchmark that maps nothing would say nothing.
std::vector<measure> without_zero_mappings(std::vector<measure> measures);

/// Whether a benchmark (or side) of `measures` mapped memory: a column of its own in a CSV.
bool maps_memory(const std::vector<measure>& measures);

/// csv_columns, with the mapped bytes' column after the bytes' when some benchmark mapped
/// memory (`mapped`, maps_memory of any): a file without mappings keeps its columns. The
/// reporters find `mapped` in a first pass over the rows and make each row's measures again
/// as they write it: held for every row at once, the measures were most of a CSV export's peak.
std::vector<csv_column> csv_columns_for(bool mapped);

/// The cell of column `slug` for a benchmark with `measures`: the figure's text, or empty when
/// it was not measured.
std::string csv_cell(const std::vector<measure>& measures, std::string_view slug);

}  // namespace tare::report::exports
