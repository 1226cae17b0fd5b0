// Seed case 002 (apache/datafusion-comet PR #5565): a shuffle writer and an IPC decoder with one
// zstd context reused across frames vs a fresh context created (and freed) for every frame.
//
// One iteration is one whole writer pass (every partition compressed, one frame each) or one
// whole decode of the prebuilt frames, and items per iteration = frames, so tare's items/s reads
// as frames/s and allocs/iter ÷ frames is allocations per frame: the context creations.
#include <tare/tare.hpp>

#include <zstd.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace {

// Roughly 4 MiB of rows: large enough that a level-6 pass is real work, small enough that the
// suite stays quick.
constexpr std::size_t num_rows = 131072;

/// Partition blobs back to back: a shuffle writer's input once rows have been hashed to partitions.
struct partitioned_input {
    std::string bytes;
    std::vector<std::size_t> offsets;  // partition p is [offsets[p], offsets[p + 1])

    std::size_t parts() const { return offsets.size() - 1; }
    std::size_t size(std::size_t p) const { return offsets[p + 1] - offsets[p]; }
    const char* data(std::size_t p) const { return bytes.data() + offsets[p]; }
};

struct row {
    std::int64_t key;
    std::int64_t amount;
    std::string name;
};

template <class T>
void append(std::string& out, T value) {
    out.append(reinterpret_cast<const char*>(&value), sizeof(value));
}

