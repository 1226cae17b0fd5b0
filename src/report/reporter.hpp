#pragma once
// The one interface every reporter implements, for every kind of result and every format:
// results in, bytes out. A reporter does no I/O and probes nothing; the caller decides where the
// bytes go (hyperfine's exporters are the model). Golden tests in test/golden/ pin each
// reporter's output.
//
// The factories are one template per format, specialised per result kind in the file that
// renders it, so a benchmark executable, which reports runs only, links the run reporters alone
// (console and JSON); the comparison, exec and HTML reporters belong to the `tare` command.

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "model/comparison.hpp"
#include "model/exec.hpp"
#include "model/history.hpp"
#include "model/run.hpp"
#include "report/table/document.hpp"

namespace tare::report {

template <class Results>
class reporter {
public:
    reporter() = default;
    reporter(const reporter&) = delete;
    reporter& operator=(const reporter&) = delete;
    reporter(reporter&&) = delete;
    reporter& operator=(reporter&&) = delete;
    virtual ~reporter() = default;

    /// The whole report for `results`.
    virtual std::string render(const Results& results) const = 0;

    /// Takes the report's pieces in order; together they are render()'s text.
    using sink = std::function<void(std::string_view)>;

    /// The same report, handed to `put` piece by piece, so that a caller writing a file never
    /// holds the whole of it. A reporter whose output can be large (a run's HTML page, several
    /// times its results file) makes it a piece at a time; the others hand over render()'s text.
    virtual void write(const Results& results, const sink& put) const { put(render(results)); }
};

/// The aligned table for a terminal, with its context above and its findings under it; `style`
/// adds colour and fits a terminal's width (table/document.hpp), the default is a pipe's text.
template <class Results>
std::unique_ptr<reporter<Results>> make_console_reporter(const table::console_style& style = {});
/// The same as GitHub-flavoured Markdown, ready to paste into a pull request.
template <class Results>
std::unique_ptr<reporter<Results>> make_markdown_reporter();
/// JSON: "tare/1", "tare-compare/1" or "tare-exec/1" (docs/json-schema.md); strict: no NaN or
/// infinity literals.
template <class Results>
std::unique_ptr<reporter<Results>> make_json_reporter();
/// One self-contained HTML5 page: for runs the context, summary table and per benchmark its
/// figures, plots of its samples and live heap, and its findings (docs/reading-results.md, "The
/// HTML report"); for comparisons and exec runs their tables and findings.
template <class Results>
std::unique_ptr<reporter<Results>> make_html_reporter();

enum class format { console, markdown, json, html };

/// The reporter for `f`.
template <class Results>
std::unique_ptr<reporter<Results>> make_reporter(format f) {
    switch (f) {
    case format::console:
        return make_console_reporter<Results>();
    case format::markdown:
        return make_markdown_reporter<Results>();
    case format::json:
        return make_json_reporter<Results>();
    case format::html:
        break;
    }
    return make_html_reporter<Results>();
}

// Where each is defined: runs in report/run_table.cpp (console, Markdown), report/json.cpp and
// report/html/html.cpp; comparisons in report/compare_table.cpp; exec runs in
// report/exec_table.cpp; history checks in report/history_table.cpp.
template <>
std::unique_ptr<reporter<run_results>> make_console_reporter(const table::console_style& style);
template <>
std::unique_ptr<reporter<run_results>> make_markdown_reporter();
template <>
std::unique_ptr<reporter<run_results>> make_json_reporter();
template <>
std::unique_ptr<reporter<run_results>> make_html_reporter();
template <>
std::unique_ptr<reporter<compare_results>> make_console_reporter(const table::console_style& style);
template <>
std::unique_ptr<reporter<compare_results>> make_markdown_reporter();
template <>
std::unique_ptr<reporter<compare_results>> make_json_reporter();
template <>
std::unique_ptr<reporter<compare_results>> make_html_reporter();
template <>
std::unique_ptr<reporter<exec_results>> make_console_reporter(const table::console_style& style);
template <>
std::unique_ptr<reporter<exec_results>> make_markdown_reporter();
template <>
std::unique_ptr<reporter<exec_results>> make_json_reporter();
template <>
std::unique_ptr<reporter<exec_results>> make_html_reporter();
template <>
std::unique_ptr<reporter<history_check>> make_console_reporter(const table::console_style& style);
template <>
std::unique_ptr<reporter<history_check>> make_markdown_reporter();
template <>
std::unique_ptr<reporter<history_check>> make_json_reporter();
template <>
std::unique_ptr<reporter<history_trends>> make_html_reporter();

}  // namespace tare::report
