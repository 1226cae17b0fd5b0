#include "io/json_stream.hpp"

#include <algorithm>

#include <utility>

namespace tare::io::codec {

// Where a new value goes: the root, the row being built (an element of the streamed array),
// the end of an array or an object's member (the last of a repeated key wins, keeping the first
// one's place, as nlohmann's parser does). A pointer to it stays valid while it is open: nothing
// is added to its parent until it closes. Once closed it may move (the root's members are a
// vector), so the streamed array is known by its place, open just below the root, not by its
// address.
row_streaming_builder::json* row_streaming_builder::place(json&& value) {
    if (stack_.empty()) {
        root_ = std::move(value);
        return &root_;
    }
    json& parent = *stack_.back();
    if (in_rows()) {
        row_ = std::move(value);
        return &row_;
    }
    if (parent.is_array()) {
        parent.push_back(std::move(value));
        return &parent.back();
    }
    json& member = parent[name_];
    member = std::move(value);
    return &member;
}

bool row_streaming_builder::put(json&& value) {
    const bool row = in_rows();
    place(std::move(value));
    if (row)
        sink_(&row_, next_row_++);
    return true;
}

bool row_streaming_builder::open(json&& value) {
    const bool streamed = !key_.empty() && stack_.size() == 1 && value.is_array() &&
                          stack_.front() == &root_ && root_.is_object() && name_ == key_;
    json* at = place(std::move(value));
    if (streamed) {
        streaming_ = true;
        next_row_ = 0;
        sink_(nullptr, 0);
    }
    stack_.push_back(at);
    return true;
}

bool row_streaming_builder::close() {
    json* done = stack_.back();
    stack_.pop_back();
    if (done == &row_)
        sink_(&row_, next_row_++);
    else if (streaming_ && stack_.size() == 1)
        streaming_ = false;  // the streamed array itself closed
    return true;
}

void append_indented(std::string& out, const std::string& text, std::string_view indent) {
    for (std::size_t from = 0; from < text.size();) {
        const std::size_t newline = std::min(text.find('\n', from), text.size());
        out.append(text, from, newline - from);
        if (newline < text.size()) {
            out += '\n';
            out += indent;
        }
        from = newline + 1;
    }
}

namespace {

// The SAX events counted: depth, the top level's current key, and the elements directly inside
// the streamed array.
class row_counter {
public:
    using json = nlohmann::ordered_json;
    explicit row_counter(std::string_view key) : key_(key) {}

    bool null() { return value(); }
    bool boolean(bool) { return value(); }
    bool number_integer(json::number_integer_t) { return value(); }
    bool number_unsigned(json::number_unsigned_t) { return value(); }
    bool number_float(json::number_float_t, const json::string_t&) { return value(); }
    bool string(json::string_t&) { return value(); }
    bool binary(json::binary_t&) { return value(); }
    bool start_object(std::size_t) { return open(false); }
    bool start_array(std::size_t) { return open(true); }
    bool key(json::string_t& name) {
        if (depth_ == 1)
            at_key_ = name == key_;
        return true;
    }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

    [[nodiscard]] std::size_t rows() const { return rows_; }

private:
    bool value() {
        if (in_rows_ && depth_ == 2)
            ++rows_;
        return true;
    }
    bool open(bool array) {
        value();
        ++depth_;
        if (depth_ == 2 && array && at_key_) {
            in_rows_ = true;
            rows_ = 0;  // a key given twice: the last array counts
        }
        return true;
    }
    bool close() {
        if (depth_-- == 2)
            in_rows_ = false;
        return true;
    }

    std::string_view key_;
    std::size_t depth_ = 0;
    bool at_key_ = false;
    bool in_rows_ = false;
    std::size_t rows_ = 0;
};

}  // namespace

std::size_t count_rows(const std::string& text, std::string_view key) {
    row_counter counter(key);
    nlohmann::ordered_json::sax_parse(text, &counter, nlohmann::ordered_json::input_format_t::json,
                                      /*strict=*/false);
    return counter.rows();
}

}  // namespace tare::io::codec
