#pragma once
// The RLE / bit-packed hybrid encoding of Parquet, for dictionary indices and definition levels:
// a run is either <varint(count << 1)><value in ceil(bit_width / 8) bytes> (RLE) or
// <varint(groups << 1 | 1)><groups * 8 values, bit_width bits each, LSB first> (bit-packed).

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rle_hybrid {

/// Bits needed for values up to `max_value` (0 for a single value 0).
int bit_width(std::uint32_t max_value);

/// Appends `n` values of `bit_width` bits to `out`. Runs of 8 or more equal values become RLE
/// runs; the rest are bit-packed in groups of 8, the last group padded with zeros.
void encode(const std::uint32_t* values, std::size_t n, int bit_width, std::vector<std::uint8_t>& out);

/// Decodes `n` values from `in` into `values`; returns the bytes consumed.
std::size_t decode(const std::uint8_t* in, int bit_width, std::size_t n, std::uint32_t* values);

/// A run-at-a-time reader, for skipping without materialising values (see skip_records).
class run_reader {
public:
    run_reader(const std::uint8_t* in, int bit_width) : in_(in), bit_width_(bit_width) {}
    /// Reads up to `n` values into `out` (null: counts only, skipping bit-packed bytes as a
    /// whole); returns how many were read, less than n only when the data ends.
    std::size_t next(std::size_t n, std::uint32_t* out, const std::uint8_t* end);

private:
    const std::uint8_t* in_;
    int bit_width_;
    std::size_t rle_left_ = 0;
    std::uint32_t rle_value_ = 0;
    std::size_t packed_left_ = 0;  // values left in the current bit-packed run
    std::uint64_t bit_pos_ = 0;    // bit offset of the next packed value from packed_base_
    const std::uint8_t* packed_base_ = nullptr;
};

}  // namespace rle_hybrid
