#pragma once
// Which benchmark of head is which of base: the same name, after head's names are rewritten by
// `tare compare --rename` (docs/compare.md, "Renamed benchmarks"). Every way of comparing pairs
// through here: rounds of workers, Google Benchmark processes, results files and counted runs.

#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "core/runner.hpp"
#include "model/comparison.hpp"
#include "model/run.hpp"

namespace tare::compare {

/// The --rename rules, applied to each of head's names in the order given.
class head_renames {
public:
    /// Adds the rule REGEX=REPLACEMENT (split at the first '='; $1, $& in the replacement), or
    /// says why it cannot be used.
    std::optional<std::string> add(const std::string& rule);
    bool empty() const { return rules_.empty(); }
    /// Head's `name` as base calls it: every rule's matches replaced, in turn.
    std::string apply(const std::string& name) const;

private:
    std::vector<std::pair<core::name_filter, std::string>> rules_;
};

/// Two sides' names sorted: those on both (base's name, head's own), in base's order; those on
/// one side, in that side's order (head's by its own name).
struct name_pairs {
    std::vector<std::pair<std::string, std::string>> both;
    std::vector<std::string> only_in_base;
    std::vector<std::string> only_in_head;
};

/// Pairs base's names with head's renamed ones; or why not: two of head's names that become one
/// (a comparison that paired only the first would hide the other). Linear in the names.
std::variant<name_pairs, std::string> match_names(const std::vector<std::string>& base,
                                                  const std::vector<std::string>& head,
                                                  const head_renames& renames);

/// Renames head's results in place for a comparison that pairs by name (results files, counted
/// runs): the renamed names that differ from head's own, mapped to it; or why not, as
/// match_names says.
std::variant<std::unordered_map<std::string, std::string>, std::string> rename_results(
    run_results& head, const head_renames& renames);

/// After a comparison of renamed results: each renamed row's head_name, and only_in_head by
/// head's own names.
void restore_head_names(compare_results& r, const std::unordered_map<std::string, std::string>& own);

}  // namespace tare::compare
