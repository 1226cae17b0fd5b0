#pragma once
// A small columnar "file" in the shape of a Parquet column chunk: pages of 8,192 values, each
// with a header (encoding, value count, byte length, CRC-32 of the body), and a footer that
// indexes the pages. Three column kinds, as in the seed report's benchmarks:
//   int32 plain       little-endian values
//   int32 dictionary  a dictionary page of distinct values, then data pages of indices in the
//                     RLE / bit-packed hybrid (rle_hybrid.hpp)
//   String(20) plain  <u32 length><bytes> per value (Parquet's BYTE_ARRAY plain)

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace column_file {

using bytes = std::vector<std::uint8_t>;

/// Appends one whole file to `out`. Appends, never clears: clearing is the caller's choice,
/// which is exactly what seed case 000 is about.
void write_int32_plain(const std::vector<std::int32_t>& values, bytes& out);
void write_int32_dict(const std::vector<std::int32_t>& values, bytes& out);
void write_string_plain(const std::vector<std::string>& values, bytes& out);

/// Reads the last file in `in` (its footer is at the end) into `values`, which is cleared
/// first and keeps its capacity. Throws std::runtime_error on a bad magic number or CRC.
void read_int32(const bytes& in, std::vector<std::int32_t>& values);
/// Strings are returned as one concatenated buffer plus end offsets, as Arrow does, so that a
/// resident output allocates nothing once it has grown.
void read_strings(const bytes& in, std::vector<char>& chars, std::vector<std::uint32_t>& ends);

}  // namespace column_file
