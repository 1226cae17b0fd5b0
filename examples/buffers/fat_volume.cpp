#include "fat_volume.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include <unistd.h>

namespace fat {
namespace {

constexpr std::uint32_t end_of_chain = 0x0FFFFFFF;
constexpr std::size_t dir_bytes = max_files * 32;

std::size_t fat_bytes(std::size_t data_bytes) {
    const std::size_t table = (data_bytes / cluster_size + 2) * 4;
    return (table + cluster_size - 1) / cluster_size * cluster_size;
}

void write_at(int fd, const void* p, std::size_t n, std::size_t offset) {
    const auto* bytes = static_cast<const std::uint8_t*>(p);
    while (n > 0) {
        const ssize_t w = ::pwrite(fd, bytes, n, static_cast<off_t>(offset));
        if (w < 0) {
            throw std::system_error(errno, std::generic_category(), "fat: pwrite");
        }
        bytes += w;
        n -= static_cast<std::size_t>(w);
        offset += static_cast<std::size_t>(w);
    }
}

void read_at(int fd, void* p, std::size_t n, std::size_t offset) {
    auto* bytes = static_cast<std::uint8_t*>(p);
    while (n > 0) {
        const ssize_t r = ::pread(fd, bytes, n, static_cast<off_t>(offset));
        if (r < 0) {
            throw std::system_error(errno, std::generic_category(), "fat: pread");
        }
        if (r == 0) {
            throw std::runtime_error("fat: the volume file ends early");
        }
        bytes += r;
        n -= static_cast<std::size_t>(r);
        offset += static_cast<std::size_t>(r);
    }
}

}  // namespace

// 32 bytes, as in FAT: the name, the first cluster and the size (the rest is left zero).
struct volume::dir_entry {
    char name[11];
    std::uint8_t attributes;
    std::uint8_t reserved[8];
    std::uint32_t first_cluster;
    std::uint32_t unused;
    std::uint32_t size;
};

std::size_t image_size(std::size_t data_bytes) {
    return fat_bytes(data_bytes) + dir_bytes + data_bytes;
}

volume::volume(std::uint8_t* image, std::size_t data_bytes)
    : fat_(reinterpret_cast<std::uint32_t*>(image)),
      dir_(image + fat_bytes(data_bytes)),
      data_(dir_ + dir_bytes),
      clusters_(static_cast<std::uint32_t>(data_bytes / cluster_size)),
      fat_bytes_(fat_bytes(data_bytes)),
      data_offset_(fat_bytes(data_bytes) + dir_bytes) {
    std::memset(image, 0, fat_bytes(data_bytes) + dir_bytes);
}

volume::volume(std::uint8_t* image, std::size_t data_bytes, int fd) : volume(image, data_bytes) {
    fd_ = fd;
}

volume::dir_entry* volume::entry(std::size_t i) const {
    static_assert(sizeof(dir_entry) == 32);
    return reinterpret_cast<dir_entry*>(dir_ + i * 32);
}

std::uint32_t volume::allocate_cluster() {
    if (next_free_ - 2 >= clusters_) {
        return 0;
    }
    fat_[next_free_] = end_of_chain;
    return next_free_++;
}

volume::stream volume::create(std::string_view name) {
    if (files_ == max_files) {
        throw std::runtime_error("fat: directory full");
    }
    dir_entry* e = entry(files_);
    std::memset(e->name, ' ', sizeof e->name);
    std::memcpy(e->name, name.data(), std::min(name.size(), sizeof e->name));
    e->first_cluster = 0;
    e->size = 0;
    return stream(this, files_++);
}

volume::stream volume::open(std::string_view name) {
    char padded[11];
    std::memset(padded, ' ', sizeof padded);
    std::memcpy(padded, name.data(), std::min(name.size(), sizeof padded));
    // A linear directory scan, as FAT does: part of each stream's fixed cost.
    for (std::size_t i = 0; i < files_; ++i) {
        if (std::memcmp(entry(i)->name, padded, sizeof padded) == 0) {
            stream s(this, i);
            s.cluster_ = entry(i)->first_cluster;
            return s;
        }
    }
    throw std::runtime_error("fat: no such file");
}

std::size_t volume::stream::size() const {
    return volume_->entry(entry_)->size;
}

bool volume::stream::write(const std::uint8_t* src, std::size_t n) {
    dir_entry* e = volume_->entry(entry_);
    // On disk, consecutive clusters (the allocator hands them out in order) are merged into
    // one pwrite per call rather than one per 4 KiB cluster, as a block layer would merge them.
    std::size_t run_at = 0;
    std::size_t run_len = 0;
    const std::uint8_t* run_src = src;
    while (n > 0) {
        const std::size_t offset = pos_ % cluster_size;
        if (offset == 0) {  // the current cluster is full (or there is none yet): link one more
            const std::uint32_t next = volume_->allocate_cluster();
            if (next == 0) {
                return false;
            }
            if (cluster_ == 0) {
                e->first_cluster = next;
            } else {
                volume_->fat_[cluster_] = next;
            }
            cluster_ = next;
        }
        const std::size_t take = std::min(n, cluster_size - offset);
        if (volume_->fd_ >= 0) {
            const std::size_t at = volume_->data_offset_ + (cluster_ - 2) * cluster_size + offset;
            if (run_len > 0 && at != run_at + run_len) {
                write_at(volume_->fd_, run_src, run_len, run_at);
                run_len = 0;
            }
            if (run_len == 0) {
                run_at = at;
                run_src = src;
            }
            run_len += take;
        } else {
            std::memcpy(volume_->cluster(cluster_) + offset, src, take);
        }
        src += take;
        n -= take;
        pos_ += take;
    }
    if (run_len > 0) {
        write_at(volume_->fd_, run_src, run_len, run_at);
    }
    e->size = static_cast<std::uint32_t>(pos_);
    return true;
}

void volume::stream::close() {
    if (volume_->fd_ < 0) {
        return;
    }
    // The entry, then the table entries of the chain: the per-stream cost on disk. The chain
    // is one contiguous span of the table because streams are written one after another.
    write_at(volume_->fd_, volume_->entry(entry_), 32, volume_->fat_bytes_ + entry_ * 32);
    const std::uint32_t first = volume_->entry(entry_)->first_cluster;
    if (first != 0) {
        write_at(volume_->fd_, volume_->fat_ + first, (cluster_ - first + 1) * 4, first * std::size_t{4});
    }
}

std::size_t volume::stream::read(std::uint8_t* dst, std::size_t n) {
    const std::size_t size = volume_->entry(entry_)->size;
    std::size_t done = 0;
    // On disk, consecutive clusters are merged into one pread, as for write.
    std::size_t run_at = 0;
    std::size_t run_len = 0;
    std::uint8_t* run_dst = dst;
    while (done < n && pos_ < size) {
        const std::size_t offset = pos_ % cluster_size;
        if (offset == 0 && pos_ > 0) {  // follow the chain into the next cluster
            cluster_ = volume_->fat_[cluster_];
        }
        const std::size_t take = std::min({n - done, cluster_size - offset, size - pos_});
        if (volume_->fd_ >= 0) {
            const std::size_t at = volume_->data_offset_ + (cluster_ - 2) * cluster_size + offset;
            if (run_len > 0 && at != run_at + run_len) {
                read_at(volume_->fd_, run_dst, run_len, run_at);
                run_len = 0;
            }
            if (run_len == 0) {
                run_at = at;
                run_dst = dst + done;
            }
            run_len += take;
        } else {
            std::memcpy(dst + done, volume_->cluster(cluster_) + offset, take);
        }
        done += take;
        pos_ += take;
    }
    if (run_len > 0) {
        read_at(volume_->fd_, run_dst, run_len, run_at);
    }
    return done;
}

}  // namespace fat
