#include "record_skipper.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace skip_records {
namespace {

std::uint64_t next_random(std::uint64_t& s) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
}

constexpr std::size_t levels_per_column = std::size_t{1} << 20;

}  // namespace

column make_column(int repetition) {
    column c;
    c.repetition = repetition;
    c.num_levels = levels_per_column;
    std::uint64_t s = 0x853C49E6748FEA9BULL;
    s += static_cast<unsigned>(repetition);
    std::vector<std::uint32_t> def;
    std::vector<std::uint32_t> rep;
    if (repetition == 0) {
        c.num_records = levels_per_column;
    } else if (repetition == 1) {
        // Nulls in runs (RLE) and scattered (bit-packed), about 20 % in all.
        def.reserve(levels_per_column);
        while (def.size() < levels_per_column) {
            const bool run = next_random(s) % 4 == 0;
            const std::size_t len = run ? next_random(s) % 40 + 8 : 16;
            for (std::size_t k = 0; k < len && def.size() < levels_per_column; ++k) {
                def.push_back(run ? static_cast<std::uint32_t>(next_random(s) % 2)
                                  : static_cast<std::uint32_t>(next_random(s) % 8 != 0));
            }
        }
        c.num_records = levels_per_column;
    } else {
        // Lists of 0 to 8 values: an empty list is one level with definition 0.
        while (def.size() < levels_per_column) {
            const std::size_t len = std::min<std::size_t>(next_random(s) % 9, levels_per_column - def.size());
            ++c.num_records;
            for (std::size_t k = 0; k < std::max<std::size_t>(len, 1); ++k) {
                rep.push_back(k == 0 ? 0 : 1);
                def.push_back(len == 0 ? 0 : 1);
            }
        }
        def.resize(levels_per_column);
        rep.resize(levels_per_column);
    }
    std::size_t defined = levels_per_column;
    if (repetition > 0) {
        defined = static_cast<std::size_t>(std::count(def.begin(), def.end(), 1U));
        rle_hybrid::encode(def.data(), def.size(), 1, c.def_levels);
    }
    if (repetition == 2) {
        rle_hybrid::encode(rep.data(), rep.size(), 1, c.rep_levels);
    }
    c.values.resize(defined);
    for (auto& v : c.values) {
        v = static_cast<std::int32_t>(next_random(s));
    }
    return c;
}

void record_skipper::rewind() {
    def_ = rle_hybrid::run_reader(column_.def_levels.data(), 1);
    rep_ = rle_hybrid::run_reader(column_.rep_levels.data(), 1);
    levels_read_ = 0;
    values_read_ = 0;
}

std::size_t record_skipper::levels_for_records(std::size_t n, std::size_t& records) {
    // Scan ahead on a copy: the level that starts record n + 1 must not be consumed.
    rle_hybrid::run_reader ahead = rep_;
    const std::uint8_t* end = column_.rep_levels.data() + column_.rep_levels.size();
    std::size_t levels = 0;
    records = 0;
    while (true) {
        // A record spans at most 8 levels, so 8n + 1 levels always show where record n + 1
        // starts: no need to decode a whole chunk ahead for a batch of one. And the last
        // bit-packed group is padded with zeros: never read past the column's end.
        const std::size_t left = column_.num_levels - levels_read_ - levels;
        const std::size_t want = std::min({chunk, left, 8 * n + 1});
        const std::size_t got = ahead.next(want, level_scratch_.data(), end);
        for (std::size_t k = 0; k < got; ++k) {
            if (level_scratch_[k] == 0 && levels + k > 0 && ++records == n) {
                levels += k;
                return levels;
            }
        }
        levels += got;
        if (got < want || got == left) {
            records += levels > 0 ? 1 : 0;  // the column's last record
            return levels;
        }
    }
}

std::size_t record_skipper::fill_validity(std::size_t levels, std::vector<std::uint8_t>& valid) {
    if (column_.repetition == 0) {
        std::memset(valid.data(), 0xFF, valid.size());
        return levels;
    }
    const std::uint8_t* end = column_.def_levels.data() + column_.def_levels.size();
    std::size_t set = 0;
    for (std::size_t at = 0; at < levels; at += chunk) {
        const std::size_t got = def_.next(std::min(chunk, levels - at), level_scratch_.data(), end);
        for (std::size_t k = 0; k < got; ++k) {
            valid[(at + k) / 8] |= static_cast<std::uint8_t>(level_scratch_[k] << ((at + k) % 8));
        }
    }
    for (std::uint8_t byte : valid) {
        set += static_cast<std::size_t>(std::popcount(byte));
    }
    return set;
}

void record_skipper::throw_away_values(std::size_t count) {
    for (std::size_t at = 0; at < count; at += chunk) {
        const std::size_t n = std::min(chunk, count - at);
        std::memcpy(value_scratch_.data(), column_.values.data() + values_read_ + at, n * 4);
        checksum_ += static_cast<std::uint32_t>(value_scratch_[n - 1]);
    }
    values_read_ += count;
}

std::size_t record_skipper::skip(std::size_t n) {
    std::size_t records = 0;
    std::size_t levels = 0;
    if (column_.repetition == 2) {
        levels = levels_for_records(n, records);
        rep_.next(levels, nullptr, column_.rep_levels.data() + column_.rep_levels.size());
    } else {
        levels = std::min(n, column_.num_levels - levels_read_);
        records = levels;
    }
    const std::size_t bitmap_bytes = (levels + 7) / 8;
    std::size_t defined = 0;
    if (policy_ == bitmap_policy::fresh) {
        std::vector<std::uint8_t> valid(bitmap_bytes);  // the allocation of PARQUET-2423
        defined = fill_validity(levels, valid);
    } else {
        valid_.assign(bitmap_bytes, 0);  // kept alive: allocates only when it must grow
        defined = fill_validity(levels, valid_);
    }
    throw_away_values(defined);
    levels_read_ += levels;
    return records;
}

}  // namespace skip_records
