set(tare_os_sources
  src/os/linux.cpp
)
