#pragma once
/// \file
/// Registering benchmarks: the function API under the TARE_* macros.

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "tare/state.hpp"

namespace tare {

/// A benchmark body.
using benchmark_function = std::function<void(State&)>;

/// A registered benchmark; its setters chain, Google Benchmark style:
///
///     tare::register_benchmark("sum", sum)->arg(10)->arg(1000);
class benchmark {
public:
    benchmark(std::string name, benchmark_function fn) : name_(std::move(name)), fn_(std::move(fn)) {}

    /// Adds an instance with one argument, named "name/n"; read with state.arg(0).
    benchmark* arg(std::int64_t n) {
        arg_sets_.push_back({n});
        return this;
    }
    /// Adds an instance with several arguments, named "name/a/b/...".
    benchmark* args(std::initializer_list<std::int64_t> values) {
        arg_sets_.emplace_back(values);
        return this;
    }
    /// Adds one instance for each value of `values`.
    benchmark* range(std::initializer_list<std::int64_t> values) {
        for (std::int64_t v : values) {
            arg(v);
        }
        return this;
    }
    /// Fixes the iterations of every sample (no calibration); useful for bodies whose
    /// iteration count matters, such as one that keeps memory per iteration.
    benchmark* iterations(std::uint64_t n) {
        iterations_ = n;
        return this;
    }
    /// Fixes the number of measured samples (default: as many as the time budget allows).
    benchmark* samples(std::uint64_t n) {
        samples_ = n;
        return this;
    }
    /// Overrides the time budget (seconds) for this benchmark.
    benchmark* min_time(double seconds) {
        min_time_ = seconds;
        return this;
    }
    /// Caps how many untimed inputs (with_inputs) exist at once: bounds their memory.
    benchmark* input_chunk(std::uint64_t n) {
        input_chunk_ = n;
        return this;
    }

    const std::string& name() const noexcept { return name_; }
    const benchmark_function& function() const noexcept { return fn_; }
    const std::vector<std::vector<std::int64_t>>& arg_sets() const noexcept { return arg_sets_; }
    std::uint64_t fixed_iterations() const noexcept { return iterations_; }
    std::uint64_t fixed_samples() const noexcept { return samples_; }
    double min_time() const noexcept { return min_time_; }
    std::uint64_t input_chunk() const noexcept { return input_chunk_; }

private:
    std::string name_;
    benchmark_function fn_;
    std::vector<std::vector<std::int64_t>> arg_sets_;
    std::uint64_t iterations_ = 0;
    std::uint64_t samples_ = 0;
    double min_time_ = 0;
    std::uint64_t input_chunk_ = 0;
};

/// Registers `fn` under `name` in the process-wide registry and returns it for chaining.
/// The registry owns the benchmark; the pointer stays valid for the life of the process.
benchmark* register_benchmark(std::string name, benchmark_function fn);

/// Every registered benchmark, in registration order.
const std::vector<benchmark*>& registered_benchmarks();

}  // namespace tare
