#include "scratch.hpp"

#include <unistd.h>

#include <system_error>

namespace tare::test {

namespace {

struct scratch_dir {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("tare_test_" + std::to_string(::getpid()));
    scratch_dir() = default;
    scratch_dir(const scratch_dir&) = delete;
    scratch_dir& operator=(const scratch_dir&) = delete;
    scratch_dir(scratch_dir&&) = delete;
    scratch_dir& operator=(scratch_dir&&) = delete;
    ~scratch_dir() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
};

}  // namespace

std::filesystem::path scratch(const std::string& name) {
    static scratch_dir dir;
    std::filesystem::create_directories(dir.path);
    return dir.path / name;
}

}  // namespace tare::test
