// What `tare history check`'s console and Markdown reports show, as a document of the table
// engine (report/table/document.hpp): which runs were checked and how, then one row per measure
// that changed, the measures of one benchmark that moved together in one group, newest first.

#include <cmath>
#include <string>
#include <vector>

#include "report/history_table.hpp"

#include "io/history_mapping.hpp"
#include "report/function_reporter.hpp"
#include "report/table/units.hpp"

namespace tare::report::detail {
namespace {

using table::align;
using table::cell;
using table::column;
using table::line;
using table::style;

}  // namespace

std::string history_measure_label(const std::string& m) {
    static const std::pair<const char*, const char*> labels[] = {
        {"time_ns", "time"},
        {"allocs_per_iter", "allocs/iter"},
        {"bytes_per_iter", "bytes/iter"},
        {"peak_live_bytes", "peak heap"},
        {"retained_bytes_per_iter", "retained/iter"},
        {"page_faults_per_iter", "faults/iter"},
        {"copied_bytes_per_iter", "copied/iter"},
        {"set_bytes_per_iter", "set/iter"},
        {"mapped_bytes_per_iter", "mapped/iter"},
        {"bytes_per_second", "bytes/s"},
        {"items_per_second", "items/s"},
        {"instructions", "instr/iter"},
        {"data_reads", "reads/iter"},
        {"data_writes", "writes/iter"},
        {"l1_misses", "L1 misses/iter"},
        {"ll_misses", "LL misses/iter"},
        {"estimated_cycles", "cycles/iter"},
    };
    for (const auto& [name, label] : labels) {
        if (m == name)
            return label;
    }
    return m.rfind("counter:", 0) == 0 ? m.substr(8) : m;
}

std::string history_value(const std::string& m, double v, bool exact) {
    if (m == "time_ns")
        return format_duration(v);
    if (m == "bytes_per_second")
        return format_byte_rate(v);
    if (m == "items_per_second")
        return format_item_rate(v);
    if (m.find("bytes") != std::string::npos)
        return format_bytes(v);
    return exact ? format_exact_count(v) : format_count(v);
}

namespace {

cell change_cell(const history_measure_change& c) {
    if (!c.change_pct && c.exact) {
        // From 0 no percent exists: the count's own difference ("+1" allocation an iteration).
        const double d = c.after - c.before;
        return {(d > 0 ? "+" : "-") + history_value(c.measure, std::fabs(d), true), "exact"};
    }
    if (!c.change_pct)
        return {std::string(missing_mark)};
    if (c.exact)
        return {format_count_change(*c.change_pct), "exact"};
    if (!c.interval_pct)
        return {format_signed_percent(*c.change_pct), "no interval"};
    return {format_signed_percent(*c.change_pct), "[" + format_signed_percent(c.interval_pct->low) + ", " +
                                                      format_signed_percent(c.interval_pct->high) + "]"};
}

std::string direction_text(history_direction d) {
    switch (d) {
    case history_direction::regression:
        return "regression";
    case history_direction::improvement:
        return "improvement";
    case history_direction::changed:
        break;
    }
    return "changed";
}

table::tone direction_tone(history_direction d) {
    return d == history_direction::regression    ? table::tone::bad
           : d == history_direction::improvement ? table::tone::good
                                                 : table::tone::none;
}

}  // namespace

std::string short_commit(const std::string& commit) {
    return commit.size() > 7 ? commit.substr(0, 7) : commit;  // git's own default abbreviation
}

namespace {

std::string day_of(const std::string& date) {
    return date.substr(0, 10);
}

std::string run_text(const history_run& r) {
    return day_of(r.date) + " " + short_commit(r.commit);
}

column make_column(std::string header, align a, std::vector<std::string> separators, bool names = false) {
    column c;
    c.header = std::move(header);
    c.alignment = a;
    c.separators = std::move(separators);
    c.names = names;
    return c;
}

// Columns a narrow terminal can spare go first: the runs on each side, the date, the word for
// the direction (the change's sign says it), the levels. The benchmark, the measure, the change
// and the commits always stay: they are what a reader acts on (git log BEFORE..AFTER).
table::grid change_grid(const history_check& r) {
    column bench = make_column("benchmark", align::left, {}, true);
    column measure = make_column("measure", align::left, {});
    column levels = make_column("before → after", align::right, {" → "});
    column change = make_column("change [95%]", align::right, {" "});
    column kind = make_column("direction", align::left, {});
    column commits = make_column("commits", align::left, {" → "});
    column date = make_column("date", align::left, {});
    column runs = make_column("runs", align::right, {" + "});
    levels.drop_rank = 1;
    kind.drop_rank = 2;
    date.drop_rank = 3;
    runs.drop_rank = 4;
    for (const history_change& c : r.changes) {
        for (const history_measure_change& m : c.measures) {
            bench.cells.push_back({c.benchmark});
            measure.cells.push_back({history_measure_label(m.measure)});
            levels.cells.push_back(
                {history_value(m.measure, m.before, m.exact), history_value(m.measure, m.after, m.exact)});
            change.cells.push_back(change_cell(m));
            kind.cells.push_back(
                {direction_text(m.direction) +
                 (c.at_head && m.direction == history_direction::regression ? " (head)" : "")});
            kind.tones.push_back(direction_tone(m.direction));
            commits.cells.push_back({short_commit(c.before.commit), short_commit(c.after.commit)});
            date.cells.push_back({day_of(c.after.date)});
            runs.cells.push_back({std::to_string(m.runs_before), std::to_string(m.runs_after)});
        }
    }
    return table::grid{{bench, measure, levels, change, kind, commits, date, runs}};
}

std::vector<line> header_lines(const history_check& r) {
    std::vector<line> lines;
    line what{
        {"history: ", style::plain},
        {r.store, style::code},
        {" · branch ", style::plain},
        {r.branch, style::code},
        {" · " + std::to_string(r.runs.size()) + (r.runs.size() == 1 ? " run" : " runs"), style::plain}};
    if (!r.runs.empty())
        what.push_back({", " + run_text(r.runs.front()) + " … " + run_text(r.runs.back()), style::plain});
    lines.push_back(std::move(what));
    lines.push_back(
        {{"method: E-divisive means with a permutation test (at most " + format_percent(100 * r.alpha) +
              " false alarms per unchanged series; " + std::to_string(r.permutations) +
              " shuffles), exact counts by their steps · " + std::to_string(r.series) + " series",
          style::plain}});
    return lines;
}

}  // namespace

namespace {

cell head_change_cell(const history_head_change& c) {
    history_measure_change m;
    m.measure = c.measure;
    m.exact = c.exact;
    m.before = c.level;
    m.after = c.head;
    m.change_pct = c.change_pct;
    m.interval_pct = c.interval_pct;
    return change_cell(m);
}

// Columns a narrow terminal can spare go first: the direction's word (the change's sign says
// it), where the level began, the levels; the benchmark, the measure and the change stay.
table::grid head_grid(const history_check& r) {
    column bench = make_column("benchmark", align::left, {}, true);
    column measure = make_column("measure", align::left, {});
    column levels = make_column(r.branch + " → head", align::right, {" → "});
    column change = make_column("change [95%]", align::right, {" "});
    column kind = make_column("direction", align::left, {});
    column since = make_column("level since", align::left, {" · "});
    levels.drop_rank = 1;
    since.drop_rank = 2;
    kind.drop_rank = 3;
    for (const history_head_change& c : r.head->changes) {
        bench.cells.push_back({c.benchmark});
        measure.cells.push_back({history_measure_label(c.measure)});
        levels.cells.push_back(
            {history_value(c.measure, c.level, c.exact), history_value(c.measure, c.head, c.exact)});
        change.cells.push_back(head_change_cell(c));
        kind.cells.push_back({direction_text(c.direction)});
        kind.tones.push_back(direction_tone(c.direction));
        since.cells.push_back(
            {short_commit(c.since), std::to_string(c.runs) + (c.runs == 1 ? " run" : " runs")});
    }
    return table::grid{{bench, measure, levels, change, kind, since}};
}

// --head: the run against the branch's present level, series by series.
void add_head(table::document& doc, const history_check& r) {
    const history_head& h = *r.head;
    std::string counts =
        std::to_string(h.compared) + (h.compared == 1 ? " measure" : " measures") + " compared";
    if (h.too_few > 0)
        counts += ", " + std::to_string(h.too_few) + " with under 3 runs since their last change point";
    if (h.not_in_history > 0)
        counts += ", " + std::to_string(h.not_in_history) + " not in the history";
    doc.add(table::paragraph{
        {{{"head: ", style::plain},
          {h.source, style::code},
          {" against ", style::plain},
          {r.branch, style::code},
          {" since each series' last change point · " + counts, style::plain}},
         {{"method: exact counts changed by any difference; noisy measures by the head's run against "
           "the level's runs (Student's prediction interval on the logs), Holm-adjusted to at most " +
               format_percent(100 * r.alpha) + " false alarms in all",
           style::plain}}}});
    if (h.changes.empty()) {
        doc.add(table::paragraph{
            {{{"No change: the head is at " + r.branch + "'s level in every measure compared.",
               style::note}}}});
        return;
    }
    doc.add(head_grid(r));
    std::string regressed;
    for (const history_head_change& c : h.changes) {
        if (c.direction == history_direction::regression)
            regressed +=
                (regressed.empty() ? "" : ", ") + c.benchmark + " " + history_measure_label(c.measure);
    }
    if (!regressed.empty())
        doc.add(table::paragraph{{{{"regressed against " + r.branch + ": " + regressed, style::strong}}}});
}

// The check of the branch itself: its change points, newest first.
void add_changes(table::document& doc, const history_check& r) {
    if (r.runs.size() < 2) {
        doc.add(
            table::paragraph{{{{"Nothing to compare yet: a change needs two runs or more.", style::note}}}});
        return;
    }
    if (r.changes.empty()) {
        doc.add(table::paragraph{{{{"No change points: every series kept its level.", style::note}}}});
        return;
    }
    doc.add(change_grid(r));
    std::vector<line> notes;
    notes.push_back(
        {{std::to_string(r.changes.size()) + (r.changes.size() == 1 ? " change" : " changes") +
              "; levels are the means of the runs between change points (an exact count's: its "
              "value), the interval Welch's on their logs; commits: the last run before the change "
              "and the first after.",
          style::plain}});
    std::string head;
    for (const history_change& c : r.changes) {
        if (c.at_head)
            head += (head.empty() ? "" : ", ") + c.benchmark + " at " + short_commit(c.after.commit);
    }
    if (!head.empty())
        notes.push_back(
            {{"regressed among the newest " + std::to_string(r.recent) + " runs: " + head, style::strong}});
    doc.add(table::paragraph{notes});
}

}  // namespace

table::document history_document(const history_check& r) {
    table::document doc;
    doc.add(table::paragraph{header_lines(r)});
    add_changes(doc, r);
    if (r.head)
        add_head(doc, r);
    return doc;
}

}  // namespace tare::report::detail

namespace tare::report {

template <>
std::unique_ptr<reporter<history_check>> make_console_reporter(const table::console_style& style) {
    return detail::make_document_console_reporter<history_check, detail::history_document>(style);
}

template <>
std::unique_ptr<reporter<history_check>> make_markdown_reporter() {
    return detail::make_function_reporter<history_check,
                                          detail::markdown_text<history_check, detail::history_document>>();
}

template <>
std::unique_ptr<reporter<history_check>> make_json_reporter() {
    return detail::make_function_reporter<history_check, io::write_history_check_json>();
}

}  // namespace tare::report
