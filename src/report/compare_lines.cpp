// The lines of a comparison outside its table: the summary line, and the lines about names (rows
// paired under another name, and the benchmarks one side alone has, each with the closest name
// the other side alone has, so that a renamed benchmark is seen as such and can be paired with
// --rename; docs/compare.md, "Renamed benchmarks").
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "model/change.hpp"
#include "report/compare_table.hpp"
#include "report/table/units.hpp"

namespace tare::report::detail {
namespace {

using table::line;
using table::style;

// Names longer than this get no hint, and no hints are looked for when the two lists would take
// more pairs than this: the hint is a courtesy, never the cost of a report of a million rows.
constexpr std::size_t longest_hinted = 256;
constexpr std::size_t most_pairs = 250000;

// Levenshtein's edit distance (insertions, deletions, substitutions of bytes), by the two-row
// dynamic programme (Wagner & Fischer, 1974).
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

// The name of `others` closest to `name`, when at least half of the longer of the two is kept
// (an edit distance of at most half its length); the first such name on a tie.
std::optional<std::string> closest(const std::string& name, const std::vector<std::string>& others) {
    if (name.size() > longest_hinted)
        return std::nullopt;
    std::optional<std::string> best;
    std::size_t best_distance = 0;
    for (const std::string& other : others) {
        if (other.size() > longest_hinted)
            continue;
        const std::size_t d = edit_distance(name, other);
        if (2 * d <= std::max(name.size(), other.size()) && (!best || d < best_distance)) {
            best = other;
            best_distance = d;
        }
    }
    return best;
}

// "only in base: a (closest in head: a/0), b", the names as code.
line name_list(const std::string& side, const std::vector<std::string>& names, const std::string& other_side,
               const std::vector<std::string>& others, bool hints, bool& hinted) {
    line out{{"only in " + side + ": "}};
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0)
            out.push_back({", "});
        out.push_back({one_line(names[i]), style::code});
        if (auto near = hints ? closest(names[i], others) : std::nullopt) {
            out.push_back({" (closest in " + other_side + ": "});
            out.push_back({one_line(*near), style::code});
            out.push_back({")"});
            hinted = true;
        }
    }
    return out;
}

}  // namespace

std::vector<line> compare_presence_lines(const compare_results& r) {
    std::vector<line> lines;
    line renamed{{"paired by --rename: "}};
    for (const compare_row& row : r.rows) {
        if (!row.head_name)
            continue;
        if (renamed.size() > 1)
            renamed.push_back({", "});
        renamed.push_back({"head's "});
        renamed.push_back({one_line(*row.head_name), style::code});
        renamed.push_back({" as "});
        renamed.push_back({one_line(row.name), style::code});
    }
    if (renamed.size() > 1)
        lines.push_back(std::move(renamed));
    const bool hints = r.only_in_base.size() * r.only_in_head.size() <= most_pairs;
    bool hinted = false;
    if (!r.only_in_base.empty())
        lines.push_back(name_list("base", r.only_in_base, "head", r.only_in_head, hints, hinted));
    if (!r.only_in_head.empty())
        lines.push_back(name_list("head", r.only_in_head, "base", r.only_in_base, hints, hinted));
    if (hinted) {
        lines.push_back(
            {{"a benchmark renamed in head is paired by --rename='REGEX=REPLACEMENT', which rewrites head's "
              "names (docs/compare.md, \"Renamed benchmarks\")"}});
    }
    return lines;
}

namespace {

// Whether two peaks differ by more than the allocator's choice of blocks can make them
// (model/change.hpp, peaks_differ).
bool peaks_differ(const std::optional<std::int64_t>& a, const std::optional<std::int64_t>& b) {
    return a && b && tare::peaks_differ(static_cast<double>(*a), static_cast<double>(*b));
}

}  // namespace

// The whole comparison in one line, first, so a pull request's reader sees it before the table:
// "2 faster, 1 slower, 9 no change; memory: 3 rows changed". A row's memory changed when a
// figure both sides measured differs: allocations or bytes (counts of what the code asked for,
// exact on each side), or the peak beyond the allocator's slack (peaks_differ).
line compare_summary_line(const compare_results& r) {
    std::size_t faster = 0, slower = 0, same = 0, unjudged = 0, failed = 0, memory = 0;
    for (const compare_row& row : r.rows) {
        if (row.verdict == verdict::error) {
            ++failed;
            continue;
        }
        if (row.unjudged) {
            ++unjudged;
        } else if (row.verdict == verdict::faster) {
            ++faster;
        } else if (row.verdict == verdict::slower) {
            ++slower;
        } else {
            ++same;
        }
        const auto differs = [](const auto& a, const auto& b) { return a && b && *a != *b; };
        if (differs(row.base.allocs_per_iter, row.head.allocs_per_iter) ||
            differs(row.base.bytes_per_iter, row.head.bytes_per_iter) ||
            peaks_differ(row.base.peak_live_bytes, row.head.peak_live_bytes)) {
            ++memory;
        }
    }
    std::string time =
        r.mode == pairing::counted
            ? fmt::format("{} with fewer instructions, {} with more, {} no change", faster, slower, same)
            : fmt::format("{} faster, {} slower, {} no change", faster, slower, same);
    if (unjudged > 0) {
        time += fmt::format(", {} not judged", unjudged);
    }
    if (failed > 0) {
        time += fmt::format(", {} failed", failed);
    }
    return {{time, style::strong},
            {fmt::format("; memory: {} row{} changed", memory, memory == 1 ? "" : "s")}};
}

}  // namespace tare::report::detail
