#include "instrument/profile.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tare::instrument {

namespace {

// The frames above the benchmark's body: the program's entry, tare's harness and the invokers
// between it and the body, Google Benchmark's runner, and addresses Callgrind found no symbol
// for (the lazy-binding stubs between them).
bool harness(std::string_view f) {
    return f.starts_with("tare::") || f.starts_with("benchmark::") || f == "main" || f == "(below main)" ||
           f.starts_with("__libc_start") || f == "_start" || f.starts_with("std::_Function_handler") ||
           f.starts_with("std::function") || f.starts_with("std::__invoke") || f.starts_with("0x");
}

class expander {
public:
    expander(const callgrind_graph& g, const profile_limits& limits)
        : g_(g), limits_(limits), callees_(g.functions.size()), on_path_(g.functions.size() + 1, false) {
        for (const callgrind_call& c : g.calls) {
            if (c.caller != c.callee && c.cost > 0) {  // a self-call's cost is in the caller's already
                callees_[c.caller].emplace_back(c.callee, c.cost);
            }
        }
    }

    // Every function no other one called with a cost: the program's entry, and a thread's.
    std::vector<std::uint32_t> roots() const {
        std::vector<bool> called(g_.functions.size(), false);
        for (const auto& list : callees_) {
            for (const auto& [callee, cost] : list) {
                called[callee] = true;
            }
        }
        std::vector<std::uint32_t> out;
        for (std::uint32_t f = 0; f < g_.functions.size(); ++f) {
            if (!called[f] && (g_.self[f] > 0 || !callees_[f].empty())) {
                out.push_back(f);
            }
        }
        return out;
    }

    void expand_root(std::uint32_t f, double floor) {
        floor_ = floor;
        expand(f, spend(f));
    }

    // A function's cost on a stack where it is not on the stack already: its own and its calls
    // to functions not on the stack (those are folded into the level already expanded).
    double spend(std::uint32_t f) const {
        double s = static_cast<double>(g_.self[f]);
        for (const auto& [callee, cost] : callees_[f]) {
            if (!on_path_[callee]) {
                s += static_cast<double>(cost);
            }
        }
        return s;
    }

    std::map<std::vector<std::uint32_t>, double>& stacks() { return stacks_; }

    std::uint32_t gathered_frame() const { return static_cast<std::uint32_t>(g_.functions.size()); }

private:
    void expand(std::uint32_t f, double weight) {
        path_.push_back(f);
        on_path_[f] = true;
        const double total = spend(f);
        if (total <= 0) {
            add(weight);
        } else {
            add(weight * static_cast<double>(g_.self[f]) / total);
            double gathered = 0;
            for (const auto& [callee, cost] : callees_[f]) {
                if (on_path_[callee]) {
                    continue;
                }
                const double w = weight * static_cast<double>(cost) / total;
                if (w < floor_ || path_.size() >= limits_.max_depth) {
                    gathered += w;
                } else {
                    expand(callee, w);
                }
            }
            if (gathered > 0) {
                path_.push_back(gathered_frame());
                add(gathered);
                path_.pop_back();
            }
        }
        on_path_[f] = false;
        path_.pop_back();
    }

    void add(double weight) {
        if (weight > 0) {
            stacks_[path_] += weight;
        }
    }

    const callgrind_graph& g_;
    const profile_limits& limits_;
    std::vector<std::vector<std::pair<std::uint32_t, std::uint64_t>>> callees_;
    std::vector<bool> on_path_;  // one more than the functions: the gathered frame
    std::vector<std::uint32_t> path_;
    double floor_ = 0;
    std::map<std::vector<std::uint32_t>, double> stacks_;
};

// The frames the profile names, each once, in the order first used.
class frame_table {
public:
    std::uint32_t index(const std::string& name) {
        auto [it, added] = index_.try_emplace(name, static_cast<std::uint32_t>(names_.size()));
        if (added) {
            names_.push_back(name);
        }
        return it->second;
    }
    std::vector<std::string> take() { return std::move(names_); }

private:
    std::unordered_map<std::string, std::uint32_t> index_;
    std::vector<std::string> names_;
};

std::vector<function_cost> by_self(const callgrind_graph& g, double per, std::size_t top) {
    std::map<std::string, std::uint64_t> self;
    for (std::size_t f = 0; f < g.functions.size(); ++f) {
        if (g.self[f] > 0) {
            self[profile_function_name(g.functions[f])] += g.self[f];
        }
    }
    std::vector<function_cost> out;
    out.reserve(self.size());
    for (const auto& [name, cost] : self) {
        out.push_back({name, static_cast<double>(cost) / per});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const function_cost& a, const function_cost& b) { return a.self > b.self; });
    if (out.size() > top) {
        out.resize(top);
    }
    return out;
}

}  // namespace

std::string profile_function_name(const std::string& callgrind_name) {
    const std::size_t tick = callgrind_name.rfind('\'');
    if (tick == std::string::npos || tick + 1 == callgrind_name.size()) {
        return callgrind_name;
    }
    for (std::size_t i = tick + 1; i < callgrind_name.size(); ++i) {
        if (callgrind_name[i] < '0' || callgrind_name[i] > '9') {
            return callgrind_name;
        }
    }
    return callgrind_name.substr(0, tick);
}

instruction_profile region_profile(const callgrind_graph& g, std::uint64_t iterations,
                                   const profile_limits& limits) {
    const double per = static_cast<double>(std::max<std::uint64_t>(iterations, 1));
    instruction_profile out;
    out.functions = by_self(g, per, limits.max_functions);

    expander e(g, limits);
    const std::vector<std::uint32_t> roots = e.roots();
    double region = 0;
    for (std::uint32_t r : roots) {
        region += e.spend(r);
    }
    for (std::uint32_t r : roots) {
        e.expand_root(r, region * limits.min_share);
    }

    // Named, cut below the harness, and merged where two stacks meet below it.
    frame_table frames;
    std::map<std::vector<std::uint32_t>, double> merged;
    for (const auto& [path, weight] : e.stacks()) {
        std::size_t cut = 0;
        while (cut + 1 < path.size() && path[cut] != e.gathered_frame() && harness(g.functions[path[cut]])) {
            ++cut;
        }
        std::vector<std::uint32_t> named;
        named.reserve(path.size() - cut);
        for (std::size_t i = cut; i < path.size(); ++i) {
            named.push_back(frames.index(path[i] == e.gathered_frame()
                                             ? std::string(smaller_callees)
                                             : profile_function_name(g.functions[path[i]])));
        }
        merged[named] += weight;
    }
    out.frames = frames.take();
    out.stacks.reserve(merged.size());
    for (auto& [named, weight] : merged) {
        out.stacks.push_back({named, weight / per});
    }
    return out;
}

}  // namespace tare::instrument
