// src/os/layout_linux.cpp: a seed places any program alike, whatever its path; another seed
// elsewhere; a worker gives back what the launch changed.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "os/channel.hpp"
#include "os/layout.hpp"
#include "os/process.hpp"
#include "text_helpers.hpp"

namespace tare {
namespace {

namespace fs = std::filesystem;

struct placement {
    std::string code;   // start of the program's first mapping
    std::string heap;   // start of [heap]
    std::string stack;  // the initial stack pointer's page: startstack of /proc/self/stat
};

// Runs `program` (a copy of cat) on its own /proc/self/maps and /proc/self/stat in `seed`'s
// layout and reads where the kernel put it.
placement where(const fs::path& program, std::optional<std::uint64_t> seed) {
    os::child_options o;
    o.layout_seed = seed;
    const os::captured_child c =
        os::run_child_capturing({program.string(), "/proc/self/maps", "/proc/self/stat"}, o, 1 << 20);
    EXPECT_EQ(c.result.exit_code, 0) << os::describe_end(c.result);
    std::istringstream text(c.output);
    placement p;
    std::string line;
    while (std::getline(text, line)) {
        const std::string start = line.substr(0, line.find('-'));
        if (p.code.empty() && line.find(" " + program.string()) != std::string::npos) {
            p.code = start;
        } else if (line.find("[heap]") != std::string::npos) {
            p.heap = start;
        } else if (line.find(" (") != std::string::npos &&
                   line.find_first_not_of("0123456789") == line.find(" (")) {
            // /proc/self/stat: field 28 is startstack, counted after the ")" ending field 2.
            std::istringstream fields(line.substr(line.rfind(") ") + 2));
            std::string f;
            for (int i = 3; i <= 28 && fields >> f; ++i) {
            }
            p.stack = f;
        }
    }
    return p;
}

class layout : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("tare-layout-" + std::to_string(getpid()));
        fs::create_directories(dir_);
        short_ = dir_ / "c";
        long_ = dir_ / "a-much-longer-name-for-the-same-program";
        fs::copy_file("/bin/cat", short_);
        fs::copy_file("/bin/cat", long_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path dir_, short_, long_;
};

TEST_F(layout, one_seed_places_programs_of_any_path_alike) {
    const placement a = where(short_, 1234);
    const placement b = where(long_, 1234);
    ASSERT_FALSE(a.code.empty());
    ASSERT_FALSE(a.stack.empty());
    EXPECT_EQ(a.code, b.code);
    EXPECT_EQ(a.heap, b.heap);
    EXPECT_EQ(a.stack, b.stack);
    // And the same program again, to be sure nothing else drew anything.
    const placement c = where(short_, 1234);
    EXPECT_EQ(a.code, c.code);
    EXPECT_EQ(a.stack, c.stack);
}

TEST_F(layout, other_seeds_place_code_and_stack_elsewhere) {
    const placement a = where(short_, 1);
    int code_moved = 0;
    int stack_moved = 0;
    for (std::uint64_t seed = 2; seed < 6; ++seed) {
        const placement b = where(short_, seed);
        code_moved += b.code != a.code ? 1 : 0;
        stack_moved += b.stack != a.stack ? 1 : 0;
    }
    // 65,536 code placements and 4,096 stack placements: four seeds all collide by design only.
    EXPECT_EQ(code_moved, 4);
    EXPECT_EQ(stack_moved, 4);
}

TEST_F(layout, a_channel_child_starts_without_the_kernels_randomisation) {
    const fs::path err = dir_ / "err.txt";
    os::channel_child c =
        os::spawn_with_channel({"/bin/sh", "-c", "cat /proc/self/personality >&2"}, err.string(), {}, 7);
    ASSERT_GT(c.pid, 0) << c.error;
    const os::child_result r = os::finish_child(c, 10);
    EXPECT_EQ(r.exit_code, 0) << os::describe_end(r);
    EXPECT_EQ(slurp(err), "00040000\n");  // ADDR_NO_RANDOMIZE, inherited by the shell's cat
}

TEST(layout_interpreter, only_dynamic_elf_executables_have_one) {
    const auto cat = os::program_interpreter("/bin/cat");
    ASSERT_TRUE(cat.has_value());
    EXPECT_EQ(cat->rfind("/lib", 0), 0U) << *cat;
    EXPECT_FALSE(os::program_interpreter("/sbin/ldconfig").has_value());  // static-pie
    EXPECT_FALSE(os::program_interpreter(__FILE__).has_value());
    EXPECT_FALSE(os::program_interpreter("/no/such/file").has_value());
}

TEST(layout_interpreter, what_cannot_be_placed_says_why) {
    auto s = os::prepare_layout({"/sbin/ldconfig"}, 1);
    ASSERT_TRUE(std::holds_alternative<std::string>(s));
    EXPECT_NE(std::get<std::string>(s).find("/sbin/ldconfig has no program interpreter"), std::string::npos);
    auto missing = os::prepare_layout({"/no/such/file"}, 1);
    ASSERT_TRUE(std::holds_alternative<std::string>(missing));
    EXPECT_EQ(std::get<std::string>(missing), "/no/such/file: cannot execute: No such file or directory");

    os::child_options o;
    o.layout_seed = 1;
    const os::child_result r = os::run_child({"/sbin/ldconfig", "--version"}, o);
    EXPECT_FALSE(r.started);
    EXPECT_NE(r.error.find("no program interpreter"), std::string::npos) << r.error;
}

TEST(layout_interpreter, a_launch_runs_the_loader_and_restores_what_it_changed) {
    auto l = os::prepare_layout({"/bin/cat", "x"}, 99);
    ASSERT_TRUE(std::holds_alternative<os::layout_launch>(l));
    const os::layout_launch& launch = std::get<os::layout_launch>(l);
    ASSERT_EQ(launch.argv.size(), 3U);
    EXPECT_EQ(launch.argv[0], *os::program_interpreter("/bin/cat"));
    EXPECT_EQ(launch.argv[1], "/bin/cat");
    EXPECT_EQ(launch.argv[2], "x");
    EXPECT_GE(launch.stack_limit, std::uint64_t{128} << 20);
    EXPECT_LT(launch.stack_limit, std::uint64_t{384} << 20);
    std::size_t bytes = 0;
    for (const auto* v : {&launch.argv, &launch.env}) {
        for (const auto& a : *v) {
            bytes += a.size() + 1;
        }
    }
    EXPECT_EQ(bytes % 16, 0U);  // the strings end on a placement step, whatever the paths
}

TEST(layout_settle, gives_back_the_limit_and_thread_stack_and_leaves_no_trace) {
    rlimit before{};
    ASSERT_EQ(getrlimit(RLIMIT_STACK, &before), 0);
    pthread_attr_t attr;
    ASSERT_EQ(pthread_getattr_default_np(&attr), 0);
    std::size_t thread_before = 0;
    pthread_attr_getstacksize(&attr, &thread_before);
    pthread_attr_destroy(&attr);

    const std::string limit =
        before.rlim_cur == RLIM_INFINITY ? std::string("unlimited") : std::to_string(before.rlim_cur);
    setenv("TARE_LAYOUT_STACK_LIMIT", limit.c_str(), 1);
    setenv("TARE_LAYOUT_THREAD_STACK", "3145728", 1);
    setenv("TARE_LAYOUT_PAD", "xxxx", 1);
    os::settle_layout();

    ASSERT_EQ(pthread_getattr_default_np(&attr), 0);
    std::size_t thread_after = 0;
    pthread_attr_getstacksize(&attr, &thread_after);
    pthread_attr_destroy(&attr);
    EXPECT_EQ(thread_after, 3145728U);
    rlimit after{};
    ASSERT_EQ(getrlimit(RLIMIT_STACK, &after), 0);
    EXPECT_EQ(after.rlim_cur, before.rlim_cur);
    EXPECT_EQ(std::getenv("TARE_LAYOUT_STACK_LIMIT"), nullptr);
    EXPECT_EQ(std::getenv("TARE_LAYOUT_THREAD_STACK"), nullptr);
    EXPECT_EQ(std::getenv("TARE_LAYOUT_PAD"), nullptr);

    // Started otherwise, nothing happens.
    os::settle_layout();
    ASSERT_EQ(pthread_getattr_default_np(&attr), 0);
    pthread_attr_setstacksize(&attr, thread_before);
    pthread_setattr_default_np(&attr);
    pthread_attr_destroy(&attr);
}

}  // namespace
}  // namespace tare
