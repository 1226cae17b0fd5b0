#pragma once
// The executables every integration test may run, from the paths the build defines for each
// test file (test/integration/CMakeLists.txt), and the file helpers they share: one home, so
// that the test files compiled together in one unity batch (the sanitizer legs) define each
// once.

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "command.hpp"

namespace tare {

inline const std::string contract_bench = TARE_CONTRACT_BENCH;
inline const std::string compare_base = TARE_COMPARE_BASE;  // a base and a head 3x slower
inline const std::string compare_head = TARE_COMPARE_HEAD;

/// The JSON document in the file at `p`; throws, failing the test, on anything but valid JSON
/// (NaN and Infinity literals included).
inline nlohmann::json read_json(const std::filesystem::path& p) {
    std::ifstream in(p);
    return nlohmann::json::parse(in);
}

}  // namespace tare
