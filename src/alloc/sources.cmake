# The interposer replaces the C library's malloc family. AddressSanitizer and MemorySanitizer
# replace it too, and two definitions cannot both win: those builds get interpose_none.cpp and
# report accounting as "not built". GCC's ThreadSanitizer build keeps the interposer, which
# then allocates from TSan's heap through the runtime's __interceptor_malloc family (see
# underlying.hpp); Clang's TSan runtime is not known to export those names under the
# same spelling in every version, so a Clang TSan build goes without.
set(tare_alloc_sources src/alloc/accounting.cpp src/alloc/sites.cpp)
if(TARE_SANITIZE MATCHES "address|memory"
   OR (TARE_SANITIZE MATCHES "thread" AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU"))
  list(APPEND tare_alloc_sources src/alloc/interpose_none.cpp)
  set(TARE_HAS_INTERPOSER 0)
else()
  list(APPEND tare_alloc_sources src/alloc/interpose_glibc.cpp src/alloc/interpose_native.cpp
       src/alloc/interpose_mmap.cpp src/alloc/underlying.cpp)
  set(TARE_HAS_INTERPOSER 1)
endif()
