#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstring>
#include <regex>

#include "os/os.hpp"

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

TEST(os_linux, context_fields) {
    EXPECT_FALSE(os::host_name().empty());
    EXPECT_GE(os::cpu_count(), 1U);
    EXPECT_NE(os::executable_path().find("os_linux_test"), std::string::npos);
    EXPECT_TRUE(std::regex_match(os::utc_now_iso8601(), std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
}

}  // namespace
}  // namespace tare
