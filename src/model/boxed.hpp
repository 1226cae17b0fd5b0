#pragma once
// An optional value held on the heap, for the rare parts of rows a file holds a million of.

#include <memory>
#include <optional>
#include <utility>

namespace tare {

/// std::optional<T> kept out of line: a pointer's size in a row that has none, the value's
/// whole size besides in a row that has one, and copied as a value. For parts few rows carry (an
/// error, a counted run's instruction counts, a profile, an allocation-sites pass): in place, a
/// std::optional kept their full size in every row, more than a third of a benchmark_result and
/// of a compare_row (bench/README.md, "Tables of a million rows"). Rejected: std::unique_ptr,
/// which every copy of a row would have to deep-copy by hand.
template <class T>
class boxed {
public:
    boxed() noexcept = default;
    // Implicit, as std::optional's: a row's part is assigned a value, an optional or nothing.
    boxed(std::nullopt_t) noexcept {}
    boxed(T value) : value_(std::make_unique<T>(std::move(value))) {}
    boxed(const std::optional<T>& value) : value_(value ? std::make_unique<T>(*value) : nullptr) {}
    boxed(const boxed& other) : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {}
    boxed(boxed&&) noexcept = default;
    boxed& operator=(const boxed& other) {
        if (this != &other)
            value_ = other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
        return *this;
    }
    boxed& operator=(boxed&&) noexcept = default;
    ~boxed() = default;

    bool has_value() const noexcept { return value_ != nullptr; }
    explicit operator bool() const noexcept { return has_value(); }
    T& operator*() noexcept { return *value_; }
    const T& operator*() const noexcept { return *value_; }
    T* operator->() noexcept { return value_.get(); }
    const T* operator->() const noexcept { return value_.get(); }

    template <class... Args>
    T& emplace(Args&&... args) {
        value_ = std::make_unique<T>(std::forward<Args>(args)...);
        return *value_;
    }
    void reset() noexcept { value_.reset(); }

    friend bool operator==(const boxed& a, const boxed& b) {
        return a.has_value() == b.has_value() && (!a.has_value() || *a == *b);
    }

private:
    std::unique_ptr<T> value_;
};

}  // namespace tare
