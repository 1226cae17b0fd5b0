# The `tare` command's side of counted runs, in its library: a Google Benchmark suite counted a
# child a benchmark, two counted runs compared, and their profiles compared by function and by
# allocation stack. What a benchmark executable runs to count itself stays in src/instrument/.
set(tare_counted_sources
  src/counted/compare.cpp
  src/counted/gbench_suite.cpp
  src/counted/profile_changes.cpp
)
