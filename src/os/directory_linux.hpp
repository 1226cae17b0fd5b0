#pragma once
// A directory's entries read where only async-signal-safe calls are allowed: in a signal
// handler on the way to _exit, and in a child forked from a process that runs other threads.
// glibc's getdents64() wrapper is 2.30+ and not declared async-signal-safe; the system call is,
// and opendir()/readdir() allocate.

#include <sys/syscall.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>

namespace tare::os {

/// Calls visit(name) for each entry of the directory open at `dir`, from its current offset to
/// its end, "." and ".." excluded. A buffer on the stack; no allocation.
template <class Visit>
void for_each_entry(int dir, Visit visit) noexcept {
    // The layout the system call fills in.
    struct record {
        std::uint64_t inode;
        std::int64_t offset;
        unsigned short length;
        unsigned char type;
        char name[1];
    };
    alignas(8) char buffer[4096];
    for (;;) {
        const long n = ::syscall(SYS_getdents64, dir, buffer, sizeof buffer);
        if (n <= 0)
            return;
        for (long at = 0; at < n;) {
            const auto* entry = reinterpret_cast<const record*>(buffer + at);
            // The name runs past the declared one-character array: read it through a plain
            // pointer into the buffer, not by indexing the member.
            const char* name = buffer + at + offsetof(record, name);
            at += entry->length;
            if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
                continue;
            visit(name);
        }
    }
}

}  // namespace tare::os
