// The HTML reporter of a run: one self-contained HTML5 page, for reading a run in a browser or
// attaching it to a CI build. Inline CSS, inline SVG plots, no script, no reference to anything
// outside the file, so it opens the same offline, from an artifact store, or years later.
//
// The page: the run's context; the summary table, made to fit a 1,280 px screen (the console's
// columns plus retained/iter; names wrap; each row's warnings as badges beside its name, where
// they cannot scroll out of view; a counter only a few rows have is left to their sections;
// rows of several executables grouped under each one's name); the comparison groups' table when
// groups ran; plots across the argument of each family of benchmarks (`name/arg`); then a
// section per benchmark (html_benchmark.cpp).
//
// Everything printed goes through html_escape: benchmark names, messages and counters are
// arbitrary user text. Figures go through report/units like the console's, so the two agree to
// the digit; non-finite figures print as "—" or "∞" there and are never plotted.

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "report/html/html_flame.hpp"
#include "report/html/html_page.hpp"
#include "report/html/html_run.hpp"
#include "report/html/html_svg.hpp"
#include "report/reporter.hpp"
#include "report/run_table.hpp"
#include "report/table/units.hpp"

namespace tare::report::detail {

std::string section_id(std::size_t index) {
    return fmt::format("b-{}", index + 1);
}

std::string definition(std::string_view term, const std::string& text) {
    return fmt::format("<dt>{}</dt><dd>{}</dd>\n", term,
                       html_escape(text.empty() ? std::string(missing_mark) : text));
}

std::string figure(const std::string& svg, const std::string& caption) {
    if (svg.empty())
        return "<p>" + html_escape(caption) + " Nothing finite to plot.</p>\n";
    return "<figure>\n" + svg + "<figcaption>" + html_escape(caption) + "</figcaption>\n</figure>\n";
}

}  // namespace tare::report::detail

