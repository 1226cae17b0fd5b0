// The HTML page of a comparison (`tare compare --html`, `tare report COMPARE.json`): the one-line
// summary and what was compared, and for two results files each side's context; a forest plot of every row's
// change with its interval, coloured by verdict, the threshold band shaded; the table of both sides (the same
// columns as the console's, from the table engine, memory base and head side by side, a changed figure
// marked), sortable by change; then the rows on one side only and every finding, folded.
//
// The page reads without its script: sorting is the only thing the script adds.

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "report/compare_table.hpp"
#include "report/function_reporter.hpp"
#include "report/html/html_flame.hpp"
#include "report/html/html_forest.hpp"
#include "report/html/html_page.hpp"
#include "report/reporter.hpp"
#include "report/run_table.hpp"
#include "report/table/units.hpp"

namespace tare::report {
namespace {

using detail::html_escape;

std::string row_id(std::size_t index) {
    return fmt::format("r-{}", index + 1);
}

// The verdict as a class: the forest plot's colour and the table's verdict cell.
std::string verdict_class(const compare_row& row) {
    if (row.verdict == verdict::error)
        return "error";
    if (row.unjudged || !row.change)
        return "unjudged";
    switch (row.verdict) {
    case verdict::faster:
        return "faster";
    case verdict::slower:
        return "slower";
    default:
        return "same";
    }
}

std::string verdict_words(const compare_row& row) {
    const std::string cls = verdict_class(row);
    if (cls == "same")
        return "no change";
    if (row.base.counts && (cls == "faster" || cls == "slower"))  // counts: not a time's words
        return cls == "faster" ? "fewer instructions" : "more instructions";
    return cls == "unjudged" ? (row.change ? "not judged" : "no change computed") : cls;
}

detail::forest_plot forest(const compare_results& r) {
    detail::forest_plot plot;
    plot.threshold = r.threshold_pct;
    if (r.mode == pairing::counted) {
        // Counts (docs/instructions.md): exact changes, no interval; the floor is the band.
        plot.title = "Change of instructions per iteration, head against base, exact";
        plot.x_title = "change of instructions / iteration, % of base (negative: head fewer)";
        plot.threshold = std::max(r.threshold_pct, count_floor_pct);
        plot.legend = {{detail::legend_mark::dot, "faster", "fewer instructions"},
                       {detail::legend_mark::dot, "slower", "more instructions"},
                       {detail::legend_mark::dot, "same", "no change"},
                       {detail::legend_mark::band, "threshold",
                        "no verdict within ±" + format_count_change(plot.threshold).substr(1)}};
    } else {
        plot.title = "Change of time per iteration, head against base, with its interval";
        plot.x_title = "change of time / iteration, % of base (negative: head faster)";
        const std::string level = fmt::format("{:.4g}%", interval_level(r) * 100);
        plot.legend = {{detail::legend_mark::dot, "faster", "faster"},
                       {detail::legend_mark::dot, "slower", "slower"},
                       {detail::legend_mark::dot, "same", "no change"},
                       {detail::legend_mark::dot, "unjudged", "not judged"},
                       {detail::legend_mark::line, "ci", "interval at " + level}};
    }
    if (r.threshold_pct > 0 && r.mode != pairing::counted)
        plot.legend.push_back(
            {detail::legend_mark::band, "threshold", "threshold band ±" + format_percent(r.threshold_pct)});
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
        const compare_row& row = r.rows[i];
        detail::forest_row f;
        f.label = one_line(row.name);
        f.href = "#" + row_id(i);
        f.css_class = verdict_class(row);
        std::string tip = one_line(row.name) + ": ";
        if (row.change) {
            f.estimate = row.change->change_pct;
            tip += format_signed_percent(row.change->change_pct);
            if (row.change->interval_pct) {
                f.interval = {row.change->interval_pct->low, row.change->interval_pct->high};
                tip += " [" + format_signed_percent(row.change->interval_pct->low) + ", " +
                       format_signed_percent(row.change->interval_pct->high) + "]";
            } else {
                tip += " [no interval]";
            }
        } else {
            tip += "no change computed";
        }
        tip += ", " + verdict_words(row);
        if (!row.base.error && !row.head.error)
            tip +=
                "; base " + format_duration(row.base.time_ns) + ", head " + format_duration(row.head.time_ns);
        f.tooltip = std::move(tip);
        plot.rows.push_back(std::move(f));
    }
    return plot;
}

// The kinds of a row's warnings and errors as badges, each naming its side.
std::string badges(const compare_row& row) {
    std::string out;
    const auto side = [&](const side_figures& s, const char* name) {
        std::vector<std::string> kinds;
        for (const warning& w : s.warnings) {
            std::string kind = one_line(w.kind.empty() ? "warning" : w.kind);
            if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
                kinds.push_back(std::move(kind));
        }
        for (const auto& kind : kinds)
            out += fmt::format(" <span class=\"badge\">{}: {}</span>", name, html_escape(kind));
        if (s.error) {
            out += fmt::format(" <span class=\"badge error\">{}: {}</span>", name,
                               html_escape(one_line(s.error->kind.empty() ? "error" : s.error->kind)));
        }
    };
    side(row.base, "base");
    side(row.head, "head");
    return out;
}

// The table engine's columns as HTML: the change sortable by its number, the verdict coloured,
// a memory figure that differs between the sides marked, and the findings' kinds as badges
// beside the name, where no width of screen can scroll them out of view.
std::string rows_table(const compare_results& r) {
    const auto columns = detail::build_compare_columns(r);
    std::string out = "<div class=\"scroll\"><table class=\"sortable\">\n<thead><tr>";
    for (std::size_t k = 0; k < columns.size(); ++k) {
        const auto& c = columns[k];
        const bool left = c.alignment == table::align::left;
        const char* sort = k == 0 ? " data-sort=\"text\"" : k == 3 ? " data-sort=\"num\"" : "";
        out += fmt::format("<th{}{}>{}</th>", left ? " class=\"l\"" : "", sort, html_escape(c.header));
    }
    out += "</tr></thead>\n<tbody>\n";
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
        const compare_row& row = r.rows[i];
        out += fmt::format("<tr id=\"{}\"{}>", row_id(i),
                           row.verdict == verdict::error ? " class=\"error\"" : "");
        for (std::size_t k = 0; k < columns.size(); ++k) {
            const auto& c = columns[k];
            const auto& parts = c.cells[i];
            const std::string text = html_escape(table::join_cell(c, parts));
            if (k == 0) {
                out += "<td class=\"l name\"><code>" + text + "</code>" + badges(row) + "</td>";
            } else if (k == 3) {
                out += fmt::format("<td data-v=\"{}\">{}</td>",
                                   row.change && std::isfinite(row.change->change_pct)
                                       ? fmt::format("{:.6g}", row.change->change_pct)
                                       : std::string(),
                                   text);
            } else if (k == 4) {
                out += "<td class=\"l verdict " + verdict_class(row) + "\">" + text + "</td>";
            } else if (k > 4 && parts.size() == 2) {  // "base → head": the figure changed
                out += "<td class=\"changed\">" + text + "</td>";
            } else {
                out += std::string(c.alignment == table::align::left ? "<td class=\"l\">" : "<td>") + text +
                       "</td>";
            }
        }
        out += "</tr>\n";
    }
    return out + "</tbody>\n</table></div>\n";
}

