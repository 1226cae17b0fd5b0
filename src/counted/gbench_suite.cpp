#include "counted/gbench_suite.hpp"

#include "instrument/counted_run.hpp"
#include "os/interrupt.hpp"

namespace tare::counted {

benchmark_result run_gbench_in_child(const instrument::launcher& l, const std::string& executable,
                                     const std::string& name) {
    if (l.how != instrument::counter::callgrind) {
        benchmark_result r;
        r.name = name;
        r.error = error_info{
            "instrument",
            "a Google Benchmark suite is counted under Callgrind only (--instrument=instructions)"};
        return r;
    }
    return instrument::run_counted_child(
        l, executable, name, [&](const std::string& json, const std::string& out) {
            // Google Benchmark's main refuses flags it does not know: the instance and the files go in
            // the environment, and the suite runs none of its benchmarks itself.
            instrument::child_plan p{{"--benchmark_filter=^$"},
                                     {std::string(instrument::gbench_counted_env) + "=" + out,
                                      std::string(instrument::gbench_counted_name_env) + "=" + name,
                                      std::string(instrument::gbench_counted_json_env) + "=" + json}};
            if (l.profile) {  // the allocation profile too: a sites pass after the count
                p.environment.push_back(std::string(instrument::gbench_counted_sites_env) + "=1");
            }
            return p;
        });
}

run_results count_gbench_suite(const instrument::launcher& l, const std::string& executable,
                               const std::string& label, const std::vector<std::string>& names,
                               const count_progress& progress) {
    run_results out;
    out.context = instrument::counted_context(false);
    out.context.executable = label;
    out.context.instrument = l.description;
    out.context.instrument_env = l.pass_env;
    out.context.gbench_memory = "region";  // the counted mode's figures are the hooks' alone
    for (const std::string& name : names) {
        if (os::interrupted() != 0) {
            out.context.interrupted = true;
            break;
        }
        if (progress) {
            progress(out.benchmarks.size(), names.size(), name);
        }
        out.benchmarks.push_back(run_gbench_in_child(l, executable, name));
        out.context.accounting = out.context.accounting || out.benchmarks.back().allocs_per_iter.has_value();
    }
    return out;
}

}  // namespace tare::counted
