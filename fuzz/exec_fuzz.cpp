// tare-exec/1, through the reader `tare report` uses.
#include "documents.hpp"
#include "io/exec_mapping.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    tare::fuzz::check_document<tare::exec_results>(
        data, size, [](const std::string& text) { return tare::io::parse_exec_json(text, "fuzz.json"); });
    return 0;
}
