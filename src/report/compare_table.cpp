#include "report/compare_table.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "io/compare_mapping.hpp"
#include "report/function_reporter.hpp"
#include "report/profile/compare_profile_lines.hpp"
#include "report/run_table.hpp"
#include "report/table/units.hpp"

namespace tare::report::detail {
namespace {

using table::align;
using table::cell;
using table::column;
using table::line;
using table::style;

using table::single;

bool row_failed(const compare_row& row) {
    return row.base.error.has_value() || row.head.error.has_value();
}

// "1.25 µs ± 0.8%", or the side's error in place of every figure: nothing was measured there.
cell time_cell(const side_figures& side) {
    if (side.error) {
        return single("error: " +
                      (side.error->kind.empty() ? std::string("unknown") : one_line(side.error->kind)));
    }
    return {format_duration(side.time_ns),
            side.time_ci ? format_relative_half_width(side.time_ns, side.time_ci->low, side.time_ci->high)
                         : std::string(missing_mark)};
}

cell change_cell(const compare_row& row) {
    if (!row.change) {
        return single(std::string(missing_mark));
    }
    const paired_change& c = *row.change;
    if (!c.interval_pct) {
        // One pair: the interval is infinite, which is the honest "no interval".
        return single(format_signed_percent(c.change_pct) + " [no interval]");
    }
    return {format_signed_percent(c.change_pct), "[" + format_signed_percent(c.interval_pct->low),
            format_signed_percent(c.interval_pct->high) + "]"};
}

// A verdict needs a change; without one there is nothing judged, so no word is printed that a
// reader could take for a measured "no change".
cell verdict_cell(const compare_row& row) {
    if (row.verdict == verdict::error) {
        return single("error");
    }
    if (!row.change) {
        return single(std::string(missing_mark));
    }
    if (row.unjudged) {
        return single("not judged");
    }
    if (row.base.counts && row.verdict != verdict::no_change) {  // counted: not a time's words
        return single(row.verdict == verdict::faster ? "fewer instr." : "more instr.");
    }
    return single(row.verdict == verdict::no_change ? "no change" : std::string(verdict_name(row.verdict)));
}

// One memory figure of both sides: "3 → 0", "= 0 B" when both sides print the same (equal at
// the precision shown, which is the precision a reader can check), "—" when neither has it.
template <class Get, class Format>
cell memory_cell(const compare_row& row, Get get, Format format) {
    if (row_failed(row)) {
        return single("");
    }
    const auto base = get(row.base);
    const auto head = get(row.head);
    if (!base && !head) {
        return single(std::string(missing_mark));
    }
    const std::string base_text = format_or_missing(base, format);
    const std::string head_text = format_or_missing(head, format);
    if (base_text == head_text) {
        return single("= " + base_text);
    }
    return {base_text, head_text};
}

template <class Get>
bool any_figure(const compare_results& r, Get get) {
    return std::any_of(r.rows.begin(), r.rows.end(), [&](const compare_row& row) {
        return (!row.base.error && get(row.base)) || (!row.head.error && get(row.head));
    });
}

template <class Make>
column make_column(const compare_results& r, std::string header, align alignment,
                   std::vector<std::string> separators, Make make) {
    column c{std::move(header), alignment, std::move(separators), {}, false};
    c.cells.reserve(r.rows.size());
    for (const compare_row& row : r.rows) {
        c.cells.push_back(make(row));
    }
    return c;
}

std::string format_peak(std::int64_t bytes) {
    return format_bytes(static_cast<double>(bytes));
}

// "98.33%": enough digits to tell 1 - 0.05/3 from 1 - 0.05/4, none that are noise.
std::string level_text(double level) {
    return fmt::format("{:.4g}%", level * 100);
}

// "CPU 3", "CPUs 0-3,6": ascending input, runs of consecutive CPUs as ranges.
std::string cpu_list_text(const std::vector<int>& cpus) {
    std::string out;
    for (std::size_t i = 0; i < cpus.size();) {
        std::size_t j = i;
        while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) {
            ++j;
        }
        out += (out.empty() ? "" : ",") + std::to_string(cpus[i]);
        if (j > i) {
            out += "-" + std::to_string(cpus[j]);
        }
        i = j + 1;
    }
    return (cpus.size() == 1 ? "CPU " : "CPUs ") + out;
}

// "2024-05-01T12:00:00Z on ci-runner-7 (AMD EPYC 7B13 · 8 cpus), tare 0.1.0, 5 processes": where
// and when a results file was recorded, the parts it has.
std::string recorded_text(const run_context& c) {
    std::string out = c.date.empty() ? std::string("undated") : one_line(c.date);
    if (!c.host.empty())
        out += " on " + one_line(c.host);
    std::string cpu = one_line(c.cpu);
    if (c.num_cpus > 0)
        cpu += fmt::format("{}{} cpu{}", cpu.empty() ? "" : " · ", c.num_cpus, c.num_cpus == 1 ? "" : "s");
    if (!cpu.empty())
        out += " (" + cpu + ")";
    if (!c.tare_version.empty())
        out += ", tare " + one_line(c.tare_version);
    if (c.processes > 1)
        out += fmt::format(", {} processes", c.processes);
    return out;
}

double family_level(const compare_results& r) {
    return interval_level(r);
}

// The columns one memory column stands in for on a narrow terminal.
const std::vector<std::string> memory_headers = {"allocs/iter", "bytes/iter", "mapped/iter", "peak heap",
                                                 "copied/iter"};

}  // namespace

