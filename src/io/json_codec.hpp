#pragma once
// Private to src/io: the machinery of tare's JSON mappings (every field in docs/json-schema.md).
//
// Each model type lists its fields once, in `fields<T>::map(v, value)`. The same function is run
// with a `writer`, which turns the fields into an ordered JSON object (keys in mapping order:
// ordered_json keeps insertion order), and with a `reader`, which fills them back from a parsed
// object, looking each key up by name. A field added to a mapping is therefore written and read
// by construction; only output derived from other fields (`derived`) is written and not read.
//
// The rules every mapping gets from here:
// - No NaN or infinity literal is written: a double goes through finite_or_null(), and a null
//   read back into a double is NaN, so write → read → write gives the same bytes.
// - null is accepted wherever a number belongs (docs/json-schema.md, "General rules"); an
//   object, an array, a string or a boolean may be null only where the mapping says `nullable`
//   (figure() says it for a failed row's figures) and null then leaves the model's default.
// - A value of the wrong type is an error naming its path ("benchmarks[3].allocs_per_iter:
//   expected a number"), never a silent 0; so is a negative count or one out of range.
// - A missing key leaves the model's default (older files lack later additions), unless the
//   mapping says `required`.
//
// A field whose shape is not one value of the model (a null-when-empty array, columns of the
// samples, a name for an enum) takes a codec: an object with `json write(const T&) const` and
// `void read(const json& value, T& target, const std::string& path, const json& parent) const`
// (`parent` is the enclosing object, for codecs that check a partner key), and optionally
// `static constexpr bool reads_null = true` when it gives null its own meaning.

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/results_reader.hpp"
#include "model/change.hpp"
#include "model/run.hpp"

namespace tare::io::codec {

using json = nlohmann::ordered_json;

/// The one rule every number is written by: a figure that is not finite is null.
inline json finite_or_null(double value) {
    return std::isfinite(value) ? json(value) : json(nullptr);
}

/// What the reader throws for a value it cannot take: "PATH: WHAT".
class field_error : public std::runtime_error {
public:
    field_error(const std::string& path, const std::string& what)
        : std::runtime_error(path + ": " + what), path_(path) {}
    /// The value's path in the document, to find it in the text (value_offset).
    [[nodiscard]] const std::string& path() const noexcept { return path_; }

private:
    std::string path_;
};

/// How one field is written and read beyond its value's own rules.
struct field_options {
    bool write_null = false;  // writer: null in place of the value
    bool nullable = false;    // reader: null accepted, leaving the model's value
    bool omit_empty = false;  // writer: no key at all for an empty container
    bool required = false;    // reader: a missing key is an error
};
inline constexpr field_options required{false, false, false, true};
inline constexpr field_options nullable{false, true, false, false};
inline constexpr field_options omit_empty{false, false, true, false};

/// A figure of a row that may have failed: written as null when not `measured` (a failed
/// benchmark keeps every key but measured nothing), and read back from null as the default.
constexpr field_options figure(bool measured) {
    return {!measured, true, false, false};
}

/// `fields<T>::map(v, value)`: the mapping of model type T, specialised per type. `value` is
/// `const T` for the writer and `T` for the reader.
template <class T>
struct fields;

/// The codec of a value of type T with no codec of its own: scalars, containers, and (the
/// primary template) a mapped type, as an object of its fields.
template <class T>
struct value_codec;

/// A field's third argument is its codec unless it is its options.
template <class C>
concept field_codec = !std::same_as<C, field_options>;

template <class Codec>
constexpr bool reads_null() {
    if constexpr (requires { Codec::reads_null; })
        return Codec::reads_null;
    else
        return false;
}

/// The path of `key` inside `path` ("benchmarks[3]" + "name").
inline std::string child_path(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
}

inline std::string element_path(const std::string& path, std::size_t index) {
    return path + "[" + std::to_string(index) + "]";
}

/// Runs a mapping with `write`: every field becomes a key of one object.
class writer {
public:
    writer() = default;
    /// A writer whose key `streamed` gets an empty array: its elements are written one at a time
    /// into the text (write_document).
    explicit writer(std::string_view streamed) : streamed_(streamed) {}

    template <class T>
    void operator()(std::string_view key, const T& value, field_options o = {}) {
        (*this)(key, value, value_codec<T>{}, o);
    }

    template <class T, field_codec Codec>
    void operator()(std::string_view key, const T& value, const Codec& codec, field_options o = {}) {
        if constexpr (requires { value.empty(); }) {
            if (o.omit_empty && value.empty())
                return;
        } else if constexpr (requires { value.has_value(); }) {
            if (o.omit_empty && !value.has_value())
                return;
        }
        if (!streamed_.empty() && key == streamed_) {
            out_[std::string(key)] = json::array();
            return;
        }
        out_[std::string(key)] = o.write_null ? json(nullptr) : json(codec.write(value));
    }

