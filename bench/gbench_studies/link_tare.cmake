# Injected with -DCMAKE_PROJECT_INCLUDE=<this file> into a third-party project's configure: it runs
# after each project() call and makes the project's Google Benchmark executables link
# tare::gbench, with no change to the project's own files. TARE_STUDY_TARGETS names them.
if(NOT TARGET tare::gbench)
  find_package(tare CONFIG REQUIRED COMPONENTS gbench)
endif()

# nlohmann/json's tests/benchmarks fetches Google Benchmark with FetchContent and links the target
# `benchmark`; FETCHCONTENT_SOURCE_DIR_BENCHMARK points it at benchmark_stub/, whose `benchmark`
# is tare::gbench. Projects that link benchmark::benchmark get tare::gbench added to the targets
# named in TARE_STUDY_TARGETS at the end of the directory that defines them (tare::gbench links
# benchmark::benchmark itself, and its link options apply to the whole executable).
if(TARE_STUDY_TARGETS)
  function(tare_study_link)
    foreach(t IN LISTS TARE_STUDY_TARGETS)
      get_property(done GLOBAL PROPERTY tare_study_linked_${t})
      if(TARGET ${t} AND NOT done)
        set_property(GLOBAL PROPERTY tare_study_linked_${t} TRUE)
        target_link_libraries(${t} PRIVATE tare::gbench)
        message(STATUS "tare study: ${t} links tare::gbench")
      endif()
    endforeach()
  endfunction()
  cmake_language(DEFER CALL tare_study_link)
endif()
