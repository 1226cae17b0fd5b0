// A benchmark that floods its standard error: 64 MiB, then one line saying how many bytes
// $TMPDIR holds at that moment, then the process ends. The hostile suite runs it through
// `tare compare`: the worker's failure must quote that last line and name the bytes tare did not
// keep, and $TMPDIR must never have held the flood.
#include <unistd.h>
#include <tare/tare.hpp>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

namespace {

constexpr int flood_mib = 64;

// Bytes of every regular file under `dir`, subdirectories included (tare's private one).
std::uintmax_t bytes_under(const char* dir) {
    namespace fs = std::filesystem;
    std::uintmax_t total = 0;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir ? dir : "/tmp", ec), end; !ec && it != end;
         it.increment(ec)) {
        std::error_code size_ec;
        if (it->is_regular_file(size_ec)) {
            const std::uintmax_t size = it->file_size(size_ec);
            total += size_ec ? 0 : size;
        }
    }
    return total;
}

void write_all(const std::string& text) {
    const char* p = text.data();
    std::size_t left = text.size();
    while (left > 0) {
        const ssize_t n = ::write(2, p, left);
        if (n <= 0) {
            ::_exit(4);
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
}

}  // namespace

static void floods_stderr(tare::State& state) {
    for (auto _ : state) {
        std::string mib;
        for (int i = 0; i < 1024; ++i) {
            mib += std::string(1023, 'x') + "\n";
        }
        for (int i = 0; i < flood_mib; ++i) {
            write_all(mib);
        }
        write_all("tmpdir holds " + std::to_string(bytes_under(std::getenv("TMPDIR"))) + " bytes\n");
        ::_exit(3);
    }
}
TARE_BENCHMARK(floods_stderr);
