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
    if(TARE_FUZZ)
      # Coverage for libFuzzer in every library a fuzz target links; the targets add the driver.
      target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
    endif()
  endif()
endfunction()

# The properties every target of tare's own shares (libraries, the command, tests, examples,
# self-benchmarks): C++20 without extensions, and the warnings and sanitizers above. INTERNAL
# adds what code inside tare uses: the private headers of src/ and fmt header-only. A
# consumer's targets never get any of it; the example suites and test fixtures, built as a user
# builds a benchmark, are not INTERNAL. TEST_CODE marks a test program's own code (a GoogleTest
# file, a test support library): it gets TARE_TEST_CODE_FLAGS after the build's own flags.
function(tare_target_defaults target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "INTERNAL;TEST_CODE" "" "")
  set_target_properties(${target} PROPERTIES CXX_STANDARD 20 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
  if(arg_INTERNAL)
    target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/src)
    target_compile_definitions(${target} PRIVATE FMT_HEADER_ONLY)
  endif()
  tare_target_warnings(${target})
  if(arg_TEST_CODE AND TARE_TEST_CODE_FLAGS)
    # Spaces or a ;-list: scripts/test passes its cmake arguments split at spaces.
    string(REPLACE ";" " " test_code_flags "${TARE_TEST_CODE_FLAGS}")
    separate_arguments(test_code_flags UNIX_COMMAND "${test_code_flags}")
    target_compile_options(${target} PRIVATE ${test_code_flags})
  endif()
endfunction()
