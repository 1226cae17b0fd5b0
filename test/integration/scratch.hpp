#pragma once
// Where a test writes its files: a directory of this process's own, removed when it ends.

#include <filesystem>
#include <string>

namespace tare::test {

/// `name` in this test process's directory under the system's temporary directory (created on
/// first use). ctest runs every test in a process of its own, so the directory is one test's;
/// it is removed when the process exits normally (a test that crashes leaves it to look at).
/// Rejected: a directory per test file that nothing removed (hundreds piled up on one machine).
std::filesystem::path scratch(const std::string& name);

}  // namespace tare::test
