// A benchmark executable written the way CONTRACT section 2 shows: used by the end-to-end
// tests of the executable's flags, exit codes and JSON.
#include <tare/tare.hpp>

#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

static std::vector<int> make_input(std::int64_t n) {
    std::vector<int> v(static_cast<std::size_t>(n));
    std::iota(v.begin(), v.end(), 0);
    return v;
}

static void encode(const std::vector<int>& in, std::vector<char>& out) {
    for (int x : in) {
        out.push_back(static_cast<char>(x & 0x7f));
    }
}

static void round_trip(tare::State& state) {
    std::vector<int> input = make_input(state.arg(0));
    std::vector<char> out;
    state.set_bytes_per_iteration(static_cast<double>(input.size() * sizeof(int)));
    for (auto _ : state) {
        out.clear();
        encode(input, out);
        tare::do_not_optimize(out.data());
    }
    state.set_counter("out_size", static_cast<double>(out.size()));
}
TARE_BENCHMARK(round_trip)->arg(1)->arg(1000);

static void sum_inputs(tare::State& state) {
    auto inputs = state.with_inputs([] { return make_input(64); });
    for (auto& v : inputs) {
        int s = std::accumulate(v.begin(), v.end(), 0);
        tare::do_not_optimize(s);
    }
}
TARE_BENCHMARK(sum_inputs);

static void throws_midway(tare::State& state) {
    int i = 0;
    for (auto _ : state) {
        if (++i == 100) {
            throw std::runtime_error("fixture exploded");
        }
    }
}
TARE_BENCHMARK(throws_midway);

static void empty_body(tare::State& state) {
    for (auto _ : state) {
    }
}
// Registered through the function API rather than the macro.
[[maybe_unused]] static auto* registered_empty = tare::register_benchmark("empty_body", empty_body);
