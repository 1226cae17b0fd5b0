#include "column_file.hpp"

#include <array>
#include <cstring>
#include <stdexcept>
#include <unordered_map>

#include "rle_hybrid.hpp"

namespace column_file {
namespace {

constexpr std::size_t page_values = 8192;
constexpr std::uint32_t magic = 0x31524154;  // "TAR1"
enum class encoding : std::uint8_t { plain = 0, dictionary_page = 1, rle_dictionary = 2 };

// CRC-32 (IEEE), byte-wise table: the page checksum Parquet writers may emit. It also makes the
// writer cost what a real one does per byte, rather than the speed of a bare memcpy.
constexpr std::array<std::uint32_t, 256> crc_table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k) {
            c = (c & 1) != 0 ? 0xEDB88320U ^ (c >> 1) : c >> 1;
        }
        t[i] = c;
    }
    return t;
}();

std::uint32_t crc32(const std::uint8_t* p, std::size_t n) {
    std::uint32_t c = 0xFFFFFFFFU;
    for (std::size_t i = 0; i < n; ++i) {
        c = crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    }
    return ~c;
}

void put_u32(bytes& out, std::uint32_t v) {
    const auto at = out.size();
    out.resize(at + 4);
    std::memcpy(out.data() + at, &v, 4);
}

std::uint32_t get_u32(const std::uint8_t* p) {
    std::uint32_t v = 0;
    std::memcpy(&v, p, 4);
    return v;
}

// Page header: encoding (1 byte), value count, body length, body CRC; the body follows.
constexpr std::size_t header_size = 13;

// Reserves a header, lets `body` append the page body, then fills the header in.
template <class Body>
void page(bytes& out, std::vector<std::uint32_t>& offsets, encoding enc, std::size_t count, Body body) {
    const std::size_t at = out.size();
    offsets.push_back(static_cast<std::uint32_t>(at));
    out.resize(at + header_size);
    body();
    const std::size_t len = out.size() - at - header_size;
    out[at] = static_cast<std::uint8_t>(enc);
    std::uint32_t fields[3] = {static_cast<std::uint32_t>(count), static_cast<std::uint32_t>(len),
                               crc32(out.data() + at + header_size, len)};
    std::memcpy(out.data() + at + 1, fields, sizeof fields);
}

// Offsets are relative to the file's start so that a file appended after others still reads.
void footer(bytes& out, std::size_t file_start, std::vector<std::uint32_t>& offsets) {
    for (auto& o : offsets) {
        put_u32(out, o - static_cast<std::uint32_t>(file_start));
    }
    put_u32(out, static_cast<std::uint32_t>(offsets.size()));
    put_u32(out, static_cast<std::uint32_t>(out.size() + 8 - file_start));  // file length
    put_u32(out, magic);
}

void put_plain_int32(bytes& out, const std::int32_t* v, std::size_t n) {
    const auto at = out.size();
    out.resize(at + n * 4);
    std::memcpy(out.data() + at, v, n * 4);
}

struct page_view {
    encoding enc;
    std::size_t count;
    const std::uint8_t* body;
    std::size_t len;
};

// Finds the last file in `in`, checks each page's CRC and calls `fn` on it.
template <class Fn>
void for_each_page(const bytes& in, Fn fn) {
    if (in.size() < 12 || get_u32(in.data() + in.size() - 4) != magic) {
        throw std::runtime_error("column_file: bad magic");
    }
    const std::size_t file_len = get_u32(in.data() + in.size() - 8);
    const std::uint8_t* file = in.data() + in.size() - file_len;
    const std::size_t pages = get_u32(in.data() + in.size() - 12);
    const std::uint8_t* index = in.data() + in.size() - 12 - pages * 4;
    for (std::size_t i = 0; i < pages; ++i) {
        const std::uint8_t* h = file + get_u32(index + i * 4);
        const page_view p{static_cast<encoding>(h[0]), get_u32(h + 1), h + header_size, get_u32(h + 5)};
        if (crc32(p.body, p.len) != get_u32(h + 9)) {
            throw std::runtime_error("column_file: page CRC mismatch");
        }
        fn(p);
    }
}

}  // namespace

