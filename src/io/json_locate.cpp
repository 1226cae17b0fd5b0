// Where a value sits in a JSON text, for errors that people fix in an editor: the reader finds a
// value it cannot take by its path in the parsed document ("benchmarks[3].iterations"), and this
// walks the text to that value's first byte. nlohmann keeps no positions once parsed; rejected:
// a SAX pass that records every value's offset (a second copy of the document's structure for
// every read, to serve the rare error).
//
// The walk assumes the text parsed (the reader only asks after a successful parse), so it skips
// values by their brackets and strings without validating them. A key with a '.' or '[' of its
// own is matched by the longest key that the rest of the path begins with.

#include "io/results_reader.hpp"

#include <algorithm>
#include <string>
#include <string_view>

namespace tare::io {
namespace {

class walker {
public:
    explicit walker(const std::string& text) : text_(text) {}

    void skip_space() {
        while (at_ < text_.size() &&
               (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r'))
            ++at_;
    }

    [[nodiscard]] bool at(char ch) const { return at_ < text_.size() && text_[at_] == ch; }

    /// A string at the cursor, decoded for the escapes keys use; the cursor after it.
    std::string read_string() {
        std::string out;
        ++at_;  // the opening quote
        while (at_ < text_.size() && text_[at_] != '"') {
            if (text_[at_] == '\\' && at_ + 1 < text_.size()) {
                const char e = text_[at_ + 1];
                out += e == 'n'   ? '\n'
                       : e == 't' ? '\t'
                       : e == 'r' ? '\r'
                       : e == 'b' ? '\b'
                       : e == 'f' ? '\f'
                                  : e;
                at_ += 2;
                if (e == 'u') {  // kept as written: a key with \u escapes is matched as "u" + hex
                    out += text_.substr(std::min(at_, text_.size()), 4);
                    at_ += 4;
                }
                continue;
            }
            out += text_[at_++];
        }
        ++at_;  // the closing quote
        return out;
    }

    /// Skips the value at the cursor.
    void skip_value() {
        if (at('"')) {
            read_string();
            return;
        }
        if (!at('{') && !at('[')) {
            while (at_ < text_.size() && text_[at_] != ',' && text_[at_] != '}' && text_[at_] != ']' &&
                   text_[at_] != ' ' && text_[at_] != '\n' && text_[at_] != '\r' && text_[at_] != '\t')
                ++at_;
            return;
        }
        std::size_t depth = 0;
        while (at_ < text_.size()) {
            const char ch = text_[at_];
            if (ch == '"') {
                read_string();
                continue;
            }
            ++at_;
            if (ch == '{' || ch == '[')
                ++depth;
            else if ((ch == '}' || ch == ']') && --depth == 0)
                return;
        }
    }

    /// Moves to the value of the element `index` of the array at the cursor.
    bool enter_element(std::size_t index) {
        if (!at('['))
            return false;
        ++at_;
        for (std::size_t i = 0;; ++i) {
            skip_space();
            if (at(']') || at_ >= text_.size())
                return false;
            if (i == index)
                return true;
            skip_value();
            skip_space();
            if (!at(','))
                return false;
            ++at_;
        }
    }

    /// Moves to the value of the member of the object at the cursor whose key is the longest
    /// that `path` begins with (followed by its end, '.' or '['); `used` gets the key's length.
    bool enter_member(std::string_view path, std::size_t& used) {
        if (!at('{'))
            return false;
        ++at_;
        std::size_t best = std::string::npos;
        used = 0;
        for (;;) {
            skip_space();
            if (!at('"'))
                break;
            const std::string key = read_string();
            skip_space();
            ++at_;  // ':'
            skip_space();
            const bool fits =
                path.substr(0, key.size()) == key &&
                (path.size() == key.size() || path[key.size()] == '.' || path[key.size()] == '[');
            if (fits && (best == std::string::npos || key.size() > used)) {
                best = at_;
                used = key.size();
            }
            skip_value();
            skip_space();
            if (!at(','))
                break;
            ++at_;
        }
        if (best == std::string::npos)
            return false;
        at_ = best;
        return true;
    }

    [[nodiscard]] std::size_t position() const { return at_; }

private:
    const std::string& text_;
    std::size_t at_ = 0;
};

}  // namespace

std::optional<std::size_t> value_offset(const std::string& text, std::string_view path) {
    walker w(text);
    w.skip_space();
    while (!path.empty()) {
        if (path.front() == '[') {
            const std::size_t close = path.find(']');
            if (close == std::string_view::npos)
                return std::nullopt;
            std::size_t index = 0;
            for (const char ch : path.substr(1, close - 1)) {
                if (ch < '0' || ch > '9')
                    return std::nullopt;
                index = index * 10 + static_cast<std::size_t>(ch - '0');
            }
            if (!w.enter_element(index))
                return std::nullopt;
            path.remove_prefix(close + 1);
        } else {
            std::size_t used = 0;
            if (!w.enter_member(path, used))
                return std::nullopt;
            path.remove_prefix(used);
        }
        if (!path.empty() && path.front() == '.')
            path.remove_prefix(1);
    }
    return w.position();
}

}  // namespace tare::io
