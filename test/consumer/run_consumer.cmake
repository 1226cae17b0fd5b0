# Configures, builds and runs the consumer project in one mode; fails on any step.
# -D MODE=... -D SOURCE=<tare source> -D WORK=<scratch dir> [-D PREFIX=<install prefix>]
# [-D GBENCH=ON: the Google Benchmark suites too] [-D WERROR=ON|OFF: tare's TARE_WERROR]
file(REMOVE_RECURSE ${WORK})
set(args -S ${SOURCE}/test/consumer/project -B ${WORK} -DCMAKE_BUILD_TYPE=Release
         -DTARE_CONSUMER_MODE=${MODE} -DTARE_SOURCE_DIR=${SOURCE})
# tare's build inside the project sits as deep below the main build as add_subdirectory's
# (<WORK>/tare) and the static Google Benchmark suites' do, and is configured with the main
# build's TARE_WERROR as theirs is: through ccache with CCACHE_BASEDIR (.ci/run) each compile of
# the library then has the same command line in all of them, and only the first is compiled.
if(MODE STREQUAL "fetchcontent")
  file(REMOVE_RECURSE ${WORK}-deps)
  list(APPEND args -DFETCHCONTENT_BASE_DIR=${WORK}-deps)
endif()
if(DEFINED WERROR)
  list(APPEND args -DTARE_WERROR=${WERROR})
endif()
if(GBENCH)
  list(APPEND args -DTARE_CONSUMER_GBENCH=ON)
endif()
if(PREFIX)
  list(APPEND args -DCMAKE_PREFIX_PATH=${PREFIX})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} ${args} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the ${MODE} consumer failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK} -j 2 RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the ${MODE} consumer failed")
endif()
execute_process(COMMAND ${WORK}/my_bench --min-time=0.01 --json=${WORK}/out.json RESULT_VARIABLE rc
                OUTPUT_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the ${MODE} consumer's benchmark exited with ${rc}")
endif()
file(READ ${WORK}/out.json json)
string(JSON schema GET "${json}" schema)
string(JSON name GET "${json}" benchmarks 0 name)
if(NOT schema STREQUAL "tare/1" OR NOT name STREQUAL "fill/16")
  message(FATAL_ERROR "unexpected results from the ${MODE} consumer: ${schema} ${name}")
endif()
# tare::copies through the package: the copy of 16 ints is 64 bytes an iteration.
execute_process(COMMAND ${WORK}/my_bench_copies --filter=^copy/ --min-time=0.01 --json=${WORK}/copies.json
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the ${MODE} consumer's tare::copies benchmark exited with ${rc}")
endif()
file(READ ${WORK}/copies.json json)
string(JSON copied GET "${json}" benchmarks 0 copied_bytes_per_iter)
if(NOT copied STREQUAL "64" AND NOT copied STREQUAL "64.0")
  message(FATAL_ERROR "the ${MODE} consumer with tare::copies copied ${copied} bytes an iteration, not 64")
endif()
# tare::gbench and tare::gbench_main through the package: the region hooks' figure of one 64-byte
# block an iteration, in Google Benchmark's own JSON.
if(GBENCH)
  foreach(suite my_gbench_own_main my_gbench_on_gb_main)
    execute_process(COMMAND ${WORK}/${suite} --benchmark_format=json --benchmark_min_time=0.01
                    RESULT_VARIABLE rc OUTPUT_VARIABLE json)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "the ${MODE} consumer's ${suite} exited with ${rc}")
    endif()
    string(JSON allocs ERROR_VARIABLE err GET "${json}" benchmarks 0 tare_allocs_per_iter)
    if(err OR NOT allocs EQUAL 1)
      message(FATAL_ERROR "the ${MODE} consumer's ${suite}: tare_allocs_per_iter ${allocs} ${err}")
    endif()
  endforeach()
endif()