namespace tare::report {
namespace {

using detail::definition;
using detail::html_escape;
using detail::section_id;

// The words of `text` split at blanks: the executables of a run of several ("a b c").
std::vector<std::string> words(const std::string& text) {
    std::vector<std::string> out;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find(' ', at), text.size());
        if (end > at)
            out.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    return out;
}

// ---- header ----------------------------------------------------------------------------------

std::string page_header(const run_context& c) {
    std::string out = "<header>\n<h1>tare report</h1>\n<dl class=\"context\">\n";
    const auto executables = words(c.executable);
    if (executables.size() > 1) {
        // One per line: eight paths run together are one unreadable line.
        std::string list;
        for (const auto& e : executables)
            list += (list.empty() ? "" : "<br>") + html_escape(e);
        out += "<dt>executables</dt><dd>" + list + "</dd>\n";
    } else {
        out += definition("executable", c.executable);
    }
    out += definition("host", c.host);
    std::string cpu = c.cpu;
    if (c.num_cpus > 0)
        cpu += fmt::format("{}{} cpu{}", cpu.empty() ? "" : " · ", c.num_cpus, c.num_cpus == 1 ? "" : "s");
    out += definition("cpu", cpu);
    out += definition("date", c.date);
    out += definition("tare", c.tare_version);
    out += definition("accounting", !c.accounting ? "off: allocation and heap figures unavailable"
                                    : c.allocator ? "on — " + *c.allocator
                                                  : "on");
    if (c.instrument)  // counted, not timed (docs/instructions.md)
        out += definition("counted by", *c.instrument + "; instructions are not time");
    out += definition("clock", c.clock_overhead_ns ? format_duration(*c.clock_overhead_ns) + " per read"
                                                   : std::string(missing_mark));
    const std::string loop = format_or_missing(c.loop_overhead_ns, format_duration);
    out += definition("loop overhead",
                      c.loop_overhead_ns && std::isfinite(*c.loop_overhead_ns) ? loop + "/iter" : loop);
    return out + "</dl>\n</header>\n";
}

// ---- tables ----------------------------------------------------------------------------------

// A column of an HTML table. Its cells are made as the table is written, a row at a time, from
// the table engine's cells or the results (rather than held: a page of a million rows would hold
// every cell of the summary twice, as text and as HTML).
struct html_column {
    std::string header;
    bool left = false;
    std::function<std::string(std::size_t)> cell;  // the row's cell, as HTML
    std::string cell_class = {};                   // of every cell
};

// The column made from `c` reads its cells as the table is written: `c` outlives it.
html_column from_text(const table::column& c) {
    return {c.header, c.alignment == table::align::left,
            [&c](std::size_t row) { return html_escape(table::join_cell(c, c.cells[row])); }};
}

// `c` with `edit` applied to each of its cells.
html_column edited(html_column c, std::function<void(std::string&)> edit) {
    c.cell = [cell = std::move(c.cell), edit = std::move(edit)](std::size_t row) {
        std::string text = cell(row);
        edit(text);
        return text;
    };
    return c;
}

std::string td_class(const html_column& c) {
    std::string cls = c.left ? "l" : "";
    if (!c.cell_class.empty())
        cls += (cls.empty() ? "" : " ") + c.cell_class;
    return cls.empty() ? "" : " class=\"" + cls + "\"";
}

// The table of `rows` rows to `put`, a row at a time (the file writer gathers the pieces into
// larger writes). `row_class`: the class of a row's <tr>, or none. `groups`: a heading row before
// each row that starts a group (its name), none when empty.
void render_table(const std::vector<html_column>& columns, std::size_t rows,
                  const std::function<std::string(std::size_t)>& row_class,
                  const std::vector<std::string>& groups, const reporter<run_results>::sink& put) {
    std::vector<std::string> td;
    td.reserve(columns.size());
    std::string out = "<div class=\"scroll\"><table>\n<thead><tr>";
    for (const auto& c : columns) {
        out += fmt::format("<th{}>{}</th>", c.left ? " class=\"l\"" : "", html_escape(c.header));
        td.push_back("<td" + td_class(c) + ">");
    }
    put(out + "</tr></thead>\n<tbody>\n");
    for (std::size_t row = 0; row < rows; ++row) {
        out.clear();
        if (!groups.empty() && (row == 0 || groups[row] != groups[row - 1])) {
            out += fmt::format("<tr class=\"suite\"><th colspan=\"{}\"><code>{}</code></th></tr>\n",
                               columns.size(), html_escape(groups[row]));
        }
        const std::string cls = row_class ? row_class(row) : std::string();
        out += cls.empty() ? "<tr>" : "<tr class=\"" + cls + "\">";
        for (std::size_t k = 0; k < columns.size(); ++k)
            out += td[k] + columns[k].cell(row) + "</td>";
        put(out + "</tr>\n");
    }
    put("</tbody>\n</table></div>\n");
}

// Each kind of warning once, as a badge (the count when a kind repeats); the error's kind too.
std::string badges(const benchmark_result& b) {
    std::vector<std::pair<std::string, std::size_t>> kinds;
    for (const auto& w : b.warnings) {
        std::string kind = one_line(w.kind.empty() ? "warning" : w.kind);
        const auto it =
            std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return k.first == kind; });
        if (it == kinds.end())
            kinds.emplace_back(std::move(kind), 1);
        else
            ++it->second;
    }
    std::string out;
    for (const auto& [kind, n] : kinds)
        out += fmt::format(" <span class=\"badge\">{}{}</span>", html_escape(kind),
                           n > 1 ? fmt::format(" ×{}", n) : "");
    if (b.error) {
        out += fmt::format(" <span class=\"badge error\">{}</span>",
                           html_escape(one_line(b.error->kind.empty() ? "error" : b.error->kind)));
    }
    return out;
}

// The executables' names when the rows come from several (their names begin "suite/"), one
// per row; empty when from one, or when a name does not begin with its suite.
std::vector<std::string> suites_of(const run_results& results) {
    std::vector<std::string> stems;
    for (const auto& e : words(results.context.executable)) {
        const std::size_t slash = e.rfind('/');
        std::string stem = e.substr(slash == std::string::npos ? 0 : slash + 1);
        if (const std::size_t dot = stem.rfind('.'); dot != std::string::npos && dot > 0)
            stem.resize(dot);
        if (std::find(stems.begin(), stems.end(), stem) == stems.end())
            stems.push_back(std::move(stem));
    }
    std::vector<std::string> suites;
    if (stems.size() < 2)
        return suites;
    for (const auto& b : results.benchmarks) {
        const auto it = std::find_if(stems.begin(), stems.end(),
                                     [&](const std::string& s) { return b.name.rfind(s + "/", 0) == 0; });
        if (it == stems.end())
            return {};
        suites.push_back(*it);
    }
    return suites;
}