namespace {

cell instructions_cell(const side_figures& side) {
    if (side.error) {
        return single("error: " +
                      (side.error->kind.empty() ? std::string("unknown") : one_line(side.error->kind)));
    }
    return single(side.counts ? format_exact_count(side.counts->instructions) : std::string(missing_mark));
}

// One count of both sides, as memory_cell shows a memory figure.
cell count_cell(const compare_row& row, std::optional<double> instruction_counts::*member) {
    return memory_cell(
        row, [&](const side_figures& s) { return s.counts ? (*s.counts).*member : std::optional<double>(); },
        format_exact_count);
}

}  // namespace

// Long by design: one declaration per column, in the table's order (as the run table's
// build_columns), each with the rule that keeps or drops it.
std::vector<column> build_compare_columns(const compare_results& r) {
    const std::string level = level_text(family_level(r));
    const bool counted = r.mode == pairing::counted;
    std::vector<column> columns;
    columns.push_back(make_column(r, "benchmark", align::left, {},
                                  [](const compare_row& row) { return single(one_line(row.name)); }));
    columns.back().names = true;
    if (counted) {
        // Counts in place of times (docs/instructions.md): exact, so the change has no interval.
        columns.push_back(make_column(r, "base instr/iter", align::right, {},
                                      [](const compare_row& row) { return instructions_cell(row.base); }));
        columns.push_back(make_column(r, "head instr/iter", align::right, {},
                                      [](const compare_row& row) { return instructions_cell(row.head); }));
        columns.push_back(make_column(r, "change", align::right, {}, [](const compare_row& row) {
            return single(row.change ? format_count_change(row.change->change_pct)
                                     : std::string(missing_mark));
        }));
    } else {
        columns.push_back(make_column(r, "base ± 95%", align::right, {" ± "},
                                      [](const compare_row& row) { return time_cell(row.base); }));
        columns.push_back(make_column(r, "head ± 95%", align::right, {" ± "},
                                      [](const compare_row& row) { return time_cell(row.head); }));
        columns.push_back(
            make_column(r, "change [" + level + " interval]", align::right, {" ", ", "}, change_cell));
    }
    columns.push_back(make_column(r, "verdict", align::left, {}, verdict_cell));
    if (counted) {
        columns.push_back(make_column(
            r, "est. cycles/iter", align::right, {" → "},
            [](const compare_row& row) { return count_cell(row, &instruction_counts::estimated_cycles); }));
        columns.push_back(make_column(r, "LL misses/iter", align::right, {" → "}, [](const compare_row& row) {
            return count_cell(row, &instruction_counts::ll_misses);
        }));
    }

    const auto allocs = [](const side_figures& s) { return s.allocs_per_iter; };
    const auto bytes = [](const side_figures& s) { return s.bytes_per_iter; };
    const auto peak = [](const side_figures& s) { return s.peak_live_bytes; };
    if (any_figure(r, allocs)) {
        columns.push_back(make_column(r, "allocs/iter", align::right, {" → "}, [&](const compare_row& row) {
            return memory_cell(row, allocs, format_count);
        }));
    }
    if (any_figure(r, bytes)) {
        columns.push_back(make_column(r, "bytes/iter", align::right, {" → "}, [&](const compare_row& row) {
            return memory_cell(row, bytes, format_bytes);
        }));
    }
    // Only when a side mapped memory of its own (mmap): 0 on every side is no column.
    const auto mapped = [](const side_figures& s) { return s.mapped_bytes_per_iter; };
    const auto mapped_some = [](const side_figures& s) { return s.mapped_bytes_per_iter.value_or(0) > 0; };
    if (any_figure(r, mapped_some)) {
        columns.push_back(make_column(r, "mapped/iter", align::right, {" → "}, [&](const compare_row& row) {
            return memory_cell(row, mapped, format_bytes);
        }));
    }
    if (any_figure(r, peak)) {
        columns.push_back(make_column(r, "peak heap", align::right, {" → "}, [&](const compare_row& row) {
            return memory_cell(row, peak, format_peak);
        }));
    }
    const auto copied = [](const side_figures& s) { return s.copied_bytes_per_iter; };
    if (any_figure(r, copied)) {
        columns.push_back(make_column(r, "copied/iter", align::right, {" → "}, [&](const compare_row& row) {
            return memory_cell(row, copied, format_bytes);
        }));
    }
    // On a narrow terminal (table/document.hpp) cache misses go first, then both sides' times,
    // which the change sums up; then the memory columns give way to one that names what changed
    // (compare_stand_ins), and the change to the change without its interval, which the verdict
    // sums up. The name, the change and the verdict stay, and so does every memory change.
    for (column& c : columns) {
        c.drop_rank =
            c.header == "LL misses/iter" ? 4
            : c.header == "base ± 95%" || c.header == "head ± 95%" || c.header == "base instr/iter" ||
                    c.header == "head instr/iter" || c.header == "est. cycles/iter"
                ? 3
            : std::find(memory_headers.begin(), memory_headers.end(), c.header) != memory_headers.end() ? 2
            : c.header.starts_with("change [")                                                          ? 1
                                                                                                        : 0;
        for (const compare_row& row : r.rows) {
            if (c.header == "verdict") {
                c.tones.push_back(row.verdict == verdict::slower || row.verdict == verdict::error
                                      ? table::tone::bad
                                  : row.verdict == verdict::faster && !row.unjudged ? table::tone::good
                                                                                    : table::tone::none);
            } else if (c.header == "base ± 95%" || c.header == "head ± 95%" ||
                       c.header == "base instr/iter" || c.header == "head instr/iter") {
                const side_figures& side = c.header.starts_with("base") ? row.base : row.head;
                c.tones.push_back(side.error ? table::tone::bad : table::tone::none);
            }
        }
    }
    return columns;
}

