#include "io/json_codec.hpp"
#include "io/json_document.hpp"

#include <cmath>

namespace tare::io::codec {

// nlohmann parses a non-negative integer literal as number_unsigned, a negative one as
// number_integer and anything with a fraction or an exponent as number_float.
std::uint64_t read_unsigned(const json& j, std::uint64_t high, const std::string& path) {
    if (!j.is_number() || (j.is_number_integer() && !j.is_number_unsigned() && j.get<std::int64_t>() < 0))
        throw field_error(path, "expected a non-negative integer");
    if (!j.is_number_float()) {
        const auto u = j.get<std::uint64_t>();
        if (u > high)
            throw field_error(path, "out of range");
        return u;
    }
    const double d = j.get<double>();
    if (std::floor(d) != d)
        throw field_error(path, "expected an integer");
    if (d < 0)
        throw field_error(path, "expected a non-negative integer");
    // 2^64 is exact in a double, and the first value no std::uint64_t holds.
    if (d >= 18446744073709551616.0 || static_cast<std::uint64_t>(d) > high)
        throw field_error(path, "out of range");
    return static_cast<std::uint64_t>(d);
}

std::int64_t read_signed(const json& j, std::int64_t low, std::int64_t high, const std::string& path) {
    if (!j.is_number())
        throw field_error(path, "expected an integer");
    if (j.is_number_unsigned()) {
        const auto u = j.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(high))
            throw field_error(path, "out of range");
        return static_cast<std::int64_t>(u);
    }
    std::int64_t i = 0;
    if (j.is_number_integer()) {
        i = j.get<std::int64_t>();
    } else {
        const double d = j.get<double>();
        if (std::floor(d) != d)
            throw field_error(path, "expected an integer");
        // -2^63 and 2^63 are exact in a double: the range of std::int64_t is [-2^63, 2^63).
        if (d < -9223372036854775808.0 || d >= 9223372036854775808.0)
            throw field_error(path, "out of range");
        i = static_cast<std::int64_t>(d);
    }
    if (i < low || i > high)
        throw field_error(path, "out of range");
    return i;
}

std::string one_of(const std::vector<std::string_view>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0)
            out += i + 1 == names.size() ? " or " : ", ";
        out += "\"" + std::string(names[i]) + "\"";
    }
    return out;
}

std::variant<json, read_error> parse_text(const std::string& text, const std::string& origin,
                                          std::string_view streamed_key,
                                          const row_streaming_builder::row_sink& sink,
                                          const std::string* written) {
    const std::string& shown = written != nullptr ? *written : text;
    if (auto err = check_json_text(shown, origin))
        return *err;
    try {
        json root;
        row_streaming_builder builder(root, streamed_key, sink);
        if (json::sax_parse(text, &builder, json::input_format_t::json, /*strict=*/true))
            return root;
        // nlohmann's parse errors are its exceptions 101 to 199; the other one a parse reports
        // is out_of_range 406, "number overflow parsing '1e400'".
        if (builder.error_id() >= 100 && builder.error_id() < 200)
            return malformed_json(shown, origin, builder.error_what(), builder.error_byte());
        return unreadable_json(shown, origin, builder.error_what());
    } catch (const std::exception& e) {
        return read_error{origin + ": cannot read: " + e.what()};  // out of memory
    }
}

std::optional<read_error> check_schema(const json& doc, std::string_view schema, const std::string& origin) {
    const auto it = doc.find("schema");  // end() for anything but an object
    if (!doc.is_object()) {
        return read_error{origin + ": not a results file (a JSON " + std::string(doc.type_name()) +
                          ", not an object with a \"schema\" field)"};
    }
    if (it == doc.end()) {
        return read_error{origin + ": not a results file (no \"schema\" field)"};
    }
    if (!it->is_string()) {
        return read_error{origin + ": schema: expected a string"};
    }
    const auto& name = it->get_ref<const std::string&>();
    if (name != schema) {
        return read_error{origin + ": unsupported schema \"" + name + "\" (expected \"" +
                          std::string(schema) + "\")"};
    }
    return std::nullopt;
}

}  // namespace tare::io::codec
