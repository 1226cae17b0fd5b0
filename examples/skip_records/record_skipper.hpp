#pragma once
// A column of 1M levels in the shape of parquet-cpp's RecordReaderSkipRecords benchmark, and a
// reader that skips whole records without materialising them.
//
//   Repetition 0  required: no levels, every record is one value
//   Repetition 1  optional: definition levels (0 null, 1 value), one per record
//   Repetition 2  repeated: repetition levels (0 starts a record) and definition levels (0 an
//                 empty list, 1 a value); a record is a list of 0 to 8 values
//
// Levels are stored in Parquet's RLE / bit-packed hybrid (../round_trip/rle_hybrid.hpp), values
// as plain int32. Skipping a batch reads its levels, builds a validity bitmap of the levels it
// skips (the buffer of PARQUET-2423), counts the defined values and decodes them into scratch
// (parquet-cpp's ReadAndThrowAwayValues), as a reader that cannot seek inside a page must.

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "rle_hybrid.hpp"

namespace skip_records {

struct column {
    int repetition = 0;
    std::size_t num_levels = 0;
    std::size_t num_records = 0;
    std::vector<std::uint8_t> def_levels;  // encoded; empty for Repetition 0
    std::vector<std::uint8_t> rep_levels;  // encoded; empty for Repetition 0 and 1
    std::vector<std::int32_t> values;      // the defined values only
    std::size_t encoded_bytes() const { return def_levels.size() + rep_levels.size() + values.size() * 4; }
};

/// 1M levels (Repetition 0 and 1: 1M records; 2: about 220k records), generated with a fixed seed.
column make_column(int repetition);

/// Where the validity bitmap of a skip lives: the point of seed case 001.
enum class bitmap_policy {
    fresh,   // a new buffer on every call (parquet-cpp before PARQUET-2423)
    reused,  // one buffer kept alive by the reader and resized (after)
};

class record_skipper {
public:
    record_skipper(const column& c, bitmap_policy policy) : column_(c), policy_(policy) { rewind(); }

    /// Skips up to `n` records; returns how many were skipped (fewer only at the column's end).
    std::size_t skip(std::size_t n);
    bool at_end() const { return levels_read_ == column_.num_levels; }
    /// Back to the column's start; allocates nothing.
    void rewind();
    /// A checksum of the values thrown away, so the work cannot be optimised out.
    std::uint64_t checksum() const { return checksum_; }

private:
    // How many levels the next `n` records span, found on a copy of the repetition reader.
    std::size_t levels_for_records(std::size_t n, std::size_t& records);
    // Fills `valid` from the definition levels of the next `levels` levels; returns set bits.
    std::size_t fill_validity(std::size_t levels, std::vector<std::uint8_t>& valid);
    void throw_away_values(std::size_t count);

    static constexpr std::size_t chunk = 256;
    const column& column_;
    bitmap_policy policy_;
    rle_hybrid::run_reader def_{nullptr, 1};
    rle_hybrid::run_reader rep_{nullptr, 1};
    std::size_t levels_read_ = 0;
    std::size_t values_read_ = 0;
    std::uint64_t checksum_ = 0;
    std::vector<std::uint8_t> valid_;                   // used by bitmap_policy::reused only
    std::array<std::uint32_t, chunk> level_scratch_{};  // fixed: neither variant allocates here
    std::array<std::int32_t, chunk> value_scratch_{};
};

}  // namespace skip_records
