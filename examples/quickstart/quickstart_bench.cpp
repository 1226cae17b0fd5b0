// The quickstart suite: two of the seed cases in miniature, each as the buggy benchmark and
// the fixed one side by side, so the table shows what tare sees at a glance.
//
// - output_* (seed case 000): a round trip that clears its output buffer outside the loop
//   keeps every iteration's output; tare flags retained_growth. Cleared inside: flat.
// - copy_* (seed case 003): copying into a freshly allocated buffer each iteration makes the
//   kernel map new pages every time; tare shows page faults per iteration and fresh_memory.
#include <tare/tare.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

// A tiny "encoder": varint-encodes the input into `out`.
void encode(const std::vector<std::uint32_t>& in, std::vector<std::uint8_t>& out) {
    for (std::uint32_t v : in) {
        while (v >= 0x80) {
            out.push_back(static_cast<std::uint8_t>(v | 0x80));
            v >>= 7;
        }
        out.push_back(static_cast<std::uint8_t>(v));
    }
}

std::vector<std::uint32_t> make_input(std::size_t n) {
    std::vector<std::uint32_t> v(n);
    std::uint32_t x = 12345;
    for (auto& e : v) {
        x = x * 1664525 + 1013904223;
        e = x >> (x & 15);
    }
    return v;
}

void output_cleared_outside(tare::State& state) {
    const auto input = make_input(static_cast<std::size_t>(state.arg(0)));
    std::vector<std::uint8_t> out;
    state.set_items_per_iteration(static_cast<double>(input.size()));
    out.clear();  // the bug of seed case 000: every iteration appends another whole file
    for (auto _ : state) {
        encode(input, out);
        tare::do_not_optimize(out.data());
    }
}
TARE_BENCHMARK(output_cleared_outside)->arg(4096);

void output_cleared_inside(tare::State& state) {
    const auto input = make_input(static_cast<std::size_t>(state.arg(0)));
    std::vector<std::uint8_t> out;
    state.set_items_per_iteration(static_cast<double>(input.size()));
    for (auto _ : state) {
        out.clear();  // the fix: capacity is kept, contents are not
        encode(input, out);
        tare::do_not_optimize(out.data());
    }
}
TARE_BENCHMARK(output_cleared_inside)->arg(4096);

void copy_into_fresh_buffer(tare::State& state) {
    const auto size = static_cast<std::size_t>(state.arg(0)) << 20;
    const std::vector<char> source(size, 'x');
    state.set_bytes_per_iteration(static_cast<double>(size));
    for (auto _ : state) {
        std::vector<char> sink(source.begin(), source.end());  // fresh pages every time
        tare::do_not_optimize(sink.data());
    }
}
TARE_BENCHMARK(copy_into_fresh_buffer)->arg(64);

void copy_into_resident_buffer(tare::State& state) {
    const auto size = static_cast<std::size_t>(state.arg(0)) << 20;
    const std::vector<char> source(size, 'x');
    std::vector<char> sink(size);
    state.set_bytes_per_iteration(static_cast<double>(size));
    for (auto _ : state) {
        std::memcpy(sink.data(), source.data(), size);
        tare::do_not_optimize(sink.data());
    }
}
TARE_BENCHMARK(copy_into_resident_buffer)->arg(64);

// Each bug beside its fix as a comparison group (docs/variants.md): run interleaved, and printed
// after the main table as the fix against the bug, with both sides' memory; the bug is the
// baseline, as "before" in `tare compare before after`.
TARE_VARIANTS("output", output_cleared_outside, output_cleared_inside);
TARE_VARIANTS("copy", copy_into_fresh_buffer, copy_into_resident_buffer);

}  // namespace
