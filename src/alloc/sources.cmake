# The interposer replaces the C library's malloc family, which a sanitizer also does: in
# sanitizer builds the accounting layer is built without it and reports "unavailable".
set(tare_alloc_sources src/alloc/accounting.cpp)
if(TARE_SANITIZE MATCHES "address|thread|memory")
  list(APPEND tare_alloc_sources src/alloc/interpose_none.cpp)
else()
  list(APPEND tare_alloc_sources src/alloc/interpose_glibc.cpp)
endif()
