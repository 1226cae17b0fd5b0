# Configures tare with two of its header dependencies counted missing and checks that configure
# stops at once with one message naming both and the line that installs them.
# -D SOURCE=<tare source> -D WORK=<scratch dir>
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${WORK} -DTARE_HAVE_FMT_HEADER=OFF
                        -DTARE_HAVE_CLI11_HEADER=OFF -DTARE_BUILD_TESTS=OFF -DTARE_BUILD_EXAMPLES=OFF
                        -DTARE_BUILD_BENCH=OFF
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "configure passed with fmt and CLI11 missing")
endif()
foreach(expected "missing build dependencies: fmt (fmt/format.h), CLI11 (CLI/CLI.hpp)"
                 "apt-get install libfmt-dev libcli11-dev")
  string(FIND "${err}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "configure's message lacks '${expected}':\n${err}")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