    /// An object of its own in the JSON whose fields belong to the model type being mapped
    /// (`fn(sub)` maps them with a visitor of the same kind).
    template <class Fn>
    void object(std::string_view key, field_options o, Fn&& fn) {
        writer sub;
        fn(sub);
        out_[std::string(key)] = o.write_null ? json(nullptr) : sub.take();
    }

    /// Output computed from other fields (`fn()` gives the JSON); the reader skips it.
    template <class Fn>
    void derived(std::string_view key, Fn&& fn) {
        out_[std::string(key)] = fn();
    }

    json take() { return std::move(out_); }

private:
    json out_ = json::object();
    std::string_view streamed_;
};

/// The rows of a document mapped one at a time as the parser completes them (io/json_stream.hpp):
/// the top-level key whose array they are, and the first row's error, thrown where the mapping
/// reads that key, so that errors come in the order a whole tree gives them.
struct streamed_rows {
    std::string_view key;
    std::exception_ptr error;
};

/// Runs a mapping with `read`: every field is looked up by key in one object.
class reader {
public:
    reader(const json& object, std::string path, const streamed_rows* streamed = nullptr)
        : object_(object), path_(std::move(path)), streamed_(streamed) {}

    template <class T>
    void operator()(std::string_view key, T& value, field_options o = {}) {
        (*this)(key, value, value_codec<T>{}, o);
    }

    template <class T, field_codec Codec>
    void operator()(std::string_view key, T& value, const Codec& codec, field_options o = {}) {
        const json* j = find(key, o, reads_null<Codec>());
        if (j != nullptr && streamed_ != nullptr && key == streamed_->key && j->is_array()) {
            if (streamed_->error)
                std::rethrow_exception(streamed_->error);
            return;  // read already, row by row
        }
        if (j != nullptr)
            codec.read(*j, value, child_path(path_, key), object_);
    }

    template <class Fn>
    void object(std::string_view key, field_options o, Fn&& fn) {
        if (const json* j = find(key, o, false)) {
            if (!j->is_object())
                throw field_error(child_path(path_, key), "expected an object");
            reader sub(*j, child_path(path_, key));
            fn(sub);
        }
    }

    template <class Fn>
    void derived(std::string_view, Fn&&) {}

private:
    // The value at `key`, or nullptr when the model keeps its value: the key is missing, or it is
    // null where null means "not measured".
    const json* find(std::string_view key, field_options o, bool codec_reads_null) const {
        const auto it = object_.find(key);
        if (it == object_.end()) {
            if (o.required)
                throw field_error(child_path(path_, key), "missing");
            return nullptr;
        }
        if (it->is_null() && o.nullable && !codec_reads_null)
            return nullptr;
        return &*it;
    }

