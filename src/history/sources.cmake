# The `tare` command's history (docs/history.md), in its library: the SQLite store, what it keeps
# of a run, where a run comes from, and the change points found in it.
set(tare_history_sources
  src/history/measures.cpp
  src/history/provenance.cpp
  src/history/store.cpp
  src/history/check.cpp
  src/history/head.cpp
  src/history/interchange.cpp
)
