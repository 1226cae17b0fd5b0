// `tare run BIN|RESULTS.json`: runs a tare benchmark executable (or reads a results file)
// and prints tare's table.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <variant>

#include "cli/commands.hpp"
#include "cli/gbench_run.hpp"
#include "io/atomic_file.hpp"
#include "io/gbench_reader.hpp"
#include "io/results_reader.hpp"
#include "os/process.hpp"
#include "report/reporter.hpp"

namespace tare::cli {

int fail(int status, const std::string& message) {
    std::fprintf(stderr, "error: %s\n", message.c_str());
    return status;
}

namespace {

bool looks_like_results_file(const std::string& path) {
    return path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0;
}

}  // namespace

int run_command(const run_args& args) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(args.target, ec)) {
        return fail(exit_usage, args.target + ": no such file");
    }
    std::variant<run_results, io::read_error> read;
    bool ran = false;
    if (looks_like_results_file(args.target)) {
        read = io::read_any_results_file(args.target);  // tare/1 or Google Benchmark JSON
    } else if (is_gbench_executable(args.target)) {
        return gbench_run(args);
    } else {
        fs::path tmp = fs::temp_directory_path() / ("tare-run-" + std::to_string(::getpid()) + ".json");
        std::vector<std::string> argv{fs::absolute(args.target).string(), "--json=" + tmp.string()};
        if (!args.filter.empty()) {
            argv.push_back("--filter=" + args.filter);
        }
        if (args.min_time) {
            argv.push_back("--min-time=" + std::to_string(*args.min_time));
        }
        os::child_options opts;
        opts.discard_stdout = true;  // its table is reprinted below, from its results
        os::child_result child = os::run_child(argv, opts);
        if (!child.started || child.signal != 0 || (child.exit_code != 0 && child.exit_code != 1)) {
            fs::remove(tmp, ec);
            return fail(exit_not_run, args.target + ": " + os::describe_end(child));
        }
        read = io::read_results_file(tmp.string());
        fs::remove(tmp, ec);
        ran = true;
    }
    if (auto* err = std::get_if<io::read_error>(&read)) {
        return fail(ran ? exit_not_run : exit_usage, err->message);
    }
    const run_results& results = std::get<run_results>(read);
    auto table = args.markdown ? report::make_markdown_reporter() : report::make_console_reporter();
    std::fputs(table->render(results).c_str(), stdout);
    if (args.json_path) {
        std::string json = report::make_json_reporter()->render(results);
        if (auto e = io::write_file_atomically(*args.json_path, json)) {
            return fail(exit_usage, *e);
        }
    }
    for (const benchmark_result& b : results.benchmarks) {
        if (b.error) {
            return exit_regression;
        }
    }
    return exit_ok;
}

}  // namespace tare::cli
