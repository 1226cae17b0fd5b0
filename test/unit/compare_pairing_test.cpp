// compare/pairing.hpp: head's names rewritten by --rename rules, pairing by name, and the rules
// refused; report/compare_presence.cpp: the renamed rows and the closest names in the report.
#include "compare/pairing.hpp"

#include <gtest/gtest.h>

#include "compare/aggregate.hpp"
#include "compare/rounds.hpp"
#include "io/compare_mapping.hpp"
#include "report/compare_table.hpp"

namespace tare::compare {
namespace {

head_renames rules(const std::vector<std::string>& texts) {
    head_renames r;
    for (const auto& t : texts) {
        auto why = r.add(t);
        EXPECT_FALSE(why) << t << ": " << *why;
    }
    return r;
}

std::string text_of(const std::vector<report::table::line>& lines) {
    std::string out;
    for (const auto& line : lines) {
        for (const auto& segment : line) {
            out += segment.text;
        }
        out += "\n";
    }
    return out;
}

TEST(pairing, a_rule_replaces_every_match_with_its_groups_and_rules_apply_in_order) {
    const head_renames r = rules({"^BM_(\\w+)/(\\d+)/0$=BM_$1/$2", "_v2=", "x=y=z"});
    EXPECT_EQ(r.apply("BM_parse/64/0"), "BM_parse/64");
    EXPECT_EQ(r.apply("BM_parse_v2/64/0"), "BM_parse/64");  // the first rule, then the second
    EXPECT_EQ(r.apply("axbx"), "ay=zby=z");                 // split at the first '='
    EXPECT_EQ(r.apply("untouched"), "untouched");
    EXPECT_TRUE(head_renames().empty());
    EXPECT_EQ(head_renames().apply("a"), "a");
}

TEST(pairing, a_rule_without_its_parts_or_with_a_bad_regex_is_refused_by_the_flag) {
    head_renames r;
    const auto no_equals = r.add("BM_a");
    ASSERT_TRUE(no_equals);
    EXPECT_NE(no_equals->find("--rename='BM_a': expected REGEX=REPLACEMENT"), std::string::npos)
        << *no_equals;
    ASSERT_TRUE(r.add("=x"));
    const auto bad = r.add("(unclosed=x");
    ASSERT_TRUE(bad);
    EXPECT_EQ(bad->rfind("--rename: '(unclosed' is not a valid regular expression", 0), 0U) << *bad;
    const auto deep = r.add(std::string(40, '(') + std::string(40, ')') + "=x");
    ASSERT_TRUE(deep);
    EXPECT_NE(deep->find("beyond what a filter may be"), std::string::npos) << *deep;
    EXPECT_TRUE(r.empty());
}

TEST(pairing, renamed_names_pair_with_bases_and_the_rest_stay_on_their_side) {
    auto m = match_names({"BM_a/8", "BM_b/8", "BM_gone"}, {"BM_b/8", "BM_a/8/0", "BM_new"}, rules({"/0$="}));
    const auto& p = std::get<name_pairs>(m);
    using pair = std::pair<std::string, std::string>;
    EXPECT_EQ(p.both, (std::vector<pair>{{"BM_a/8", "BM_a/8/0"}, {"BM_b/8", "BM_b/8"}}));
    EXPECT_EQ(p.only_in_base, std::vector<std::string>{"BM_gone"});
    EXPECT_EQ(p.only_in_head, std::vector<std::string>{"BM_new"});
}

TEST(pairing, two_head_names_that_become_one_are_refused_naming_both) {
    auto m = match_names({"BM_a"}, {"BM_a", "BM_a_v2"}, rules({"_v2$="}));
    ASSERT_TRUE(std::holds_alternative<std::string>(m));
    EXPECT_EQ(std::get<std::string>(m),
              "--rename makes two of head's benchmarks one, so neither could be paired: 'BM_a' and "
              "'BM_a_v2' both become 'BM_a'");
    run_results head;
    head.benchmarks.resize(2);
    head.benchmarks[0].name = "BM_a";
    head.benchmarks[1].name = "BM_a_v2";
    EXPECT_TRUE(std::holds_alternative<std::string>(rename_results(head, rules({"_v2$="}))));
}

TEST(pairing, rounds_apply_the_filter_to_the_names_rows_are_paired_by) {
    rounds_options o;
    o.renames = rules({"^new_(.*)$=$1"});
    o.filter = std::get<core::name_filter>(core::name_filter::parse("^enc"));
    rounds_data data;
    ASSERT_FALSE(pair_names(o, {"encode", "decode"}, {"new_encode", "new_decode", "encode_x"}, data));
    ASSERT_EQ(data.rows.size(), 1U);
    EXPECT_EQ(data.rows[0].name, "encode");
    EXPECT_EQ(data.rows[0].head_name, "new_encode");
    EXPECT_EQ(side_name(data.rows[0], true), "new_encode");
    EXPECT_EQ(side_name(data.rows[0], false), "encode");
    EXPECT_TRUE(data.only_in_base.empty());
    EXPECT_EQ(data.only_in_head, std::vector<std::string>{"encode_x"});
}

run_results file_of(const std::vector<std::string>& names) {
    run_results r;
    r.context.processes = 1;
    for (const auto& n : names) {
        benchmark_result b;
        b.name = n;
        b.samples_ns = {10, 11, 12};
        b.iterations = 3;
        b.time.mean = 11;
        r.benchmarks.push_back(std::move(b));
    }
    return r;
}

TEST(pairing, renamed_files_compare_under_bases_name_and_keep_heads_own) {
    run_results base = file_of({"BM_a/8", "BM_old"});
    run_results head = file_of({"BM_a/8/0", "BM_newer"});
    auto own = rename_results(head, rules({"/0$="}));
    ASSERT_FALSE(std::holds_alternative<std::string>(own));
    compare_results r = compare_files(base, head, {}, "base.json", "head.json");
    restore_head_names(r, std::get<0>(own));
    ASSERT_EQ(r.rows.size(), 1U);
    EXPECT_EQ(r.rows[0].name, "BM_a/8");
    EXPECT_EQ(r.rows[0].head_name, "BM_a/8/0");
    EXPECT_EQ(r.only_in_head, std::vector<std::string>{"BM_newer"});

    // The head's own name survives tare-compare/1 and is said under the table.
    auto parsed = io::parse_compare_json(io::write_compare_json(r), "cmp.json");
    ASSERT_TRUE(std::holds_alternative<compare_results>(parsed));
    const compare_results& back = std::get<compare_results>(parsed);
    EXPECT_EQ(back.rows[0].head_name, "BM_a/8/0");
    const std::string text = text_of(report::detail::compare_presence_lines(back));
    EXPECT_NE(text.find("paired by --rename: head's BM_a/8/0 as BM_a/8\n"), std::string::npos) << text;
}

TEST(pairing, a_name_one_side_alone_has_is_shown_with_the_closest_the_other_alone_has) {
    compare_results r;
    r.only_in_base = {"BM_parse/64", "BM_unrelated_thing"};
    r.only_in_head = {"BM_zzz", "BM_parse/64/0", "BM_parse/640/0"};
    const std::string text = text_of(report::detail::compare_presence_lines(r));
    EXPECT_NE(text.find("only in base: BM_parse/64 (closest in head: BM_parse/64/0), BM_unrelated_thing\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("only in head: BM_zzz, BM_parse/64/0 (closest in base: BM_parse/64), BM_parse/640/0 "
                        "(closest in base: BM_parse/64)\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("--rename='REGEX=REPLACEMENT'"), std::string::npos) << text;

    compare_results apart;
    apart.only_in_base = {"BM_alpha"};
    apart.only_in_head = {"zeta_function"};
    EXPECT_EQ(text_of(report::detail::compare_presence_lines(apart)),
              "only in base: BM_alpha\nonly in head: zeta_function\n");
}

}  // namespace
}  // namespace tare::compare
