set(tare_io_sources
  src/io/atomic_file.cpp
  src/io/gbench_reader.cpp
  src/io/results_reader.cpp
)