namespace {

// What a terminal too narrow for the whole table shows in place of columns, rather than lose
// what they say: one memory column naming only the figures that changed, so a reviewer at 80
// columns still sees every row whose memory moved while the others stay one "=" wide; and the
// change without its interval. Rejected: a line under each changed row (a table whose rows are
// sometimes two lines is read wrongly), and keeping the allocations alone (a peak that tripled
// would be invisible).
std::vector<table::stand_in> compare_stand_ins(const compare_results& r, const std::vector<column>& columns) {
    std::vector<table::stand_in> out;
    std::vector<std::string> shown;
    for (const column& c : columns) {
        if (std::find(memory_headers.begin(), memory_headers.end(), c.header) != memory_headers.end())
            shown.push_back(c.header);
    }
    if (!shown.empty()) {
        column memory = make_column(r, "memory", align::left, {}, [](const compare_row& row) {
            return single(row_failed(row) ? std::string() : memory_changes(row.base, row.head));
        });
        memory.cut_at_end = true;
        out.push_back(
            {shown, std::move(memory), "memory shows only the figures that changed, head against base"});
    }
    if (r.mode != pairing::counted) {
        column change = make_column(r, "change", align::right, {}, [](const compare_row& row) {
            return single(row.change ? format_signed_percent(row.change->change_pct)
                                     : std::string(missing_mark));
        });
        out.push_back({{"change [" + level_text(family_level(r)) + " interval]"},
                       change,
                       "change without its interval"});
    }
    return out;
}

}  // namespace

