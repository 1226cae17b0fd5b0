#pragma once
// The one interface every reporter implements: results in, bytes out. A reporter does no
// I/O and probes nothing; the caller decides where the bytes go (hyperfine's exporters are
// the model). Golden tests in test/golden/ pin each reporter's output.

#include <memory>
#include <string>

#include "model/run.hpp"

namespace tare::report {

class reporter {
public:
    reporter() = default;
    reporter(const reporter&) = delete;
    reporter& operator=(const reporter&) = delete;
    reporter(reporter&&) = delete;
    reporter& operator=(reporter&&) = delete;
    virtual ~reporter() = default;

    /// The whole report for `results`.
    virtual std::string render(const run_results& results) const = 0;
};

/// The aligned table for a terminal, warnings and errors listed under it.
std::unique_ptr<reporter> make_console_reporter();
/// A GitHub-flavoured Markdown table, ready to paste into a pull request.
std::unique_ptr<reporter> make_markdown_reporter();
/// JSON in schema "tare/1" (CONTRACT section 4); strict: no NaN or infinity literals.
std::unique_ptr<reporter> make_json_reporter();
/// One self-contained HTML5 page: context, summary table, and per benchmark its figures, SVG plots
/// of its samples and live heap, and its findings (CONTRACT section 6, `tare report`).
std::unique_ptr<reporter> make_html_reporter();

}  // namespace tare::report
