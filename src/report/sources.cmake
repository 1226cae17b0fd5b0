# What a benchmark executable reports, in tare::tare: the table engine, the run's console and
# Markdown tables, and its JSON.
set(tare_report_sources
  src/report/table/units.cpp
  src/report/table/console.cpp
  src/report/table/markdown.cpp
  src/report/run_table.cpp
  src/report/variant_table.cpp
  src/report/json.cpp
  src/report/progress.cpp
  src/report/profile/profile_files.cpp
  src/report/profile/profile_lines.cpp
)
# The `tare` command's own reports, in its library: comparisons, exec runs, the HTML pages.
set(tare_report_tool_sources
  src/report/compare_table.cpp
  src/report/compare_lines.cpp
  src/report/profile/compare_profile_lines.cpp
  src/report/exec_table.cpp
  src/report/history_table.cpp
  src/report/html/html_page.cpp
  src/report/html/html.cpp
  src/report/html/html_benchmark.cpp
  src/report/html/html_flame.cpp
  src/report/html/html_forest.cpp
  src/report/html/compare_html.cpp
  src/report/html/history_html.cpp
  src/report/html/html_svg.cpp
  src/report/export/exports.cpp
  src/report/export/compare_exports.cpp
  src/report/export/history_exports.cpp
)
