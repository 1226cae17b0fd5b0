#pragma once
// Private to src/io: whole documents of tare's JSON mappings (io/json_codec.hpp has the mapping
// machinery): written with `"schema"` first, read with every error a read_error naming the file,
// and a mapping's `streamed` array written and read one row at a time (io/json_stream.hpp).

#include <exception>
#include <functional>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "io/json_codec.hpp"
#include "io/json_stream.hpp"
#include "io/results_reader.hpp"

namespace tare::io::codec {

/// The whole document: `"schema": SCHEMA` first, then the fields of `value`, indented by 2, a
/// final newline, handed to `put` in pieces. Invalid UTF-8 in a name or message (an exception's
/// what(), another program's argv) becomes U+FFFD instead of throwing: a report with one odd
/// character beats no report. A type whose mapping names a `streamed` array has its elements'
/// trees made and dumped one at a time, each a piece, between the dump of the rest split where
/// the array goes: the same bytes as one tree's dump, without a tree of the whole document (some
/// ten times its text), nor, for a caller that writes each piece to a file, the whole text.
template <class T>
void write_document(std::string_view schema, const T& value,
                    const std::function<void(std::string_view)>& put) {
    constexpr auto dump = [](const json& j) { return j.dump(2, ' ', false, json::error_handler_t::replace); };
    writer w = [] {
        if constexpr (requires { fields<T>::streamed; })
            return writer(fields<T>::streamed_key);
        else
            return writer();
    }();
    w.derived("schema", [&] { return json(std::string(schema)); });
    fields<T>::map(w, value);
    std::string text = dump(w.take());
    if constexpr (requires { fields<T>::streamed; }) {
        // The top level's keys are the only ones two spaces in, and no dumped string holds a raw
        // newline: this is the empty array the writer left, each row going in four spaces deep.
        const std::string empty = "\n  \"" + std::string(fields<T>::streamed_key) + "\": []";
        const std::size_t tail = text.find(empty) + empty.size() - 1;
        put(std::string_view(text).substr(0, tail));
        const auto& rows = value.*fields<T>::streamed;
        std::string row;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            row = i == 0 ? "\n    " : ",\n    ";
            append_indented(row, dump(value_codec<std::decay_t<decltype(rows[i])>>::write(rows[i])), "    ");
            put(row);
        }
        if (!rows.empty())
            put("\n  ");
        text.erase(0, tail);
    }
    text += '\n';
    put(text);
}

/// write_document()'s pieces as one text.
template <class T>
std::string write_document(std::string_view schema, const T& value) {
    std::string out;
    write_document(schema, value, [&out](std::string_view piece) { out += piece; });
    return out;
}

/// Parses `text` (from `origin`) as JSON: a syntax error names line and column; a number that
/// no double holds (1e400) is an error too, not an exception. With a `streamed_key`, the elements
/// of the top-level object's array of that name go to `sink` one by one and the tree keeps the
/// array empty (row_streaming_builder). When `text` is a same-length rewrite of what the file
/// holds (Google Benchmark's bare NaN quoted), `written` is the file's own text: errors are
/// checked and placed in it.
std::variant<json, read_error> parse_text(const std::string& text, const std::string& origin,
                                          std::string_view streamed_key = {},
                                          const row_streaming_builder::row_sink& sink = {},
                                          const std::string* written = nullptr);

/// The read_error for `doc` unless it is an object whose "schema" is `schema`.
std::optional<read_error> check_schema(const json& doc, std::string_view schema, const std::string& origin);

/// The sink that maps each streamed row into `rows`, the first error kept in `streamed`.
template <class Row>
row_streaming_builder::row_sink row_mapper(std::vector<Row>& rows, streamed_rows& streamed) {
    return [&rows, &streamed](json* row, std::size_t index) {
        if (row == nullptr) {
            rows.clear();
            streamed.error = nullptr;
            return;
        }
        if (streamed.error)
            return;  // the first error is the one reported; the rest of the rows need no mapping
        try {
            Row v{};
            value_codec<Row>::read(*row, v, element_path(std::string(streamed.key), index));
            rows.push_back(std::move(v));
        } catch (...) {
            streamed.error = std::current_exception();
        }
        *row = json();
    };
}

/// Parses a document of `schema` into T: every error, whatever threw it, is a read_error naming
/// `origin`. A type whose mapping names a `streamed` array (a pointer to a vector member, named
/// `streamed_key` in the document) has its rows mapped as they are parsed, so that no tree of
/// the whole document is ever built.
template <class T>
std::variant<T, read_error> read_document(const std::string& text, const std::string& origin,
                                          std::string_view schema) {
    T out{};
    streamed_rows streamed;
    auto parsed = [&] {
        if constexpr (requires { fields<T>::streamed; }) {
            auto& rows = out.*fields<T>::streamed;
            streamed.key = fields<T>::streamed_key;
            try {
                rows.reserve(count_rows(text, streamed.key));
            } catch (const std::bad_alloc&) {
                // More rows than memory for them (a file of a million `0`s): the rows are
                // refused one by one below, or the parse says it ran out.
            }
            return parse_text(text, origin, streamed.key, row_mapper(rows, streamed));
        } else {
            return parse_text(text, origin);
        }
    }();
    if (auto* err = std::get_if<read_error>(&parsed))
        return *err;
    const json& doc = std::get<json>(parsed);
    if (auto err = check_schema(doc, schema, origin))
        return *err;
    try {
        reader r(doc, "", &streamed);
        fields<T>::map(r, out);
        return out;
    } catch (const field_error& e) {
        const auto at = value_offset(text, e.path());
        return read_error{origin + (at ? ":" + text_position(text, *at) : std::string()) + ": " + e.what()};
    } catch (const std::exception& e) {
        return read_error{origin + ": not a valid " + std::string(schema) + " document: " + e.what()};
    }
}

}  // namespace tare::io::codec
