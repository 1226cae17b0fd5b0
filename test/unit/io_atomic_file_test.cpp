#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>
#include <sstream>
#include <string>

#include "text_helpers.hpp"

namespace tare {
namespace {

namespace fs = std::filesystem;

TEST(atomic_file, writes_and_replaces_leaving_no_temporary) {
    fs::path dir = fs::temp_directory_path() / ("tare_atomic_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    fs::path target = dir / "results.json";
    ASSERT_FALSE(io::write_file_atomically(target.string(), "first\n"));
    EXPECT_EQ(slurp(target), "first\n");
    ASSERT_FALSE(io::write_file_atomically(target.string(), "second\n"));
    EXPECT_EQ(slurp(target), "second\n");
    int entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) {
        ++entries;
    }
    EXPECT_EQ(entries, 1);
    fs::remove_all(dir);
}

// A scratch directory of this test process, removed at the end of each test.
struct scratch_dir {
    fs::path path = fs::temp_directory_path() / ("tare_atomic_x_" + std::to_string(::getpid()));
    scratch_dir() { fs::create_directories(path); }
    ~scratch_dir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    scratch_dir(const scratch_dir&) = delete;
    scratch_dir& operator=(const scratch_dir&) = delete;
};

// While the content is written it has no name in the directory, so a tare killed with SIGKILL
// mid-write leaves no partial file beside the user's: the directory sees no write to any name,
// only the finished file linked and renamed into place.
TEST(atomic_file, the_content_is_written_before_it_has_a_name) {
    scratch_dir dir;
    const int probe = ::open(dir.path.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    if (probe < 0)
        GTEST_SKIP() << "this file system has no anonymous files (O_TMPFILE): " << std::strerror(errno);
    ::close(probe);
    const int watch = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    ASSERT_GE(watch, 0);
    ASSERT_GE(::inotify_add_watch(watch, dir.path.c_str(), IN_MODIFY | IN_MOVED_TO), 0);
    const fs::path target = dir.path / "results.json";
    const std::string content(std::size_t{1} << 20, 'x');
    ASSERT_FALSE(io::write_file_atomically(target.string(), content));
    alignas(inotify_event) char buffer[1 << 16];
    int modified = 0;
    int moved_to_target = 0;
    for (;;) {
        const ssize_t n = ::read(watch, buffer, sizeof buffer);
        if (n <= 0)
            break;
        for (ssize_t at = 0; at < n;) {
            const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
            const std::string name = event->len > 0 ? buffer + at + sizeof(inotify_event) : "";
            // An anonymous file's writes are reported under "#" and its inode number, a name no
            // directory entry has; a named temporary's under its own name.
            if ((event->mask & IN_MODIFY) != 0 && name.rfind(".tare-", 0) == 0)
                ++modified;
            if ((event->mask & IN_MOVED_TO) != 0 && name == "results.json")
                ++moved_to_target;
            at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
        }
    }
    ::close(watch);
    EXPECT_EQ(modified, 0) << "the content was written to a file with a name in the directory";
    EXPECT_EQ(moved_to_target, 1);
    EXPECT_EQ(fs::file_size(target), content.size());
    int entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path))
        ++entries;
    EXPECT_EQ(entries, 1);
}

// A FIFO is written through, not replaced by a regular file: the reader gets the document.
TEST(atomic_file, a_fifo_is_written_through_and_stays_a_fifo) {
    scratch_dir dir;
    const fs::path fifo = dir.path / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);  // so the writer's open succeeds
    ASSERT_GE(reader, 0);
    ASSERT_FALSE(io::write_file_atomically(fifo.string(), "through the pipe\n"));
    struct stat st {};
    ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));
    pollfd p{reader, POLLIN, 0};
    std::string got;
    if (::poll(&p, 1, 2000) == 1) {
        char buf[64];
        const ssize_t n = ::read(reader, buf, sizeof buf);
        got.assign(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
    }
    ::close(reader);
    EXPECT_EQ(got, "through the pipe\n");
}

