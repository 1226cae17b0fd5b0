#include "rle_hybrid.hpp"

#include <algorithm>
#include <cstring>

namespace rle_hybrid {
namespace {

void put_varint(std::vector<std::uint8_t>& out, std::uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<std::uint8_t>(v | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<std::uint8_t>(v));
}

std::uint64_t get_varint(const std::uint8_t*& in) {
    std::uint64_t v = 0;
    int shift = 0;
    while ((*in & 0x80) != 0) {
        v |= static_cast<std::uint64_t>(*in++ & 0x7f) << shift;
        shift += 7;
    }
    return v | (static_cast<std::uint64_t>(*in++) << shift);
}

std::size_t value_bytes(int bit_width) {
    return static_cast<std::size_t>((bit_width + 7) / 8);
}

std::uint32_t get_packed(const std::uint8_t* base, std::uint64_t bit, int bit_width) {
    // Reads 8 bytes at the value's first byte: enough for any width up to 32 at any offset.
    // The encoder pads every bit-packed run so this never reads past the page (see encode).
    std::uint64_t word = 0;
    std::memcpy(&word, base + bit / 8, sizeof word);
    const std::uint64_t mask = (std::uint64_t{1} << bit_width) - 1;
    return static_cast<std::uint32_t>((word >> (bit % 8)) & mask);
}

}  // namespace

int bit_width(std::uint32_t max_value) {
    int w = 0;
    while (max_value != 0) {
        ++w;
        max_value >>= 1;
    }
    return w;
}

void encode(const std::uint32_t* values, std::size_t n, int bit_width, std::vector<std::uint8_t>& out) {
    std::size_t i = 0;
    while (i < n) {
        std::size_t run = 1;
        while (i + run < n && values[i + run] == values[i]) {
            ++run;
        }
        if (run >= 8) {
            put_varint(out, static_cast<std::uint64_t>(run) << 1);
            for (std::size_t b = 0; b < value_bytes(bit_width); ++b) {
                out.push_back(static_cast<std::uint8_t>(values[i] >> (8 * b)));
            }
            i += run;
            continue;
        }
        // Bit-pack groups of 8 until a run long enough for RLE starts on a group boundary.
        // 63 groups keep the header one varint byte, as Arrow's encoder does.
        const std::size_t start = i;
        std::size_t groups = 0;
        while (i < n && groups < 63) {
            if (groups > 0 && i + 8 <= n &&
                std::all_of(values + i, values + i + 8, [&](std::uint32_t v) { return v == values[i]; })) {
                break;
            }
            i = std::min(i + 8, n);
            ++groups;
        }
        put_varint(out, static_cast<std::uint64_t>(groups) << 1 | 1);
        std::uint64_t acc = 0;
        int bits = 0;
        for (std::size_t k = start; k < start + groups * 8; ++k) {
            acc |= static_cast<std::uint64_t>(k < n ? values[k] : 0) << bits;
            bits += bit_width;
            while (bits >= 8) {
                out.push_back(static_cast<std::uint8_t>(acc));
                acc >>= 8;
                bits -= 8;
            }
        }
    }
    // Slack for get_packed's 8-byte reads at the end of the data.
    out.insert(out.end(), 8, 0);
}

std::size_t decode(const std::uint8_t* in, int bit_width, std::size_t n, std::uint32_t* values) {
    const std::uint8_t* p = in;
    std::size_t done = 0;
    while (done < n) {
        const std::uint64_t header = get_varint(p);
        if ((header & 1) == 0) {
            std::uint32_t v = 0;
            for (std::size_t b = 0; b < value_bytes(bit_width); ++b) {
                v |= static_cast<std::uint32_t>(*p++) << (8 * b);
            }
            const std::size_t count = std::min(static_cast<std::size_t>(header >> 1), n - done);
            std::fill_n(values + done, count, v);
            done += count;
        } else {
            const std::size_t count = static_cast<std::size_t>(header >> 1) * 8;
            const std::size_t keep = std::min(count, n - done);
            for (std::size_t k = 0; k < keep; ++k) {
                values[done + k] = get_packed(p, k * static_cast<std::uint64_t>(bit_width), bit_width);
            }
            p += count * static_cast<std::size_t>(bit_width) / 8;
            done += keep;
        }
    }
    return static_cast<std::size_t>(p - in) + 8;
}

std::size_t run_reader::next(std::size_t n, std::uint32_t* out, const std::uint8_t* end) {
    std::size_t done = 0;
    while (done < n) {
        if (rle_left_ > 0) {
            const std::size_t take = std::min(rle_left_, n - done);
            if (out != nullptr) {
                std::fill_n(out + done, take, rle_value_);
            }
            rle_left_ -= take;
            done += take;
        } else if (packed_left_ > 0) {
            const std::size_t take = std::min(packed_left_, n - done);
            for (std::size_t k = 0; out != nullptr && k < take; ++k) {
                out[done + k] = get_packed(packed_base_,
                                           bit_pos_ + k * static_cast<std::uint64_t>(bit_width_), bit_width_);
            }
            bit_pos_ += take * static_cast<std::uint64_t>(bit_width_);
            packed_left_ -= take;
            done += take;
        } else {
            if (in_ + 8 >= end) {  // only the encoder's slack is left
                break;
            }
            const std::uint64_t header = get_varint(in_);
            if ((header & 1) == 0) {
                rle_value_ = 0;
                for (std::size_t b = 0; b < value_bytes(bit_width_); ++b) {
                    rle_value_ |= static_cast<std::uint32_t>(*in_++) << (8 * b);
                }
                rle_left_ = static_cast<std::size_t>(header >> 1);
            } else {
                packed_left_ = static_cast<std::size_t>(header >> 1) * 8;
                packed_base_ = in_;
                bit_pos_ = 0;
                in_ += packed_left_ * static_cast<std::size_t>(bit_width_) / 8;
            }
        }
    }
    return done;
}

}  // namespace rle_hybrid
