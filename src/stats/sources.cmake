set(tare_stats_sources
  src/stats/descriptive.cpp
  src/stats/interval.cpp
  src/stats/outliers.cpp
  src/stats/summary.cpp
  src/stats/random.cpp
  src/stats/change.cpp
)