    const json& object_;
    std::string path_;
    const streamed_rows* streamed_;
};

// ---------------------------------------------------------------------------------------------
// Values.

template <class T>
struct value_codec {
    static json write(const T& value) {
        writer w;
        fields<T>::map(w, value);
        return w.take();
    }
    static void read(const json& j, T& value, const std::string& path, const json& = {}) {
        if (!j.is_object())
            throw field_error(path, "expected an object");
        reader r(j, path);
        fields<T>::map(r, value);
        // A mapping may check what its fields hold together (ranges, order): `check(value, path)`.
        if constexpr (requires { fields<T>::check(value, path); })
            fields<T>::check(value, path);
    }
};

template <>
struct value_codec<std::string> {
    static json write(const std::string& value) { return value; }
    static void read(const json& j, std::string& value, const std::string& path, const json& = {}) {
        if (!j.is_string())
            throw field_error(path, "expected a string");
        value = j.get<std::string>();
    }
};

template <>
struct value_codec<bool> {
    static json write(bool value) { return value; }
    static void read(const json& j, bool& value, const std::string& path, const json& = {}) {
        if (!j.is_boolean())
            throw field_error(path, "expected a boolean");
        value = j.get<bool>();
    }
};

/// A double: non-finite is written as null, null is read as NaN.
template <>
struct value_codec<double> {
    static constexpr bool reads_null = true;
    static json write(double value) { return finite_or_null(value); }
    static void read(const json& j, double& value, const std::string& path, const json& = {}) {
        if (j.is_null()) {
            value = std::numeric_limits<double>::quiet_NaN();
            return;
        }
        if (!j.is_number())
            throw field_error(path, "expected a number");
        value = j.get<double>();
    }
};

/// What a mapping's `check` tests a figure with: a time, a count or a rate per iteration is never
/// negative; NaN (a null: not measured) passes. Without it a hand-edited `-3` allocations would be
/// printed and compared as if measured.
inline void check_non_negative(double value, const std::string& path) {
    if (value < 0)
        throw field_error(path, "expected a non-negative number");
}
template <class T>
void check_non_negative(const std::optional<T>& value, const std::string& path) {
    if (value)
        check_non_negative(static_cast<double>(*value), path);
}
inline void check_non_negative(const std::vector<double>& values, const std::string& path) {
    for (std::size_t i = 0; i < values.size(); ++i)
        check_non_negative(values[i], element_path(path, i));
}

/// An interval's bounds in order (`path` names the object holding ci_low and ci_high).
inline void check_interval(const std::optional<interval>& i, const std::string& path) {
    if (i && i->low > i->high)
        throw field_error(child_path(path, "ci_low"), "is above ci_high (" + std::to_string(i->high) + ")");
}

/// The integer at `j` in [low, high]: a fraction, a negative count or a value outside the range
/// is an error. A float with an integral value (4096.0) is accepted.
std::int64_t read_signed(const json& j, std::int64_t low, std::int64_t high, const std::string& path);
std::uint64_t read_unsigned(const json& j, std::uint64_t high, const std::string& path);

template <class T>
concept count = std::integral<T> && !std::same_as<T, bool>;

/// An integer: null leaves the model's value.
template <count T>
struct value_codec<T> {
    static constexpr bool reads_null = true;
    static json write(T value) { return value; }
    static void read(const json& j, T& value, const std::string& path, const json& = {}) {
        using limits = std::numeric_limits<T>;
        if (j.is_null())
            return;
        // A count past 2^63 - 1 is no count any run makes, and many JSON readers cannot hold it.
        constexpr auto high =
            std::min<std::uint64_t>(limits::max(), std::numeric_limits<std::int64_t>::max());
        if constexpr (std::is_unsigned_v<T>)
            value = static_cast<T>(read_unsigned(j, high, path));
        else
            value = static_cast<T>(read_signed(j, limits::min(), limits::max(), path));
    }
};

/// Empty is null; a value is written by its own codec.
template <class T>
struct value_codec<std::optional<T>> {
    static constexpr bool reads_null = true;
    static json write(const std::optional<T>& value) {
        return value ? json(value_codec<T>::write(*value)) : json(nullptr);
    }
    static void read(const json& j, std::optional<T>& value, const std::string& path,
                     const json& parent = {}) {
        if (j.is_null()) {
            value.reset();
            return;
        }
        T v{};
        value_codec<T>::read(j, v, path, parent);
        value = std::move(v);
    }
};

/// A boxed part as an optional one: empty is null.
template <class T>
struct value_codec<boxed<T>> {
    static constexpr bool reads_null = true;
    static json write(const boxed<T>& value) {
        return value ? json(value_codec<T>::write(*value)) : json(nullptr);
    }
    static void read(const json& j, boxed<T>& value, const std::string& path, const json& parent = {}) {
        if (j.is_null()) {
            value.reset();
            return;
        }
        value_codec<T>::read(j, value.emplace(), path, parent);
    }
};

template <class T>
struct value_codec<std::vector<T>> {
    static json write(const std::vector<T>& values) {
        json out = json::array();
        for (const T& v : values)
            out.push_back(value_codec<T>::write(v));
        return out;
    }
    static void read(const json& j, std::vector<T>& values, const std::string& path, const json& = {}) {
        if (!j.is_array())
            throw field_error(path, "expected an array");
        values.clear();
        values.reserve(j.size());
        for (std::size_t i = 0; i < j.size(); ++i) {
            T v{};
            value_codec<T>::read(j[i], v, element_path(path, i), j);
            values.push_back(std::move(v));
        }
    }
};

/// An array written as null when empty (and read back from null as empty).
struct null_if_empty {
    template <class T>
    json write(const std::vector<T>& values) const {
        return values.empty() ? json(nullptr) : value_codec<std::vector<T>>::write(values);
    }
    template <class T>
    void read(const json& j, std::vector<T>& values, const std::string& path, const json& parent) const {
        value_codec<std::vector<T>>::read(j, values, path, parent);
    }
};

/// `"a", "b" or "c"`.
std::string one_of(const std::vector<std::string_view>& names);

/// An enum written as one of a fixed set of names.
template <class E, std::size_t N>
struct enum_names {
    std::array<std::pair<E, std::string_view>, N> names;

