#pragma once
// A FAT-style volume laid out in one caller-owned memory image, the shape of the crate in seed
// case 003: a file allocation table (one next-cluster link per 4 KiB cluster), a directory of
// 32-byte entries, then the data clusters. Streams are files on it: writing one takes a
// directory entry and links a chain of clusters; reading one looks its entry up and follows
// the chain. The volume never allocates: all of it lives in the image, which is the point of
// the case (who owns that memory, and whether its pages are resident).

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fat {

constexpr std::size_t cluster_size = 4096;
constexpr std::size_t max_files = 512;

/// Bytes of image a volume with `data_bytes` of clusters needs.
std::size_t image_size(std::size_t data_bytes);

class volume {
public:
    /// Formats `image` (image_size(data_bytes) bytes): clears the table and the directory.
    volume(std::uint8_t* image, std::size_t data_bytes);
    /// A volume on disk: the table and the directory are kept in `image` (a driver's cache)
    /// and written through to the file `fd` when a stream closes; data clusters go straight
    /// to `fd` at their image offsets and never touch memory. `image` needs only the
    /// metadata: image_size(data_bytes) - data_bytes bytes.
    volume(std::uint8_t* image, std::size_t data_bytes, int fd);

    class stream {
    public:
        /// Appends `n` bytes, linking new clusters as each fills; returns false when full.
        bool write(const std::uint8_t* src, std::size_t n);
        /// Reads up to `n` bytes from the current position; returns the bytes read. On disk
        /// with pread (throws std::system_error when the file cannot be read).
        std::size_t read(std::uint8_t* dst, std::size_t n);
        std::size_t size() const;
        /// On disk: writes the stream's directory entry and its FAT links. Throws
        /// std::system_error when the file cannot be written. In memory: nothing to do.
        void close();

    private:
        friend class volume;
        stream(volume* v, std::size_t entry) : volume_(v), entry_(entry) {}
        volume* volume_;
        std::size_t entry_;
        std::uint32_t cluster_ = 0;  // the cluster holding the current position
        std::size_t pos_ = 0;        // position in the file
    };

    /// Creates an empty file (8.3-style name, at most 11 bytes); throws when the directory is full.
    stream create(std::string_view name);
    /// Opens an existing file for reading; throws std::runtime_error when there is none.
    stream open(std::string_view name);

private:
    struct dir_entry;
    dir_entry* entry(std::size_t i) const;
    std::uint32_t allocate_cluster();
    std::uint8_t* cluster(std::uint32_t c) const { return data_ + (c - 2) * cluster_size; }

    std::uint32_t* fat_;
    std::uint8_t* dir_;
    std::uint8_t* data_;
    std::uint32_t clusters_;
    std::uint32_t next_free_ = 2;  // clusters 0 and 1 are reserved, as in FAT
    std::size_t files_ = 0;
    std::size_t fat_bytes_;
    std::size_t data_offset_;  // of cluster 2, in the image and in the file
    int fd_ = -1;              // on disk when >= 0
};

}  // namespace fat
