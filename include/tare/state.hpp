#pragma once
/// \file
/// tare::State: what a benchmark function receives, and the loop that is timed.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tare {

namespace detail {
class sample_driver;
/// Called by the runner while the clock and the memory window are stopped, to prepare
/// `count` untimed inputs for the next chunk of iterations (see tare::State::with_inputs).
using refill_fn = void (*)(void* ctx, std::uint64_t count);
}  // namespace detail

template <class T>
class input_batch;

/// The handle a benchmark body receives. Only the range-for loop over it is measured:
///
///     static void bm(tare::State& state) {
///         auto data = make(state.arg(0));  // setup: excluded from every figure
///         for (auto _ : state) {           // the timed region
///             work(data);
///         }
///     }
class State {
public:
    /// The value a loop variable takes; it exists so `for (auto _ : state)` compiles. Marked
    /// unused so the never-read loop variable draws no warning (Google Benchmark does the same).
    struct __attribute__((unused)) value {};

    /// The marker that ends the range. Comparing against it is the loop's only per-iteration
    /// work besides the decrement, which is what keeps an empty body at a fraction of a ns.
    struct sentinel {};

    class iterator {
    public:
        explicit iterator(State* state, std::uint64_t left) noexcept : state_(state), left_(left) {}
        // PERF: one compare and one decrement per iteration; the call out of line happens once
        // per chunk (a sample, or a batch of untimed inputs).
        bool operator!=(sentinel /*unused*/) noexcept {
            if (__builtin_expect(left_ != 0, 1)) {
                return true;
            }
            // By value, not through a reference to left_: an escaping address would keep
            // left_ in memory and add a load and a store to every iteration.
            left_ = state_->next_chunk(nullptr, nullptr);
            return left_ != 0;
        }
        iterator& operator++() noexcept {
            --left_;
            return *this;
        }
        value operator*() const noexcept { return {}; }

    private:
        State* state_;
        std::uint64_t left_;
    };

    /// Starts the timed region. Called by the range-for; not for direct use.
    iterator begin() { return iterator(this, start_loop(nullptr, nullptr)); }
    sentinel end() noexcept { return {}; }

    /// The i-th argument of this instance (`->arg(n)`); throws std::out_of_range if absent.
    std::int64_t arg(std::size_t i) const;
    /// All arguments of this instance.
    const std::vector<std::int64_t>& args() const noexcept { return args_; }
    /// The instance's name, e.g. "round_trip/1000".
    const std::string& name() const noexcept { return name_; }

    /// Declares that each iteration processes `n` bytes: reported as bytes/s.
    void set_bytes_per_iteration(double n) noexcept { bytes_per_iteration_ = n; }
    /// Declares that each iteration processes `n` items: reported as items/s.
    void set_items_per_iteration(double n) noexcept { items_per_iteration_ = n; }
    /// Sets a user counter, reported as is (per benchmark, not per iteration).
    void set_counter(std::string_view name, double v);

    /// Marks the benchmark as failed with `message`; the loop ends at its next chunk
    /// boundary (or does not start) and the result is an error row with kind "skipped".
    void skip_with_error(std::string_view message);

    /// Untimed per-iteration inputs: `make()` runs before each chunk of iterations with the
    /// clock and the memory window stopped; the loop then hands out one fresh input each
    /// iteration. Nothing is paused inside the loop:
    ///
    ///     auto inputs = state.with_inputs([&] { return shuffled(n); });
    ///     for (auto& v : inputs) { std::sort(v.begin(), v.end()); }
    template <class Make>
    auto with_inputs(Make make);

    /// Iterations measured so far (all samples, warm-up included).
    std::uint64_t iterations() const noexcept { return total_iterations_; }

    State(const State&) = delete;
    State& operator=(const State&) = delete;
    State(State&&) = delete;
    State& operator=(State&&) = delete;
    ~State() = default;

private:
    friend class detail::sample_driver;
    template <class T>
    friend class input_batch;

    State(std::string name, std::vector<std::int64_t> args, detail::sample_driver* driver)
        : name_(std::move(name)), args_(std::move(args)), driver_(driver) {}

    // Out of line: begins the region and returns the first chunk's iteration count.
    std::uint64_t start_loop(detail::refill_fn refill, void* ctx);
    // Out of line: closes a chunk; returns the next chunk's iteration count, 0 when the loop
    // is over.
    std::uint64_t next_chunk(detail::refill_fn refill, void* ctx);
    // The largest chunk a batch of inputs may be asked for (bounds its memory).
    std::uint64_t max_input_chunk() const noexcept;

    std::string name_;
    std::vector<std::int64_t> args_;
    detail::sample_driver* driver_;
    std::uint64_t total_iterations_ = 0;
    double bytes_per_iteration_ = 0;
    double items_per_iteration_ = 0;
    std::vector<std::pair<std::string, double>> counters_;
    std::string error_;
    bool errored_ = false;
    bool loop_started_ = false;
};

}  // namespace tare

#include "tare/inputs.hpp"
