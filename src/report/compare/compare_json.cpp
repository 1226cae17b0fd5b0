// JSON "tare-compare/1" for `tare compare`: the mapping and its rules are io/compare_mapping.hpp
// (every field in docs/json-schema.md).

#include <string>

#include "io/compare_mapping.hpp"
#include "report/compare/compare_report.hpp"

namespace tare::report {

std::string render_compare_json(const compare_results& r) {
    return io::write_compare_json(r);
}

}  // namespace tare::report
