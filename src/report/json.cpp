// The JSON reporter of runs, schema "tare/1": the mapping and its rules are io/run_mapping.hpp
// (every field in docs/json-schema.md). The comparison and exec JSON reporters are beside their
// tables (compare_table.cpp, exec_table.cpp), in the `tare` command's library.

#include <memory>
#include <string>

#include "io/run_mapping.hpp"
#include "report/function_reporter.hpp"

namespace tare::report {

template <>
std::unique_ptr<reporter<run_results>> make_json_reporter() {
    return detail::make_streamed_function_reporter<run_results, io::write_run_json, io::write_run_json>();
}

}  // namespace tare::report
