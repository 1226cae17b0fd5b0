#include "io/atomic_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tare {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

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

TEST(atomic_file, an_unwritable_place_is_an_error_naming_the_path) {
    auto err = io::write_file_atomically("/nonexistent-dir/x/results.json", "x");
    ASSERT_TRUE(err);
    EXPECT_NE(err->find("/nonexistent-dir/x/results.json"), std::string::npos);
}

}  // namespace
}  // namespace tare
