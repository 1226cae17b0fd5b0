// The `tare exec` table, for a terminal (aligned columns) or as Markdown. Pure: results in,
// text out; the statistics of each side are computed here from the runs (Student t interval of
// the mean, src/stats/change.hpp), the paired changes come in with the results.

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "report/exec_report.hpp"
#include "stats/change.hpp"
#include "report/units.hpp"

namespace tare::report {
namespace {

std::string_view metric_label(exec_metric m) {
    switch (m) {
    case exec_metric::wall:
        return "wall time";
    case exec_metric::user:
        return "user time";
    case exec_metric::system:
        return "system time";
    case exec_metric::peak_rss:
        return "peak RSS";
    case exec_metric::page_faults:
        break;
    }
    return "page faults";
}

std::string format_metric(exec_metric m, double value) {
    switch (m) {
    case exec_metric::wall:
    case exec_metric::user:
    case exec_metric::system:
        return format_duration(value * 1e9);
    case exec_metric::peak_rss:
        return format_bytes(value * 1024);
    case exec_metric::page_faults:
        break;
    }
    return format_count(value);
}

std::string join(const std::vector<std::string>& argv) {
    std::string out;
    for (const std::string& a : argv) {
        if (!out.empty()) {
            out += ' ';
        }
        out += a.find_first_of(" \t'\"") == std::string::npos ? a : "'" + a + "'";
    }
    return one_line(out);
}

// "1.02 ms ± 3.1%": the mean and the half-width of its 95 % interval relative to it.
std::string side_cell(const exec_side& side, exec_metric m) {
    std::vector<double> values;
    for (const exec_run& r : side.runs) {
        values.push_back(exec_metric_value(r, m));
    }
    if (values.empty()) {
        return std::string(missing_mark);
    }
    double sum = 0;
    for (double v : values) {
        sum += v;
    }
    const double mean = sum / static_cast<double>(values.size());
    std::optional<interval> ci = stats::student_mean_interval(values);
    std::string cell = format_metric(m, mean);
    cell += " ± ";
    cell += ci ? format_relative_half_width(mean, ci->low, ci->high) : std::string(missing_mark);
    return cell;
}

std::string signed_percent(double pct) {
    return (pct > 0 ? "+" : "") + format_percent(pct);
}

std::string change_cell(const std::optional<paired_change>& c) {
    if (!c) {
        return std::string(missing_mark);
    }
    std::string cell = signed_percent(c->change_pct);
    if (c->interval_pct) {
        cell +=
            " [" + signed_percent(c->interval_pct->low) + ", " + signed_percent(c->interval_pct->high) + "]";
    } else {
        cell += " [no interval]";
    }
    return cell;
}

std::string render_rows(const std::vector<std::vector<std::string>>& rows, bool markdown) {
    std::string out;
    if (markdown) {
        for (std::size_t i = 0; i < rows.size(); ++i) {
            out += "|";
            for (const std::string& cell : rows[i]) {
                out += " " + cell + " |";
            }
            out += "\n";
            if (i == 0) {
                out += "|";
                for (std::size_t c = 0; c < rows[i].size(); ++c) {
                    out += c == 0 ? " --- |" : " ---: |";
                }
                out += "\n";
            }
        }
        return out;
    }
    std::vector<std::size_t> widths(rows.front().size(), 0);
    for (const auto& row : rows) {
        for (std::size_t c = 0; c < row.size(); ++c) {
            widths[c] = std::max(widths[c], display_width(row[c]));
        }
    }
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) {
            line += c == 0 ? pad_right(row[c], widths[c]) : "  " + pad_left(row[c], widths[c]);
        }
        line.erase(line.find_last_not_of(' ') + 1);
        out += line + "\n";
    }
    return out;
}

}  // namespace

std::string render_exec_table(const exec_results& results, bool markdown) {
    const std::string head_name = join(results.head.argv);
    std::string out;
    std::vector<std::vector<std::string>> rows;
    if (!results.base) {
        out += (markdown ? "**tare exec** `" + head_name + "`" : "tare exec: " + head_name) + ", " +
               std::to_string(results.head.runs.size()) + " runs\n\n";
        rows.push_back({"metric", "mean ± 95% interval"});
        for (exec_metric m : all_exec_metrics) {
            rows.push_back({std::string(metric_label(m)), side_cell(results.head, m)});
        }
        return out + render_rows(rows, markdown);
    }
    const exec_side& base = *results.base;
    const std::string base_name = join(base.argv);
    const std::size_t pairs = results.comparison ? results.comparison->pairs : 0;
    if (markdown) {
        out += "**tare exec**: head `" + head_name + "` against base `" + base_name + "`, " +
               std::to_string(results.head.runs.size()) + " runs each in " + std::to_string(pairs) +
               " ABBA blocks\n\n";
    } else {
        out += "base: " + base_name + "\nhead: " + head_name + "\n" +
               std::to_string(results.head.runs.size()) + " runs each, alternating in " +
               std::to_string(pairs) + " ABBA blocks\n\n";
    }
    rows.push_back({"metric", "base (mean ± 95%)", "head (mean ± 95%)", "change [95% interval]", "verdict"});
    for (exec_metric m : all_exec_metrics) {
        std::optional<paired_change> change;
        std::string verdict_cell;
        if (results.comparison) {
            change = results.comparison->changes[static_cast<std::size_t>(m)];
            if (m == exec_metric::wall) {
                verdict_cell = std::string(verdict_name(results.comparison->verdict));
            }
        }
        rows.push_back({std::string(metric_label(m)), side_cell(base, m), side_cell(results.head, m),
                        change_cell(change), verdict_cell});
    }
    out += render_rows(rows, markdown);
    out += "\nchange: head against base, in % of base (negative = head faster/smaller); verdict on wall time";
    if (results.comparison && results.comparison->threshold_pct > 0) {
        out += " with a ±" + format_percent(results.comparison->threshold_pct) + " noise band";
    }
    out += ".\n";
    return out;
}

}  // namespace tare::report
