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

std::vector<function_change> changed_functions(const instruction_profile& base,
                                               const instruction_profile& head, std::size_t top) {
    std::map<std::string, function_change> by_name;
    for (const function_cost& f : base.functions) {
        by_name[f.function] = {f.function, f.self, 0};
    }
    for (const function_cost& f : head.functions) {
        auto [it, added] = by_name.try_emplace(f.function, function_change{f.function, 0, 0});
        it->second.head = f.self;
    }
    std::vector<function_change> out;
    for (auto& [name, c] : by_name) {
        // Per iteration over each side's own iterations: equal counts give equal quotients, but
        // two sums of the same counts may differ in the last bit.
        if (std::abs(c.head - c.base) > 1e-9 * std::max(c.base, c.head)) {
            out.push_back(std::move(c));
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const function_change& a, const function_change& b) {
        return std::abs(a.head - a.base) > std::abs(b.head - b.base);
    });
    if (out.size() > top) {
        out.resize(top);
    }
    return out;
}

std::vector<allocation_change> changed_allocations(const benchmark_result& base, const benchmark_result& head,
                                                   std::size_t top) {
    if (!base.sites || !head.sites || failed(base) || failed(head)) {
        return {};
    }
    struct seen {
        allocation_change change;
        bool in_base = false;
        bool in_head = false;
    };
    std::map<std::string, seen> by_stack;
    const auto key = [](const alloc_site& s) {
        std::string k = std::to_string(s.thread);
        for (const stack_frame& f : s.stack) {
            k += '\n' + f.function;
        }
        return k;
    };
    // Each side's sites into the side's figures of its stack's entry.
    const auto note = [&](const benchmark_result& side, double allocation_change::*allocs,
                          double allocation_change::*bytes, bool seen::*in) {
        for (const alloc_site& s : side.alloc_sites) {
            seen& e = by_stack[key(s)];
            e.change.stack = s.stack;
            e.change.thread = s.thread;
            // Sites whose stacks name the same functions (two lines of one function) are one
            // entry: lines move between builds, functions stay.
            e.change.*allocs += s.allocs_per_iter;
            e.change.*bytes += s.bytes_per_iter;
            e.*in = true;
        }
    };
    note(base, &allocation_change::base_allocs, &allocation_change::base_bytes, &seen::in_base);
    note(head, &allocation_change::head_allocs, &allocation_change::head_bytes, &seen::in_head);
    // A side lists every stack when it found no allocation at all, or as many stacks as it lists.
    const auto complete = [](const benchmark_result& r) {
        return r.sites->allocations == 0 || (r.sites->stacks > 0 && r.alloc_sites.size() >= r.sites->stacks);
    };
    // Per-iteration figures of passes of different lengths: a stack that allocates every k-th
    // iteration reads a little differently over 16,000 iterations than over 16,384. A change is
    // more than two allocations (or two of its allocations' bytes) over the shorter pass.
    // (A side whose loop allocated nothing ran no pass: the other side's length counts.)
    const std::uint64_t in_base = base.sites->iterations;
    const std::uint64_t in_head = head.sites->iterations;
    const std::uint64_t passes = in_base == 0 ? in_head : in_head == 0 ? in_base : std::min(in_base, in_head);
    const auto shorter = static_cast<double>(std::max<std::uint64_t>(passes, 1));
    const auto differ = [&](const allocation_change& c) {
        const double size = std::max(c.base_allocs > 0 ? c.base_bytes / c.base_allocs : 0.0,
                                     c.head_allocs > 0 ? c.head_bytes / c.head_allocs : 0.0);
        return std::abs(c.head_allocs - c.base_allocs) * shorter > 2 ||
               std::abs(c.head_bytes - c.base_bytes) * shorter > 2 * std::max(size, 1.0);
    };
    std::vector<allocation_change> out;
    for (auto& [k, e] : by_stack) {
        if ((!e.in_base && !complete(base)) || (!e.in_head && !complete(head))) {
            continue;
        }
        if (differ(e.change)) {
            out.push_back(e.change);
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const allocation_change& a, const allocation_change& b) {
        const double da = std::abs(a.head_allocs - a.base_allocs);
        const double db = std::abs(b.head_allocs - b.base_allocs);
        return da != db ? da > db
                        : std::abs(a.head_bytes - a.base_bytes) > std::abs(b.head_bytes - b.base_bytes);
    });
    if (out.size() > top) {
        out.resize(top);
    }
    return out;
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
