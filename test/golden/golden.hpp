#pragma once
// Approval testing for reporters (the model is Catch2's approved/received files): a reporter's
// output is compared with a reviewed file under test/golden/approved/. On a mismatch the new
// output is written to test/golden/received/ (gitignored) for `diff -u` and the test fails.
// To accept reviewed output: run the tests with TARE_APPROVE=1, then read the diff in git.
//
// The directory comes from the compile definition TARE_GOLDEN_DIR (the build sets it to the
// source tree's test/golden); without it, "test/golden" relative to the working directory.

#include <filesystem>
#include <string>

namespace tare::golden {

/// The test/golden directory this build compares against.
std::filesystem::path golden_dir();

/// Fails the current GoogleTest test (non-fatally) unless `actual` equals the approved file
/// `approved/<name>` byte for byte; the failure names the first differing line and where the
/// received output was written. With TARE_APPROVE=1 in the environment, (re)writes the approved
/// file instead and passes.
void expect_matches_approved(const std::string& name, const std::string& actual);

/// Replaces the fields of a report that change between machines and runs with placeholders, so
/// output of a real run can be approved: tare version ("tare <version>"), ISO-8601 dates
/// ("<date>"), and the executable, host, cpu, cpu count, clock and loop overhead, both in the
/// console/Markdown context lines and as JSON context fields ("executable": "<executable>").
/// Benchmark figures are left alone: tests on real runs must compare structure, not timings.
std::string scrub(std::string text);

}  // namespace tare::golden
