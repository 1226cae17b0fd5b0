set(tare_stats_sources
  src/stats/descriptive.cpp
  src/stats/interval.cpp
  src/stats/outliers.cpp
  src/stats/summary.cpp
  src/stats/random.cpp
  src/stats/difference.cpp
)
# The `tare` command's statistics, in its library: change points of a history.
set(tare_stats_tool_sources
  src/stats/change_points.cpp
)