// Two results files: each side's context in two columns, a line where they differ marked (two
// hosts, two tare versions: what the intervals do not cover).
std::string sides_section(const compare_results& r) {
    if (!r.base_context || !r.head_context)
        return {};
    const run_context& b = *r.base_context;
    const run_context& h = *r.head_context;
    const auto cpu = [](const run_context& c) {
        std::string text = one_line(c.cpu);
        if (c.num_cpus > 0)
            text += fmt::format("{}{} cpus", text.empty() ? "" : " · ", c.num_cpus);
        return text;
    };
    std::vector<std::pair<std::string, std::pair<std::string, std::string>>> rows = {
        {"file", {one_line(r.base_label), one_line(r.head_label)}},
        {"executable", {one_line(b.executable), one_line(h.executable)}},
        {"recorded", {one_line(b.date), one_line(h.date)}},
        {"host", {one_line(b.host), one_line(h.host)}},
        {"cpu", {cpu(b), cpu(h)}},
        {"tare", {one_line(b.tare_version), one_line(h.tare_version)}},
        {"processes", {std::to_string(b.processes), std::to_string(h.processes)}},
        {"accounting", {b.accounting ? "on" : "off", h.accounting ? "on" : "off"}},
    };
    if (b.instrument || h.instrument) {  // counted: what counted each side (the set-up is in the header)
        const auto tool = [](const run_context& c) {
            return c.instrument ? one_line(c.instrument->substr(0, c.instrument->find(';'))) : "— (timed)";
        };
        rows.push_back({"counted by", {tool(b), tool(h)}});
    }
    std::string out =
        "<section id=\"sides\">\n<h2>The two sides</h2>\n<div class=\"scroll\"><table>\n"
        "<thead><tr><th class=\"l\"></th><th class=\"l\">base</th><th class=\"l\">head</th></tr></thead>\n"
        "<tbody>\n";
    for (const auto& [what, sides] : rows) {
        // The date differs between any two recordings: only the other lines are marked.
        const bool differs = sides.first != sides.second && what != "file" && what != "recorded";
        const std::string cls = differs ? "l changed" : "l";
        out +=
            fmt::format("<tr><th class=\"l\">{}</th><td class=\"{}\">{}</td><td class=\"{}\">{}</td></tr>\n",
                        what, cls, html_escape(sides.first.empty() ? std::string(missing_mark) : sides.first),
                        cls, html_escape(sides.second.empty() ? std::string(missing_mark) : sides.second));
    }
    return out + "</tbody>\n</table></div>\n</section>\n";
}

