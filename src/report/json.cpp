// The JSON reporter of runs, schema "tare/1": the mapping and its rules are io/run_mapping.hpp
// (every field in docs/json-schema.md). The comparison and exec JSON reporters are beside their
// tables (compare_table.cpp, exec_table.cpp), in the `tare` command's library.

#include <memory>
#include <string>

#include "io/run_mapping.hpp"
#include "report/reporter.hpp"

namespace tare::report {
namespace {

class json_reporter final : public reporter<run_results> {
public:
    std::string render(const run_results& results) const override { return io::write_run_json(results); }
};

}  // namespace

template <>
std::unique_ptr<reporter<run_results>> make_json_reporter() {
    return std::make_unique<json_reporter>();
}

}  // namespace tare::report
