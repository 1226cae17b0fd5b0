// One document of any kind, as `tare export` and `tare report` take it: told apart by its
// "schema", a comparison or an exec run goes to its own reader and anything else to
// parse_any_results (tare/1 or Google Benchmark JSON). What is read goes through every export
// (both sides of a comparison; `tare export` takes no exec run) and every reporter, and reads
// back, once written, to the same bytes.
#include <cstdint>
#include <string>
#include <type_traits>
#include <variant>

#include "documents.hpp"
#include "io/compare_mapping.hpp"
#include "io/exec_mapping.hpp"
#include "io/gbench_reader.hpp"

namespace {

const std::string origin = "fuzz.json";

template <class Results, class Parse>
void check(const std::string& text, Parse parse) {
    auto read = parse(text);
    if (const auto* results = std::get_if<Results>(&read)) {
        if constexpr (!std::is_same_v<Results, tare::exec_results>) {
            tare::fuzz::export_all(*results);
        }
        tare::fuzz::render_all(*results);
        tare::fuzz::check_round_trip(*results, parse);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const auto schema = tare::io::document_schema(text);
    if (schema == "tare-compare/1") {
        check<tare::compare_results>(
            text, [](const std::string& t) { return tare::io::parse_compare_json(t, origin); });
    } else if (schema == "tare-exec/1") {
        check<tare::exec_results>(text,
                                  [](const std::string& t) { return tare::io::parse_exec_json(t, origin); });
    } else {
        check<tare::run_results>(text,
                                 [](const std::string& t) { return tare::io::parse_any_results(t, origin); });
    }
    return 0;
}
