# What a benchmark executable writes and reads back, in tare::tare: tare/1 (an --isolate child's
# results come back through the reader) and the atomic file write.
set(tare_io_sources
  src/io/atomic_file.cpp
  src/io/json_codec.cpp
  src/io/json_locate.cpp
  src/io/json_stream.cpp
  src/io/run_mapping.cpp
  src/io/results_reader.cpp
)
# The `tare` command's readers and writers, in its library: tare-compare/1, tare-exec/1,
# tare-history-check/1 and Google Benchmark JSON.
set(tare_io_tool_sources
  src/io/compare_mapping.cpp
  src/io/exec_mapping.cpp
  src/io/gbench_reader.cpp
  src/io/gbench_rows.cpp
  src/io/history_mapping.cpp
)
