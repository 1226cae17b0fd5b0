// JSON "tare-exec/1" for `tare exec`: the mapping and its rules are io/exec_mapping.hpp (every
// field in docs/json-schema.md).

#include <string>

#include "io/exec_mapping.hpp"
#include "report/exec_report.hpp"

namespace tare::report {

std::string render_exec_json(const exec_results& results) {
    return io::write_exec_json(results);
}

}  // namespace tare::report
