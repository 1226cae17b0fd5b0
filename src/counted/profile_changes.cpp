#include "counted/profile_changes.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

namespace tare::counted {

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

}  // namespace tare::counted