std::string paragraph(const std::vector<table::line>& lines) {
    std::string out = "<p>";
    for (std::size_t i = 0; i < lines.size(); ++i)
        out += (i > 0 ? "<br>\n" : "") + detail::render_html(lines[i]);
    return out + "</p>\n";
}

std::string findings_section(const compare_results& r) {
    const auto findings = detail::collect_compare_findings(r);
    if (findings.empty())
        return {};
    const auto errors = static_cast<std::size_t>(
        std::count_if(findings.begin(), findings.end(), [](const auto& f) { return f.is_error; }));
    std::string out = fmt::format(
        "<section id=\"findings\">\n<h2>Warnings and errors</h2>\n<details{}>\n<summary>{} warning{}, {} "
        "error{}</summary>\n<ul class=\"findings\">\n",
        errors > 0 ? " open" : "", findings.size() - errors, findings.size() - errors == 1 ? "" : "s", errors,
        errors == 1 ? "" : "s");
    for (const auto& f : findings) {
        out += fmt::format(
            "<li class=\"{}\"><strong>{}</strong> <code>{}</code> ({}, <code>{}</code>){}</li>\n",
            f.is_error ? "error" : "warning", f.is_error ? "error" : "warning", html_escape(f.benchmark),
            html_escape(f.side), html_escape(f.kind), f.message.empty() ? "" : ": " + html_escape(f.message));
    }
    return out + "</ul>\n</details>\n</section>\n";
}

