// What a target of `tare run` or a side of `tare compare` is: a results file or an executable,
// decided by name, content and permission, never by running it; and what a Google Benchmark
// suite's memory figures include, as the note under its table says.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "cli/commands.hpp"
#include "io/results_reader.hpp"
#include "protocol/worker_protocol.hpp"

namespace tare::cli {

namespace {

// Its first byte that is not blank (after a UTF-8 byte-order mark) opens a JSON array or object.
// Decided by content, so "base.out" written by `--json=base.out` is read as what it is.
bool begins_like_json(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char c = 0;
    bool first = true;
    while (in.get(c)) {
        if (first && c == '\xEF') {
            char bom[2] = {};
            if (!in.read(bom, 2) || bom[0] != '\xBB' || bom[1] != '\xBF') {
                return false;
            }
            first = false;
            continue;
        }
        first = false;
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            return c == '{' || c == '[';
        }
    }
    return false;
}

bool named_json(const std::string& path) {
    return path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0;
}

}  // namespace

namespace {

// Whether the file at `path` holds any of `markers`. Streamed in chunks that overlap by a
// marker's length, so a marker across a chunk border is still found; a 100 MB binary is
// scanned in well under a second.
bool binary_contains(const std::string& path, std::initializer_list<std::string_view> markers) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return false;
    }
    constexpr std::size_t overlap = 64;
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

}  // namespace

bool is_gbench_executable(const std::string& path) {
    return binary_contains(path, {"benchmark_list_tests", "libbenchmark.so"});
}

bool gbench_worker_capable(const std::string& path) {
    return binary_contains(path, {protocol::gbench_worker_marker});
}

bool gbench_sized_capable(const std::string& path) {
    return binary_contains(path, {protocol::gbench_sized_marker});
}

std::variant<target_kind, run_failure> classify_target(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (path == "-") {
        return target_kind::results_file;  // standard input: only a results file comes that way
    }
    // In the words every command uses for a file it cannot open (io::open_error).
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        return run_failure{exit_usage, io::open_error(path, errno).message};
    }
    if (S_ISDIR(st.st_mode)) {
        return run_failure{exit_usage, io::open_error(path, EISDIR).message};
    }
    // A pipe or a device is read once, by the reader: peeking at its first bytes would take
    // them from it. Nothing runs from one, so it is a results file.
    if (!fs::is_regular_file(path, ec)) {
        return target_kind::results_file;
    }
    if (named_json(path) || begins_like_json(path)) {
        return target_kind::results_file;
    }
    if (::access(path.c_str(), X_OK) != 0) {
        return target_kind::unknown_file;
    }
    return is_gbench_executable(path) ? target_kind::gbench_executable : target_kind::tare_executable;
}

const char* unknown_file_note(target_kind k) {
    return k == target_kind::unknown_file ? " (not executable, so read as a results file)" : "";
}

std::string gbench_note(const run_context& context) {
    constexpr const char* memory_run =
        "      after the timed ones, fixture SetUp/TearDown and paused regions included, plus GB's\n"
        "      per-run allocations (400 B, and 8 B x arguments when the benchmark has arguments):\n"
        "      +1/16 allocs/iter, or +2/16 with arguments, over what the loop itself does\n";
    if (!context.accounting && context.gbench_memory == "none_measured")
        return "note: no memory figures: every benchmark failed before its figures were written\n";
    if (!context.accounting)
        return "note: no memory figures: link tare::gbench into the suite to get them\n";
    if (context.gbench_memory == "region")
        return "note: memory figures are the timed region's alone (tare::gbench's region hooks): pauses,\n"
               "      setup and fixture SetUp/TearDown excluded\n";
    if (context.gbench_memory == "mixed")
        return std::string(
                   "note: memory figures are the timed region's alone (tare::gbench's region hooks), but "
                   "for\n"
                   "      the rows warned gbench_memory_run (no hooks' figures): those are Google "
                   "Benchmark's memory\n"
                   "      run of min(16, iterations) iterations\n") +
               memory_run;
    return std::string(
               "note: memory figures are Google Benchmark's own memory run: min(16, iterations) "
               "iterations\n") +
           memory_run;
}

std::string gbench_compare_note(const compare_results& results,
                                const std::optional<std::string>& gbench_memory) {
    const auto has = [&](side_figures compare_row::*side) {
        return std::any_of(results.rows.begin(), results.rows.end(),
                           [&](const compare_row& row) { return (row.*side).allocs_per_iter.has_value(); });
    };
    const bool base = has(&compare_row::base);
    const bool head = has(&compare_row::head);
    run_context memory;
    memory.accounting = base || head;
    memory.gbench_memory = gbench_memory;
    // One side without figures is not "no memory figures": the other side's are real.
    std::string missing;
    if (base != head) {
        missing = std::string("note: ") + (base ? "head" : "base") +
                  " has no memory figures: link tare::gbench into its suite to get them\n";
    }
    return missing + gbench_note(memory);
}

}  // namespace tare::cli
