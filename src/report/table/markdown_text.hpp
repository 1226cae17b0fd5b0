#pragma once
// Markdown text for the Markdown reporters (run tables, comparison tables): names go in code
// spans (a name like "sort<int>/64" would otherwise be eaten as an HTML tag), free text escapes
// the characters GFM gives meaning to. In a table, "|" must be escaped even inside a code span
// (GFM spec, "Tables" extension).

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace tare::report::table::markdown_text {

inline bool is_word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// Backslash-escapes GFM's inline syntax characters, and only where they would take effect, so
// the raw text stays legible: "_" between word characters is never emphasis ("retained_growth"),
// and "<" only opens HTML before a letter, "/", "!" or "?" (so "<0.001" stays as written).
// Block syntax ("#", ">", "-" at a line's start) cannot occur: escaped text never starts a line.
inline std::string escape_text(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const char next = i + 1 < text.size() ? text[i + 1] : '\0';
        const bool inert_underscore = c == '_' && i > 0 && is_word_char(text[i - 1]) && is_word_char(next);
        const bool inert_angle = c == '<' && !(std::isalpha(static_cast<unsigned char>(next)) ||
                                               std::string_view("/!?").find(next) != std::string_view::npos);
        const bool special = std::string_view("\\`*_<[]|~").find(c) != std::string_view::npos;
        if (special && !inert_underscore && !inert_angle)
            out += '\\';
        out += c;
    }
    return out;
}

// A code span for `text`, padded with spaces when it starts or ends with a backtick, and with a
// fence longer than any backtick run inside (CommonMark, "Code spans").
inline std::string code(std::string_view text) {
    std::size_t longest = 0;
    std::size_t run = 0;
    for (const char c : text) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const std::string fence(longest + 1, '`');
    const bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
    std::string body;
    for (const char c : text)
        body += c == '|' ? std::string("\\|") : std::string(1, c);
    return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

}  // namespace tare::report::table::markdown_text