void write_int32_plain(const std::vector<std::int32_t>& values, bytes& out) {
    const std::size_t start = out.size();
    std::vector<std::uint32_t> offsets;
    for (std::size_t at = 0; at < values.size(); at += page_values) {
        const std::size_t n = std::min(page_values, values.size() - at);
        page(out, offsets, encoding::plain, n, [&] { put_plain_int32(out, values.data() + at, n); });
    }
    footer(out, start, offsets);
}

void write_int32_dict(const std::vector<std::int32_t>& values, bytes& out) {
    const std::size_t start = out.size();
    std::vector<std::uint32_t> offsets;
    std::unordered_map<std::int32_t, std::uint32_t> ids;
    std::vector<std::int32_t> dictionary;
    std::vector<std::uint32_t> indices(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        auto [it, inserted] = ids.try_emplace(values[i], static_cast<std::uint32_t>(dictionary.size()));
        if (inserted) {
            dictionary.push_back(values[i]);
        }
        indices[i] = it->second;
    }
    const int width = rle_hybrid::bit_width(static_cast<std::uint32_t>(dictionary.size() - 1));
    page(out, offsets, encoding::dictionary_page, dictionary.size(),
         [&] { put_plain_int32(out, dictionary.data(), dictionary.size()); });
    for (std::size_t at = 0; at < values.size(); at += page_values) {
        const std::size_t n = std::min(page_values, values.size() - at);
        page(out, offsets, encoding::rle_dictionary, n, [&] {
            out.push_back(static_cast<std::uint8_t>(width));
            rle_hybrid::encode(indices.data() + at, n, width, out);
        });
    }
    footer(out, start, offsets);
}

void write_string_plain(const std::vector<std::string>& values, bytes& out) {
    const std::size_t start = out.size();
    std::vector<std::uint32_t> offsets;
    for (std::size_t at = 0; at < values.size(); at += page_values) {
        const std::size_t n = std::min(page_values, values.size() - at);
        page(out, offsets, encoding::plain, n, [&] {
            for (std::size_t i = at; i < at + n; ++i) {
                put_u32(out, static_cast<std::uint32_t>(values[i].size()));
                out.insert(out.end(), values[i].begin(), values[i].end());
            }
        });
    }
    footer(out, start, offsets);
}

void read_int32(const bytes& in, std::vector<std::int32_t>& values) {
    values.clear();
    std::vector<std::int32_t> dictionary;
    std::vector<std::uint32_t> indices;
    for_each_page(in, [&](const page_view& p) {
        const std::size_t at = values.size();
        switch (p.enc) {
        case encoding::plain:
            values.resize(at + p.count);
            std::memcpy(values.data() + at, p.body, p.count * 4);
            break;
        case encoding::dictionary_page:
            dictionary.resize(p.count);
            std::memcpy(dictionary.data(), p.body, p.count * 4);
            break;
        case encoding::rle_dictionary:
            indices.resize(p.count);
            rle_hybrid::decode(p.body + 1, p.body[0], p.count, indices.data());
            values.resize(at + p.count);
            for (std::size_t i = 0; i < p.count; ++i) {
                values[at + i] = dictionary[indices[i]];
            }
            break;
        }
    });
}

void read_strings(const bytes& in, std::vector<char>& chars, std::vector<std::uint32_t>& ends) {
    chars.clear();
    ends.clear();
    for_each_page(in, [&](const page_view& p) {
        const std::uint8_t* q = p.body;
        for (std::size_t i = 0; i < p.count; ++i) {
            const std::uint32_t len = get_u32(q);
            chars.insert(chars.end(), q + 4, q + 4 + len);
            ends.push_back(static_cast<std::uint32_t>(chars.size()));
            q += 4 + len;
        }
    });
}

}  // namespace column_file