// A counter shown by fewer than half the rows is left to those rows' sections: a column mostly
// empty widens the table for a few figures.
bool counter_for_few(const run_results& results, const std::string& header) {
    std::size_t with = 0;
    std::size_t measured = 0;
    for (const auto& b : results.benchmarks) {
        if (failed(b))
            continue;
        ++measured;
        if (std::any_of(b.counters.begin(), b.counters.end(),
                        [&](const auto& c) { return one_line(c.first) == header; }))
            ++with;
    }
    return 2 * with < measured;
}

bool is_counter(const run_results& results, const std::string& header) {
    return std::any_of(results.benchmarks.begin(), results.benchmarks.end(), [&](const benchmark_result& b) {
        return std::any_of(b.counters.begin(), b.counters.end(),
                           [&](const auto& c) { return one_line(c.first) == header; });
    });
}

// The console's columns, with retained/iter after peak heap (the figure the heap plot shows);
// every name links to its section and carries its warnings as badges. Written to `put` a row at
// a time.
void summary_table(const run_results& results, const reporter<run_results>::sink& put) {
    const auto& benchmarks = results.benchmarks;
    const auto suites = suites_of(results);
    std::vector<html_column> columns;
    const auto built = detail::build_columns(results);
    for (std::size_t k = 0; k < built.size(); ++k) {
        const auto& c = built[k];
        if (c.header == "warnings" ||
            (k > 0 && is_counter(results, c.header) && counter_for_few(results, c.header)))
            continue;
        columns.push_back(from_text(c));
        if (c.header == "peak heap") {
            columns.push_back({"retained/iter", false, [&benchmarks](std::size_t row) {
                                   const benchmark_result& b = benchmarks[row];
                                   return failed(b) ? std::string()
                                                    : html_escape(format_or_missing(b.retained_bytes_per_iter,
                                                                                    format_bytes));
                               }});
        }
    }
    columns.front().cell_class = "name";
    columns.front().cell = [&benchmarks, &suites](std::size_t row) {
        std::string name = one_line(benchmarks[row].name);
        if (!suites.empty())
            name = name.substr(suites[row].size() + 1);
        return fmt::format("<a href=\"#{}\"><code>{}</code></a>{}", section_id(row), html_escape(name),
                           badges(benchmarks[row]));
    };
    const auto row_class = [&benchmarks](std::size_t row) {
        return failed(benchmarks[row]) ? std::string("error") : std::string();
    };
    render_table(columns, benchmarks.size(), row_class, suites, put);
}

// The comparison groups' table, made to fit: the group names become heading rows, the names
// wrap, and a memory change's difference goes under its "base → member".
std::string comparisons_section(const run_results& results) {
    std::vector<html_column> columns;
    std::vector<std::string> groups;
    const auto built = detail::build_comparison_columns(results);
    for (const auto& c : built) {
        if (c.header == "comparison") {
            for (const auto& parts : c.cells)
                groups.push_back(table::join_cell(c, parts));
            continue;
        }
        if (c.header == "baseline" || c.header == "member") {
            columns.push_back(from_text(c));
            columns.back().cell_class = "name";
        } else if (c.header == "verdict") {
            // Coloured by the verdict's word, as in a comparison's page.
            columns.push_back(edited(from_text(c), [](std::string& cell) {
                if (cell == "faster" || cell == "slower")
                    cell = "<span class=\"verdict-" + cell + "\">" + cell + "</span>";
            }));
        } else if (c.header == "allocs/iter" || c.header == "bytes/iter" || c.header == "peak heap") {
            columns.push_back(edited(from_text(c), [](std::string& cell) {
                if (const std::size_t at = cell.find(" ("); at != std::string::npos)
                    cell.replace(at, 1, "<br>");
            }));
        } else {
            columns.push_back(from_text(c));
        }
    }
    std::string out = "<section id=\"comparisons\">\n<h2>Comparison groups</h2>\n";
    render_table(columns, results.comparisons.size(), nullptr, groups,
                 [&out](std::string_view piece) { out += piece; });
    if (const std::string note = detail::comparison_note(results); !note.empty())
        out += "<p>" + html_escape(note) + "</p>\n";
    return out + "</section>\n";
}

