#include "core/runner.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <regex>
#include <set>
#include <string_view>

#include "alloc/accounting.hpp"
#include "core/alloc_sites.hpp"
#include "core/metrics.hpp"
#include "os/os.hpp"
#include "tare/version.hpp"

namespace tare::core {

struct name_filter::compiled {
    std::regex re;
};

namespace {

// libstdc++'s std::regex compiles and matches by recursion, one frame per group level and per
// state, and expands a counted repetition into copies of its atom: 50,000 nested groups
// overflowed the stack, and a{1000}{1000} would be a million states. A filter names benchmarks,
// so bounds far past any real one cost nothing. Its compiler also reads a back-reference's digits
// into a long without an overflow check (undefined behaviour past 19 digits), and a pattern of at
// most 1000 characters has fewer than 1000 groups to refer to. Rejected: RE2 (a dependency of the
// library users link, for input they type themselves) and a regex engine of tare's own.
constexpr std::size_t max_pattern = 1000;
constexpr std::size_t max_backref_digits = 3;
constexpr int max_depth = 16;
constexpr double max_copies = 10000;

std::optional<std::string> beyond_bounds(const std::string& pattern) {
    if (pattern.size() > max_pattern)
        return "longer than " + std::to_string(max_pattern) + " characters";
    int depth = 0;
    double copies = 1;
    bool in_class = false;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c == '\\') {
            // An escaped character is an atom, whatever it is; \1 to \9 start a back-reference.
            std::size_t digits = 0;
            while (i + 1 + digits < pattern.size() && pattern[i + 1 + digits] >= '0' &&
                   pattern[i + 1 + digits] <= '9' && (digits > 0 || pattern[i + 1] != '0'))
                ++digits;
            if (digits > max_backref_digits)
                return "a back-reference (\\N) of more than " + std::to_string(max_backref_digits) +
                       " digits";
            i += std::max<std::size_t>(digits, 1);
        } else if (in_class) {
            in_class = c != ']';
        } else if (c == '[') {
            in_class = true;
        } else if (c == '(') {
            if (++depth > max_depth)
                return "groups nested deeper than " + std::to_string(max_depth);
        } else if (c == ')') {
            depth = std::max(depth - 1, 0);
        } else if (c == '{') {
            // {n}, {n,} or {n,m}: the larger bound is how many copies the atom becomes.
            double bound = 0;
            double n = 0;
            std::size_t j = i + 1;
            for (; j < pattern.size() && pattern[j] != '}'; ++j) {
                if (pattern[j] >= '0' && pattern[j] <= '9') {
                    n = std::min(n * 10 + (pattern[j] - '0'), 1e9);
                } else {
                    bound = std::max(bound, n);
                    n = 0;
                }
            }
            copies *= std::max({bound, n, 1.0});
            if (copies > max_copies)
                return "counted repetitions ({n}) that expand past " +
                       std::to_string(static_cast<int>(max_copies)) + " copies";
            i = j;
        }
    }
    return std::nullopt;
}

// libstdc++'s depth-first matcher backtracks, and a counted repetition of a group that can match
// in several ways ((|a|b){300}t) takes exponential time even on an empty name. Its breadth-first
// matcher (the __polynomial extension) takes time polynomial in the name and the pattern, and
// refuses back-references, the one feature it lacks. Rejected: a timeout around the match (no
// std::regex call can be interrupted) and tighter bounds (an ambiguous (a?){30}a{30} stays
// exponential within any bound a real filter would pass).
#if defined(__GLIBCXX__)
constexpr auto syntax = std::regex::ECMAScript | std::regex_constants::__polynomial;
#else
constexpr auto syntax = std::regex::ECMAScript;
#endif

std::string quoted_pattern(const std::string& pattern) {
    return "'" + (pattern.size() > 60
                      ? pattern.substr(0, 60) + "...' (" + std::to_string(pattern.size()) + " characters)"
                      : pattern + "'");
}

}  // namespace

std::variant<name_filter, std::string> name_filter::parse(const std::string& pattern) {
    if (auto why = beyond_bounds(pattern))
        return quoted_pattern(pattern) + " is beyond what a filter may be: " + *why;
    name_filter f;
    try {
        f.compiled_ = std::make_shared<const compiled>(compiled{std::regex(pattern, syntax)});
    } catch (const std::regex_error& e) {
        return quoted_pattern(pattern) + " is not a valid regular expression: " + e.what();
    }
    return f;
}

bool name_filter::matches(const std::string& name) const {
    return !compiled_ || std::regex_search(name, compiled_->re);
}

std::string name_filter::replaced(const std::string& name, const std::string& replacement) const {
    return compiled_ ? std::regex_replace(name, compiled_->re, replacement) : name;
}

std::vector<instance> expand(const std::vector<benchmark*>& benchmarks) {
    std::vector<instance> out;
    for (const benchmark* b : benchmarks) {
        if (b->arg_sets().empty()) {
            out.push_back({b->name(), b, {}});
            continue;
        }
        for (const auto& set : b->arg_sets()) {
            std::string name = b->name();
            for (std::int64_t a : set) {
                name += "/" + std::to_string(a);
            }
            out.push_back({std::move(name), b, set});
        }
    }
    return out;
}

