#pragma once
// Parsing a document without holding all of it as a JSON tree (src/io's readers), and writing
// one without building it (the readers' writers and the exporters).
//
// A results file is a small object around one long array ("benchmarks", "rows"). Parsed into
// nlohmann's tree whole, it took about ten times its text in memory before the mapping copied
// it into the model (bench/README.md, "Big inputs"). row_streaming_builder builds the tree as
// nlohmann's own parser does, except that each element of that one array is handed on as soon
// as it is complete and forgotten: the tree holds one row at a time, and the array stays empty.
// Rejected: a reader of the model straight from the parser's events (no tree even for a row),
// which would have been a second mapping of every field beside io/json_codec.hpp's one.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tare::io::codec {

class row_streaming_builder {
public:
    using json = nlohmann::ordered_json;
    /// Called with each element of the streamed array (to be moved from) and its index, and with
    /// nullptr when the array starts: a key given twice starts it again, since the last one
    /// counts, as in nlohmann's tree.
    using row_sink = std::function<void(json* row, std::size_t index)>;

    /// Builds the document into `root`, streaming the elements of the top-level object's `key`
    /// when its value is an array.
    row_streaming_builder(json& root, std::string_view key, row_sink sink)
        : root_(root), key_(key), sink_(std::move(sink)) {}

    bool null() { return put(json(nullptr)); }
    bool boolean(bool value) { return put(json(value)); }
    bool number_integer(json::number_integer_t value) { return put(json(value)); }
    bool number_unsigned(json::number_unsigned_t value) { return put(json(value)); }
    bool number_float(json::number_float_t value, const json::string_t&) { return put(json(value)); }
    bool string(json::string_t& value) { return put(json(std::move(value))); }
    bool binary(json::binary_t& value) { return put(json(std::move(value))); }
    bool start_object(std::size_t) { return open(json::object()); }
    bool start_array(std::size_t) { return open(json::array()); }
    bool key(json::string_t& name) {
        name_ = std::move(name);
        return true;
    }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
        error_byte_ = position;
        error_id_ = e.id;
        error_what_ = e.what();
        return false;
    }

    /// After a failed parse: nlohmann's byte offset, exception id and message.
    [[nodiscard]] std::size_t error_byte() const { return error_byte_; }
    [[nodiscard]] int error_id() const { return error_id_; }
    [[nodiscard]] const std::string& error_what() const { return error_what_; }

private:
    // The next value is an element of the streamed array.
    [[nodiscard]] bool in_rows() const { return streaming_ && stack_.size() == 2; }
    json* place(json&& value);
    bool put(json&& value);
    bool open(json&& value);
    bool close();

    json& root_;
    std::string_view key_;
    row_sink sink_;
    std::vector<json*> stack_;  // the open arrays and objects, outermost first
    std::string name_;          // the key of the object's next value
    bool streaming_ = false;    // the streamed array is open, second on the stack (kept empty)
    json row_;                  // the element of it being built
    std::size_t next_row_ = 0;
    std::size_t error_byte_ = 0;
    int error_id_ = 0;
    std::string error_what_;
};

/// Appends `text` (one value's dump(2)) to `out` as it stands one level deeper in a bigger
/// dump: each newline followed by `indent`. A newline in a dump is always layout (a string's own
/// is escaped), so the result is the bigger tree's dump byte for byte.
void append_indented(std::string& out, const std::string& text, std::string_view indent);

/// The number of elements of the top-level object's array `key` in `text` (0 when there is none,
/// or the text is not JSON: the reader that follows says why), by a pass that builds nothing.
/// What the rows' vector is reserved for before they are mapped: grown by doubling, a vector
/// briefly holds its old and its new storage, twice the rows at the last step.
std::size_t count_rows(const std::string& text, std::string_view key);

}  // namespace tare::io::codec
