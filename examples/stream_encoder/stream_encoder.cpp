#include "stream_encoder.hpp"

#include <zstd.h>

#include <array>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace stream_encoder {
namespace {

// The format is little-endian; writing native integers with memcpy is only right on such hosts.
static_assert(std::endian::native == std::endian::little, "the stream format is little-endian");

constexpr std::uint32_t continuation = 0xFFFFFFFFU;
constexpr std::size_t prefix_size = 8;  // continuation + metadata length
constexpr std::size_t batch_buffers = 4;
// type, codec, buffer count, reserved; rows, null count, body length; (offset, length) a buffer.
constexpr std::size_t batch_metadata_size = 8 + 3 * 8 + batch_buffers * 16;
constexpr std::size_t batch_header_size = prefix_size + batch_metadata_size;
static_assert(batch_metadata_size % 8 == 0);

constexpr std::uint8_t schema_message = 1;
constexpr std::uint8_t batch_message = 2;
constexpr std::uint8_t int64_type = 1;
constexpr std::uint8_t utf8_type = 2;

constexpr std::size_t pad8(std::size_t n) {
    return (n + 7) & ~std::size_t{7};
}

template <typename T>
void put(std::uint8_t* dst, T value) {
    std::memcpy(dst, &value, sizeof value);
}

std::uint8_t codec_byte(compression codec) {
    return codec == compression::zstd ? 1 : 0;
}

struct batch_layout {
    std::array<std::size_t, batch_buffers> offsets{};
    std::array<std::size_t, batch_buffers> lengths{};
    std::size_t body_length = 0;
};

// The header is written last, into space reserved before the body, because it records the
// (compressed) lengths that only the body's encoding knows.
void write_batch_header(std::uint8_t* dst, const record_batch& batch, compression codec,
                        const batch_layout& layout) {
    put(dst, continuation);
    put(dst + 4, static_cast<std::uint32_t>(batch_metadata_size));
    std::uint8_t* meta = dst + prefix_size;
    meta[0] = batch_message;
    meta[1] = codec_byte(codec);
    put(meta + 2, static_cast<std::uint16_t>(batch_buffers));
    put(meta + 4, std::uint32_t{0});
    put(meta + 8, static_cast<std::int64_t>(batch.num_rows));
    put(meta + 16, static_cast<std::int64_t>(batch.name_null_count));
    put(meta + 24, static_cast<std::int64_t>(layout.body_length));
    for (std::size_t i = 0; i < batch_buffers; ++i) {
        put(meta + 32 + 16 * i, static_cast<std::int64_t>(layout.offsets[i]));
        put(meta + 40 + 16 * i, static_cast<std::int64_t>(layout.lengths[i]));
    }
}

struct buffer_view {
    const void* data;
    std::size_t size;
};

// The body's buffers in stream order; empty ones (no nulls, no rows) are written as length 0.
std::array<buffer_view, batch_buffers> body_of(const record_batch& batch) {
    const bool has_nulls = batch.name_null_count > 0;
    const bool has_rows = batch.num_rows > 0;
    return {{
        {batch.ids.data(), batch.ids.size() * sizeof(std::int64_t)},
        {batch.name_validity.data(), has_nulls ? batch.name_validity.size() : 0},
        {batch.name_offsets.data(), has_rows ? batch.name_offsets.size() * sizeof(std::int32_t) : 0},
        {batch.name_data.data(), batch.name_data.size()},
    }};
}

std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

}  // namespace

record_batch make_batch(std::size_t rows, std::uint64_t seed, string_style style) {
    static const std::array<std::string_view, 16> dictionary = {
        "alpha", "bravo",   "charlie", "delta", "echo", "foxtrot",  "golf",  "hotel",
        "india", "juliett", "kilo",    "lima",  "mike", "november", "oscar", "papa"};
    std::uint64_t rng = seed;
    record_batch batch;
    batch.num_rows = rows;
    batch.ids.reserve(rows);
    batch.name_validity.assign((rows + 7) / 8, 0);
    batch.name_offsets.reserve(rows + 1);
    batch.name_offsets.push_back(0);
    for (std::size_t row = 0; row < rows; ++row) {
        const std::uint64_t r = splitmix64(rng);
        // Increasing ids with small gaps, as a key column usually is.
        batch.ids.push_back(static_cast<std::int64_t>(seed * rows + row * 4 + (r & 3)));
        if (r % 10 == 9) {
            ++batch.name_null_count;
        } else {
            batch.name_validity[row / 8] =
                static_cast<std::uint8_t>(batch.name_validity[row / 8] | (1U << (row % 8)));
            if (style == string_style::repeated) {
                batch.name_data += dictionary[(r >> 8) % dictionary.size()];
            } else {
                const std::size_t length = 4 + (r >> 8) % 25;
                std::uint64_t letters = r >> 16;
                for (std::size_t i = 0; i < length; ++i) {
                    batch.name_data += static_cast<char>('a' + letters % 26);
                    letters = letters / 26 + (i + 1) * 7919;
                }
            }
        }
        batch.name_offsets.push_back(static_cast<std::int32_t>(batch.name_data.size()));
    }
    return batch;
}

void encoder::cctx_deleter::operator()(ZSTD_CCtx_s* cctx) const noexcept {
    ZSTD_freeCCtx(cctx);
}

encoder::encoder(compression codec, int zstd_level) : codec_(codec), zstd_level_(zstd_level) {
    if (codec_ == compression::zstd) {
        cctx_.reset(ZSTD_createCCtx());
        if (!cctx_) {
            throw std::runtime_error("ZSTD_createCCtx failed");
        }
        // Kept by ZSTD_reset_session_only, so set once.
        const std::size_t set = ZSTD_CCtx_setParameter(cctx_.get(), ZSTD_c_compressionLevel, zstd_level_);
        if (ZSTD_isError(set) != 0U) {
            throw std::runtime_error(std::string("ZSTD_c_compressionLevel: ") + ZSTD_getErrorName(set));
        }
    }
}

