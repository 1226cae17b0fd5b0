// src/instrument: Callgrind's call graph read from a dump, and the region's instruction profile
// made of it. The profile of a real counted run is checked in test/integration/profile_test.cpp.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <tuple>
#include <variant>

#include "instrument/callgrind_graph.hpp"
#include "instrument/profile.hpp"

namespace tare::instrument {
namespace {

callgrind_graph graph_of(const std::string& text) {
    auto r = parse_callgrind_graph(text, "cg.out.2");
    if (auto* e = std::get_if<io::read_error>(&r)) {
        ADD_FAILURE() << e->message;
        return {};
    }
    return std::get<callgrind_graph>(std::move(r));
}

std::string graph_error_of(const std::string& text) {
    auto r = parse_callgrind_graph(text, "cg.out.2");
    if (auto* e = std::get_if<io::read_error>(&r)) {
        return e->message;
    }
    return "parsed";
}

std::uint64_t self_of(const callgrind_graph& g, const std::string& name) {
    for (std::size_t i = 0; i < g.functions.size(); ++i) {
        if (g.functions[i] == name) {
            return g.self[i];
        }
    }
    ADD_FAILURE() << "no function " << name;
    return 0;
}

// caller -> callee: {calls, cost}
std::map<std::pair<std::string, std::string>, std::pair<std::uint64_t, std::uint64_t>> calls_of(
    const callgrind_graph& g) {
    std::map<std::pair<std::string, std::string>, std::pair<std::uint64_t, std::uint64_t>> out;
    for (const callgrind_call& c : g.calls) {
        out[{g.functions[c.caller], g.functions[c.callee]}] = {c.calls, c.cost};
    }
    return out;
}

// The shape Callgrind 3.19 writes with --cache-sim=yes --dump-line=no, Ir second here to check
// that the event is found by name: compressed names defined once and used again, a call's cost
// line after its "calls=", files switched inside a function, trailing zero costs left out.
constexpr const char* graph_dump = R"(# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 19938
cmd:  ./bench
part: 2

desc: Trigger: Client Request: measured

positions: line
events: Dr Ir Dw
summary: 3052 13219 2083

ob=(8) ./bench
fl=(161) ???
fn=(1062) (below main)
cob=(3) /usr/lib/x86_64-linux-gnu/libc.so.6
cfi=(162) ./csu/../csu/libc-start.c
cfn=(1064) __libc_start_main@@GLIBC_2.34
calls=1 242
0 3052 13219 2083

fl=(167) ./bench.cpp
fn=(1146) work(int)
0 1001 6005 1000
fi=(182) /usr/include/c++/12/bits/std_thread.h
+3 1 14
fe=(167)
* 0 1

fn=(1064)
cfn=(1146)
calls=3 0
0 1002 6020 1000
cfn=(1146)
calls=2 0
0 10 100

# a comment
fn=work(int)
-2 0 5
totals: 3052 13219 2083
)";

TEST(callgrind_graph, reads_self_costs_and_calls_of_the_event_named) {
    const callgrind_graph g = graph_of(graph_dump);
    EXPECT_EQ(g.total, 13219u);
    EXPECT_EQ(self_of(g, "work(int)"), 6005u + 14 + 1 + 5);
    EXPECT_EQ(self_of(g, "(below main)"), 0u);
    EXPECT_EQ(self_of(g, "__libc_start_main@@GLIBC_2.34"), 0u);
    const auto calls = calls_of(g);
    ASSERT_EQ(calls.size(), 2u);
    EXPECT_EQ(calls.at({"(below main)", "__libc_start_main@@GLIBC_2.34"}),
              std::make_pair(std::uint64_t{1}, std::uint64_t{13219}));
    // Two "calls=" lines of one caller and callee are one call of their sums.
    EXPECT_EQ(calls.at({"__libc_start_main@@GLIBC_2.34", "work(int)"}),
              std::make_pair(std::uint64_t{5}, std::uint64_t{6120}));
}

TEST(callgrind_graph, reads_two_position_columns_in_any_form) {
    const callgrind_graph g = graph_of(R"(positions: instr line
events: Ir
summary: 60
fn=(1) f
0x401000 12 10
+4 * 20
-2 -1 30
)");
    EXPECT_EQ(self_of(g, "f"), 60u);
}

// With --collect-jumps (a ~/.valgrindrc may ask for it), jumps name their targets' files and
// functions; a name defined there is used later, and the jump's source line has no cost.
TEST(callgrind_graph, reads_past_jumps_and_the_names_they_define) {
    const callgrind_graph g = graph_of(R"(events: Ir
summary: 12
fn=(1) f
0 5
jfi=(3) other.c
jfn=(9) target()
jump=2 +3
+1
fn=(9)
0 7
)");
    EXPECT_EQ(self_of(g, "f"), 5u);
    EXPECT_EQ(self_of(g, "target()"), 7u);
}

TEST(callgrind_graph, names_the_line_and_column_of_what_it_cannot_read) {
    EXPECT_EQ(graph_error_of("events: Ir\nsummary: 1\nfn=(4)\n"),
              "cg.out.2:3:4: the name id (4) is used before it is defined");
    EXPECT_EQ(
        graph_error_of("events: Ir\nsummary: 1\nfn=(1) f\ncalls=1 0\n0 1\n"),
        "cg.out.2:4:1: \"calls=\" before the \"fn=\" and \"cfn=\" lines that name its caller and callee");
    EXPECT_EQ(graph_error_of("events: Ir\nsummary: 1\nfn=(1) f\n0 1 2\n"),
              "cg.out.2:4:5: more costs than the 1 events");
    EXPECT_EQ(graph_error_of("events: Ir\nsummary: 1\nfn=(1) f\n0 x\n"),
              "cg.out.2:4:3: \"x\" is not a count");
    EXPECT_EQ(graph_error_of("events: Ir\nsummary: 1\nfn=(1) f\nq1 2\n"),
              "cg.out.2:4:1: not a Callgrind line: \"q1 2\"");
    EXPECT_EQ(graph_error_of("events: Ir\nsummary: 1\nfn=(1) f\n0 18446744073709551615\n0 1\n"),
              "cg.out.2:5:1: a function's cost past 2^64");
    EXPECT_EQ(graph_error_of("events: Dr\nsummary: 1\n"), "cg.out.2:1:1: the dump does not count \"Ir\"");
    EXPECT_EQ(graph_error_of("events: Ir\nfn=(1) f\ncfn=(2) g\ncalls=1 0\n"),
              "cg.out.2: the dump ends after a \"calls=\" line, before its cost");
    EXPECT_EQ(graph_error_of("events: Ir\nfn=(1) f\n0 1\n"),
              "cg.out.2: a Callgrind dump without its \"summary:\" line");
    EXPECT_EQ(graph_error_of("fn=(1) f\n"), "cg.out.2: not a Callgrind dump (no \"events:\" line)");
}

// A graph from (caller, callee, cost) calls and self costs, the harness above the body as a
// counted run has it.
callgrind_graph make_graph(const std::vector<std::pair<std::string, std::uint64_t>>& self,
                           const std::vector<std::tuple<std::string, std::string, std::uint64_t>>& calls) {
    callgrind_graph g;
    auto index = [&](const std::string& name) {
        for (std::uint32_t i = 0; i < g.functions.size(); ++i) {
            if (g.functions[i] == name) {
                return i;
            }
        }
        g.functions.push_back(name);
        g.self.push_back(0);
        return static_cast<std::uint32_t>(g.functions.size() - 1);
    };
    for (const auto& [name, cost] : self) {
        g.self[index(name)] += cost;
        g.total += cost;
    }
    for (const auto& [caller, callee, cost] : calls) {
        const std::uint32_t a = index(caller);
        const std::uint32_t b = index(callee);
        g.calls.push_back({a, b, 1, cost});
    }
    return g;
}

// Each stack as "a;b;c" -> self per iteration.
std::map<std::string, double> stacks_of(const instruction_profile& p) {
    std::map<std::string, double> out;
    for (const profile_stack& s : p.stacks) {
        std::string key;
        for (std::uint32_t f : s.frames) {
            key += (key.empty() ? "" : ";") + p.frames.at(f);
        }
        out[key] += s.self;
    }
    return out;
}

// The calls from the program's entry down to the body, active when the dump was taken, each with
// the region's whole cost.
std::vector<std::tuple<std::string, std::string, std::uint64_t>> with_harness(
    std::vector<std::tuple<std::string, std::string, std::uint64_t>> calls, std::uint64_t region) {
    const std::string invoker =
        "std::_Function_handler<void (tare::State&), body>::_M_invoke(std::_Any_data const&, tare::State&)";
    const std::string driver = "tare::detail::sample_driver::run(std::string const&)";
    calls.insert(calls.begin(), {{"(below main)", "__libc_start_call_main", region},
                                 {"__libc_start_call_main", "main", region},
                                 {"main", driver, region},
                                 {driver, invoker, region},
                                 {invoker, "body(tare::State&)", region}});
    return calls;
}

TEST(region_profile, stacks_begin_at_the_body_and_hold_each_functions_own_cost) {
    const callgrind_graph g =
        make_graph({{"body(tare::State&)", 100}, {"heavy()", 400}, {"leaf()", 200}, {"light()", 300}},
                   with_harness({{"body(tare::State&)", "heavy()", 600},
                                 {"body(tare::State&)", "light()", 300},
                                 {"heavy()", "leaf()", 200}},
                                1000));
    const instruction_profile p = region_profile(g, 10);
    const std::map<std::string, double> want = {{"body(tare::State&)", 10},
                                                {"body(tare::State&);heavy()", 40},
                                                {"body(tare::State&);heavy();leaf()", 20},
                                                {"body(tare::State&);light()", 30}};
    EXPECT_EQ(stacks_of(p), want);
    ASSERT_EQ(p.functions.size(), 4u);
    EXPECT_EQ(p.functions[0].function, "heavy()");
    EXPECT_DOUBLE_EQ(p.functions[0].self, 40);
    EXPECT_EQ(p.functions[3].function, "body(tare::State&)");
    EXPECT_DOUBLE_EQ(p.functions[3].self, 10);
}

// What each caller spent on a shared callee is exact; the callee's own callees are divided in
// the proportions of all its calls (the assumption docs/profiles.md states).
TEST(region_profile, a_shared_callee_is_divided_by_what_each_caller_spent_on_it) {
    const callgrind_graph g = make_graph(
        {{"body(tare::State&)", 0}, {"a()", 100}, {"b()", 300}, {"shared()", 150}, {"deep()", 150}},
        with_harness({{"body(tare::State&)", "a()", 300},
                      {"body(tare::State&)", "b()", 400},
                      {"a()", "shared()", 200},
                      {"b()", "shared()", 100},
                      {"shared()", "deep()", 150}},
                     700));
    const instruction_profile p = region_profile(g, 1);
    const auto s = stacks_of(p);
    EXPECT_DOUBLE_EQ(s.at("body(tare::State&);a()"), 100);
    EXPECT_DOUBLE_EQ(s.at("body(tare::State&);a();shared()"), 100);
    EXPECT_DOUBLE_EQ(s.at("body(tare::State&);a();shared();deep()"), 100);
    EXPECT_DOUBLE_EQ(s.at("body(tare::State&);b();shared()"), 50);
    EXPECT_DOUBLE_EQ(s.at("body(tare::State&);b();shared();deep()"), 50);
}

// Callgrind names a recursive call's deeper levels "f'2", and their cost is that of every level
// below: the stack shows one level more, never the same cost twice.
TEST(region_profile, recursion_is_folded_and_counted_once) {
    const callgrind_graph g = make_graph(
        {{"body(tare::State&)", 0}, {"f(int)", 10}, {"f(int)'2", 20}},
        with_harness(
            {{"body(tare::State&)", "f(int)", 30}, {"f(int)", "f(int)'2", 20}, {"f(int)'2", "f(int)'2", 10}},
            30));
    const instruction_profile p = region_profile(g, 1);
    const std::map<std::string, double> want = {{"body(tare::State&);f(int)", 10},
                                                {"body(tare::State&);f(int);f(int)", 20}};
    EXPECT_EQ(stacks_of(p), want);
    ASSERT_EQ(p.functions.size(), 1u);
    EXPECT_EQ(p.functions[0].function, "f(int)");
    EXPECT_DOUBLE_EQ(p.functions[0].self, 30);
}

TEST(region_profile, a_cycle_of_two_functions_ends) {
    const callgrind_graph g = make_graph(
        {{"body(tare::State&)", 0}, {"ping()", 50}, {"pong()", 50}},
        with_harness(
            {{"body(tare::State&)", "ping()", 100}, {"ping()", "pong()", 90}, {"pong()", "ping()", 40}},
            100));
    const instruction_profile p = region_profile(g, 1);
    const auto s = stacks_of(p);
    EXPECT_EQ(s.size(), 2u);
    EXPECT_TRUE(s.count("body(tare::State&);ping();pong()"));
}

TEST(region_profile, stacks_under_the_share_are_gathered_with_their_cost) {
    const callgrind_graph g = make_graph(
        {{"body(tare::State&)", 900}, {"tiny()", 5}, {"small()", 95}},
        with_harness({{"body(tare::State&)", "tiny()", 5}, {"body(tare::State&)", "small()", 95}}, 1000));
    profile_limits limits;
    limits.min_share = 0.01;
    const auto s = stacks_of(region_profile(g, 1, limits));
    const std::map<std::string, double> want = {{"body(tare::State&)", 900},
                                                {"body(tare::State&);(smaller callees)", 5},
                                                {"body(tare::State&);small()", 95}};
    EXPECT_EQ(s, want);
}

TEST(region_profile, takes_off_callgrinds_recursion_level_only) {
    EXPECT_EQ(profile_function_name("f(int)'2"), "f(int)");
    EXPECT_EQ(profile_function_name("f(int)'12"), "f(int)");
    EXPECT_EQ(profile_function_name("g<'a'>()"), "g<'a'>()");
    EXPECT_EQ(profile_function_name("h'"), "h'");
}

}  // namespace
}  // namespace tare::instrument
