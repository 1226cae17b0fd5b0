#pragma once
// What every document fuzz target checks (fuzz/README.md): a reader given any bytes returns a
// result or an error and never crashes; what it accepts, every reporter renders and every export
// writes as the format's reader takes it; and what it accepts it reads back, once written, to the
// same bytes.

#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>

#include "io/results_reader.hpp"
#include "report/export/exports.hpp"
#include "report/reporter.hpp"

namespace tare::fuzz {

/// Every reporter's text of `results`: console (also coloured and fitted to a narrow terminal,
/// which drops columns and shortens names), Markdown, JSON and HTML.
template <class Results>
void render_all(const Results& results) {
    for (const report::format f :
         {report::format::console, report::format::markdown, report::format::json, report::format::html}) {
        (void)report::make_reporter<Results>(f)->render(results);
    }
    (void)report::make_console_reporter<Results>({true, 24})->render(results);
}

/// An export's bytes as the service reads them: BMF and github-action-benchmark's formats are
/// strict JSON (the services' parsers take no NaN), CSV is text.
inline void check_export(const std::string& bytes, report::export_format f) {
    if (f != report::export_format::csv && !nlohmann::json::accept(bytes))
        std::abort();  // an export its service cannot read
}

/// Every export of a results file, as `tare export` writes them, and the rows each leaves out.
inline void export_all(const run_results& results) {
    using report::export_format;
    for (const export_format f :
         {export_format::bmf, export_format::gab, export_format::gab_bigger, export_format::csv}) {
        check_export(report::make_export_reporter(f)->render(results), f);
        (void)report::rows_left_out(results, f);
    }
}

/// The same for a comparison, each side of it.
inline void export_all(const compare_results& results) {
    using report::export_format;
    for (const export_format f :
         {export_format::bmf, export_format::gab, export_format::gab_bigger, export_format::csv}) {
        for (const report::compare_side side : {report::compare_side::base, report::compare_side::head}) {
            check_export(report::make_compare_export_reporter(f, side)->render(results), f);
            (void)report::rows_left_out(results, f, side);
        }
    }
}

/// `results`, written as JSON, read back by `parse` and written again: the same bytes, or the
/// writer wrote what its own reader refuses or reads otherwise.
template <class Results, class Parse>
void check_round_trip(const Results& results, Parse parse) {
    const std::string written = report::make_json_reporter<Results>()->render(results);
    auto again = parse(written);
    auto* back = std::get_if<Results>(&again);
    if (back == nullptr || report::make_json_reporter<Results>()->render(*back) != written)
        std::abort();
}

template <class Results, class Parse>
void check_document(const std::uint8_t* data, std::size_t size, Parse parse) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto read = parse(text);
    auto* results = std::get_if<Results>(&read);
    if (results == nullptr)
        return;  // an error with a message: what a reader must do with bad input
    render_all(*results);
    check_round_trip(*results, parse);
}

}  // namespace tare::fuzz
