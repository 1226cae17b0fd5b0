#pragma once
/// \file
/// Untimed per-iteration inputs (tare::State::with_inputs).
///
/// Why not pause the timer inside the loop, as Google Benchmark's PauseTiming does: each
/// pause and resume reads the clock and the allocation counters, which costs far more than
/// many bodies (about 1.4 us a pair on a small VM). Instead, as divan's `with_inputs` does,
/// a chunk of inputs is made before the chunk's clock starts; inside the loop the only work
/// is stepping a pointer. Inputs are made and destroyed outside the memory window too, so
/// their allocations are in no figure.

#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>
#include <vector>

#include "tare/state.hpp"

namespace tare {

/// A range over untimed inputs; obtained from State::with_inputs. Iterating it runs the
/// benchmark loop, exactly as iterating the State does.
template <class T>
class input_batch {
public:
    class iterator {
    public:
        iterator(input_batch* batch, T* cur, T* last) noexcept : batch_(batch), cur_(cur), last_(last) {}
        // PERF: a pointer compare per iteration; refills happen once per chunk.
        bool operator!=(State::sentinel /*unused*/) {
            if (__builtin_expect(cur_ != last_, 1)) {
                return true;
            }
            // By value, as in State::iterator: no escaping address, so cur_ stays in a register.
            chunk next = batch_->next();
            cur_ = next.first;
            last_ = next.last;
            return cur_ != last_;
        }
        iterator& operator++() noexcept {
            ++cur_;
            return *this;
        }
        T& operator*() const noexcept { return *cur_; }

    private:
        input_batch* batch_;
        T* cur_;
        T* last_;
    };

    template <class Make>
    input_batch(State& state, Make make) : state_(&state), make_(std::move(make)) {}

    iterator begin() {
        std::uint64_t n = state_->start_loop(&input_batch::refill, this);
        return iterator(this, items_.data(), items_.data() + n);
    }
    State::sentinel end() noexcept { return {}; }

private:
    static void refill(void* ctx, std::uint64_t count) {
        auto* self = static_cast<input_batch*>(ctx);
        self->items_.clear();  // the previous chunk's inputs die here, outside the window
        if (self->items_.capacity() < count) {
            self->items_.reserve(static_cast<std::size_t>(count));
        }
        for (std::uint64_t i = 0; i < count; ++i) {
            self->items_.push_back(self->make_());
        }
    }

    struct chunk {
        T* first;
        T* last;
    };

    chunk next() {
        std::uint64_t n = state_->next_chunk(&input_batch::refill, this);
        if (n == 0) {
            items_.clear();
            return {nullptr, nullptr};
        }
        return {items_.data(), items_.data() + n};
    }

    State* state_;
    std::function<T()> make_;
    std::vector<T> items_;
};

template <class Make>
auto State::with_inputs(Make make) {
    using input_type = std::decay_t<std::invoke_result_t<Make&>>;
    return input_batch<input_type>(*this, std::move(make));
}

}  // namespace tare
