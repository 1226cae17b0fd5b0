#pragma once
// A small IPC-style stream encoder in the shape of arrow-rs's StreamEncoder (seed case 004): a
// schema message, then record batches of an Int64 column and a nullable Utf8 column, then an
// end-of-stream marker. Every message is
//
//   u32 0xFFFFFFFF continuation | u32 metadata length | metadata (8-byte padded) | body
//
// and the body is the batch's buffers, each padded to 8 bytes: ids (Int64 values), names'
// validity bitmap (empty when no value is null), names' offsets (Int32, rows + 1; empty for 0
// rows) and names' data. With zstd, each non-empty buffer is stored as its uncompressed length
// (i64) followed by one zstd frame, as Arrow IPC's body compression does. Integers are
// little-endian.
//
// Two APIs produce the same bytes: encode() returns one owned buffer per part (the message
// header, then each body buffer) that the caller writes into its sink; encode_to() appends
// straight into a borrowed sink.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct ZSTD_CCtx_s;

namespace stream_encoder {

using bytes = std::vector<std::uint8_t>;

/// A record batch with Arrow's layout: `ids` Int64 (not nullable), `names` Utf8 (nullable).
struct record_batch {
    std::size_t num_rows = 0;
    std::vector<std::int64_t> ids;
    std::vector<std::uint8_t> name_validity;  // one bit a row, LSB first; 1 = valid
    std::size_t name_null_count = 0;
    std::vector<std::int32_t> name_offsets;  // num_rows + 1 entries
    std::string name_data;
};

enum class string_style {
    varied,    // distinct names of 4 to 28 characters, about 1 in 10 null
    repeated,  // dictionary-like: 16 distinct names repeated, about 1 in 10 null
};

/// A deterministic batch of `rows` rows; `seed` makes batches of a stream differ.
record_batch make_batch(std::size_t rows, std::uint64_t seed, string_style style);

enum class compression { none, zstd };

class encoder {
public:
    explicit encoder(compression codec, int zstd_level = 1);
    ~encoder();
    encoder(const encoder&) = delete;
    encoder& operator=(const encoder&) = delete;

    // Owned buffers: the caller writes each one into its sink.
    std::vector<bytes> encode_schema() const;
    std::vector<bytes> encode(const record_batch& batch);
    std::vector<bytes> finish() const;

    // The same bytes, appended to a borrowed sink (the caller owns, clears and reuses it).
    void encode_schema_to(bytes& sink) const;
    void encode_to(const record_batch& batch, bytes& sink);
    void finish_to(bytes& sink) const;

private:
    struct cctx_deleter {
        void operator()(ZSTD_CCtx_s* cctx) const noexcept;
    };

    // Appends one body buffer (compressed if the codec says so, then padded) to `out`; returns
    // its length before padding, as the message header records it.
    std::size_t append_buffer(bytes& out, const void* data, std::size_t size);

    compression codec_;
    int zstd_level_;
    // One compression context for the encoder's lifetime, shared by both APIs, so that the
    // two differ only in where the bytes go.
    std::unique_ptr<ZSTD_CCtx_s, cctx_deleter> cctx_;
};

}  // namespace stream_encoder
