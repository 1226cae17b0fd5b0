#include "io/results_reader.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "io/run_mapping.hpp"

namespace tare::io {

// nlohmann reports a byte offset; people want line and column (1-based, columns in bytes).
std::string text_position(const std::string& text, std::size_t byte) {
    std::size_t line = 1;
    std::size_t column = 1;
    for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return std::to_string(line) + ":" + std::to_string(column);
}

read_error malformed_json(const std::string& text, const std::string& origin, const std::string& what,
                          std::size_t byte) {
    // Keep nlohmann's description, drop its own "[json.exception...] parse error at ...:".
    auto colon = what.find(": ", what.find("parse error"));
    std::string detail = colon == std::string::npos ? what : what.substr(colon + 2);
    // nlohmann's byte is one past the offending character.
    return read_error{origin + ":" + text_position(text, byte == 0 ? 0 : byte - 1) +
                      ": malformed JSON: " + detail};
}

read_error unreadable_json(const std::string& text, const std::string& origin, const std::string& what) {
    // Drop nlohmann's "[json.exception.out_of_range.406] ".
    const auto bracket = what.find("] ");
    const std::string detail = bracket == std::string::npos ? what : what.substr(bracket + 2);
    // "number overflow parsing '1e400'" names the token but not where it is: the first number
    // token so written is (a string holding the same text is skipped by its quotes).
    const auto open = detail.find("parsing '");
    const auto close = open == std::string::npos ? open : detail.find('\'', open + 9);
    if (close != std::string::npos) {
        const std::string token = detail.substr(open + 9, close - open - 9);
        for (auto at = text.find(token); !token.empty() && at != std::string::npos;
             at = text.find(token, at + 1)) {
            if (at > 0 && text[at - 1] == '"')
                continue;
            return read_error{origin + ":" + text_position(text, at) + ": malformed JSON: " + detail};
        }
    }
    return read_error{origin + ": malformed JSON: " + detail};
}

std::optional<read_error> check_json_text(const std::string& text, const std::string& origin) {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
        return read_error{origin + ": empty file"};
    }
    // A scan of brackets outside strings; everything else is left to the parser.
    std::size_t depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        if (in_string) {
            if (ch == '\\') {
                ++i;  // the escaped character cannot end the string
            } else if (ch == '"') {
                in_string = false;
            }
        } else if (ch == '"') {
            in_string = true;
        } else if (ch == '[' || ch == '{') {
            if (++depth > max_json_depth) {
                return read_error{origin + ":" + text_position(text, i) + ": nested too deeply (more than " +
                                  std::to_string(max_json_depth) + " levels of arrays and objects)"};
            }
        } else if ((ch == ']' || ch == '}') && depth > 0) {
            --depth;
        }
    }
    return std::nullopt;
}

namespace {

// Walks the document's parse events to its top level's "schema" member, building nothing and
// stopping there: a results file names its schema first, so a few bytes of a file of hundreds
// of megabytes are read. Rejected: parsing the whole document into a tree to look at one member,
// which cost a full parse (and the whole tree in memory) before the reader's own.
class schema_finder {
public:
    using json = nlohmann::json;

    bool null() { return not_the_schema(); }
    bool boolean(bool) { return not_the_schema(); }
    bool number_integer(json::number_integer_t) { return not_the_schema(); }
    bool number_unsigned(json::number_unsigned_t) { return not_the_schema(); }
    bool number_float(json::number_float_t, const json::string_t&) { return not_the_schema(); }
    bool binary(json::binary_t&) { return not_the_schema(); }
    bool string(json::string_t& s) {
        if (at_schema_) {
            schema_ = s;
        }
        return not_the_schema();
    }
    bool start_object(std::size_t) {
        ++depth_;
        return not_the_schema();
    }
    bool start_array(std::size_t) {
        ++depth_;
        return depth_ > 1 && not_the_schema();  // an array at the top: not a results object
    }
    bool key(json::string_t& k) {
        at_schema_ = depth_ == 1 && k == "schema";
        return true;
    }
    bool end_object() {
        --depth_;
        return depth_ > 0;  // the top level ended without a schema
    }
    bool end_array() {
        --depth_;
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

    const std::optional<std::string>& schema() const { return schema_; }

private:
    // False (stop) once the schema's value, whatever it is, has been met.
    bool not_the_schema() { return !std::exchange(at_schema_, false); }

    std::size_t depth_ = 0;
    bool at_schema_ = false;  // the event to come is the top level's "schema" value
    std::optional<std::string> schema_;
};

}  // namespace

std::optional<std::string> document_schema(const std::string& text) {
    schema_finder finder;
    nlohmann::json::sax_parse(text, &finder, nlohmann::json::input_format_t::json, /*strict=*/false);
    return finder.schema();
}

read_error open_error(const std::string& path, int err) {
    if (err == ENOENT || err == ENOTDIR)
        return read_error{path + ": no such file"};
    if (err == EISDIR)
        return read_error{path + ": is a directory"};
    return read_error{path + ": cannot open: " + std::strerror(err)};
}

namespace {

read_error larger_than_limit(const std::string& path, std::size_t limit) {
    const bool gib = limit % (std::size_t{1} << 30) == 0;
    return read_error{path + ": more than " + std::to_string(gib ? limit >> 30 : limit >> 20) +
                      (gib ? " GiB" : " MiB") +
                      ", larger than any results file tare reads (a tare/1 file holds well under a "
                      "megabyte a benchmark)"};
}

}  // namespace

std::variant<std::string, read_error> read_text_file(const std::string& path, std::size_t limit) {
    std::ifstream file;
    std::size_t regular_size = 0;  // a regular file's size: refused at once past the limit, or reserved
    if (path != "-") {
        // A directory opens as a stream and fails only when read: said as what it is, first.
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0)
            return open_error(path, errno);
        if (S_ISDIR(st.st_mode))
            return open_error(path, EISDIR);
        if (S_ISREG(st.st_mode) && st.st_size > 0)
            regular_size = static_cast<std::size_t>(st.st_size);
        if (regular_size > limit)
            return larger_than_limit(path, limit);
        errno = 0;
        file.open(path, std::ios::binary);
        if (!file)
            return open_error(path, errno != 0 ? errno : EACCES);
    }
    std::istream& in = path == "-" ? std::cin : file;
    if (!in) {
        return open_error(path, EBADF);  // standard input closed
    }
    // In chunks rather than by size, so a pipe or a device is bounded as a regular file is (and a
    // file that grows while it is read). A regular file's size is reserved first: grown by
    // doubling, a text of a gigabyte would hold up to twice its size while it is copied.
    std::string text;
    text.reserve(regular_size);
    std::string chunk(std::size_t{1} << 20, '\0');
    while (in) {
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
        if (text.size() > limit) {
            return larger_than_limit(path, limit);
        }
    }
    if (in.bad()) {
        return read_error{path + ": cannot read the file"};
    }
    return text;
}

std::variant<run_results, read_error> parse_results(const std::string& text, const std::string& origin) {
    return parse_run_json(text, origin);
}

std::variant<run_results, read_error> read_results_file(const std::string& path) {
    auto text = read_text_file(path);
    if (auto* err = std::get_if<read_error>(&text)) {
        return *err;
    }
    return parse_run_json(std::get<std::string>(text), path);
}

}  // namespace tare::io
