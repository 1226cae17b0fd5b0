// tare-history-check/1, through its reader: what it accepts, the console (plain and narrow),
// Markdown and JSON reporters render, and it reads back as written. (No HTML page of a check.)
#include "documents.hpp"
#include "io/history_mapping.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto parse = [](const std::string& t) { return tare::io::parse_history_check_json(t, "fuzz.json"); };
    auto read = parse(text);
    auto* check = std::get_if<tare::history_check>(&read);
    if (check == nullptr)
        return 0;
    (void)tare::report::make_console_reporter<tare::history_check>()->render(*check);
    (void)tare::report::make_markdown_reporter<tare::history_check>()->render(*check);
    (void)tare::report::make_console_reporter<tare::history_check>({true, 24})->render(*check);
    tare::fuzz::check_round_trip(*check, parse);
    return 0;
}
