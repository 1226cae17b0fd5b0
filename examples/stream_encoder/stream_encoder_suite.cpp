// Seed case 004 (arrow-rs #10985): StreamEncoder::encode returned a Vec of owned buffers that
// the caller then wrote into its destination; encode_to writes into a borrowed destination
// instead. The report measured time only: uncompressed intervals did not overlap, zstd ones did.
//
// One iteration writes one whole stream into the sink: the schema, 10 batches of 4,096 rows
// (Int64 ids, nullable Utf8 names) and the end marker. The sink is cleared at the start of every
// iteration and keeps its capacity, as a caller reusing its output buffer would, so what differs
// between the two APIs is the owned buffers (one a message part) that encode allocates.
#include <tare/tare.hpp>

#include <string>
#include <utility>
#include <vector>

#include "stream_encoder.hpp"

namespace {

using stream_encoder::bytes;
using stream_encoder::compression;

constexpr std::size_t batches_per_stream = 10;
constexpr std::size_t rows_per_batch = 4096;

const std::vector<stream_encoder::record_batch>& batches() {
    // Built once and shared by the four benchmarks; setup, in no figure.
    static const std::vector<stream_encoder::record_batch> all = [] {
        std::vector<stream_encoder::record_batch> v;
        for (std::size_t i = 0; i < batches_per_stream; ++i) {
            v.push_back(
                stream_encoder::make_batch(rows_per_batch, i + 1, stream_encoder::string_style::varied));
        }
        return v;
    }();
    return all;
}

void encode_and_write(stream_encoder::encoder& enc, bytes& sink) {
    sink.clear();
    const auto write = [&sink](const std::vector<bytes>& parts) {
        for (const auto& part : parts) {
            sink.insert(sink.end(), part.begin(), part.end());
        }
    };
    write(enc.encode_schema());
    for (const auto& batch : batches()) {
        write(enc.encode(batch));
    }
    write(enc.finish());
}

void encode_to(stream_encoder::encoder& enc, bytes& sink) {
    sink.clear();
    enc.encode_schema_to(sink);
    for (const auto& batch : batches()) {
        enc.encode_to(batch, sink);
    }
    enc.finish_to(sink);
}

template <void (*write_stream)(stream_encoder::encoder&, bytes&)>
void stream_bench(tare::State& state, compression codec) {
    stream_encoder::encoder enc(codec);
    bytes sink;
    // One stream before the loop: the sink reaches its working capacity and zstd's context its
    // workspace, as in a writer that has been running for a while; the loop is the steady state.
    write_stream(enc, sink);
    const std::size_t stream_size = sink.size();
    state.set_bytes_per_iteration(static_cast<double>(stream_size));
    for (auto _ : state) {
        write_stream(enc, sink);
        tare::do_not_optimize(sink.data());
    }
    if (sink.size() != stream_size) {
        state.skip_with_error("stream size changed: " + std::to_string(sink.size()) + " vs " +
                              std::to_string(stream_size));
    }
}

[[maybe_unused]] const bool registered = [] {
    for (const auto& [codec, label] :
         {std::pair{compression::none, "uncompressed"}, std::pair{compression::zstd, "zstd"}}) {
        tare::register_benchmark(
            std::string("encode_and_write/") + label,
            [codec = codec](tare::State& state) { stream_bench<encode_and_write>(state, codec); });
        tare::register_benchmark(std::string("encode_to/") + label, [codec = codec](tare::State& state) {
            stream_bench<encode_to>(state, codec);
        });
        // A comparison group per codec (docs/variants.md): encode() + write, the old API, is the
        // baseline and encode_to(sink) the member, run interleaved, so the executable prints the
        // time change with its interval (the report's question) and both sides' allocations,
        // bytes and peak (what the report could not show). "stream/<codec>" is no benchmark's name.
        tare::register_variants(std::string("stream/") + label, {std::string("encode_and_write/") + label,
                                                                 std::string("encode_to/") + label});
    }
    return true;
}();

}  // namespace
