#include "compare/merge.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "compare/aggregate.hpp"

namespace tare::compare {

namespace {

std::string suite_of(const run_context& c) {
    return std::filesystem::path(c.executable).filename().string();
}

const char* mode_name(pairing p) {
    switch (p) {
    case pairing::rounds:
        return "rounds";
    case pairing::process_rounds:
        return "process_rounds";
    case pairing::unpaired:
        return "unpaired";
    case pairing::counted:
        return "counted";
    case pairing::processes:
        break;
    }
    return "processes";
}

// The rule a comparison's verdicts were judged under; shards judged under different ones
// cannot be one family.
std::string rule_of(const compare_results& r) {
    return std::string("alpha ") + std::to_string(r.alpha) + ", " +
           (r.family == family_control::fdr ? "false discovery rate" : "family-wise error") + ", threshold " +
           std::to_string(r.threshold_pct) + " %";
}

// A change whose interval has width but not what it is made of: written without log_se and df.
bool cannot_relevel(const compare_row& row) {
    const auto& c = row.change;
    return c && !row.unjudged && c->interval_pct && c->interval_pct->low < c->interval_pct->high &&
           !(c->log_se > 0 && c->df > 0);
}

// Names seen so far in the merged rows, and the file each came from. The keys view the names of
// the rows already moved into the merged vector, which is reserved for every row first and so
// never moves them: a map of string copies would hold every name twice.
using owners = std::unordered_map<std::string_view, const std::string*>;

// Moves `rows` (of the file `path`) to the end of `out`, then releases their storage, so that a
// shard's rows and the merged ones are not both whole in memory; the first name already taken
// is an error naming both files.
template <class Row>
std::optional<std::string> take_rows(std::vector<Row>& rows, const std::string& path, std::vector<Row>& out,
                                     owners& owner, std::string_view what) {
    for (Row& row : rows) {
        out.push_back(std::move(row));
        const std::string& name = out.back().name;
        if (const auto [it, fresh] = owner.emplace(name, &path); !fresh) {
            return "benchmark " + name + " is in " + *it->second + " and in " + path + std::string(what);
        }
    }
    std::vector<Row>().swap(rows);
    return std::nullopt;
}

}  // namespace

std::variant<run_results, std::string> merge_results(std::vector<merge_input> inputs) {
    if (inputs.size() < 2) {
        return std::string("tare merge needs at least two results files");
    }
    const merge_input& first = inputs.front();
    for (const merge_input& in : inputs) {
        if (in.results.context.tare_version != first.results.context.tare_version) {
            return in.path + " was written by tare " + in.results.context.tare_version + ", " + first.path +
                   " by tare " + first.results.context.tare_version +
                   ": record every shard with one version of tare";
        }
        if (suite_of(in.results.context) != suite_of(first.results.context)) {
            return in.path + " holds results of " + suite_of(in.results.context) + ", " + first.path +
                   " of " + suite_of(first.results.context) +
                   ": merge joins the shards of one suite (run several suites into one file with `tare run A "
                   "B`)";
        }
    }
    run_results out;
    out.context = first.results.context;
    out.context.merged_from.clear();
    std::size_t total = 0;
    for (const merge_input& in : inputs)
        total += in.results.benchmarks.size();
    out.benchmarks.reserve(total);
    owners owner;
    owner.reserve(total);
    std::map<std::string, const std::string*> group_owner;  // comparison name and member -> file
    for (merge_input& in : inputs) {
        run_context own = in.results.context;
        if (own.merged_from.empty()) {
            out.context.merged_from.push_back(own);
        } else {  // a merged file: its inputs, so merging in steps keeps every shard's context
            out.context.merged_from.insert(out.context.merged_from.end(), own.merged_from.begin(),
                                           own.merged_from.end());
            own.merged_from.clear();
        }
        out.context.interrupted = out.context.interrupted || own.interrupted;
        out.context.accounting = out.context.accounting && own.accounting;
        if (out.context.gbench_memory != own.gbench_memory) {
            out.context.gbench_memory = "mixed";
        }
        if (auto e = take_rows(in.results.benchmarks, in.path, out.benchmarks, owner,
                               ": shards are disjoint, so these are two runs of one shard (or of different "
                               "suites)")) {
            return *e;
        }
        for (variant_comparison& c : in.results.comparisons) {
            auto [it, fresh] = group_owner.emplace(c.name + "\n" + c.member, &in.path);
            if (!fresh) {
                return "comparison " + c.name + " (" + c.member + ") is in " + *it->second + " and in " +
                       in.path;
            }
            out.comparisons.push_back(std::move(c));
        }
    }
    return out;
}

std::variant<compare_results, std::string> merge_comparisons(std::vector<compare_merge_input> inputs) {
    if (inputs.size() < 2) {
        return std::string("tare merge needs at least two comparison files");
    }
    const compare_merge_input& first = inputs.front();
    for (const compare_merge_input& in : inputs) {
        if (in.results.tare_version != first.results.tare_version) {
            return in.path + " was written by tare " + in.results.tare_version + ", " + first.path +
                   " by tare " + first.results.tare_version +
                   ": compare every shard with one version of tare";
        }
        if (in.results.mode != first.results.mode) {
            return in.path + " is a comparison in mode " + mode_name(in.results.mode) + ", " + first.path +
                   " in mode " + mode_name(first.results.mode) +
                   ": merge joins the shards of one comparison, run alike";
        }
        if (rule_of(in.results) != rule_of(first.results)) {
            return in.path + " was judged with " + rule_of(in.results) + ", " + first.path + " with " +
                   rule_of(first.results) + ": give every shard the same --family and --threshold";
        }
        for (const compare_row& row : in.results.rows) {
            if (cannot_relevel(row)) {
                return in.path + ": row " + row.name +
                       " has an interval but not its log_se and df, so it cannot be judged again with the "
                       "other shards' rows: compare it again with this version of tare";
            }
        }
    }
    // The first file's context, without a copy of its rows: they are taken out while it is copied.
    std::vector<compare_row> first_rows = std::move(inputs.front().results.rows);
    compare_results out = inputs.front().results;
    inputs.front().results.rows = std::move(first_rows);
    out.rows.clear();
    out.only_in_base.clear();
    out.only_in_head.clear();
    std::size_t total = 0;
    for (const compare_merge_input& in : inputs)
        total += in.results.rows.size();
    out.rows.reserve(total);
    owners owner;
    owner.reserve(total);
    for (compare_merge_input& in : inputs) {
        out.rounds = std::max(out.rounds, in.results.rounds);
        out.interrupted = out.interrupted || in.results.interrupted;
        // A shard whose sides differed makes the whole comparison one of mixed instrumentation.
        for (const warning& d : in.results.mixed_instrumentation) {
            if (std::none_of(out.mixed_instrumentation.begin(), out.mixed_instrumentation.end(),
                             [&](const warning& m) { return m.kind == d.kind; })) {
                out.mixed_instrumentation.push_back(d);
            }
        }
        out.mixed_instrumentation_allowed =
            out.mixed_instrumentation_allowed && in.results.mixed_instrumentation_allowed;
        if (auto e = take_rows(in.results.rows, in.path, out.rows, owner,
                               ": shards are disjoint, so these are two comparisons of one shard (or of "
                               "different suites)")) {
            return *e;
        }
        out.only_in_base.insert(out.only_in_base.end(), in.results.only_in_base.begin(),
                                in.results.only_in_base.end());
        out.only_in_head.insert(out.only_in_head.end(), in.results.only_in_head.begin(),
                                in.results.only_in_head.end());
    }
    verdict_options options;
    options.alpha = first.results.alpha;
    options.family = first.results.family;
    options.threshold_pct = first.results.threshold_pct;
    if (out.mode != pairing::counted) {  // counts are exact: their verdicts stand as they are
        judge_stored(out, options);
    } else {
        out.comparisons = 0;
        out.selected = 0;
        for (const compare_row& row : out.rows) {
            out.comparisons += row.change ? 1U : 0U;
            out.selected += row.change && row.verdict != verdict::no_change ? 1U : 0U;
        }
    }
    return out;
}

}  // namespace tare::compare
