set(tare_io_sources
  src/io/atomic_file.cpp
)
