#include "compare/pairing.hpp"

#include <string_view>

namespace tare::compare {

std::optional<std::string> head_renames::add(const std::string& rule) {
    const std::size_t eq = rule.find('=');
    if (eq == std::string::npos || eq == 0) {
        return "--rename='" + rule +
               "': expected REGEX=REPLACEMENT, like --rename='/0$=' or --rename='^BM_old=BM_new'";
    }
    // The regex goes through the filter's parser: the same bounds on its size and nesting, and
    // the same polynomial matcher, hold for a rename (core/runner.cpp).
    auto parsed = core::name_filter::parse(rule.substr(0, eq));
    if (auto* why = std::get_if<std::string>(&parsed)) {
        return "--rename: " + *why;
    }
    rules_.emplace_back(std::move(std::get<core::name_filter>(parsed)), rule.substr(eq + 1));
    return std::nullopt;
}

std::string head_renames::apply(const std::string& name) const {
    std::string out = name;
    for (const auto& [pattern, replacement] : rules_) {
        out = pattern.replaced(out, replacement);
    }
    return out;
}

namespace {

// Two of head's names that the rules make one: the message a user fixes the rules by.
std::string collision(const std::string& first, const std::string& second, const std::string& as) {
    return "--rename makes two of head's benchmarks one, so neither could be paired: '" + first + "' and '" +
           second + "' both become '" + as + "'";
}

}  // namespace

std::variant<name_pairs, std::string> match_names(const std::vector<std::string>& base,
                                                  const std::vector<std::string>& head,
                                                  const head_renames& renames) {
    // Head's names by the name base would call them: pairing is then linear in the names.
    // Rejected: a scan of head for every base name, quadratic (1M rows took minutes).
    std::unordered_map<std::string, std::string> head_as;
    head_as.reserve(head.size());
    for (const std::string& h : head) {
        std::string as = renames.apply(h);
        auto [it, fresh] = head_as.emplace(as, h);
        if (!fresh && it->second != h) {
            return collision(it->second, h, it->first);
        }
    }
    name_pairs out;
    std::unordered_map<std::string_view, bool> paired;  // base's names that found a partner
    paired.reserve(base.size());
    for (const std::string& b : base) {
        auto it = head_as.find(b);
        if (it == head_as.end()) {
            out.only_in_base.push_back(b);
        } else if (paired.emplace(b, true).second) {
            out.both.emplace_back(b, it->second);
        }
    }
    for (const std::string& h : head) {
        if (paired.find(renames.apply(h)) == paired.end()) {
            out.only_in_head.push_back(h);
        }
    }
    return out;
}

std::variant<std::unordered_map<std::string, std::string>, std::string> rename_results(
    run_results& head, const head_renames& renames) {
    std::unordered_map<std::string, std::string> own;  // renamed -> head's own, where they differ
    if (renames.empty()) {
        return own;
    }
    std::unordered_map<std::string, std::string> seen;  // every final name -> head's own
    seen.reserve(head.benchmarks.size());
    for (benchmark_result& b : head.benchmarks) {
        std::string as = renames.apply(b.name);
        auto [it, fresh] = seen.emplace(as, b.name);
        if (!fresh && it->second != b.name) {
            return collision(it->second, b.name, as);
        }
        if (as != b.name) {
            own.emplace(as, b.name);
            b.name = std::move(as);
        }
    }
    return own;
}

void restore_head_names(compare_results& r, const std::unordered_map<std::string, std::string>& own) {
    if (own.empty()) {
        return;
    }
    for (compare_row& row : r.rows) {
        if (auto it = own.find(row.name); it != own.end()) {
            row.head_name = it->second;
        }
    }
    for (std::string& name : r.only_in_head) {
        if (auto it = own.find(name); it != own.end()) {
            name = it->second;
        }
    }
}

}  // namespace tare::compare