// ---- families across an argument ------------------------------------------------------------

// The last part of a name as an argument: "BatchSize:1000" is (BatchSize, 1000), "64" is ("", 64);
// empty for anything else ("real_time", "fresh").
std::optional<std::pair<std::string, double>> argument_of(const std::string& part) {
    const std::size_t colon = part.rfind(':');
    const std::string key = colon == std::string::npos ? std::string() : part.substr(0, colon);
    const std::string digits = colon == std::string::npos ? part : part.substr(colon + 1);
    if (digits.empty() || digits.find_first_not_of("0123456789.-+eE") != std::string::npos)
        return std::nullopt;
    char* end = nullptr;
    const double value = std::strtod(digits.c_str(), &end);
    if (end != digits.c_str() + digits.size() || !std::isfinite(value))
        return std::nullopt;
    return std::pair{key, value};
}

struct family {
    std::string name;                                     // the shared part, "skip_fresh/Repetition:0"
    std::string key;                                      // "BatchSize", or "" for a bare number
    std::vector<std::pair<double, std::size_t>> members;  // (argument, benchmark index), by argument
};

// The families of three or more measured benchmarks that differ only in their last part, an
// argument, in order of first appearance.
std::vector<family> families_of(const run_results& results) {
    std::vector<family> out;
    std::map<std::pair<std::string, std::string>, std::size_t> index;
    for (std::size_t i = 0; i < results.benchmarks.size(); ++i) {
        const benchmark_result& b = results.benchmarks[i];
        const std::size_t slash = b.name.rfind('/');
        if (failed(b) || slash == std::string::npos || slash == 0)
            continue;
        const auto arg = argument_of(b.name.substr(slash + 1));
        if (!arg)
            continue;
        const auto at = std::pair{b.name.substr(0, slash), arg->first};
        auto [it, added] = index.emplace(at, out.size());
        if (added)
            out.push_back({at.first, at.second, {}});
        out[it->second].members.emplace_back(arg->second, i);
    }
    std::vector<family> kept;
    for (family& f : out) {
        std::sort(f.members.begin(), f.members.end());
        const bool distinct =
            std::adjacent_find(f.members.begin(), f.members.end(), [](const auto& a, const auto& b) {
                return a.first == b.first;
            }) == f.members.end();
        if (f.members.size() >= 3 && distinct)
            kept.push_back(std::move(f));
    }
    return kept;
}

// One figure of a family: `get` of each member against its argument, a line through them.
template <class Get>
std::string family_plot(const run_results& results, const family& f, std::string_view what,
                        detail::axis_kind kind, Get get) {
    detail::scatter_plot plot;
    plot.title =
        one_line(f.name) + ": " + std::string(what) + " across " + (f.key.empty() ? "the argument" : f.key);
    plot.x_title = f.key.empty() ? "argument" : one_line(f.key);
    plot.y_title = std::string(what);
    plot.y_kind = kind;
    plot.width = 390;
    plot.height = 220;
    plot.connect = true;
    const double low = f.members.front().first;
    const double high = f.members.back().first;
    plot.log_x = low > 0 && high / low >= 20;  // 1, 10, 100, 1000 spread evenly, not crowded at 0
    for (const auto& [arg, i] : f.members) {
        const std::optional<double> y = get(results.benchmarks[i]);
        if (!y || !std::isfinite(*y))
            return {};  // a member without the figure: no line that skips it silently
        const std::string text = kind == detail::axis_kind::duration ? format_duration(*y)
                                 : kind == detail::axis_kind::bytes  ? format_bytes(*y)
                                                                     : format_count(*y);
        plot.points.push_back({arg, *y, 0, fmt::format("{} {}: {}", plot.x_title, format_count(arg), text)});
    }
    // A figure the same for every member is a flat line: said in words, not drawn.
    if (std::all_of(plot.points.begin(), plot.points.end(),
                    [&](const auto& p) { return p.y == plot.points.front().y; }))
        return fmt::format(
            "<p class=\"note\">{}: {} for every member.</p>\n", html_escape(std::string(what)),
            html_escape(plot.points.front().tooltip.substr(plot.points.front().tooltip.rfind(": ") + 2)));
    plot.legend.push_back({detail::legend_mark::trace, "", std::string(what)});
    return detail::figure(detail::render_scatter(plot),
                          fmt::format("{} of each member, against {}{}.", what, plot.x_title,
                                      plot.log_x ? " (logarithmic axis)" : ""));
}

