// Seed case 000: a columnar round trip whose write benchmarks cleared the output buffer outside
// the timed loop, so every iteration appended one more whole file to the same buffer.
//
// One source, two executables: round_trip_before (TARE_CLEAR_INSIDE=0, the bug) and
// round_trip_after (TARE_CLEAR_INSIDE=1, the fix). The benchmark names are the same in both so
// that the two runs line up row by row (and are the demo pair for `tare compare`).
#include <tare/tare.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "column_file.hpp"

#ifndef TARE_CLEAR_INSIDE
#error "define TARE_CLEAR_INSIDE to 0 (round_trip_before) or 1 (round_trip_after)"
#endif

namespace {

// Rows per file: 128 Ki values make a 512 KiB int32 file and a 3 MiB String(20) file, large
// enough that the before build's growth is unmistakable within a 0.05 s budget, and small
// enough that a 0.5 s budget keeps it to a few hundred MiB (the report saw 602 MiB peak RSS).
constexpr std::size_t rows = std::size_t{1} << 17;

std::uint64_t next_random(std::uint64_t& s) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
}

std::vector<std::int32_t> plain_values() {
    std::vector<std::int32_t> v(rows);
    std::uint64_t s = 0x9E3779B97F4A7C15ULL;
    for (auto& e : v) {
        e = static_cast<std::int32_t>(next_random(s));
    }
    return v;
}

// 1,000 distinct values in runs of 1 to 24, so the indices use both RLE and bit-packed runs.
std::vector<std::int32_t> dict_values() {
    std::vector<std::int32_t> v;
    v.reserve(rows);
    std::uint64_t s = 0xD1B54A32D192ED03ULL;
    while (v.size() < rows) {
        const auto value = static_cast<std::int32_t>(next_random(s) % 1000) * 7919;
        const auto run = static_cast<std::size_t>(next_random(s) % 24 + 1);
        for (std::size_t k = 0; k < run && v.size() < rows; ++k) {
            v.push_back(value);
        }
    }
    return v;
}

std::vector<std::string> string_values() {
    std::vector<std::string> v(rows, std::string(20, ' '));
    std::uint64_t s = 0x2545F4914F6CDD1DULL;
    for (auto& str : v) {
        for (auto& c : str) {
            c = static_cast<char>('a' + next_random(s) % 26);
        }
    }
    return v;
}

// The write benchmarks: the only difference between the two builds is where clear() is.
template <class Values, class Write>
void write_bench(tare::State& state, const Values& values, Write write, double value_bytes) {
    column_file::bytes out;
    state.set_bytes_per_iteration(value_bytes);
#if !TARE_CLEAR_INSIDE
    out.clear();  // the bug: cleared once, so each iteration appends another whole file
#endif
    for (auto _ : state) {
#if TARE_CLEAR_INSIDE
        out.clear();  // the fix: one file per iteration; the capacity stays
#endif
        write(values, out);
        tare::do_not_optimize(out.data());
    }
    state.set_counter("buffer_mib", static_cast<double>(out.size()) / (1 << 20));
}

void write_int32_plain(tare::State& state) {
    const auto values = plain_values();
    write_bench(state, values, column_file::write_int32_plain, rows * 4.0);
}

void write_int32_dict(tare::State& state) {
    const auto values = dict_values();
    write_bench(state, values, column_file::write_int32_dict, rows * 4.0);
}

void write_string20_plain(tare::State& state) {
    const auto values = string_values();
    write_bench(state, values, column_file::write_string_plain, rows * 20.0);
}

// The read benchmarks read the file written in setup, with resident outputs; they are the
// same in both builds (the reader finds the last file by its footer, as Parquet's does).
template <class Values, class Write>
void read_int32_bench(tare::State& state, const Values& values, Write write) {
    column_file::bytes file;
    write(values, file);
    std::vector<std::int32_t> decoded;
    column_file::read_int32(file, decoded);  // grows the output once, outside the loop
    if (decoded != values) {
        state.skip_with_error("round trip mismatch");
        return;
    }
    state.set_bytes_per_iteration(rows * 4.0);
    for (auto _ : state) {
        column_file::read_int32(file, decoded);
        tare::do_not_optimize(decoded.data());
    }
}

void read_int32_plain(tare::State& state) {
    read_int32_bench(state, plain_values(), column_file::write_int32_plain);
}

void read_int32_dict(tare::State& state) {
    read_int32_bench(state, dict_values(), column_file::write_int32_dict);
}

void read_string20_plain(tare::State& state) {
    const auto values = string_values();
    column_file::bytes file;
    column_file::write_string_plain(values, file);
    std::vector<char> chars;
    std::vector<std::uint32_t> ends;
    column_file::read_strings(file, chars, ends);
    if (ends.size() != rows || std::string(chars.data() + ends[0], 20) != values[1]) {
        state.skip_with_error("round trip mismatch");
        return;
    }
    state.set_bytes_per_iteration(rows * 20.0);
    for (auto _ : state) {
        column_file::read_strings(file, chars, ends);
        tare::do_not_optimize(chars.data());
    }
}

// Named as the report's rows ("write int32 plain" → write/int32_plain) so both builds line up.
[[maybe_unused]] const bool registered = [] {
    tare::register_benchmark("write/int32_plain", write_int32_plain);
    tare::register_benchmark("write/int32_dict", write_int32_dict);
    tare::register_benchmark("write/string20_plain", write_string20_plain);
    tare::register_benchmark("read/int32_plain", read_int32_plain);
    tare::register_benchmark("read/int32_dict", read_int32_dict);
    tare::register_benchmark("read/string20_plain", read_string20_plain);
    return true;
}();

}  // namespace