namespace {

// The name as C would write it: control characters escaped, so the message shows them.
std::string escaped(const std::string& name) {
    std::string out = "\"";
    for (const char ch : name) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c < 0x20 || c == 0x7f) {
            static constexpr char hex[] = "0123456789abcdef";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += ch;
        }
    }
    return out + "\"";
}

}  // namespace

std::string check_names(const std::vector<instance>& all) {
    std::set<std::string_view> seen;
    for (const instance& i : all) {
        const std::string& n = i.name;
        if (n.empty())
            return "a benchmark is registered with an empty name";
        for (const char ch : n) {
            const auto c = static_cast<unsigned char>(ch);
            if (c < 0x20 || c == 0x7f)
                return "benchmark name " + escaped(n) + " holds a control character: names are printed, " +
                       "matched and sent to workers one a line";
        }
        if (n.front() == ' ' || n.back() == ' ')
            return "benchmark name " + escaped(n) + " begins or ends with a space";
        if (!seen.insert(n).second)
            return "benchmark name " + escaped(n) +
                   " is registered twice: each instance needs a name of its own";
    }
    return {};
}

std::vector<instance> select(const std::vector<instance>& all, const name_filter& filter) {
    std::vector<instance> out;
    for (const instance& i : all) {
        if (filter.matches(i.name)) {
            out.push_back(i);
        }
    }
    return out;
}

benchmark_result run_instance(const instance& inst, clock_source& clock, region_probe& probe,
                              detail::sample_plan plan, double loop_overhead_ns,
                              detail::sample_controller* controller) {
    const benchmark& b = *inst.bench;
    plan = plan_for(b, plan);
    detail::sample_driver driver(clock, probe, plan);
    driver.set_controller(controller);
    detail::loop_outcome loop = driver.run(inst.name, inst.args, b.function());

    benchmark_result result;
    result.name = inst.name;
    result.counters = loop.counters;
    if (loop.error) {
        result.error = loop.error;
        return result;
    }
    derive_time(loop, result);
    derive_memory(loop, result);
    add_harness_warnings(loop.optimized_away, loop_overhead_ns, result);
    if (plan.alloc_sites && loop.accounting && controller == nullptr) {
        add_sites(loop.sites, plan.alloc_sites_top, result);
    }
    return result;
}

void add_sites(const detail::loop_outcome::sites_pass& pass, std::size_t top, benchmark_result& result) {
    os::symbolizer& symbols = process_symbolizer();
    tare::sites_pass s;
    s.iterations = pass.iterations;
    s.seconds = pass.elapsed_ns * 1e-9;
    s.allocations = pass.totals.allocs + pass.totals.dropped_allocs;
    s.dropped = pass.totals.dropped_allocs;
    s.source_lines = symbols.reads_debug_info();
    result.sites = s;
    site_summary summary = summarize_sites(pass.allocs, pass.frees, pass.iterations, top, symbols,
                                           {pass.growth, pass.iterations + pass.growth_iterations});
    result.sites->stacks = summary.stacks;
    result.alloc_sites = std::move(summary.alloc_sites);
    result.retained_sites = std::move(summary.retained_sites);
}

detail::sample_plan plan_for(const benchmark& b, detail::sample_plan plan) {
    if (b.min_time() > 0) {
        plan.budget_ns = b.min_time() * 1e9;
    }
    if (b.fixed_iterations() != 0) {
        plan.fixed_iterations = b.fixed_iterations();
    }
    if (b.fixed_samples() != 0) {
        plan.fixed_samples = b.fixed_samples();
    }
    if (b.input_chunk() != 0) {
        plan.input_chunk = b.input_chunk();
    }
    return plan;
}

void add_harness_warnings(bool optimized_away, double loop_overhead_ns, benchmark_result& result) {
    if (optimized_away) {
        result.warnings.push_back(
            {"optimized_away",
             "the time per iteration did not grow with the iteration count: the compiler removed "
             "the body's work. Keep its results alive with tare::do_not_optimize(...)"});
    }
    // Nothing is subtracted: a body within a few times the harness's own cost per iteration
    // is reported as measured, with this warning, so nobody reads harness as code.
    if (loop_overhead_ns > 0 && result.time.mean < 5 * loop_overhead_ns) {
        char buf[256];
        std::snprintf(buf, sizeof buf,
                      "%.2f ns per iteration is within 5x of the harness's own loop cost (%.2f ns per "
                      "iteration); the figure is mostly harness, not body",
                      result.time.mean, loop_overhead_ns);
        result.warnings.push_back({"near_overhead", buf});
    }
}

run_context make_context(double clock_overhead_ns, double loop_overhead_ns, bool accounting) {
    run_context c;
    c.tare_version = TARE_VERSION_STRING;
    c.executable = os::executable_path();
    c.host = os::host_name();
    c.date = os::utc_now_iso8601();
    c.cpu = os::cpu_model();
    c.num_cpus = os::cpu_count();
    c.clock_overhead_ns = clock_overhead_ns;
    c.loop_overhead_ns = loop_overhead_ns;
    c.accounting = accounting;
    if (accounting && !alloc::allocator_in_use().empty()) {
        c.allocator = alloc::allocator_in_use();
    }
    return c;
}

}  // namespace tare::core
