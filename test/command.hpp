#pragma once
// The `tare` command the test programs run, from the path the build defines for them: one home,
// so that test files compiled together in one unity batch (the sanitizer legs) define it once.

#include <string>

namespace tare {

inline const std::string tare_cmd = TARE_COMMAND;

}  // namespace tare
