# The engine of `tare exec` (part of the `tare` command's own library, not of what a benchmark
# links).
set(tare_exec_sources
  src/exec/abba_runs.cpp
)