// Sides instrumented differently: their time differs for that alone, so the header says what
// differs and whether the rows were judged anyway (docs/compare.md, "Mixed instrumentation").
line mixed_instrumentation_line(const compare_results& r) {
    std::vector<std::string> what;
    for (const warning& d : r.mixed_instrumentation) {
        what.push_back(one_line(d.message));
    }
    line out{{"MIXED INSTRUMENTATION", style::strong}, {": " + fmt::format("{}", fmt::join(what, "; "))}};
    if (r.mixed_instrumentation_allowed) {
        out.push_back({"; time judged anyway ("});
        out.push_back({"--allow-mixed-instrumentation", style::code});
        out.push_back({"): a change may be the instrumentation's, not the code's"});
    } else {
        out.push_back(
            {"; the time change is partly the instrumentation's, so it is not judged (build "
             "both sides alike, or "});
        out.push_back({"--allow-mixed-instrumentation", style::code});
        out.push_back({")"});
    }
    return out;
}

// Long by design: the header's lines in the order printed, each a sentence of styled spans;
// the lines that need rules of their own (the mixed instrumentation) are helpers above.
std::vector<line> compare_header_lines(const compare_results& r) {
    std::vector<line> lines;
    lines.push_back({{"tare compare: base "},
                     {one_line(r.base_label), style::code},
                     {" against head "},
                     {one_line(r.head_label), style::code}});
    std::vector<std::string> context;
    context.push_back("tare " + (r.tare_version.empty() ? std::string("?") : one_line(r.tare_version)));
    if (!r.host.empty()) {
        context.push_back("host " + one_line(r.host));
    }
    if (!r.date.empty()) {
        context.push_back(one_line(r.date));
    }
    lines.push_back({{fmt::format("{}", fmt::join(context, " · "))}});
    // Two files: when and where each side was recorded, which the intervals cannot speak for.
    if (r.base_context && r.head_context) {
        lines.push_back({{"base recorded " + recorded_text(*r.base_context) + "; head recorded " +
                          recorded_text(*r.head_context)}});
    }
    if (!r.mixed_instrumentation.empty()) {
        lines.push_back(mixed_instrumentation_line(r));
    }

    // The family: what each interval's level is, and why it is not 95 %.
    const std::string plural = r.comparisons == 1 ? "" : "s";
    std::string family;
    if (r.comparisons == 0) {
        family = "no change could be computed (0 comparisons)";
    } else if (r.family == family_control::fwer) {
        family = fmt::format("intervals of the change at {} = 1 - {:g}/{} (Bonferroni over {} comparison{})",
                             level_text(family_level(r)), r.alpha, r.comparisons, r.comparisons, plural);
    } else {
        // The share of the false-discovery rate the selection earned: R of m.
        family = fmt::format(
            "intervals of the change at {} = 1 - {:g}*{}/{} (false discovery rate {:g}%: Benjamini-Hochberg "
            "selected {} of {} comparison{})",
            level_text(family_level(r)), r.alpha, std::max<std::size_t>(r.selected, 1), r.comparisons,
            100 * r.alpha, r.selected == 0 ? std::string("none") : std::to_string(r.selected), r.comparisons,
            plural);
    }
    std::string where = r.cpus.empty() ? std::string() : " on " + cpu_list_text(r.cpus);
    if (r.matched_layouts) {
        where += ", both sides of a round in one random address layout";
    }
    if (r.interrupted) {
        lines.push_back({{"INTERRUPTED", style::strong},
                         {fmt::format(" after {} round{}: the figures are those rounds'", r.rounds,
                                      r.rounds == 1 ? "" : "s")}});
    }
    if (r.mode == pairing::counted) {
        // Honest labels: what counted, what a count is, and that it is not time.
        std::string what = r.base_context && r.base_context->instrument
                               ? one_line(*r.base_context->instrument)
                               : std::string("an instrument");
        lines.push_back({{"COUNTED, NOT TIMED", style::strong},
                         {": " + what +
                          "; one fresh process per side and benchmark; counts are exact, so "
                          "there are no rounds and no interval"}});
    } else if (r.mode == pairing::rounds) {
        lines.push_back(
            {{fmt::format("{} round{} of fresh processes{}, samples alternating in balanced order; {}",
                          r.rounds, r.rounds == 1 ? "" : "s", where, family)}});
    } else if (r.mode == pairing::process_rounds) {
        lines.push_back({{fmt::format(
            "{} round{} of fresh Google Benchmark processes{}, one per side and benchmark, in balanced "
            "order (base first, then head first); {}",
            r.rounds, r.rounds == 1 ? "" : "s", where, family)}});
    } else if (r.mode == pairing::processes) {
        // What the interval leaves out is as much a part of the reading as what it holds: the
        // two recordings' own difference (docs/compare.md, "Stored baselines").
        lines.push_back(
            {{fmt::format("two results files of {} and {} fresh processes; the process is the unit of "
                          "replication (Welch on the processes' median times); {}",
                          r.base_processes, r.head_processes, family)}});
        if (r.threshold_pct <= 0) {
            lines.push_back(
                {{"the intervals hold how fresh processes vary within each recording, not how the two "
                  "recordings differ (another time, machine or binary); a band such as "},
                 {"--threshold=1", style::code},
                 {" absorbs that"}});
        }
    } else {
        // The point of this line: one process a side cannot show how much a fresh process
        // differs, so a verdict on time would be called on noise (docs/compare.md).
        const auto unjudged = std::find_if(r.rows.begin(), r.rows.end(),
                                           [](const compare_row& row) { return row.unjudged.has_value(); });
        lines.push_back(
            {{"TIME NOT JUDGED", style::strong},
             {": " + (unjudged != r.rows.end() ? *unjudged->unjudged
                                               : std::string("two results files of one process each"))},
             {"; or compare the executables: "},
             {"tare compare BASE_EXE HEAD_EXE", style::code},
             {". Memory figures are exact and compared."}});
    }
    return lines;
}

