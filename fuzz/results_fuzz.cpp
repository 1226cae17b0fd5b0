// tare/1 and Google Benchmark JSON, through the reader `tare run` and `tare compare` use.
#include "documents.hpp"
#include "io/gbench_reader.hpp"
#include "io/run_mapping.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    tare::fuzz::check_document<tare::run_results>(
        data, size, [](const std::string& text) { return tare::io::parse_results(text, "fuzz.json"); });
    // Google Benchmark's own shape, read on its own (its NaN and Infinity included).
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto gb = tare::io::parse_gbench_results(text, "fuzz.json");
    if (auto* r = std::get_if<tare::run_results>(&gb)) {
        (void)tare::report::make_console_reporter<tare::run_results>()->render(*r);
        (void)tare::report::make_json_reporter<tare::run_results>()->render(*r);
    }
    return 0;
}
