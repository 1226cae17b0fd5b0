#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include "os/capture.hpp"
#include "os/channel.hpp"
#include "os/os.hpp"
#include "os/process.hpp"
#include "text_helpers.hpp"

namespace tare {
namespace {

TEST(os_linux, page_faults_rise_when_fresh_pages_are_touched) {
    constexpr std::size_t size = std::size_t{16} << 20;
    os::usage before = os::self_usage();
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(p, MAP_FAILED);
    std::memset(p, 1, size);
    os::usage after = os::self_usage();
    munmap(p, size);
    // 4096 pages of 4 KiB; transparent huge pages may serve some with fewer faults.
    EXPECT_GE(after.minor_faults - before.minor_faults, 8U);
}

TEST(os_linux, a_threads_usage_has_its_own_faults_and_not_another_threads) {
    constexpr std::size_t size = std::size_t{16} << 20;
    const os::usage mine_before = os::thread_usage();
    std::uint64_t theirs = 0;
    std::thread other([&] {
        const os::usage before = os::thread_usage();
        void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        ASSERT_NE(p, MAP_FAILED);
        std::memset(p, 1, size);
        theirs = os::thread_usage().minor_faults - before.minor_faults;
        munmap(p, size);
    });
    other.join();
    const os::usage mine_after = os::thread_usage();
    EXPECT_GE(theirs, 8U);
    // This thread touched nothing new but the thread's start-up (a few pages at most).
    EXPECT_LT(mine_after.minor_faults - mine_before.minor_faults, theirs);
}

TEST(os_linux, context_fields) {
    EXPECT_FALSE(os::host_name().empty());
    EXPECT_GE(os::cpu_count(), 1U);
    // The file this process runs, whatever the test executable is called (its own, or the
    // sanitizer legs' batch of every unit test): the same inode as the kernel's /proc/self/exe.
    const std::string self = os::executable_path();
    ASSERT_FALSE(self.empty());
    EXPECT_EQ(self.front(), '/');
    struct stat named {};
    struct stat running {};
    ASSERT_EQ(::stat(self.c_str(), &named), 0) << self;
    ASSERT_EQ(::stat("/proc/self/exe", &running), 0);
    EXPECT_EQ(named.st_dev, running.st_dev);
    EXPECT_EQ(named.st_ino, running.st_ino);
    EXPECT_TRUE(std::regex_match(os::utc_now_iso8601(), std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
}

TEST(os_linux, allowed_cpus_are_ascending_and_hold_the_current_one) {
    const std::vector<int> cpus = os::allowed_cpus();
    ASSERT_FALSE(cpus.empty());
    EXPECT_TRUE(std::is_sorted(cpus.begin(), cpus.end()));
    EXPECT_NE(std::find(cpus.begin(), cpus.end(), sched_getcpu()), cpus.end());
    EXPECT_LE(cpus.size(), os::cpu_count());
}

// The kernel's own word on a child's affinity: Cpus_allowed_list in /proc/self/status.
std::string cpus_allowed_of_child(const std::vector<int>& cpus) {
    os::child_options o;
    o.cpus = cpus;
    const os::captured_child c =
        os::run_child_capturing({"/bin/grep", "Cpus_allowed_list", "/proc/self/status"}, o, 4096);
    EXPECT_EQ(c.result.exit_code, 0) << os::describe_end(c.result);
    return c.output;
}

// A child's standard output read through a pipe, bounded: all of it up to the limit, and a
// longer one said to be longer, with no file anywhere (before, it went to a temporary file with
// no bound on its size).
TEST(os_linux, a_childs_output_is_captured_up_to_a_limit) {
    const os::captured_child exact =
        os::run_child_capturing({"/bin/sh", "-c", "head -c 1000 /dev/zero | tr '\\0' x"}, {}, 1000);
    EXPECT_EQ(exact.result.exit_code, 0);
    EXPECT_FALSE(exact.over);
    EXPECT_EQ(exact.output, std::string(1000, 'x'));
    const os::captured_child longer =
        os::run_child_capturing({"/bin/sh", "-c", "head -c 5000000 /dev/zero"}, {}, 1000);
    EXPECT_EQ(longer.result.exit_code, 0);
    EXPECT_TRUE(longer.over);
    EXPECT_TRUE(longer.output.empty());
}

TEST(os_linux, a_child_runs_on_the_cpus_it_is_given) {
    const std::vector<int> cpus = os::allowed_cpus();
    ASSERT_FALSE(cpus.empty());
    EXPECT_EQ(cpus_allowed_of_child({cpus.back()}),
              "Cpus_allowed_list:\t" + std::to_string(cpus.back()) + "\n");
    // No list: the parent's mask is inherited unchanged.
    const std::string inherited = cpus_allowed_of_child({});
    EXPECT_EQ(inherited.rfind("Cpus_allowed_list:", 0), 0U) << inherited;
    if (cpus.size() >= 2) {
        EXPECT_NE(inherited, "Cpus_allowed_list:\t" + std::to_string(cpus.back()) + "\n");
    }
}

TEST(os_linux, a_channel_child_runs_on_the_cpus_it_is_given) {
    const std::vector<int> cpus = os::allowed_cpus();
    ASSERT_FALSE(cpus.empty());
    const auto err = std::filesystem::temp_directory_path() / ("tare-os-chan-" + std::to_string(getpid()));
    os::channel_child c = os::spawn_with_channel(
        {"/bin/sh", "-c", "grep Cpus_allowed_list /proc/self/status >&2"}, err.string(), {cpus.front()});
    ASSERT_GT(c.pid, 0) << c.error;
    const os::child_result r = os::finish_child(c, 10);
    EXPECT_EQ(r.exit_code, 0) << os::describe_end(r);
    const std::string text = slurp(err);
    std::filesystem::remove(err);
    EXPECT_EQ(text, "Cpus_allowed_list:\t" + std::to_string(cpus.front()) + "\n");
}

// What `sh -c SCRIPT` writes to its standard error through a capture keeping `keep` bytes.
os::captured_tail captured_stderr_of(const std::string& script, std::size_t keep) {
    os::tail_capture capture(keep);
    EXPECT_GE(capture.child_end(), 0) << capture.error();
    os::channel_child c = os::spawn_with_channel({"/bin/sh", "-c", script}, capture.child_end());
    capture.close_child_end();
    EXPECT_GT(c.pid, 0) << c.error;
    const os::child_result r = os::finish_child(c, 30);
    EXPECT_EQ(r.exit_code, 0) << os::describe_end(r);
    return capture.tail(30);  // the child has ended: the stream's end is an event, not a wait
}

TEST(os_linux, a_capture_keeps_the_last_bytes_and_counts_the_rest) {
    // About 15 MB of numbered lines, arriving in pipe-sized pieces: the ring wraps many times.
    std::string all;
    for (int i = 1; i <= 2000000; ++i) {
        all += std::to_string(i) + "\n";
    }
    constexpr std::size_t keep = 100000;
    const os::captured_tail t = captured_stderr_of("seq 1 2000000 >&2", keep);
    EXPECT_EQ(t.dropped, all.size() - keep);
    EXPECT_EQ(t.text, all.substr(all.size() - keep));

    // One write larger than the whole ring, then a short one.
    const os::captured_tail big =
        captured_stderr_of("head -c 300000 /dev/zero >&2; echo last words >&2", 1000);
    EXPECT_EQ(big.dropped, 300000U + 11U - 1000U);
    EXPECT_EQ(big.text, std::string(989, '\0') + "last words\n");

    // Less than the ring holds: all of it, nothing dropped.
    const os::captured_tail small = captured_stderr_of("echo one >&2; echo two >&2", keep);
    EXPECT_EQ(small.dropped, 0U);
    EXPECT_EQ(small.text, "one\ntwo\n");
}

TEST(os_linux, a_thread_pin_holds_while_it_lives_and_gives_the_cpus_back) {
    const std::vector<int> before = os::allowed_cpus();
    ASSERT_FALSE(before.empty());
    {
        const std::vector<int> last{before.back()};
        const os::thread_pin pin(last);
        EXPECT_EQ(os::allowed_cpus(), last);
    }
    EXPECT_EQ(os::allowed_cpus(), before);
    {
        const os::thread_pin none(std::vector<int>{});
        EXPECT_EQ(os::allowed_cpus(), before);
    }
    EXPECT_EQ(os::allowed_cpus(), before);
}

TEST(os_linux, pin_refuses_an_empty_or_impossible_set) {
    EXPECT_FALSE(os::pin_to_cpus({}));
    const int impossible[] = {-1, 1 << 20};
    EXPECT_FALSE(os::pin_to_cpus(impossible));
}

// The private temporary directory: one per process, mode 0700, distinct names of one length
// for one stem, and removed whole (a subdirectory and its files included).
TEST(os_linux, temporary_names_live_in_one_private_directory_removed_whole) {
    const os::temp_name a = os::temp_file_name("unit", ".json");
    const os::temp_name b = os::temp_file_name("unit", ".json");
    ASSERT_FALSE(a.path.empty()) << a.error;
    EXPECT_NE(a.path, b.path);
    EXPECT_EQ(a.path.size(), b.path.size());
    const std::filesystem::path dir = std::filesystem::path(a.path).parent_path();
    EXPECT_EQ(dir, std::filesystem::path(b.path).parent_path());
    EXPECT_EQ(dir.filename().string().rfind("tare-", 0), 0U) << dir;
    struct stat st {};
    ASSERT_EQ(::stat(dir.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0700U);
    std::ofstream(a.path) << "x";
    const std::filesystem::path sub = os::temp_file_name("unit-dir").path;
    std::filesystem::create_directory(sub);
    std::ofstream(sub / "inner") << "y";
    os::remove_temp_dir();
    EXPECT_FALSE(std::filesystem::exists(dir)) << dir;
}

}  // namespace
}  // namespace tare
