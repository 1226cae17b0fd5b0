// What `tare exec`'s console and Markdown reports show, as a document of the table engine
// (report/table/document.hpp): one row per metric, each side's mean ± the half-width of its 95 %
// interval (computed by src/exec with the runs), and with a base the paired change and the
// verdict on wall time.

#include <string>
#include <vector>

#include "io/exec_mapping.hpp"
#include "report/exec_table.hpp"
#include "report/function_reporter.hpp"
#include "report/html/html_page.hpp"
#include "report/table/units.hpp"

namespace tare::report::detail {
namespace {

using table::align;
using table::cell;
using table::column;
using table::line;
using table::style;

std::string_view metric_label(exec_metric m) {
    switch (m) {
    case exec_metric::wall:
        return "wall time";
    case exec_metric::user:
        return "user time";
    case exec_metric::system:
        return "sys time";
    case exec_metric::peak_rss:
        return "peak RSS";
    case exec_metric::page_faults:
        break;
    }
    return "faults";
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

std::string command_text(const std::vector<std::string>& argv) {
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
cell side_cell(const exec_side& side, exec_metric m) {
    const auto& summary = side.summaries[static_cast<std::size_t>(m)];
    if (!summary) {
        return {std::string(missing_mark)};
    }
    return {format_metric(m, summary->mean),
            summary->ci ? format_relative_half_width(summary->mean, summary->ci->low, summary->ci->high)
                        : std::string(missing_mark)};
}

std::string signed_percent(double pct) {
    return (pct > 0 ? "+" : "") + format_percent(pct);
}

cell change_cell(const std::optional<paired_change>& c) {
    if (!c) {
        return {std::string(missing_mark)};
    }
    if (!c->interval_pct) {
        return {signed_percent(c->change_pct) + " [no interval]"};
    }
    return {signed_percent(c->change_pct), "[" + signed_percent(c->interval_pct->low),
            signed_percent(c->interval_pct->high) + "]"};
}

column metric_column() {
    column c{"metric", align::left, {}, {}, false};
    for (const exec_metric m : all_exec_metrics) {
        c.cells.push_back({std::string(metric_label(m))});
    }
    return c;
}

column side_column(std::string header, const exec_side& side) {
    column c{std::move(header), align::right, {" ± "}, {}, false};
    for (const exec_metric m : all_exec_metrics) {
        c.cells.push_back(side_cell(side, m));
    }
    return c;
}

}  // namespace

table::document exec_document(const exec_results& results) {
    table::document doc;
    const std::string head_name = command_text(results.head.argv);
    const std::string runs = std::to_string(results.head.runs.size());
    if (!results.base) {
        doc.add(table::paragraph{{{{"tare exec: "}, {head_name, style::code}, {", " + runs + " runs"}}}});
        doc.add(table::grid{{metric_column(), side_column("mean ± 95% interval", results.head)}});
        return doc;
    }
    const std::size_t pairs = results.comparison ? results.comparison->pairs : 0;
    doc.add(table::paragraph{
        {{{"base: "}, {command_text(results.base->argv), style::code}},
         {{"head: "}, {head_name, style::code}},
         {{runs + " runs each, alternating in " + std::to_string(pairs) + " ABBA blocks"}}}});
    column change{"change [95% CI]", align::right, {" ", ", "}, {}, false};
    column verdict{"verdict", align::left, {}, {}, false};
    for (const exec_metric m : all_exec_metrics) {
        std::optional<paired_change> c;
        std::string judged;
        if (results.comparison) {
            c = results.comparison->changes[static_cast<std::size_t>(m)];
            if (m == exec_metric::wall) {
                judged = std::string(verdict_name(results.comparison->verdict));
            }
        }
        change.cells.push_back(change_cell(c));
        verdict.cells.push_back({judged});
    }
    // Short headers and metric names: the widest row, an interval of three signed percentages
    // and the verdict, fits 80 columns.
    doc.add(table::grid{{metric_column(), side_column("base ± 95%", *results.base),
                         side_column("head ± 95%", results.head), std::move(change), std::move(verdict)}});
    std::string note =
        "change: head against base, in % of base (negative = head faster/smaller); verdict on wall time";
    if (results.comparison && results.comparison->threshold_pct > 0) {
        note += " with a ±" + format_percent(results.comparison->threshold_pct) + " noise band";
    }
    doc.add(table::paragraph{{{{note + "."}}}});
    return doc;
}

}  // namespace tare::report::detail

namespace tare::report {
namespace {

std::string exec_page(const exec_results& r) {
    return detail::html_page("tare exec", "<main>\n<h1>tare exec</h1>\n" +
                                              detail::render_html(detail::exec_document(r)) + "</main>\n");
}

}  // namespace

template <>
std::unique_ptr<reporter<exec_results>> make_console_reporter(const table::console_style& style) {
    return detail::make_document_console_reporter<exec_results, detail::exec_document>(style);
}

template <>
std::unique_ptr<reporter<exec_results>> make_markdown_reporter() {
    return detail::make_function_reporter<exec_results,
                                          detail::markdown_text<exec_results, detail::exec_document>>();
}

template <>
std::unique_ptr<reporter<exec_results>> make_json_reporter() {
    return detail::make_function_reporter<exec_results, io::write_exec_json>();
}

template <>
std::unique_ptr<reporter<exec_results>> make_html_reporter() {
    return detail::make_function_reporter<exec_results, exec_page>();
}

}  // namespace tare::report
