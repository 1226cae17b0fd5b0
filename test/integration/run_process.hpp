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

/// Runs `argv` as CI keeps a log, `> log 2>&1`: standard output and standard error into one file
/// (a file, not a pipe, as a runner's log is); that file's text is `out`. `name` names the file
/// in this test's scratch directory.
process_result run_logged(const std::vector<std::string>& argv, const std::string& name);

/// What in a joined log would mislead its reader: a carriage return (terminal codes), a progress
/// line ("[3/12] ...") that does not start its own line, or one between a table's header and the
/// blank line that ends the table, i.e. inside its rows. Each fault as a line of text; none when
/// the log reads as it should.
std::vector<std::string> joined_log_faults(const std::string& log);

/// A copy of executable `exe` named `name` in this test's scratch directory, so that looking for
/// its processes afterwards finds this test's and no other test's running at the same time.
std::string private_copy(const std::string& exe, const std::string& name);

/// How many processes (other than this one) have `marker` in their command line.
int processes_mentioning(const std::string& marker);
/// How many processes (other than this one) have every one of `markers` in their command line.
int processes_mentioning(const std::vector<std::string>& markers);

}  // namespace tare::test
