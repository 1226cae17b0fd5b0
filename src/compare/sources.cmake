# The controller side of `tare compare` (a library of its own, linked by the `tare` command and
# the tests; benchmark executables need only protocol.hpp, which is header-only).
set(tare_compare_sources
  src/compare/worker_process.cpp
  src/compare/rounds.cpp
  src/compare/aggregate.cpp
  src/compare/gbench_rounds.cpp
  src/compare/processes.cpp
  src/compare/merge.cpp
  src/compare/instrumentation.cpp
  src/compare/pairing.cpp
)
