# Warnings and sanitizers for tare's own targets only (never for a consumer's).
function(tare_target_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                             -Wsign-conversion -Wnon-virtual-dtor -Wold-style-cast
                                             -Wcast-align -Woverloaded-virtual -Wnull-dereference)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
      # GCC 12 reports -Wrestrict false positives inside libstdc++'s std::string operator+
      # at -O2 (GCC bug 105329); they are not in tare's code and cannot be fixed there.
      target_compile_options(${target} PRIVATE -Wno-restrict)
    endif()
    if(TARE_WERROR)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
    if(TARE_SANITIZE)
      if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
        # Sanitizer instrumentation defeats GCC's flow analysis: libstdc++'s <regex> then draws
        # -Wmaybe-uninitialized false positives (GCC bug 105562), and std::string inside CLI11
        # -Wnull-dereference ones under TSan, that no source change can fix. The Release leg
        # keeps both warnings as errors.
        target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized -Wno-null-dereference)
      endif()
      target_compile_options(${target} PRIVATE -fsanitize=${TARE_SANITIZE} -fno-omit-frame-pointer
                                               -fno-sanitize-recover=all)
      target_link_options(${target} PUBLIC -fsanitize=${TARE_SANITIZE})
    endif()
  endif()
endfunction()
