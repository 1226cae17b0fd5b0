#pragma once
// A benchmark's samples as a row holds them: its times and heap levels always, its counts only
// when some sample has one.

#include <compare>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <vector>

#include "model/sample.hpp"

namespace tare {

/// The samples of a benchmark_result, read and written as tare::sample values. A sample's
/// allocation, byte, fault, copy and mapping counts are kept apart from its time and heap
/// level, and only once one of them is not 0: a run read back from a file has none (the file
/// keeps per-iteration figures only), and its samples take 32 bytes each instead of a whole
/// sample's 80. A file of tare's own loop holds hundreds of samples a row at some 27 bytes of
/// JSON each, so held whole they took over three times the file (bench/README.md, "Samples read
/// back"). Rejected: a second, smaller record type for rows read back, which every reporter,
/// merge and comparison would have had to take beside the one a run makes.
class sample_list {
public:
    /// A sample as a value: what `*it` and `->` give.
    class const_iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = sample;
        using difference_type = std::ptrdiff_t;
        using reference = sample;
        struct pointer {
            sample value;
            const sample* operator->() const { return &value; }
        };

        const_iterator() = default;
        const_iterator(const sample_list* list, std::size_t at) : list_(list), at_(at) {}
        sample operator*() const { return (*list_)[at_]; }
        pointer operator->() const { return {(*list_)[at_]}; }
        sample operator[](difference_type n) const { return *(*this + n); }
        const_iterator& operator++() {
            ++at_;
            return *this;
        }
        const_iterator operator++(int) {
            const_iterator before = *this;
            ++at_;
            return before;
        }
        const_iterator& operator--() {
            --at_;
            return *this;
        }
        const_iterator operator--(int) {
            const_iterator before = *this;
            --at_;
            return before;
        }
        const_iterator& operator+=(difference_type n) {
            at_ = static_cast<std::size_t>(static_cast<difference_type>(at_) + n);
            return *this;
        }
        const_iterator& operator-=(difference_type n) { return *this += -n; }
        friend const_iterator operator+(const_iterator it, difference_type n) { return it += n; }
        friend const_iterator operator+(difference_type n, const_iterator it) { return it += n; }
        friend const_iterator operator-(const_iterator it, difference_type n) { return it -= n; }
        friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
            return static_cast<difference_type>(a.at_) - static_cast<difference_type>(b.at_);
        }
        friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.at_ == b.at_; }
        friend auto operator<=>(const const_iterator& a, const const_iterator& b) { return a.at_ <=> b.at_; }

    private:
        const sample_list* list_ = nullptr;
        std::size_t at_ = 0;
    };

    sample_list() = default;
    explicit sample_list(const std::vector<sample>& samples) {
        reserve(samples.size());
        for (const sample& s : samples)
            push_back(s);
    }

    [[nodiscard]] std::size_t size() const noexcept { return heads_.size(); }
    [[nodiscard]] bool empty() const noexcept { return heads_.empty(); }
    /// Whether any sample counted something: the counts are then held, one set a sample.
    [[nodiscard]] bool has_counts() const noexcept { return !counts_.empty(); }

    sample operator[](std::size_t i) const {
        const head& h = heads_[i];
        sample s;
        s.iterations = h.iterations;
        s.elapsed_ns = h.elapsed_ns;
        s.live_bytes_end = h.live_bytes_end;
        s.iterations_before = h.iterations_before;
        if (!counts_.empty()) {
            const counts& c = counts_[i];
            s.allocs = c.allocs;
            s.bytes = c.bytes;
            s.page_faults = c.page_faults;
            s.copied_bytes = c.copied_bytes;
            s.set_bytes = c.set_bytes;
            s.mapped_bytes = c.mapped_bytes;
        }
        return s;
    }
    /// As operator[], checked: std::out_of_range past the end.
    [[nodiscard]] sample at(std::size_t i) const {
        if (i >= size())
            throw std::out_of_range("sample_list::at");
        return (*this)[i];
    }
    [[nodiscard]] sample front() const { return (*this)[0]; }
    [[nodiscard]] sample back() const { return (*this)[size() - 1]; }
    [[nodiscard]] const_iterator begin() const { return {this, 0}; }
    [[nodiscard]] const_iterator end() const { return {this, size()}; }

    void reserve(std::size_t n) {
        heads_.reserve(n);
        if (!counts_.empty())
            counts_.reserve(n);
    }
    void clear() noexcept {
        heads_.clear();
        counts_.clear();
    }
    void push_back(const sample& s) {
        heads_.push_back({s.iterations, s.elapsed_ns, s.live_bytes_end, s.iterations_before});
        put_counts(heads_.size() - 1, s);
    }
    /// Replaces the `i`-th sample.
    void set(std::size_t i, const sample& s) {
        heads_[i] = {s.iterations, s.elapsed_ns, s.live_bytes_end, s.iterations_before};
        put_counts(i, s);
    }
    void assign(std::size_t n, const sample& s) {
        clear();
        reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            push_back(s);
    }
    /// Appends every sample of `other`.
    void append(const sample_list& other) {
        reserve(size() + other.size());
        for (const sample& s : other)
            push_back(s);
    }
    [[nodiscard]] std::vector<sample> to_vector() const {
        std::vector<sample> out;
        out.reserve(size());
        for (const sample& s : *this)
            out.push_back(s);
        return out;
    }

    friend bool operator==(const sample_list& a, const sample_list& b) {
        if (a.size() != b.size())
            return false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (!(a[i] == b[i]))
                return false;
        }
        return true;
    }

private:
    struct head {
        std::uint64_t iterations;
        double elapsed_ns;
        std::int64_t live_bytes_end;
        std::uint64_t iterations_before;
    };
    struct counts {
        std::uint64_t allocs;
        std::uint64_t bytes;
        std::uint64_t page_faults;
        std::uint64_t copied_bytes;
        std::uint64_t set_bytes;
        std::uint64_t mapped_bytes;
    };

    void put_counts(std::size_t i, const sample& s) {
        const counts c{s.allocs, s.bytes, s.page_faults, s.copied_bytes, s.set_bytes, s.mapped_bytes};
        const bool none = c.allocs == 0 && c.bytes == 0 && c.page_faults == 0 && c.copied_bytes == 0 &&
                          c.set_bytes == 0 && c.mapped_bytes == 0;
        if (counts_.empty()) {
            if (none)
                return;
            counts_.reserve(heads_.capacity());
        }
        counts_.resize(heads_.size(), counts{});
        counts_[i] = c;
    }

    std::vector<head> heads_;
    std::vector<counts> counts_;  // empty, or one a sample
};

}  // namespace tare