// A symbolic link stays a link; the file it names is what is written, atomically. A dangling
// link's target is created.
TEST(atomic_file, a_symlink_is_followed_to_its_target) {
    scratch_dir dir;
    fs::create_directories(dir.path / "real");
    std::ofstream(dir.path / "real" / "results.json") << "old\n";
    fs::create_symlink("real/results.json", dir.path / "link.json");
    ASSERT_FALSE(io::write_file_atomically((dir.path / "link.json").string(), "new\n"));
    EXPECT_TRUE(fs::is_symlink(dir.path / "link.json"));
    EXPECT_EQ(slurp(dir.path / "real" / "results.json"), "new\n");
    fs::create_symlink(dir.path / "real" / "later.json", dir.path / "dangling.json");
    ASSERT_FALSE(io::write_file_atomically((dir.path / "dangling.json").string(), "made\n"));
    EXPECT_TRUE(fs::is_symlink(dir.path / "dangling.json"));
    EXPECT_EQ(slurp(dir.path / "real" / "later.json"), "made\n");
}

// This process's own descriptors (/dev/stdout, /proc/self/fd/N) are written through.
TEST(atomic_file, a_descriptor_path_is_written_through) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const std::string path = "/proc/self/fd/" + std::to_string(fds[1]);
    ASSERT_FALSE(io::write_file_atomically(path, "fd\n"));
    char buf[8] = {};
    EXPECT_EQ(::read(fds[0], buf, sizeof buf), 3);
    EXPECT_EQ(std::string(buf, 3), "fd\n");
    ::close(fds[0]);
    ::close(fds[1]);
}

