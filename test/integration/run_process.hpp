#pragma once
// Runs a command and captures its exit status, standard output and standard error.

#include <string>
#include <vector>

namespace tare::test {

struct process_result {
    int exit_code = -1;  // -1: did not exit normally
    std::string out;
    std::string err;
};

process_result run_process(const std::vector<std::string>& argv);

/// A copy of executable `exe` named `name` in this test's scratch directory, so that looking for
/// its processes afterwards finds this test's and no other test's running at the same time.
std::string private_copy(const std::string& exe, const std::string& name);

/// How many processes (other than this one) have `marker` in their command line.
int processes_mentioning(const std::string& marker);
/// How many processes (other than this one) have every one of `markers` in their command line.
int processes_mentioning(const std::vector<std::string>& markers);

}  // namespace tare::test
