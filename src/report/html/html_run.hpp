#pragma once
// Private to src/report/html: the pieces of a run's page that html.cpp (the page, its summary
// and its families) and html_benchmark.cpp (each benchmark's section) share.

#include <cstddef>
#include <string>
#include <string_view>

#include "model/run.hpp"

namespace tare::report::detail {

/// "b-3": the id of the index-th benchmark's section, which the summary and plots link to.
std::string section_id(std::size_t index);

/// `<dt>term</dt><dd>text</dd>`, text escaped, "—" when empty.
std::string definition(std::string_view term, const std::string& text);

/// A figure: the SVG and its caption, or the caption and "Nothing finite to plot." without one.
std::string figure(const std::string& svg, const std::string& caption);

/// The index-th benchmark's section: its findings, figures, plots of its samples (run order and
/// distribution) and live heap, and its allocation sites.
std::string benchmark_section(const benchmark_result& b, std::size_t index);

}  // namespace tare::report::detail
