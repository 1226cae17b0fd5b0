#pragma once
// Private to src/report: reporters that are one function of their results. The console and
// Markdown reporters of every result kind render its document (table/document.hpp); the JSON
// reporters are the writers of src/io; the comparison and exec pages are their documents as HTML.

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "report/reporter.hpp"
#include "report/table/document.hpp"

namespace tare::report::detail {

template <class Results, std::string (*Render)(const Results&)>
class function_reporter final : public reporter<Results> {
public:
    std::string render(const Results& results) const override { return Render(results); }
};

/// A function reporter whose output can be large (a results file's JSON): write() hands it on
/// a piece at a time through `Write`, which makes the same bytes as `Render`.
template <class Results, std::string (*Render)(const Results&),
          void (*Write)(const Results&, const std::function<void(std::string_view)>&)>
class streamed_function_reporter final : public reporter<Results> {
public:
    std::string render(const Results& results) const override { return Render(results); }
    void write(const Results& results, const typename reporter<Results>::sink& put) const override {
        Write(results, put);
    }
};

/// The console reporter of a document builder: its document on a terminal of `style`.
template <class Results, table::document (*Build)(const Results&)>
class console_reporter final : public reporter<Results> {
public:
    explicit console_reporter(const table::console_style& style) : style_(style) {}
    std::string render(const Results& results) const override {
        return table::render_console(Build(results), style_);
    }

private:
    table::console_style style_;
};

template <class Results, table::document (*Build)(const Results&)>
std::unique_ptr<reporter<Results>> make_document_console_reporter(const table::console_style& style) {
    return std::make_unique<console_reporter<Results, Build>>(style);
}

template <class Results, table::document (*Build)(const Results&)>
std::string markdown_text(const Results& results) {
    return table::render_markdown(Build(results));
}

/// The reporter of `Render`, and of `Write` piece by piece.
template <class Results, std::string (*Render)(const Results&),
          void (*Write)(const Results&, const std::function<void(std::string_view)>&)>
std::unique_ptr<reporter<Results>> make_streamed_function_reporter() {
    return std::make_unique<streamed_function_reporter<Results, Render, Write>>();
}

/// The reporter of `Render`.
template <class Results, std::string (*Render)(const Results&)>
std::unique_ptr<reporter<Results>> make_function_reporter() {
    return std::make_unique<function_reporter<Results, Render>>();
}

}  // namespace tare::report::detail
