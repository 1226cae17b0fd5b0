// `tare run GB_BINARY`: runs a Google Benchmark executable, reads its JSON back through
// io/gbench_reader and prints tare's tables.
#include "cli/gbench_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <variant>
#include <vector>

#include "io/gbench_reader.hpp"
#include "os/process.hpp"

namespace tare::cli {

bool is_gbench_executable(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return false;
    }
    // Streamed in chunks that overlap by a marker's length, so a marker across a chunk border
    // is still found; a 100 MB binary is scanned in well under a second.
    static constexpr std::string_view markers[] = {"benchmark_list_tests", "libbenchmark.so"};
    constexpr std::size_t overlap = 32;
    std::vector<char> buf(1 << 20);
    std::size_t kept = 0;
    for (;;) {
        in.read(buf.data() + kept, static_cast<std::streamsize>(buf.size() - kept));
        const std::streamsize got = in.gcount();
        if (got <= 0) {
            break;
        }
        const std::size_t n = kept + static_cast<std::size_t>(got);
        const std::string_view chunk(buf.data(), n);
        for (std::string_view m : markers) {
            if (chunk.find(m) != std::string_view::npos) {
                return true;
            }
        }
        kept = std::min(overlap, n);
        std::copy(buf.data() + n - kept, buf.data() + n, buf.data());
    }
    return false;
}

std::variant<run_results, run_failure> gbench_collect(const std::string& target, const run_args& args) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path tmp = fs::temp_directory_path() / ("tare-gbench-" + std::to_string(::getpid()) + ".json");
    std::vector<std::string> argv{fs::absolute(target).string(), "--benchmark_out=" + tmp.string(),
                                  "--benchmark_out_format=json", "--benchmark_format=json"};
    if (!args.filter.empty()) {
        argv.push_back("--benchmark_filter=" + args.filter);
    }
    if (args.min_time) {
        // GB 1.7.1 takes a plain number of seconds (1.8 also accepts "<n>s" and "<n>x").
        argv.push_back("--benchmark_min_time=" + std::to_string(*args.min_time));
    }
    os::child_options opts;
    opts.discard_stdout = true;  // its own report is reprinted as tare's table
    const os::child_result child = os::run_child(argv, opts);
    // GB exits 0 even when a benchmark called SkipWithError (the row says so); anything else is
    // a run that did not end.
    if (!child.started || child.signal != 0 || child.exit_code != 0) {
        fs::remove(tmp, ec);
        return run_failure{exit_not_run, target + ": " + os::describe_end(child)};
    }
    auto read = io::read_any_results_file(tmp.string());
    fs::remove(tmp, ec);
    if (auto* err = std::get_if<io::read_error>(&read)) {
        return run_failure{exit_not_run, err->message};
    }
    run_results& results = std::get<run_results>(read);
    results.context.executable = target;
    return std::move(results);
}

const char* gbench_note(bool accounting) {
    return accounting
               ? "note: memory figures are Google Benchmark's own memory run: min(16, iterations) "
                 "iterations\n"
                 "      after the timed ones, fixture SetUp/TearDown and paused regions included, plus GB's\n"
                 "      per-run allocations (400 B, and 8 B x arguments when the benchmark has arguments):\n"
                 "      +1/16 allocs/iter, or +2/16 with arguments, over what the loop itself does\n"
               : "note: no memory figures: link tare::gbench into the suite to get them\n";
}

}  // namespace tare::cli
