#include "compare/gbench_rounds.hpp"

#include "protocol/worker_protocol.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

#include "io/gbench_reader.hpp"
#include "os/interrupt.hpp"
#include "os/os.hpp"
#include "os/process.hpp"

namespace tare::compare {

namespace {

namespace fs = std::filesystem;

// The most of a suite's list of benchmarks that is read: a real one is a few megabytes at most
// (100,000 names of 100 bytes are 10 MB); the same bound as a worker's list.
constexpr std::size_t max_list_bytes = std::size_t{64} << 20;

std::string seconds_text(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", s);
    return buf;
}

}  // namespace

std::variant<std::vector<std::string>, rounds_failure> list_gbench_names(const std::string& exe,
                                                                         double timeout,
                                                                         const std::string& filter) {
    os::child_options opts;
    opts.timeout_seconds = timeout;
    std::vector<std::string> argv{exe, "--benchmark_list_tests=true"};
    if (!filter.empty())
        argv.push_back("--benchmark_filter=" + filter);
    const os::captured_child listed = os::run_child_capturing(argv, opts, max_list_bytes);
    const os::child_result& child = listed.result;
    if (!child.started || child.timed_out || child.signal != 0 || child.exit_code != 0) {
        return rounds_failure{3, exe + ": listing its benchmarks failed: " + os::describe_end(child)};
    }
    if (listed.over) {
        return rounds_failure{3, exe + ": listing its benchmarks printed more than " +
                                     std::to_string(max_list_bytes >> 20) +
                                     " MiB, more than a list may have"};
    }
    std::vector<std::string> names;
    std::istringstream in(listed.output);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty()) {
            names.push_back(line);
        }
    }
    return names;
}

namespace {

// One process of one side for one benchmark: its repetitions become the round's samples.
side_round run_one(const std::string& exe, const std::string& name, const rounds_options& o, double min_time,
                   std::optional<std::uint64_t> layout_seed) {
    side_round out;
    const os::temp_name temp = os::temp_file_name("gbench-round", ".json");
    if (temp.path.empty()) {
        out.error = error_info{"temp_file", temp.error};
        return out;
    }
    const fs::path json = temp.path;
    const std::size_t reps = std::max<std::size_t>(o.samples_per_round, 1);
    os::child_options opts;
    opts.interrupt = os::on_interrupt::wait;  // an interrupt ends the comparison after this round
    opts.discard_stdout = true;
    opts.discard_stderr = true;
    opts.timeout_seconds = o.timeout_seconds;
    opts.cpus = o.cpus;
    opts.layout_seed = layout_seed;
    const os::child_result child = os::run_child(
        {exe, "--benchmark_filter=" + exact_regex(name), "--benchmark_repetitions=" + std::to_string(reps),
         "--benchmark_min_time=" + seconds_text(min_time), "--benchmark_out=" + json.string(),
         "--benchmark_out_format=json", "--benchmark_format=json"},
        opts);
    std::error_code ec;
    if (child.timed_out) {
        fs::remove(json, ec);
        out.error = error_info{"timeout", exe + ": ran longer than the timeout of " +
                                              seconds_text(o.timeout_seconds) + " s and was stopped"};
        return out;
    }
    if (!child.started || child.signal != 0 || child.exit_code != 0) {
        fs::remove(json, ec);
        out.error = error_info{child.signal != 0 ? "signal" : "crash", exe + ": " + os::describe_end(child)};
        return out;
    }
    auto read = io::read_any_results_file(json.string());
    fs::remove(json, ec);
    if (auto* e = std::get_if<io::read_error>(&read)) {
        out.error = error_info{"crash", "its results cannot be read: " + e->without_origin(json.string())};
        return out;
    }
    out.gbench_memory = std::get<run_results>(read).context.gbench_memory;
    for (benchmark_result& b : std::get<run_results>(read).benchmarks) {
        if (b.name != name) {
            continue;
        }
        out.samples = b.samples.to_vector();
        out.peak_live_bytes = b.peak_live_bytes.value_or(0);
        if (b.error) {
            out.error = *b.error;
        }
        out.result = std::move(b);
        return out;
    }
    out.error = error_info{"crash", exe + ": wrote no result for " + name};
    return out;
}

}  // namespace

std::string exact_regex(const std::string& name) {
    return "^" + protocol::gbench_literal(name) + "$";
}

std::variant<rounds_data, rounds_failure> run_gbench_rounds(const rounds_options& o) {
    rounds_data data;
    data.memory_from_results = true;
    const std::string* exe[2] = {&o.base, &o.head};
    std::vector<std::string> names[2];
    for (int k = 0; k < 2; ++k) {
        auto l = list_gbench_names(*exe[k], o.timeout_seconds);
        if (auto* f = std::get_if<rounds_failure>(&l)) {
            return *f;
        }
        names[k] = std::move(std::get<std::vector<std::string>>(l));
    }
    if (auto why = pair_names(o, std::move(names[0]), std::move(names[1]), data)) {
        return rounds_failure{2, std::move(*why)};
    }
    const std::size_t rounds = std::max<std::size_t>(o.rounds, 1);
    const std::size_t reps = std::max<std::size_t>(o.samples_per_round, 1);
    // GB's min_time is per repetition: the budget spread over rounds and repetitions.
    const double min_time = o.min_time / static_cast<double>(rounds * reps);
    std::vector<bool> failed(data.rows.size(), false);
    for (std::size_t r = 0; r < rounds; ++r) {
        if (r > 0 && os::interrupted() != 0) {
            data.interrupted = true;  // the rounds that ran are kept (docs/cli.md)
            break;
        }
        const int first = r % 2 == 0 ? 0 : 1;
        for (std::size_t i = 0; i < data.rows.size(); ++i) {
            if (failed[i]) {
                continue;
            }
            benchmark_rounds& row = data.rows[i];
            if (o.progress) {
                o.progress(static_cast<std::size_t>(r), static_cast<std::size_t>(rounds), i, data.rows.size(),
                           row.name);
            }
            side_round got[2];
            for (int k : {first, 1 - first}) {
                got[k] = run_one(*exe[k], side_name(row, k == 1), o, min_time, round_layout_seed(o, r, i));
                if (got[k].error) {
                    break;  // no pair this round
                }
            }
            for (const side_round& side : got) {
                if (!side.gbench_memory)
                    continue;
                if (!data.gbench_memory)
                    data.gbench_memory = side.gbench_memory;
                else if (*data.gbench_memory != *side.gbench_memory)
                    data.gbench_memory = "mixed";
            }
            failed[i] = got[0].error.has_value() || got[1].error.has_value();
            row.base.push_back(std::move(got[0]));
            row.head.push_back(std::move(got[1]));
        }
        data.rounds = r + 1;
    }
    // Memory figures come from GB's own memory run (tare::gbench): accounting means a side
    // reported them at all.
    for (const auto& row : data.rows) {
        for (const auto& s : row.base) {
            data.base_accounting = data.base_accounting || (s.result && s.result->allocs_per_iter);
        }
        for (const auto& s : row.head) {
            data.head_accounting = data.head_accounting || (s.result && s.result->allocs_per_iter);
        }
    }
    return data;
}

}  // namespace tare::compare
