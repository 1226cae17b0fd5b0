set(tare_os_sources
  src/os/linux.cpp
  src/os/process_linux.cpp
  src/os/channel_linux.cpp
  src/os/layout_linux.cpp
  src/os/interrupt_linux.cpp
  src/os/symbolize_linux.cpp
)
