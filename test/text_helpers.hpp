#pragma once
// Text helpers the unit and golden tests share: one home, so that test files compiled together
// (the sanitizer legs' unity batches) define each once.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace tare {

/// The whole contents of the file at `p` ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

/// `text` split at its newlines, without them.
inline std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

}  // namespace tare
