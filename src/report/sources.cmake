set(tare_report_sources
  src/report/units.cpp
  src/report/columns.cpp
  src/report/console.cpp
  src/report/markdown.cpp
  src/report/json.cpp
)