encoder::~encoder() = default;

std::size_t encoder::append_buffer(bytes& out, const void* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    const std::size_t pos = out.size();
    const std::size_t room = codec_ == compression::zstd ? 8 + ZSTD_compressBound(size) : size;
    // An owned buffer (encode) starts empty: reserve its final size so it is one allocation.
    // A borrowed sink (encode_to) keeps its geometric growth and, once warm, its capacity.
    if (pos == 0) {
        out.reserve(pad8(room));
    }
    out.resize(pos + room);
    std::size_t length = size;
    if (codec_ == compression::zstd) {
        put(out.data() + pos, static_cast<std::int64_t>(size));
        // Streamed with the size left unknown (arrow-rs streams too): zstd then sizes its
        // workspace for the level, not for each buffer. One-shot ZSTD_compressCCtx sized it per
        // buffer and, with these mixed sizes (512 B to 64 KiB), shrank and regrew it every few
        // streams: tare saw ~1.7 allocs/iter and retained_growth on both APIs.
        ZSTD_CCtx_reset(cctx_.get(), ZSTD_reset_session_only);
        ZSTD_inBuffer in{data, size, 0};
        ZSTD_outBuffer dst{out.data() + pos + 8, room - 8, 0};
        // ZSTD_e_continue first: a first call with ZSTD_e_end would pledge the buffer's size.
        std::size_t left = ZSTD_compressStream2(cctx_.get(), &dst, &in, ZSTD_e_continue);
        while (ZSTD_isError(left) == 0U) {
            left = ZSTD_compressStream2(cctx_.get(), &dst, &in, ZSTD_e_end);
            if (left == 0 || dst.pos == dst.size) {
                break;
            }
        }
        if (ZSTD_isError(left) != 0U) {
            throw std::runtime_error(std::string("ZSTD_compressStream2: ") + ZSTD_getErrorName(left));
        }
        if (left != 0 || in.pos != in.size) {
            throw std::runtime_error("ZSTD_compressStream2: output exceeded ZSTD_compressBound");
        }
        const std::size_t written = dst.pos;
        length = 8 + written;
    } else {
        std::memcpy(out.data() + pos, data, size);
    }
    out.resize(pos + pad8(length));  // zero padding
    return length;
}

void encoder::encode_schema_to(bytes& sink) const {
    struct field {
        std::string_view name;
        std::uint8_t type;
        bool nullable;
    };
    static constexpr std::array<field, 2> fields = {{{"id", int64_type, false}, {"name", utf8_type, true}}};
    std::size_t metadata = 8;
    for (const auto& f : fields) {
        metadata += 4 + f.name.size();
    }
    metadata = pad8(metadata);
    const std::size_t start = sink.size();
    sink.resize(start + prefix_size + metadata);  // zero-filled, padding included
    std::uint8_t* dst = sink.data() + start;
    put(dst, continuation);
    put(dst + 4, static_cast<std::uint32_t>(metadata));
    std::uint8_t* meta = dst + prefix_size;
    meta[0] = schema_message;
    meta[1] = codec_byte(codec_);
    put(meta + 2, static_cast<std::uint16_t>(fields.size()));
    std::size_t at = 8;
    for (const auto& f : fields) {
        meta[at] = f.type;
        meta[at + 1] = f.nullable ? 1 : 0;
        put(meta + at + 2, static_cast<std::uint16_t>(f.name.size()));
        std::memcpy(meta + at + 4, f.name.data(), f.name.size());
        at += 4 + f.name.size();
    }
}

void encoder::encode_to(const record_batch& batch, bytes& sink) {
    const std::size_t start = sink.size();
    sink.resize(start + batch_header_size);
    const std::size_t body_start = sink.size();
    batch_layout layout;
    const auto body = body_of(batch);
    for (std::size_t i = 0; i < batch_buffers; ++i) {
        layout.offsets[i] = sink.size() - body_start;
        layout.lengths[i] = append_buffer(sink, body[i].data, body[i].size);
    }
    layout.body_length = sink.size() - body_start;
    write_batch_header(sink.data() + start, batch, codec_, layout);
}

void encoder::finish_to(bytes& sink) const {
    const std::size_t start = sink.size();
    sink.resize(start + 8);
    put(sink.data() + start, continuation);
    put(sink.data() + start + 4, std::uint32_t{0});
}

std::vector<bytes> encoder::encode_schema() const {
    std::vector<bytes> parts(1);
    encode_schema_to(parts[0]);
    return parts;
}

std::vector<bytes> encoder::encode(const record_batch& batch) {
    std::vector<bytes> parts;
    parts.reserve(1 + batch_buffers);
    parts.emplace_back(batch_header_size);
    batch_layout layout;
    const auto body = body_of(batch);
    for (std::size_t i = 0; i < batch_buffers; ++i) {
        bytes buffer;
        layout.offsets[i] = layout.body_length;
        layout.lengths[i] = append_buffer(buffer, body[i].data, body[i].size);
        layout.body_length += buffer.size();
        if (!buffer.empty()) {
            parts.push_back(std::move(buffer));
        }
    }
    write_batch_header(parts[0].data(), batch, codec_, layout);
    return parts;
}

std::vector<bytes> encoder::finish() const {
    std::vector<bytes> parts(1);
    finish_to(parts[0]);
    return parts;
}

}  // namespace stream_encoder
