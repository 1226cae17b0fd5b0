#include "main/isolate.hpp"

#include <cstdio>
#include <filesystem>
#include <variant>

#include "io/results_reader.hpp"
#include "os/os.hpp"
#include "os/process.hpp"

namespace tare::driver {

namespace {

benchmark_result error_row(const std::string& name, std::string kind, std::string message) {
    benchmark_result r;
    r.name = name;
    r.error = error_info{std::move(kind), std::move(message)};
    return r;
}

std::string seconds_text(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", s);
    return buf;
}

}  // namespace

namespace {

// The child's results for step `name`, or one error row naming how it ended.
std::variant<run_results, benchmark_result> run_child_step(const std::string& name,
                                                           const isolate_options& options) {
    namespace fs = std::filesystem;
    const os::temp_name temp = os::temp_file_name("isolate", ".json");
    if (temp.path.empty()) {
        return error_row(name, "temp_file", temp.error);
    }
    const fs::path tmp = temp.path;
    std::vector<std::string> argv{os::executable_path(), std::string(exact_flag) + "=" + name,
                                  "--json=" + tmp.string(), "--min-time=" + seconds_text(options.min_time)};
    if (options.alloc_sites) {
        argv.push_back("--alloc-sites=" + std::to_string(*options.alloc_sites));
    }
    os::child_options child_opts;
    child_opts.discard_stdout = true;
    child_opts.timeout_seconds = options.timeout_seconds;
    child_opts.interrupt = os::on_interrupt::kill;  // its benchmark may never look up: stop it now
    const os::child_result child = os::run_child(argv, child_opts);
    std::error_code ec;
    if (child.timed_out) {
        fs::remove(tmp, ec);
        return error_row(name, "timeout",
                         "ran longer than the timeout of " + seconds_text(*options.timeout_seconds) +
                             " s and was stopped");
    }
    if (child.signal != 0) {
        fs::remove(tmp, ec);
        return error_row(name, "signal", "the benchmark's process was " + os::describe_end(child));
    }
    if (!child.started || (child.exit_code != 0 && child.exit_code != 1)) {
        fs::remove(tmp, ec);
        return error_row(name, "crash", "the benchmark's process " + os::describe_end(child));
    }
    auto read = io::read_results_file(tmp.string());
    fs::remove(tmp, ec);
    if (auto* err = std::get_if<io::read_error>(&read)) {
        return error_row(
            name, "crash",
            "the benchmark's process left no readable results: " + err->without_origin(tmp.string()));
    }
    return std::move(std::get<run_results>(read));
}

}  // namespace

benchmark_result run_isolated(const std::string& name, const isolate_options& options) {
    auto step = run_child_step(name, options);
    if (auto* row = std::get_if<benchmark_result>(&step)) {
        return std::move(*row);
    }
    auto& results = std::get<run_results>(step);
    if (results.benchmarks.size() != 1) {
        return error_row(name, "crash",
                         "the benchmark's process reported " + std::to_string(results.benchmarks.size()) +
                             " results, not 1");
    }
    return std::move(results.benchmarks.front());
}

run_results run_isolated_group(const std::string& name, const std::vector<std::string>& members,
                               const isolate_options& options) {
    auto step = run_child_step(name, options);
    run_results out;
    if (auto* results = std::get_if<run_results>(&step)) {
        bool complete = results->benchmarks.size() == members.size();
        for (std::size_t i = 0; complete && i < members.size(); ++i) {
            complete = results->benchmarks[i].name == members[i];
        }
        if (complete) {
            out.benchmarks = std::move(results->benchmarks);
            out.comparisons = std::move(results->comparisons);
            return out;
        }
        step = error_row(name, "crash",
                         "the group's process reported " + std::to_string(results->benchmarks.size()) +
                             " results, not its " + std::to_string(members.size()) + " members");
    }
    const benchmark_result& failure = std::get<benchmark_result>(step);
    for (const std::string& member : members) {
        out.benchmarks.push_back(error_row(member, failure.error->kind,
                                           "comparison group " + name + ": " + failure.error->message));
    }
    return out;
}

}  // namespace tare::driver