std::vector<line> compare_note_lines(const compare_results& r) {
    std::vector<line> lines;
    std::string verdicts = "change: head against base, in % of base (negative = head faster); ";
    if (r.mode == pairing::counted) {
        const std::string band = format_count_change(std::max(r.threshold_pct, count_floor_pct)).substr(1);
        verdicts =
            "change: head's instructions per iteration against base's, in % of base (negative = "
            "fewer); beyond ±" +
            band +
            " is a verdict. Instructions are not time: the kernel's work (page faults), waiting "
            "and how fast each instruction runs are not in them (docs/instructions.md).";
    } else if (r.threshold_pct > 0) {
        const std::string band = format_percent(r.threshold_pct);
        verdicts += "threshold band ±" + band + ": slower needs the interval above +" + band +
                    ", faster below -" + band + ", anything touching the band is no change.";
    } else {
        verdicts +=
            "slower needs the interval above 0, faster below 0; an interval that includes 0 is "
            "no change.";
    }
    lines.push_back({{verdicts}});
    const bool memory_shown = any_figure(r, [](const side_figures& s) { return s.allocs_per_iter; }) ||
                              any_figure(r, [](const side_figures& s) { return s.bytes_per_iter; }) ||
                              any_figure(r, [](const side_figures& s) { return s.peak_live_bytes; });
    if (memory_shown) {
        lines.push_back(
            {{"memory: base → head per iteration of the timed region; \"= x\" when both "
              "sides show x."}});
    }
    return lines;
}

