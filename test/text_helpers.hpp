#pragma once
// Text helpers the test programs share: one home, so that test files compiled together (the
// sanitizer legs' unity batches) define each once.

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

/// Writes `text` to the file at `p`, replacing what was there.
inline void write_text(const std::filesystem::path& p, const std::string& text) {
    std::ofstream out(p);
    out << text;
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
