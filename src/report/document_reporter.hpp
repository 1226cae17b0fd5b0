#pragma once
// Private to src/report: a reporter that builds its results' document (table/document.hpp) and
// renders it in one format. The console and Markdown reporters of every result kind are this.

#include <string>

#include "report/reporter.hpp"
#include "report/table/document.hpp"

namespace tare::report::detail {

template <class Results, table::document (*Build)(const Results&),
          std::string (*Render)(const table::document&)>
class document_reporter final : public reporter<Results> {
public:
    std::string render(const Results& results) const override { return Render(Build(results)); }
};

}  // namespace tare::report::detail
