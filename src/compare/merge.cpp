#include "compare/merge.hpp"

#include <filesystem>
#include <map>

namespace tare::compare {

namespace {

std::string suite_of(const run_context& c) {
    return std::filesystem::path(c.executable).filename().string();
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
    std::map<std::string, const std::string*> owner;        // benchmark name -> the file it came from
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
        for (benchmark_result& b : in.results.benchmarks) {
            auto [it, fresh] = owner.emplace(b.name, &in.path);
            if (!fresh) {
                return "benchmark " + b.name + " is in " + *it->second + " and in " + in.path +
                       ": shards are disjoint, so these are two runs of one shard (or of different suites)";
            }
            out.benchmarks.push_back(std::move(b));
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

}  // namespace tare::compare
