// The JSON reporter, schema "tare/1": the mapping and its rules are io/run_mapping.hpp (every
// field in docs/json-schema.md).

#include <memory>
#include <string>

#include "io/run_mapping.hpp"
#include "report/reporter.hpp"

namespace tare::report {
namespace {

class json_reporter final : public reporter {
public:
    std::string render(const run_results& results) const override { return io::write_run_json(results); }
};

}  // namespace

std::unique_ptr<reporter> make_json_reporter() {
    return std::make_unique<json_reporter>();
}

}  // namespace tare::report