    json write(E value) const {
        for (const auto& [e, name] : names) {
            if (e == value)
                return std::string(name);
        }
        return std::string(names.front().second);
    }
    void read(const json& j, E& value, const std::string& path, const json& = {}) const {
        if (j.is_string()) {
            const auto& text = j.get_ref<const std::string&>();
            for (const auto& [e, name] : names) {
                if (name == text) {
                    value = e;
                    return;
                }
            }
        }
        std::vector<std::string_view> all;
        for (const auto& entry : names)
            all.push_back(entry.second);
        throw field_error(path, "expected " + one_of(all));
    }
};

/// "faster", "slower" or "no_change" (model/change.hpp).
inline constexpr enum_names<verdict, 4> verdict_codec{
    {{{verdict::faster, verdict_name(verdict::faster)},
      {verdict::slower, verdict_name(verdict::slower)},
      {verdict::no_change, verdict_name(verdict::no_change)},
      {verdict::error, verdict_name(verdict::error)}}}};

/// One bound of an optional interval, written as its own key: null when there is no interval.
/// Reading either bound makes the interval; a null bound of an interval is NaN, as a double.
struct interval_bound {
    double interval::*bound;
    static constexpr bool reads_null = true;

    json write(const std::optional<interval>& i) const {
        return i ? finite_or_null((*i).*bound) : json(nullptr);
    }
    void read(const json& j, std::optional<interval>& i, const std::string& path, const json& = {}) const {
        if (j.is_null() && !i)
            return;
        if (!i) {
            constexpr double nan = std::numeric_limits<double>::quiet_NaN();
            i = interval{nan, nan};
        }
        value_codec<double>::read(j, (*i).*bound, path);
    }
};
inline constexpr interval_bound ci_low{&interval::low};
inline constexpr interval_bound ci_high{&interval::high};

/// The keys of a change object: tare-compare/1 adds the interval's level and replicates, since
/// its level is family-adjusted; tare-exec/1 has the p-value; the comparisons of tare/1's
/// groups have their level and p-value beside the object.
enum class change_shape { interval_only, with_p_value, with_level_and_p_value };

struct change_codec {
    change_shape shape;

    template <class V, class C>
    void map(V& v, C& c) const {
        v("mean", c.change_pct);
        v("ci_low", c.interval_pct, ci_low);
        v("ci_high", c.interval_pct, ci_high);
        if (shape == change_shape::with_level_and_p_value) {
            v("confidence", c.confidence);
            v("pairs", c.pairs);
        }
        if (shape != change_shape::interval_only)
            v("p_value", c.p_value);
        if (shape == change_shape::with_level_and_p_value) {
            // What the interval is made of, so that `tare merge` can judge shards as one family.
            v("log_se", c.log_se);
            v("df", c.df);
        }
    }

    static constexpr bool reads_null = true;
    json write(const std::optional<paired_change>& c) const {
        if (!c)
            return nullptr;
        writer w;
        map(w, *c);
        return w.take();
    }
    void read(const json& j, std::optional<paired_change>& c, const std::string& path,
              const json& = {}) const {
        if (j.is_null()) {
            c.reset();
            return;
        }
        if (!j.is_object())
            throw field_error(path, "expected an object");
        paired_change out;
        reader r(j, path);
        map(r, out);
        // The file keeps the change in percent; the model also holds its log, which the
        // intervals and p-values are made of (stats/difference.hpp).
        if (out.change_pct > -100)
            out.mean_log_ratio = std::log1p(out.change_pct / 100);
        check_interval(out.interval_pct, path);
        if (!(out.p_value >= 0 && out.p_value <= 1) && !std::isnan(out.p_value))
            throw field_error(child_path(path, "p_value"), "expected a number in [0, 1]");
        // 1 only for an exact change (counts: docs/instructions.md), whose interval is the point.
        if (!(out.confidence > 0 && out.confidence <= 1) && !std::isnan(out.confidence))
            throw field_error(child_path(path, "confidence"), "expected a number in (0, 1]");
        if (!(out.log_se >= 0))
            throw field_error(child_path(path, "log_se"), "expected a number >= 0");
        if (!(out.df >= 0))
            throw field_error(child_path(path, "df"), "expected a number >= 0");
        c = out;
    }
};

template <>
struct fields<warning> {
    template <class V, class W>
    static void map(V& v, W& w) {
        v("kind", w.kind);
        v("message", w.message);
    }
};

template <>
struct fields<error_info> {
    template <class V, class E>
    static void map(V& v, E& e) {
        v("kind", e.kind);
        v("message", e.message);
    }
};

}  // namespace tare::io::codec
