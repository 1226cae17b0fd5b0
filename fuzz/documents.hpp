#pragma once
// What every document fuzz target checks (fuzz/README.md): a reader given any bytes returns a
// result or an error and never crashes; what it accepts, every reporter renders; and what it
// accepts it reads back, once written, to the same bytes.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <variant>

#include "io/results_reader.hpp"
#include "report/reporter.hpp"

namespace tare::fuzz {

template <class Results, class Parse>
void check_document(const std::uint8_t* data, std::size_t size, Parse parse) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto read = parse(text);
    auto* results = std::get_if<Results>(&read);
    if (results == nullptr)
        return;  // an error with a message: what a reader must do with bad input
    for (const report::format f :
         {report::format::console, report::format::markdown, report::format::json, report::format::html}) {
        (void)report::make_reporter<Results>(f)->render(*results);
    }
    const std::string written = report::make_json_reporter<Results>()->render(*results);
    auto again = parse(written);
    auto* back = std::get_if<Results>(&again);
    if (back == nullptr || report::make_json_reporter<Results>()->render(*back) != written)
        std::abort();  // the writer wrote what its own reader refuses or reads otherwise
}

}  // namespace tare::fuzz