// Character devices, made in the scratch directory (never the system's /dev): the null device
// stays a device and takes the write; the full device's ENOSPC is an error naming the path.
// Making device nodes needs privilege; without it there is nothing to clobber either.
TEST(atomic_file, a_character_device_is_written_through_and_its_errors_reported) {
    scratch_dir dir;
    const fs::path null_dev = dir.path / "null";
    const fs::path full_dev = dir.path / "full";
    if (::mknod(null_dev.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0 ||
        ::mknod(full_dev.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0) {
        GTEST_SKIP() << "cannot make device nodes here: " << std::strerror(errno);
    }
    ASSERT_FALSE(io::write_file_atomically(null_dev.string(), "gone\n"));
    struct stat st {};
    ASSERT_EQ(::lstat(null_dev.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
    auto err = io::write_file_atomically(full_dev.string(), "no room\n");
    ASSERT_TRUE(err);
    EXPECT_NE(err->find(full_dev.string()), std::string::npos) << *err;
    ASSERT_EQ(::lstat(full_dev.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
}

mode_t mode_of(const fs::path& p) {
    struct stat st {};
    EXPECT_EQ(::lstat(p.c_str(), &st), 0) << p;
    return st.st_mode & 07777;
}

// A new file gets what a shell's `>` would give it (0666 less the umask); a replaced one keeps
// its mode.
TEST(atomic_file, a_new_file_follows_the_umask_and_a_replaced_one_keeps_its_mode) {
    scratch_dir dir;
    const mode_t saved = ::umask(027);
    const auto fresh = io::write_file_atomically((dir.path / "fresh.json").string(), "x\n");
    ::umask(saved);
    ASSERT_FALSE(fresh) << *fresh;
    EXPECT_EQ(mode_of(dir.path / "fresh.json"), 0640U);
    std::ofstream(dir.path / "private.json") << "old\n";
    ::chmod((dir.path / "private.json").c_str(), 0600);
    ASSERT_FALSE(io::write_file_atomically((dir.path / "private.json").string(), "new\n"));
    EXPECT_EQ(mode_of(dir.path / "private.json"), 0600U);
    EXPECT_EQ(slurp(dir.path / "private.json"), "new\n");
}

// A link in a directory that others may write to is not followed, even this user's own, unless
// the directory is sticky (as /tmp is), where nobody else can remove or replace it; the file it
// names is untouched, the link stays and the error names it.
TEST(atomic_file, a_link_others_could_have_planted_is_not_followed) {
    scratch_dir dir;
    fs::create_directories(dir.path / "victim");
    std::ofstream(dir.path / "victim" / "precious") << "precious\n";
    fs::create_directories(dir.path / "open");
    ::chmod((dir.path / "open").c_str(), 0777);
    fs::create_symlink(dir.path / "victim" / "precious", dir.path / "open" / "out.json");
    auto err = io::write_file_atomically((dir.path / "open" / "out.json").string(), "clobbered\n");
    ASSERT_TRUE(err);
    EXPECT_NE(err->find("does not follow it"), std::string::npos) << *err;
    EXPECT_NE(err->find((dir.path / "open" / "out.json").string()), std::string::npos) << *err;
    EXPECT_TRUE(fs::is_symlink(dir.path / "open" / "out.json"));
    EXPECT_EQ(slurp(dir.path / "victim" / "precious"), "precious\n");

    fs::create_directories(dir.path / "sticky");
    ::chmod((dir.path / "sticky").c_str(), 01777);
    fs::create_symlink(dir.path / "victim" / "mine", dir.path / "sticky" / "mine.json");
    ASSERT_FALSE(io::write_file_atomically((dir.path / "sticky" / "mine.json").string(), "mine\n"));
    EXPECT_EQ(slurp(dir.path / "victim" / "mine"), "mine\n");

    // Another user's link, even in a sticky directory (needs root to make one).
    if (::geteuid() != 0)
        return;
    fs::create_symlink(dir.path / "victim" / "precious", dir.path / "sticky" / "theirs.json");
    ASSERT_EQ(::lchown((dir.path / "sticky" / "theirs.json").c_str(), 65534, 65534), 0);
    err = io::write_file_atomically((dir.path / "sticky" / "theirs.json").string(), "clobbered\n");
    ASSERT_TRUE(err);
    EXPECT_NE(err->find("does not follow it"), std::string::npos) << *err;
    EXPECT_EQ(slurp(dir.path / "victim" / "precious"), "precious\n");
}

TEST(atomic_file, a_name_as_long_as_a_name_may_be_is_written) {
    scratch_dir dir;
    const fs::path target = dir.path / (std::string(250, 'r') + ".json");
    ASSERT_FALSE(io::write_file_atomically(target.string(), "long\n"));
    EXPECT_EQ(slurp(target), "long\n");
}

TEST(atomic_file, a_directory_is_an_error) {
    scratch_dir dir;
    auto err = io::write_file_atomically(dir.path.string(), "x");
    ASSERT_TRUE(err);
    EXPECT_NE(err->find("is a directory"), std::string::npos) << *err;
}

TEST(atomic_file, an_unwritable_place_is_an_error_naming_the_path) {
    auto err = io::write_file_atomically("/nonexistent-dir/x/results.json", "x");
    ASSERT_TRUE(err);
    EXPECT_NE(err->find("/nonexistent-dir/x/results.json"), std::string::npos);
}

// A content made piece by piece: small pieces gathered, large ones written as they come, in
// order; and a failure to write names the path, after the rest of the pieces were made.
TEST(atomic_file, a_content_made_piece_by_piece_is_written_whole_and_in_order) {
    scratch_dir dir;
    const fs::path target = dir.path / "page.html";
    std::string expected;
    const io::content_source source = [&expected](const io::piece_sink& put) {
        for (int i = 0; i < 3000; ++i) {
            const std::string piece = "<p>" + std::to_string(i) + "</p>\n";
            expected += piece;
            put(piece);
            if (i % 1000 == 999) {
                const std::string big((std::size_t{100} << 10) + static_cast<std::size_t>(i), 'x');
                expected += big;
                put(big);
            }
        }
    };
    ASSERT_FALSE(io::write_file_atomically(target.string(), source));
    EXPECT_EQ(slurp(target), expected);

    int made = 0;
    const auto error = io::write_file_atomically("/dev/full", [&made](const io::piece_sink& put) {
        for (int i = 0; i < 100; ++i, ++made)
            put(std::string(std::size_t{1} << 10, 'y'));
    });
    ASSERT_TRUE(error);
    EXPECT_NE(error->find("/dev/full"), std::string::npos) << *error;
    EXPECT_EQ(made, 100);
}

// A source that throws midway (a page that runs out of memory) leaves neither the temporary nor
// anything at the user's path, and the exception goes on to the caller.
TEST(atomic_file, a_source_that_throws_leaves_nothing_behind) {
    scratch_dir dir;
    const fs::path target = dir.path / "page.html";
    const auto throwing = [](const io::piece_sink& put) {
        put(std::string(std::size_t{100} << 10, 'z'));
        throw std::bad_alloc();
    };
    EXPECT_THROW((void)io::write_file_atomically(target.string(), throwing), std::bad_alloc);
    EXPECT_FALSE(fs::exists(target));
    EXPECT_TRUE(fs::is_empty(dir.path));
    ASSERT_FALSE(io::write_file_atomically(target.string(), "kept\n"));
    EXPECT_THROW((void)io::write_file_atomically(target.string(), throwing), std::bad_alloc);
    EXPECT_EQ(slurp(target), "kept\n");
    int entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path))
        ++entries;
    EXPECT_EQ(entries, 1);
}

}  // namespace
}  // namespace tare
