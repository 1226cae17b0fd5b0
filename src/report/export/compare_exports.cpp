// The exports of a comparison (docs/exports.md, "Comparisons"): the services track one build's
// figures over time, so BMF and github-action-benchmark's formats carry one side (head by
// default: the build under test), and BMF adds the change tare measured with its interval,
// which no history of single runs can give. CSV is a table for people: one record per row with
// the change, its interval and verdict, then both sides' figures.

#include <algorithm>
#include <string_view>

#include "report/export/exports.hpp"
#include "report/export/formats.hpp"

namespace tare::report {

namespace {

using exports::csv_field;
using exports::number_text;

const side_figures& side_of(const compare_row& row, compare_side side) {
    return side == compare_side::head ? row.head : row.base;
}

// Each row's `side` figures, and with `with_change` the change tare measured (BMF's only).
std::vector<exports::export_row> export_rows(const compare_results& results, compare_side side,
                                             bool with_change) {
    std::vector<exports::export_row> rows;
    for (const compare_row& row : results.rows) {
        const side_figures& s = side_of(row, side);
        exports::export_row r{row.name, exports::without_zero_mappings(measures_of(s)),
                              std::string(side == compare_side::head ? "head" : "base") +
                                  " of a comparison: " + std::to_string(s.iterations) + " iterations in " +
                                  std::to_string(s.samples) + " samples"};
        if (with_change && !r.measures.empty()) {
            if (auto change = change_measure_of(row)) {
                r.measures.push_back(*change);
            }
        }
        rows.push_back(std::move(r));
    }
    return rows;
}

class compare_bmf_reporter final : public reporter<compare_results> {
public:
    explicit compare_bmf_reporter(compare_side side) : side_(side) {}
    std::string render(const compare_results& results) const override {
        return exports::render_bmf(export_rows(results, side_, /*with_change=*/true));
    }

private:
    compare_side side_;
};

// The change is no figure of a build: the action's alert (a value grown by a ratio of the last
// one) means nothing for a percentage that crosses 0, so its entries carry the side alone.
class compare_gab_reporter final : public reporter<compare_results> {
public:
    compare_gab_reporter(compare_side side, bool bigger) : side_(side), bigger_(bigger) {}
    std::string render(const compare_results& results) const override {
        return exports::render_gab(export_rows(results, side_, /*with_change=*/false), bigger_);
    }

private:
    compare_side side_;
    bool bigger_;
};

// A side's columns, each header prefixed with "base " or "head ": the run's, less the figures a
// comparison does not keep.
bool side_column(const exports::csv_column& c) {
    const std::string_view slug = c.slug;
    return slug != "retained-bytes-per-iter" && slug != "throughput" && slug != "throughput-bytes";
}

std::string error_text(const compare_row& row) {
    std::string out;
    for (const auto& [label, side] : {std::pair{"base", &row.base}, std::pair{"head", &row.head}}) {
        if (side->error) {
            out += (out.empty() ? "" : "; ") + std::string(label) + ": " + side->error->kind + ": " +
                   side->error->message;
        }
    }
    return out;
}

class compare_csv_reporter final : public reporter<compare_results> {
public:
    std::string render(const compare_results& results) const override {
        const bool mapped = std::any_of(results.rows.begin(), results.rows.end(), [](const compare_row& row) {
            return exports::maps_memory(measures_of(row.base)) || exports::maps_memory(measures_of(row.head));
        });
        const auto columns = exports::csv_columns_for(mapped);
        std::string out = "name,verdict,change (%),change low (%),change high (%),change level";
        for (const char* label : {"base ", "head "}) {
            for (const auto& c : columns) {
                if (side_column(c)) {
                    out += ",";
                    out += label;
                    out += c.header;
                }
            }
        }
        out += ",not judged,error\r\n";
        for (const compare_row& row : results.rows) {
            out += csv_field(row.name) + "," + std::string(verdict_name(row.verdict));
            const auto change = change_measure_of(row);
            out += "," + (change ? number_text(change->value) : std::string());
            out += "," + (change && change->lower ? number_text(*change->lower) : std::string());
            out += "," + (change && change->upper ? number_text(*change->upper) : std::string());
            out += "," + (change && change->lower ? number_text(row.change->confidence) : std::string());
            for (const side_figures* side : {&row.base, &row.head}) {
                const auto ms = measures_of(*side);
                for (const auto& c : columns) {
                    if (side_column(c)) {
                        out += "," + exports::csv_cell(ms, c.slug);
                    }
                }
            }
            out += "," + csv_field(row.unjudged.value_or(""));
            out += "," + csv_field(error_text(row));
            out += "\r\n";
        }
        return out;
    }
};

}  // namespace

std::unique_ptr<reporter<compare_results>> make_compare_export_reporter(export_format f, compare_side side) {
    switch (f) {
    case export_format::bmf:
        return std::make_unique<compare_bmf_reporter>(side);
    case export_format::gab:
        return std::make_unique<compare_gab_reporter>(side, false);
    case export_format::gab_bigger:
        return std::make_unique<compare_gab_reporter>(side, true);
    case export_format::csv:
        break;
    }
    return std::make_unique<compare_csv_reporter>();
}

std::vector<std::string> rows_left_out(const compare_results& results, export_format f, compare_side side) {
    std::vector<std::string> out;
    if (f == export_format::csv) {
        return out;
    }
    for (const compare_row& row : results.rows) {
        if (measures_of(side_of(row, side)).empty()) {
            out.push_back(row.name);
        }
    }
    return out;
}

}  // namespace tare::report
