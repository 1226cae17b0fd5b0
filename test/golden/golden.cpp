#include "golden/golden.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string_view>
#include <system_error>
#include <vector>

#include <gtest/gtest.h>

namespace tare::golden {
namespace {

bool approving() {
    const char* value = std::getenv("TARE_APPROVE");
    return value != nullptr && std::string_view(value) == "1";
}

std::optional<std::string> read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

bool write_file(const std::filesystem::path& path, const std::string& text) {
    std::error_code ignored;
    std::filesystem::create_directories(path.parent_path(), ignored);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    return static_cast<bool>(out);
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

// Where two texts first differ, as a short hint; the full story is `diff -u`.
std::string first_difference(const std::string& approved, const std::string& received) {
    const auto a = split_lines(approved);
    const auto r = split_lines(received);
    for (std::size_t i = 0; i < std::max(a.size(), r.size()); ++i) {
        const std::string none = "<end of file>";
        const std::string& left = i < a.size() ? a[i] : none;
        const std::string& right = i < r.size() ? r[i] : none;
        if (left != right) {
            return "first difference at line " + std::to_string(i + 1) + ":\n  approved: " + left +
                   "\n  received: " + right;
        }
    }
    return "the texts differ only in line endings or a final newline";
}

}  // namespace

std::filesystem::path golden_dir() {
#ifdef TARE_GOLDEN_DIR
    return std::filesystem::path(TARE_GOLDEN_DIR);
#else
    return std::filesystem::path("test") / "golden";
#endif
}

void expect_matches_approved(const std::string& name, const std::string& actual) {
    const auto approved_path = golden_dir() / "approved" / name;
    const auto received_path = golden_dir() / "received" / name;
    std::error_code ignored;

    if (approving()) {
        EXPECT_TRUE(write_file(approved_path, actual)) << "cannot write " << approved_path;
        std::filesystem::remove(received_path, ignored);
        return;
    }
    const auto approved = read_file(approved_path);
    if (approved && *approved == actual) {
        std::filesystem::remove(received_path, ignored);  // a stale one would mislead
        return;
    }
    const bool written = write_file(received_path, actual);
    const std::string where = written ? "received output: " + received_path.string()
                                      : "(could not write " + received_path.string() + ")";
    if (!approved) {
        ADD_FAILURE() << "no approved output " << approved_path << "\n"
                      << where << "\nreview it, then rerun with TARE_APPROVE=1 to approve";
        return;
    }
    ADD_FAILURE() << "output differs from " << approved_path << "\n"
                  << first_difference(*approved, actual) << "\n"
                  << where << "\nsee: diff -u " << approved_path.string() << " " << received_path.string()
                  << "\nif the change is intended, rerun with TARE_APPROVE=1";
}

namespace {

// Replaces the " · "-separated segments of a context line (see src/report/columns.cpp) that
// vary between machines. A Markdown hard break ("\" at the end of a line) is kept as it is.
std::string scrub_segments(const std::string& line, bool first_line) {
    std::string body = line;
    std::string suffix;
    if (!body.empty() && body.back() == '\\') {
        suffix = "\\";
        body.pop_back();
    }
    static const std::regex cpus(R"(^\d+ cpus?$)");
    std::vector<std::string> segments;
    for (std::size_t start = 0;;) {
        const std::size_t end = body.find(" · ", start);
        segments.push_back(body.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos)
            break;
        start = end + std::string_view(" · ").size();
    }
    std::string out;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        std::string s = segments[i];
        if (first_line) {
            // "tare <version> · <executable> · <date>": whatever is not version or date is the path.
            if (i > 0 && s != "<date>")
                s = "<executable>";
        } else if (s.rfind("host ", 0) == 0) {
            s = "host <host>";
        } else if (s.rfind("cpu ", 0) == 0) {
            s = "cpu <cpu>";
        } else if (std::regex_match(s, cpus)) {
            s = "<n> cpus";
        } else if (s.rfind("clock ", 0) == 0) {
            s = "clock <clock>";
        } else if (s.rfind("loop overhead ", 0) == 0) {
            s = "loop overhead <loop>";
        }
        out += (i > 0 ? " · " : "") + s;
    }
    return out + suffix;
}

}  // namespace

std::string scrub(std::string text) {
    static const std::regex date(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)");
    static const std::regex version(R"(\btare \d+\.\d+\.\d+[0-9A-Za-z.+-]*)");
    static const std::regex json_text(
        R"rx("(tare_version|executable|host|date|cpu|allocator)": "(?:[^"\\]|\\.)*")rx");
    // The allocator and its version are the machine's: "accounting: on — glibc 2.36: ...".
    static const std::regex allocator_line(R"(accounting: on — [^\n]*)");
    static const std::regex json_number(R"rx("(num_cpus|clock_overhead_ns|loop_overhead_ns)": [^,\n}]+)rx");

    text = std::regex_replace(text, json_text, R"("$1": "<$1>")");
    text = std::regex_replace(text, json_number, R"("$1": "<$1>")");
    text = std::regex_replace(text, date, "<date>");
    text = std::regex_replace(text, version, "tare <version>");
    text = std::regex_replace(text, allocator_line, "accounting: on — <allocator>");

    std::string out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        const bool context_first = line.rfind("tare <version> · ", 0) == 0;
        const bool context_second =
            line.find("loop overhead ") != std::string::npos && line.find("clock ") != std::string::npos;
        out += context_first || context_second ? scrub_segments(line, context_first) : line;
        out += '\n';
    }
    if (!text.empty() && text.back() != '\n')
        out.pop_back();
    return out;
}

}  // namespace tare::golden
