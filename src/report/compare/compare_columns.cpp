#include "report/compare/compare_columns.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "report/units.hpp"

namespace tare::report::detail {
namespace {

using cell = std::vector<std::string>;

cell single(std::string text) {
    return cell{std::move(text)};
}

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

std::string signed_percent(double pct) {
    return (pct > 0 ? "+" : "") + format_percent(pct);
}

cell change_cell(const compare_row& row) {
    if (!row.change) {
        return single(std::string(missing_mark));
    }
    const paired_change& c = *row.change;
    if (!c.interval_pct) {
        // One pair: the interval is infinite, which is the honest "no interval".
        return single(signed_percent(c.change_pct) + " [no interval]");
    }
    return {signed_percent(c.change_pct), "[" + signed_percent(c.interval_pct->low),
            signed_percent(c.interval_pct->high) + "]"};
}

// A verdict needs a change; without one there is nothing judged, so no word is printed that a
// reader could take for a measured "no change".
cell verdict_cell(const compare_row& row) {
    if (!row.change) {
        return single(std::string(missing_mark));
    }
    return single(row.verdict == verdict::no_change ? "no change"
                                                           : std::string(verdict_name(row.verdict)));
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
compare_column make_column(const compare_results& r, std::string header, align alignment,
                           std::vector<std::string> separators, Make make) {
    compare_column c{std::move(header), alignment, std::move(separators), {}};
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

std::string join(const std::vector<std::string>& names, const text_style& style) {
    std::vector<std::string> shown;
    shown.reserve(names.size());
    for (const std::string& n : names) {
        shown.push_back(style.code(one_line(n)));
    }
    return fmt::format("{}", fmt::join(shown, ", "));
}

}  // namespace

std::vector<compare_column> build_compare_columns(const compare_results& r) {
    const std::string level = level_text(family_level(r));
    std::vector<compare_column> columns;
    columns.push_back(make_column(r, "benchmark", align::left, {},
                                  [](const compare_row& row) { return single(one_line(row.name)); }));
    columns.push_back(make_column(r, "base ± 95%", align::right, {" ± "},
                                  [](const compare_row& row) { return time_cell(row.base); }));
    columns.push_back(make_column(r, "head ± 95%", align::right, {" ± "},
                                  [](const compare_row& row) { return time_cell(row.head); }));
    columns.push_back(
        make_column(r, "change [" + level + " interval]", align::right, {" ", ", "}, change_cell));
    columns.push_back(make_column(r, "verdict", align::left, {}, verdict_cell));

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
    if (any_figure(r, peak)) {
        columns.push_back(make_column(r, "peak heap", align::right, {" → "}, [&](const compare_row& row) {
            return memory_cell(row, peak, format_peak);
        }));
    }
    return columns;
}

std::string join_cell(const compare_column& c, const std::vector<std::string>& cell) {
    std::string text;
    for (std::size_t i = 0; i < cell.size(); ++i) {
        if (i > 0) {
            text += i - 1 < c.separators.size() ? c.separators[i - 1] : " ";
        }
        text += cell[i];
    }
    return text;
}

double family_level(const compare_results& r) {
    return interval_level(r);
}

std::vector<std::string> compare_header_lines(const compare_results& r, const text_style& style) {
    std::vector<std::string> lines;
    lines.push_back(style.text("tare compare: base ") + style.code(one_line(r.base_label)) +
                    style.text(" against head ") + style.code(one_line(r.head_label)));
    std::vector<std::string> context;
    context.push_back("tare " + (r.tare_version.empty() ? std::string("?") : one_line(r.tare_version)));
    if (!r.host.empty()) {
        context.push_back("host " + one_line(r.host));
    }
    if (!r.date.empty()) {
        context.push_back(one_line(r.date));
    }
    lines.push_back(style.text(fmt::format("{}", fmt::join(context, " · "))));

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
    if (r.mode == pairing::rounds) {
        lines.push_back(style.text(
            fmt::format("{} round{} of fresh processes{}, samples alternating in balanced order; {}",
                        r.rounds, r.rounds == 1 ? "" : "s", where, family)));
    } else if (r.mode == pairing::process_rounds) {
        lines.push_back(style.text(fmt::format(
            "{} round{} of fresh Google Benchmark processes{}, one per side and benchmark, in balanced "
            "order (base first, then head first); {}",
            r.rounds, r.rounds == 1 ? "" : "s", where, family)));
    } else {
        // The caveat is the point of this line: an unpaired interval looks as tight as a paired
        // one while leaving out the variation that most often fakes a change.
        lines.push_back(style.strong("UNPAIRED") +
                        style.text(" comparison of two results files: one process per side (Welch), so "
                                   "process-to-process variation and drift are not in the interval; "
                                   "read it as optimistic and prefer ") +
                        style.code("tare compare BASE_EXE HEAD_EXE"));
        lines.push_back(style.text(family));
    }
    return lines;
}

std::vector<std::string> compare_note_lines(const compare_results& r, const text_style& style) {
    std::vector<std::string> lines;
    std::string verdicts = "change: head against base, in % of base (negative = head faster); ";
    if (r.threshold_pct > 0) {
        const std::string band = format_percent(r.threshold_pct);
        verdicts += "threshold band ±" + band + ": slower needs the interval above +" + band +
                    ", faster below -" + band + ", anything touching the band is no change.";
    } else {
        verdicts +=
            "slower needs the interval above 0, faster below 0; an interval that includes 0 is "
            "no change.";
    }
    lines.push_back(style.text(verdicts));
    const bool memory_shown = any_figure(r, [](const side_figures& s) { return s.allocs_per_iter; }) ||
                              any_figure(r, [](const side_figures& s) { return s.bytes_per_iter; }) ||
                              any_figure(r, [](const side_figures& s) { return s.peak_live_bytes; });
    if (memory_shown) {
        lines.push_back(
            style.text("memory: base → head per iteration of the timed region; \"= x\" when both "
                       "sides show x."));
    }
    return lines;
}

std::vector<std::string> compare_presence_lines(const compare_results& r, const text_style& style) {
    std::vector<std::string> lines;
    if (!r.only_in_base.empty()) {
        lines.push_back(style.text("only in base: ") + join(r.only_in_base, style));
    }
    if (!r.only_in_head.empty()) {
        lines.push_back(style.text("only in head: ") + join(r.only_in_head, style));
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

}  // namespace tare::report::detail
