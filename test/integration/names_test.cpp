// Names an executable refuses before it runs anything (docs/writing.md, "Names"): a newline
// once desynchronised tare compare's workers, a leading space was never found, a duplicate and
// an empty name turned into crashes under --isolate.
#include <gtest/gtest.h>

#include <string>

#include "run_process.hpp"

namespace tare {
namespace {

void expect_refused(const std::string& exe, const std::string& says) {
    for (const char* flag : {"--list", "--min-time=0.01", "--tare-worker=1"}) {
        auto r = test::run_process({exe, flag});
        EXPECT_EQ(r.exit_code, 2) << exe << " " << flag << ": " << r.err;
        EXPECT_NE(r.err.find(says), std::string::npos) << exe << " " << flag << ": " << r.err;
        EXPECT_EQ(r.out, "") << exe << " " << flag;
    }
}

TEST(names, a_control_character_is_refused_and_shown_escaped) {
    expect_refused(TARE_NAMES_BAD_NEWLINE, "benchmark name \"two\\nlines\" holds a control character");
}

TEST(names, a_leading_space_is_refused) {
    expect_refused(TARE_NAMES_BAD_SPACE, "benchmark name \" leading\" begins or ends with a space");
}

TEST(names, a_duplicate_is_refused) {
    expect_refused(TARE_NAMES_BAD_DUPLICATE, "benchmark name \"body\" is registered twice");
}

TEST(names, an_empty_name_is_refused) {
    expect_refused(TARE_NAMES_BAD_EMPTY, "a benchmark is registered with an empty name");
}

}  // namespace
}  // namespace tare