// Each profiled row's differential flame graph (docs/profiles.md): head's stacks, coloured by the
// change against base, and the functions that changed most.
std::string profiles_section(const compare_results& r) {
    std::string out;
    for (const compare_row& row : r.rows) {
        if (!row.base.profile || !row.head.profile)
            continue;
        out += fmt::format("<h3><code>{}</code></h3>\n", html_escape(one_line(row.name)));
        if (!row.functions.empty()) {
            out +=
                "<table "
                "class=\"functions\"><thead><tr><th>function</th><th>base</th><th>head</th><th>change</th>"
                "</tr></thead>\n<tbody>\n";
            for (const function_change& f : row.functions) {
                out += fmt::format(
                    "<tr><td class=\"fn\"><code "
                    "title=\"{}\">{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                    html_escape(f.function), html_escape(detail::short_function(f.function)),
                    format_exact_count(f.base), format_exact_count(f.head),
                    f.base > 0 ? format_signed_percent(100 * (f.head - f.base) / f.base) : "new");
            }
            out += "</tbody></table>\n";
        } else {
            out += "<p>No function's own instructions changed.</p>\n";
        }
        if (!row.allocations.empty()) {
            out +=
                "<table class=\"functions\"><thead><tr><th>allocation stack</th><th>allocs/iter</th>"
                "<th>bytes/iter</th></tr></thead>\n<tbody>\n";
            for (const allocation_change& a : row.allocations) {
                out += fmt::format(
                    "<tr><td class=\"fn\"><code>{}</code></td><td>{} → {}</td><td>{} → {}</td></tr>\n",
                    html_escape(detail::stack_text(a.stack)), format_count(a.base_allocs),
                    format_count(a.head_allocs), html_escape(format_bytes(a.base_bytes)),
                    html_escape(format_bytes(a.head_bytes)));
            }
            out += "</tbody></table>\n";
        }
        out += detail::flame_graph(
            detail::differential_stacks(*row.base.profile, *row.head.profile),
            "Head's instructions by call stack, per iteration, each frame coloured by its "
            "change against base: red more, blue fewer, deepest at ±10%; click a frame to zoom",
            "instructions/iter", false);
    }
    return out.empty() ? out
                       : "<section id=\"profiles\">\n<h2>Where the instructions changed</h2>\n" + out +
                             "</section>\n";
}

std::string compare_page(const compare_results& r) {
    std::string out = "<header>\n<h1>tare comparison</h1>\n";
    if (!r.rows.empty())
        out += "<p class=\"summary-line\">" + detail::render_html(detail::compare_summary_line(r)) + "</p>\n";
    out += paragraph(detail::compare_header_lines(r)) + "</header>\n<main>\n" + sides_section(r);
    if (r.rows.empty()) {
        out += "<p><em>No benchmark is on both sides.</em></p>\n";
    } else {
        out += "<section id=\"changes\">\n<h2>Changes</h2>\n<figure>\n" + detail::render_forest(forest(r));
        out += r.mode == pairing::counted
                   ? "<figcaption>Each row: the exact change of head's instructions against base's (dot), "
                     "coloured by verdict; instructions are not time. Hover for the figures; a name links "
                     "to its row.</figcaption>\n</figure>\n</section>\n"
                   : "<figcaption>Each row: the change of head against base (dot) and its interval (line), "
                     "coloured by verdict; an interval that runs past the axis ends in an arrow. Hover for "
                     "the figures; a name links to its row.</figcaption>\n</figure>\n</section>\n";
        out += "<section id=\"rows\">\n<h2>Rows</h2>\n" + rows_table(r) +
               paragraph(detail::compare_note_lines(r));
        out += "</section>\n";
    }
    if (const auto presence = detail::compare_presence_lines(r); !presence.empty())
        out +=
            "<section id=\"presence\">\n<h2>On one side only</h2>\n" + paragraph(presence) + "</section>\n";
    out += findings_section(r);
    const std::string flames = profiles_section(r);
    out += flames;
    const std::string title =
        "tare comparison: " + one_line(r.base_label) + " against " + one_line(r.head_label);
    out += "</main>\n";
    if (!flames.empty())
        out += "<script>\n" + std::string(detail::flame_script) + "</script>\n";
    return detail::html_page(title, out, /*sortable=*/!r.rows.empty(),
                             flames.empty() ? std::string_view{} : detail::flame_style);
}

}  // namespace

template <>
std::unique_ptr<reporter<compare_results>> make_html_reporter() {
    return detail::make_function_reporter<compare_results, compare_page>();
}

}  // namespace tare::report
