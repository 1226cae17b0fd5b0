# tare::gbench — the Google Benchmark adapter (docs/gbench.md), built when the benchmark
# package is found. Linking it registers a benchmark::MemoryManager with no source change.
# A parent project that already provides benchmark::benchmark (FetchContent, add_subdirectory)
# keeps its own; otherwise the installed package (Debian: libbenchmark-dev).
if(NOT TARGET benchmark::benchmark)
  find_package(benchmark CONFIG QUIET)
endif()
set(TARE_HAS_GBENCH OFF)
if(TARGET benchmark::benchmark)
  set(TARE_HAS_GBENCH ON)
  add_library(tare_gbench STATIC ${CMAKE_CURRENT_LIST_DIR}/memory_manager.cpp
                                 ${CMAKE_CURRENT_LIST_DIR}/region_hooks.cpp
                                 ${CMAKE_CURRENT_LIST_DIR}/worker.cpp
                                 ${CMAKE_CURRENT_LIST_DIR}/runs.cpp
                                 ${CMAKE_CURRENT_LIST_DIR}/retained.cpp
                                 ${CMAKE_CURRENT_LIST_DIR}/counted.cpp
                                 ${CMAKE_CURRENT_LIST_DIR}/sites_pass.cpp
                                 ${CMAKE_CURRENT_LIST_DIR}/statistics.cpp)
  add_library(tare::gbench ALIAS tare_gbench)
  tare_target_defaults(tare_gbench INTERNAL)
  # The releases test/gbench runs on; any other builds, and its suites stop at start if a function
  # the adapter wraps is missing (worker.cpp), rather than give wrong figures (docs/gbench.md).
  if(benchmark_VERSION)
    target_compile_definitions(tare_gbench PRIVATE TARE_GBENCH_PACKAGE_VERSION="${benchmark_VERSION}")
    if(NOT benchmark_VERSION VERSION_EQUAL 1.7.1 AND NOT benchmark_VERSION VERSION_EQUAL 1.9.1)
      message(STATUS "tare: Google Benchmark ${benchmark_VERSION} is not one tare::gbench is tested with "
                     "(1.7.1, 1.9.1); see docs/gbench.md")
    endif()
  endif()
  set_target_properties(tare_gbench PROPERTIES POSITION_INDEPENDENT_CODE ON EXPORT_NAME gbench)
  target_link_libraries(tare_gbench PUBLIC tare benchmark::benchmark)
  # The registration object is referenced by nothing in a user's suite; `-u` makes the linker
  # pull it from the archive (cheaper to keep right than an OBJECT library through install/export).
  target_link_options(tare_gbench INTERFACE "LINKER:--undefined=tare_gbench_anchor")
  # The region hooks (region_hooks.cpp): the suite's calls of these members of benchmark::State
  # go to tare's wrappers, which call the real ones. SkipWithError(const char*) is 1.7's;
  # SkipWithError(const std::string&) and SkipWithMessage 1.8's and later. A name the library
  # lacks is harmless here; one its header declares and it lacks stops the suite at start.
  set(tare_gbench_state_members
      _ZN9benchmark5State16StartKeepRunningEv _ZN9benchmark5State17FinishKeepRunningEv
      _ZN9benchmark5State11PauseTimingEv _ZN9benchmark5State12ResumeTimingEv
      _ZN9benchmark5State13SkipWithErrorEPKc
      _ZN9benchmark5State13SkipWithErrorERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE
      _ZN9benchmark5State15SkipWithMessageERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE)
  foreach(member IN LISTS tare_gbench_state_members)
    target_link_options(tare_gbench INTERFACE "LINKER:--wrap=${member}")
  endforeach()
  # Worker mode for `tare compare` (worker.cpp): the suite's registrations and its call of
  # RunSpecifiedBenchmarks, every overload. These wraps are also what pulls worker.o in.
  foreach(fn _ZN9benchmark8internal25RegisterBenchmarkInternalEPNS0_9BenchmarkE
             _ZN9benchmark22RunSpecifiedBenchmarksEv
             _ZN9benchmark22RunSpecifiedBenchmarksENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE
             _ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterE
             _ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE
             _ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterES1_
             _ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterES1_NSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE)
    target_link_options(tare_gbench INTERFACE "LINKER:--wrap=${fn}")
  endforeach()
  # The `_cv` aggregate that stays valid JSON (statistics.cpp): a static libbenchmark's reference
  # is wrapped, a shared one's interposed; -u pulls the object in for both.
  set(cv _ZN9benchmark12StatisticsCVERKSt6vectorIdSaIdEE)
  target_link_options(tare_gbench INTERFACE "LINKER:--wrap=${cv}" "LINKER:--undefined=__wrap_${cv}")
  # tare::gbench_main: for a suite that links benchmark::benchmark_main (Google Benchmark's own
  # main) rather than writing BENCHMARK_MAIN(); the same one-line change as tare::gbench.
  if(TARGET benchmark::benchmark_main)
    add_library(tare_gbench_main INTERFACE)
    add_library(tare::gbench_main ALIAS tare_gbench_main)
    set_target_properties(tare_gbench_main PROPERTIES EXPORT_NAME gbench_main)
    target_link_libraries(tare_gbench_main INTERFACE tare_gbench benchmark::benchmark_main)
  endif()
endif()