// Handed on a family at a time: a suite of many families makes a long section.
void families_section(const run_results& results, const reporter<run_results>::sink& put) {
    const auto families = families_of(results);
    if (families.empty())
        return;
    put("<section id=\"families\">\n<h2>Across arguments</h2>\n");
    for (const family& f : families) {
        std::string out = fmt::format("<h3><code>{}</code> across {}</h3>\n<div class=\"plots\">\n",
                                      html_escape(one_line(f.name)),
                                      html_escape(f.key.empty() ? "its argument" : one_line(f.key)));
        out += family_plot(results, f, "time / iteration", detail::axis_kind::duration,
                           [](const benchmark_result& b) { return std::optional<double>(b.time.mean); });
        // Memory as one plot: bytes where they change across the argument, else allocations.
        const auto bytes = [](const benchmark_result& b) { return b.bytes_per_iter; };
        const auto allocs = [](const benchmark_result& b) { return b.allocs_per_iter; };
        const bool bytes_change = std::any_of(f.members.begin(), f.members.end(), [&](const auto& m) {
            return bytes(results.benchmarks[m.second]) != bytes(results.benchmarks[f.members.front().second]);
        });
        out += bytes_change ? family_plot(results, f, "bytes / iteration", detail::axis_kind::bytes, bytes)
                            : family_plot(results, f, "allocs / iteration", detail::axis_kind::count, allocs);
        out += "</div>\n";
        put(out);
    }
    put("</section>\n");
}

// The page is written a section at a time: a large suite's page is several times its results
// file (about 3.5 KB a benchmark), and `tare report` hands each piece on to the file. Rejected:
// building the page as one string (as this did), which held the page and, while it grew, its
// old storage too: 900 MB of memory for a 42 MB results file.
class html_reporter final : public reporter<run_results> {
public:
    std::string render(const run_results& results) const override {
        std::string out;
        write(results, [&out](std::string_view piece) { out += piece; });
        return out;
    }

    void write(const run_results& results, const sink& put) const override {
        const std::string executable = one_line(results.context.executable);
        const bool flames = std::any_of(
            results.benchmarks.begin(), results.benchmarks.end(),
            [](const auto& b) { return !failed(b) && (b.profile || (b.sites && !b.alloc_sites.empty())); });
        put(detail::html_page_head("tare report" + (executable.empty() ? "" : ": " + executable),
                                   flames ? detail::flame_style : std::string_view{}));
        put(page_header(results.context));
        put("<main>\n");
        if (results.benchmarks.empty()) {
            put("<p>No benchmarks ran.</p>\n");
        } else {
            put("<section id=\"summary\">\n<h2>Summary</h2>\n");
            summary_table(results, put);
            put("</section>\n");
            if (!results.comparisons.empty())
                put(comparisons_section(results));
            families_section(results, put);
            for (std::size_t i = 0; i < results.benchmarks.size(); ++i)
                put(detail::benchmark_section(results.benchmarks[i], i));
        }
        put("</main>\n");
        if (flames)
            put("<script>\n" + std::string(detail::flame_script) + "</script>\n");
        put(detail::html_page_tail());
    }
};

}  // namespace

template <>
std::unique_ptr<reporter<run_results>> make_html_reporter() {
    return std::make_unique<html_reporter>();
}

}  // namespace tare::report