/// Int64 key, Int64 amount and a short Utf8 name, as the report's batches; fixed seed so every
/// run compresses the same bytes.
const std::vector<row>& rows() {
    static const std::vector<row> all = [] {
        static constexpr const char* words[] = {"alpha", "bravo", "charlie", "delta",  "echo", "foxtrot",
                                                "golf",  "hotel", "india",   "juliet", "kilo", "lima"};
        std::mt19937_64 rng(2002);
        std::vector<row> v;
        v.reserve(num_rows);
        for (std::size_t i = 0; i < num_rows; ++i) {
            const auto key = static_cast<std::int64_t>(1'000'000 + rng() % 50'000);
            const auto amount = static_cast<std::int64_t>(rng() % 10'000) * 100;
            v.push_back({key, amount, std::string(words[rng() % 12]) + "_" + std::to_string(key % 100)});
        }
        return v;
    }();
    return all;
}

/// Columnar blob per partition: row count, keys, amounts, name offsets, name bytes.
partitioned_input make_input(std::size_t parts) {
    std::vector<std::vector<const row*>> buckets(parts);
    for (const auto& r : rows()) {
        // A multiplicative hash, as a shuffle spreads keys over partitions.
        const auto h = static_cast<std::uint64_t>(r.key) * 0x9E3779B97F4A7C15ULL;
        buckets[(h >> 32) % parts].push_back(&r);
    }
    partitioned_input in;
    in.offsets.push_back(0);
    for (const auto& bucket : buckets) {
        append(in.bytes, static_cast<std::uint32_t>(bucket.size()));
        for (const row* r : bucket) {
            append(in.bytes, r->key);
        }
        for (const row* r : bucket) {
            append(in.bytes, r->amount);
        }
        std::uint32_t offset = 0;
        for (const row* r : bucket) {
            offset += static_cast<std::uint32_t>(r->name.size());
            append(in.bytes, offset);
        }
        for (const row* r : bucket) {
            in.bytes += r->name;
        }
        in.offsets.push_back(in.bytes.size());
    }
    return in;
}

const partitioned_input& input_for(std::size_t parts) {
    // Built once per partition count and shared by its benchmarks; setup, in no figure.
    static std::map<std::size_t, partitioned_input> inputs;
    auto it = inputs.find(parts);
    if (it == inputs.end()) {
        it = inputs.emplace(parts, make_input(parts)).first;
    }
    return it->second;
}

enum class context_policy { none, reused, fresh };

struct cctx_deleter {
    void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct dctx_deleter {
    void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};
using cctx_ptr = std::unique_ptr<ZSTD_CCtx, cctx_deleter>;
using dctx_ptr = std::unique_ptr<ZSTD_DCtx, dctx_deleter>;

/// Compressed frames back to back in one buffer sized once, so the output costs no allocation.
struct frames {
    std::vector<char> bytes;
    std::vector<std::size_t> offsets;
    std::vector<std::size_t> sizes;
};

/// One shuffle-writer pass: every partition becomes one frame. Returns false on a zstd error.
bool write_pass(const partitioned_input& in, context_policy policy, int level, ZSTD_CCtx* reused,
                frames& out) {
    std::size_t at = 0;
    for (std::size_t p = 0; p < in.parts(); ++p) {
        const std::size_t capacity = ZSTD_compressBound(in.size(p));
        std::size_t written = 0;
        if (policy == context_policy::none) {
            std::memcpy(out.bytes.data() + at, in.data(p), in.size(p));
            written = in.size(p);
        } else if (policy == context_policy::reused) {
            written =
                ZSTD_compressCCtx(reused, out.bytes.data() + at, capacity, in.data(p), in.size(p), level);
        } else {
            // The base path's profile: a context created for this frame alone.
            ZSTD_CCtx* cctx = ZSTD_createCCtx();
            written = ZSTD_compressCCtx(cctx, out.bytes.data() + at, capacity, in.data(p), in.size(p), level);
            ZSTD_freeCCtx(cctx);
        }
        if (ZSTD_isError(written)) {
            return false;
        }
        out.offsets[p] = at;
        out.sizes[p] = written;
        at += capacity;
    }
    return true;
}

/// Decodes every frame into `plain` at the partition offsets of `in`. Returns false on an error
/// or a size mismatch.
bool decode_pass(const partitioned_input& in, const frames& f, context_policy policy, ZSTD_DCtx* reused,
                 std::vector<char>& plain) {
    for (std::size_t p = 0; p < in.parts(); ++p) {
        char* dst = plain.data() + in.offsets[p];
        const char* src = f.bytes.data() + f.offsets[p];
        std::size_t n = 0;
        if (policy == context_policy::none) {
            std::memcpy(dst, src, f.sizes[p]);
            n = f.sizes[p];
        } else if (policy == context_policy::reused) {
            n = ZSTD_decompressDCtx(reused, dst, in.size(p), src, f.sizes[p]);
        } else {
            ZSTD_DCtx* dctx = ZSTD_createDCtx();
            n = ZSTD_decompressDCtx(dctx, dst, in.size(p), src, f.sizes[p]);
            ZSTD_freeDCtx(dctx);
        }
        if (ZSTD_isError(n) || n != in.size(p)) {
            return false;
        }
    }
    return true;
}

frames frames_for(const partitioned_input& in) {
    frames f;
    std::size_t capacity = 0;
    for (std::size_t p = 0; p < in.parts(); ++p) {
        capacity += ZSTD_compressBound(in.size(p));
    }
    f.bytes.resize(capacity);
    f.offsets.resize(in.parts());
    f.sizes.resize(in.parts());
    return f;
}

bool round_trips(const partitioned_input& in, const frames& f, context_policy policy) {
    std::vector<char> plain(in.bytes.size());
    dctx_ptr dctx(ZSTD_createDCtx());
    return decode_pass(in, f, policy == context_policy::none ? policy : context_policy::reused, dctx.get(),
                       plain) &&
           std::memcmp(plain.data(), in.bytes.data(), plain.size()) == 0;
}

/// True the first time a benchmark (policy and shape) asks: a comparison group calls each
/// member's body once per block, and the frames need checking once, not at every call.
bool first_call(int policy, std::size_t parts, int level) {
    static std::set<std::tuple<int, std::size_t, int>> seen;
    return seen.insert({policy, parts, level}).second;
}

void write_bench(tare::State& state, context_policy policy, std::size_t parts, int level) {
    const auto& in = input_for(parts);
    frames out = frames_for(in);
    cctx_ptr cctx(ZSTD_createCCtx());
    // One whole pass before the loop: the reused context's workspace reaches its steady size, as
    // in a writer that has been running for a while; it also gives the frames checked below, on
    // the benchmark's first call (the fresh policy has no context to warm: first call only).
    const bool check = first_call(static_cast<int>(policy), parts, level);
    if (check || policy == context_policy::reused) {
        if (!write_pass(in, policy, level, cctx.get(), out)) {
            state.skip_with_error("compression failed");
            return;
        }
    }
    if (check && !round_trips(in, out, policy)) {
        state.skip_with_error("decoded frames differ from the input");
        return;
    }
    state.set_items_per_iteration(static_cast<double>(parts));
    for (auto _ : state) {
        tare::do_not_optimize(write_pass(in, policy, level, cctx.get(), out));
    }
    tare::do_not_optimize(out.sizes.back());
}

/// The decoders' frames, prebuilt once per partition count at level 3 (copies for the NONE
/// control) and shared by that shape's benchmarks; null if compression failed.
const frames* decode_frames_for(std::size_t parts, bool none) {
    static std::map<std::pair<std::size_t, bool>, std::unique_ptr<frames>> cache;
    auto [it, inserted] = cache.try_emplace({parts, none});
    if (inserted) {
        const auto& in = input_for(parts);
        auto f = std::make_unique<frames>(frames_for(in));
        cctx_ptr cctx(ZSTD_createCCtx());
        if (write_pass(in, none ? context_policy::none : context_policy::reused, 3, cctx.get(), *f)) {
            it->second = std::move(f);
        }
    }
    return it->second.get();
}

void decode_bench(tare::State& state, context_policy policy, std::size_t parts) {
    const auto& in = input_for(parts);
    const frames* prebuilt = decode_frames_for(parts, policy == context_policy::none);
    if (prebuilt == nullptr) {
        state.skip_with_error("compression failed");
        return;
    }
    const frames& f = *prebuilt;
    std::vector<char> plain(in.bytes.size());
    dctx_ptr dctx(ZSTD_createDCtx());
    // Verified before measuring, with the variant's own path, on the benchmark's first call; the
    // same pass is the reused context's warm-up, made on every call.
    const bool check = first_call(10 + static_cast<int>(policy), parts, 3);
    if ((check || policy == context_policy::reused) &&
        (!decode_pass(in, f, policy, dctx.get(), plain) ||
         (check && std::memcmp(plain.data(), in.bytes.data(), plain.size()) != 0))) {
        state.skip_with_error("decoded frames differ from the input");
        return;
    }
    state.set_items_per_iteration(static_cast<double>(parts));
    for (auto _ : state) {
        tare::do_not_optimize(decode_pass(in, f, policy, dctx.get(), plain));
    }
    tare::do_not_optimize(plain.back());
}

// The over-cap scenario: 64 small frames where every 16th is level 19 with a wide (8 MiB)
// window, decoded with the streaming API as an IPC reader does. A streaming decoder keeps a
// window buffer as large as the widest frame it has seen, so one wide frame makes a reused
// context retain ~8 MiB. The head's policy caps that: after a frame whose workspace passed the
// cap it drops the context and creates a fresh one.
constexpr std::size_t overcap_parts = 64;
constexpr std::size_t wide_every = 16;
constexpr int wide_window_log = 23;              // 8 MiB
constexpr std::size_t workspace_cap = 1u << 20;  // 1 MiB: above a small-frame DCtx, below a wide one

enum class overcap_policy { capped, uncapped, fresh };

/// Compresses partition p at level 3, or (every 16th) at level 19 with an 8 MiB window that the
/// frame header declares: without a content size, zstd cannot shrink the window to the input.
bool write_overcap(const partitioned_input& in, frames& out) {
    cctx_ptr cctx(ZSTD_createCCtx());
    std::size_t at = 0;
    for (std::size_t p = 0; p < in.parts(); ++p) {
        const bool wide = p % wide_every == wide_every - 1;
        ZSTD_CCtx_reset(cctx.get(), ZSTD_reset_session_and_parameters);
        ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, wide ? 19 : 3);
        if (wide) {
            ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_windowLog, wide_window_log);
        }
        const std::size_t capacity = ZSTD_compressBound(in.size(p));
        if (!wide) {  // one shot: the header carries the content size, the window fits it
            const std::size_t n =
                ZSTD_compress2(cctx.get(), out.bytes.data() + at, capacity, in.data(p), in.size(p));
            if (ZSTD_isError(n)) {
                return false;
            }
            out.offsets[p] = at;
            out.sizes[p] = n;
            at += capacity;
            continue;
        }
        // Streamed in two calls: a one-shot call (or ZSTD_e_end at once) tells zstd the input
        // size, and it would shrink the window to fit it.
        ZSTD_inBuffer src{in.data(p), in.size(p), 0};
        ZSTD_outBuffer dst{out.bytes.data() + at, capacity, 0};
        if (ZSTD_isError(ZSTD_compressStream2(cctx.get(), &dst, &src, ZSTD_e_continue))) {
            return false;
        }
        for (;;) {
            const std::size_t left = ZSTD_compressStream2(cctx.get(), &dst, &src, ZSTD_e_end);
            if (ZSTD_isError(left)) {
                return false;
            }
            if (left == 0) {
                break;
            }
        }
        out.offsets[p] = at;
        out.sizes[p] = dst.pos;
        at += capacity;
    }
    return true;
}

/// Decodes one frame with the streaming API into `dst` (exactly `size` bytes expected).
bool stream_decode(ZSTD_DCtx* d, char* dst, std::size_t size, const char* src, std::size_t n) {
    ZSTD_DCtx_reset(d, ZSTD_reset_session_only);
    ZSTD_inBuffer input{src, n, 0};
    ZSTD_outBuffer output{dst, size, 0};
    for (;;) {
        const std::size_t r = ZSTD_decompressStream(d, &output, &input);
        if (ZSTD_isError(r)) {
            return false;
        }
        if (r == 0) {
            return output.pos == size;
        }
        if (input.pos == input.size && output.pos == output.size) {
            return false;  // the frame claims more than the partition holds
        }
    }
}

bool decode_overcap(const partitioned_input& in, const frames& f, overcap_policy policy, dctx_ptr& reused,
                    std::vector<char>& plain) {
    for (std::size_t p = 0; p < in.parts(); ++p) {
        char* dst = plain.data() + in.offsets[p];
        const char* src = f.bytes.data() + f.offsets[p];
        if (policy == overcap_policy::fresh) {
            dctx_ptr d(ZSTD_createDCtx());
            if (!stream_decode(d.get(), dst, in.size(p), src, f.sizes[p])) {
                return false;
            }
            continue;
        }
        if (!stream_decode(reused.get(), dst, in.size(p), src, f.sizes[p])) {
            return false;
        }
        if (policy == overcap_policy::capped && ZSTD_sizeof_DCtx(reused.get()) > workspace_cap) {
            reused.reset(ZSTD_createDCtx());  // drop the oversized workspace, start small again
        }
    }
    return true;
}

void overcap_bench(tare::State& state, overcap_policy policy) {
    const auto& in = input_for(overcap_parts);
    // The frames (four of them at level 19) are built once and shared by the three benchmarks.
    static const std::unique_ptr<frames> prebuilt = [&in] {
        auto built = std::make_unique<frames>(frames_for(in));
        return write_overcap(in, *built) ? std::move(built) : nullptr;
    }();
    if (prebuilt == nullptr) {
        state.skip_with_error("compression failed");
        return;
    }
    const frames& f = *prebuilt;
    std::vector<char> plain(in.bytes.size());
    dctx_ptr dctx(ZSTD_createDCtx());
    // One verified pass before measuring: also the reused contexts' warm-up (every call).
    if (!decode_overcap(in, f, policy, dctx, plain) ||
        std::memcmp(plain.data(), in.bytes.data(), plain.size()) != 0) {
        state.skip_with_error("decoded frames differ from the input");
        return;
    }
    state.set_items_per_iteration(static_cast<double>(overcap_parts));
    for (auto _ : state) {
        tare::do_not_optimize(decode_overcap(in, f, policy, dctx, plain));
    }
    // What the reused context holds after the run: the workspace a long-lived reader keeps.
    state.set_counter("retained_workspace_bytes", policy == overcap_policy::fresh
                                                      ? 0.0
                                                      : static_cast<double>(ZSTD_sizeof_DCtx(dctx.get())));
    tare::do_not_optimize(plain.back());
}

[[maybe_unused]] const bool registered = [] {
    const std::pair<context_policy, const char*> policies[] = {
        {context_policy::reused, "reused"}, {context_policy::fresh, "fresh"}, {context_policy::none, "none"}};
    // The report's writer shapes: 2,000 partitions at levels 1, 3 and 6, and 10,000 at level 3.
    const std::pair<std::size_t, int> shapes[] = {{2000, 1}, {2000, 3}, {2000, 6}, {10000, 3}};
    for (const auto& [policy, label] : policies) {
        for (const auto& [parts, level] : shapes) {
            std::string name = std::string("write/") + label + "/parts:" + std::to_string(parts);
            if (policy == context_policy::none) {
                if (level != 3) {
                    continue;  // the copy has no level: one control per partition count
                }
            } else {
                name += "/level:" + std::to_string(level);
            }
            tare::register_benchmark(name,
                                     [policy = policy, parts = parts, level = level](tare::State& state) {
                                         write_bench(state, policy, parts, level);
                                     });
        }
    }
    // The decoder: the same ~4 MiB as 64 small frames or as one large frame.
    const std::pair<std::size_t, const char*> decodes[] = {{64, "small64"}, {1, "large1"}};
    for (const auto& [policy, label] : policies) {
        for (const auto& [parts, shape] : decodes) {
            const std::string name = std::string("decode/") + label + "/" + shape;
            tare::register_benchmark(name, [policy = policy, parts = parts](tare::State& state) {
                decode_bench(state, policy, parts);
            });
        }
    }
    const std::pair<overcap_policy, const char*> overcaps[] = {{overcap_policy::capped, "reused"},
                                                               {overcap_policy::fresh, "fresh"},
                                                               {overcap_policy::uncapped, "uncapped"}};
    for (const auto& [policy, label] : overcaps) {
        tare::register_benchmark(std::string("decode/") + label + "/overcap16",
                                 [policy = policy](tare::State& state) { overcap_bench(state, policy); });
    }
    // Comparison groups (docs/variants.md): per shape, the reused context (the head's policy) is
    // the baseline and the fresh one the member, run interleaved, so the executable prints the
    // time change of fresh against reused with its interval, and both sides' memory. The group's
    // name is the shape without the policy ("write/parts:2000/level:1"), never a benchmark's name.
    // The NONE controls stay ordinary rows: they answer "how much of a pass is zstd", not the case.
    for (const auto& [parts, level] : shapes) {
        if (parts == 2000 && level == 3) {
            // Not one of the report's writer shapes: an ordinary row pair, which keeps the demo
            // near its minute (each group runs at least 8 blocks of both members, setup included).
            continue;
        }
        const std::string shape = "parts:" + std::to_string(parts) + "/level:" + std::to_string(level);
        tare::register_variants("write/" + shape, {"write/reused/" + shape, "write/fresh/" + shape});
    }
    for (const auto& [parts, shape] : decodes) {
        (void)parts;
        tare::register_variants(std::string("decode/") + shape, {std::string("decode/reused/") + shape,
                                                                 std::string("decode/fresh/") + shape});
    }
    // Over-cap: the baseline is again the head's policy, the capped reused context, so the group
    // reads as the report's "over-cap recovery" row (reused vs fresh) plus what the cap costs
    // against a context kept whatever it grows to (reused vs uncapped).
    tare::register_variants("decode/overcap16", {"decode/reused/overcap16", "decode/fresh/overcap16",
                                                 "decode/uncapped/overcap16"});
    return true;
}();

}  // namespace
