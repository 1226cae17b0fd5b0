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

}  // namespace tare::test
