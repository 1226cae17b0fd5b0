#pragma once
/// \file
/// Comparison groups: benchmarks declared as variants of one another, run interleaved and
/// reported against the first of them (docs/variants.md).

#include <string>
#include <string_view>
#include <vector>

#include "tare/macros.hpp"

namespace tare {

/// A declared comparison group: `members` are registered benchmark names, the first is the
/// baseline every other member is compared with.
struct variant_group {
    std::string name;
    std::vector<std::string> members;
};

/// Declares the registered benchmarks named in `members` variants of one another, under the
/// group name `group`. The first member is the baseline. The executable then runs the members
/// interleaved (balanced order, the same iterations per sample for all) and reports, besides
/// their ordinary rows, each other member's time as a change against the baseline with a 95 %
/// interval and a verdict (faster, slower, no_change), and both members' memory figures.
///
/// Instances pair by argument list: members need the same `->arg`/`->args` lists, and the
/// comparison of the instances with arguments 64 is named "group/64". The members are looked
/// up when the executable starts, so they may be registered before or after the group, in any
/// translation unit; an unknown member, a benchmark in two groups or members with different
/// argument lists make the executable print an `error:` line and exit 2.
///
///     TARE_BENCHMARK(ctx_reused)->arg(64);
///     TARE_BENCHMARK(ctx_fresh)->arg(64);
///     TARE_VARIANTS("contexts", ctx_reused, ctx_fresh);  // first = baseline
///
///     // the same without macros:
///     tare::register_variants("contexts", {"ctx_reused", "ctx_fresh"});
void register_variants(std::string group, std::vector<std::string> members);

/// Every declared group, in declaration order, as declared (not yet checked).
const std::vector<variant_group>& registered_variant_groups();

namespace detail {

/// "a, b,c" -> {"a", "b", "c"}: the member list of TARE_VARIANTS, stringified.
std::vector<std::string> split_member_names(std::string_view names);

/// TARE_VARIANTS's registration. Taking the members themselves (not only their spelling) makes a
/// misspelt member a compile error rather than a start-up one.
template <class... Fn>
int register_variants_from_macro(const char* group, const char* names, const Fn&... /*members*/) {
    static_assert(sizeof...(Fn) >= 2, "TARE_VARIANTS needs a baseline and at least one other member");
    register_variants(group, split_member_names(names));
    return 0;
}

}  // namespace detail

}  // namespace tare

/// Declares the functions registered with TARE_BENCHMARK(fn) variants of one another, under the
/// name `group` (a string); the first member is the baseline. See tare::register_variants.
#define TARE_VARIANTS(group, ...)                                                    \
    [[maybe_unused]] static const int TARE_DETAIL_CONCAT(tare_variants_, __LINE__) = \
        ::tare::detail::register_variants_from_macro(group, #__VA_ARGS__, __VA_ARGS__)
