# Builds the consumer's benchmark with nothing but the compiler and `pkg-config --cflags --libs
# tare` against the installed package, runs it, and checks its results.
# -D SOURCE=<tare source> -D WORK=<scratch dir> -D PREFIX=<install prefix> -D CXX=<compiler>
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(GLOB pc_dirs ${PREFIX}/lib*/pkgconfig ${PREFIX}/lib/*/pkgconfig)
list(JOIN pc_dirs ":" pc_path)
set(ENV{PKG_CONFIG_PATH} "${pc_path}")
execute_process(COMMAND pkg-config --cflags --libs tare RESULT_VARIABLE rc OUTPUT_VARIABLE flags
                ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config does not find tare under ${PREFIX}: ${err}")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
execute_process(COMMAND ${CXX} -std=c++17 -O2 ${SOURCE}/test/consumer/project/my_bench.cpp ${flags}
                        -o ${WORK}/my_bench RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compiling with `pkg-config --cflags --libs tare` failed")
endif()
execute_process(COMMAND ${WORK}/my_bench --filter=^fill/ --min-time=0.01 --json=${WORK}/out.json
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the pkg-config consumer's benchmark exited with ${rc}")
endif()
file(READ ${WORK}/out.json json)
string(JSON name GET "${json}" benchmarks 0 name)
string(JSON allocs GET "${json}" benchmarks 0 allocs_per_iter)
if(NOT name STREQUAL "fill/16")
  message(FATAL_ERROR "unexpected results from the pkg-config consumer: ${name}")
endif()
message("pkg-config consumer: ${name}, ${allocs} allocations an iteration")