std::vector<compare_finding> collect_compare_findings(const compare_results& r) {
    std::vector<compare_finding> findings;
    const auto side_warnings = [&](const compare_row& row, const side_figures& side, const char* name) {
        for (const warning& w : side.warnings) {
            findings.push_back({false, one_line(row.name), name,
                                one_line(w.kind.empty() ? "warning" : w.kind), one_line(w.message)});
        }
    };
    const auto side_error = [&](const compare_row& row, const side_figures& side, const char* name) {
        if (side.error) {
            findings.push_back({true, one_line(row.name), name,
                                one_line(side.error->kind.empty() ? "unknown" : side.error->kind),
                                one_line(side.error->message)});
        }
    };
    for (const compare_row& row : r.rows) {
        side_warnings(row, row.base, "base");
        side_warnings(row, row.head, "head");
    }
    for (const compare_row& row : r.rows) {
        side_error(row, row.base, "base");
        side_error(row, row.head, "head");
    }
    return findings;
}

table::document compare_document(const compare_results& r) {
    table::document doc;
    if (!r.rows.empty()) {
        doc.add(table::paragraph{{compare_summary_line(r)}});
    }
    doc.add(table::paragraph{compare_header_lines(r)});
    if (r.rows.empty()) {
        doc.add(table::paragraph{{{{"no benchmark is on both sides", style::note}}}});
    } else {
        std::vector<column> columns = build_compare_columns(r);
        std::vector<table::stand_in> stand_ins = compare_stand_ins(r, columns);
        doc.add(table::grid{std::move(columns), std::move(stand_ins)});
        doc.add(table::paragraph{compare_note_lines(r)});
    }
    const auto presence = compare_presence_lines(r);
    if (!presence.empty()) {
        doc.add(table::paragraph{presence});
    }
    table::item_list findings;
    for (compare_finding& f : collect_compare_findings(r)) {
        line text{{f.benchmark, style::code}, {" (" + f.side + ", "}, {f.kind, style::code}, {")"}};
        if (!f.message.empty()) {
            text.push_back({": " + f.message});
        }
        findings.items.push_back({f.is_error ? "error" : "warning", std::move(text)});
    }
    if (!findings.items.empty()) {
        // On a terminal the findings follow the one-sided names directly, under one blank line.
        doc.add(std::move(findings), /*joined=*/!presence.empty());
    }
    table::item_list changes = changed_function_items(r);
    for (auto& item : changed_allocation_items(r).items) {
        changes.items.push_back(std::move(item));
    }
    if (!changes.items.empty()) {
        doc.add(std::move(changes));
    }
    return doc;
}

}  // namespace tare::report::detail

namespace tare::report {

template <>
std::unique_ptr<reporter<compare_results>> make_console_reporter(const table::console_style& style) {
    return detail::make_document_console_reporter<compare_results, detail::compare_document>(style);
}

template <>
std::unique_ptr<reporter<compare_results>> make_markdown_reporter() {
    return detail::make_function_reporter<compare_results,
                                          detail::markdown_text<compare_results, detail::compare_document>>();
}

template <>
std::unique_ptr<reporter<compare_results>> make_json_reporter() {
    return detail::make_streamed_function_reporter<compare_results, io::write_compare_json,
                                                   io::write_compare_json>();
}

}  // namespace tare::report
