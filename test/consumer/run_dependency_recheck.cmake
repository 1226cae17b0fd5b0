# A header dependency installed after configure stopped for it is found by the next configure in
# the same build directory, as it is for the optional libdw. Installing a package is stood in for
# by a header of the same name that does not compile (#error), first in an include directory ahead
# of the system's and then removed. A value given on the command line still counts it missing.
# -D SOURCE=<tare source> -D WORK=<scratch dir>
file(REMOVE_RECURSE ${WORK})
set(shadow ${WORK}/shadow)
set(build ${WORK}/build)
set(lean -DTARE_BUILD_TESTS=OFF -DTARE_BUILD_EXAMPLES=OFF -DTARE_BUILD_BENCH=OFF)

# Without ccache: its direct mode answers a header check from a compile it remembers, and does
# not see a header that now shadows the one that compile found (the stand-in below).
function(configure expect_ok what)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env CCACHE_DISABLE=1 ${CMAKE_COMMAND} -S ${SOURCE} -B ${build} ${lean} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(expect_ok AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${what}: configure failed:\n${err}")
  elseif(NOT expect_ok AND rc EQUAL 0)
    message(FATAL_ERROR "${what}: configure passed")
  endif()
  set(out "${out}${err}" PARENT_SCOPE)
endfunction()

function(expect text where present)
  string(FIND "${where}" "${text}" at)
  if(present AND at EQUAL -1)
    message(FATAL_ERROR "expected '${text}' in:\n${where}")
  elseif(NOT present AND NOT at EQUAL -1)
    message(FATAL_ERROR "did not expect '${text}' in:\n${where}")
  endif()
endfunction()

# fmt "missing": configure stops and names it. The -I stays in the build directory's cache.
file(WRITE ${shadow}/fmt/format.h "#error not installed\n")
configure(FALSE "fmt missing" -DCMAKE_CXX_FLAGS=-I${shadow})
expect("missing build dependencies: fmt (fmt/format.h)" "${out}" TRUE)
# fmt "installed": the same command in the same directory configures.
file(REMOVE_RECURSE ${shadow})
configure(TRUE "fmt installed since")

# -D<var>=OFF, in that same directory, still counts it missing.
configure(FALSE "fmt set missing on the command line" -DTARE_HAVE_FMT_HEADER=OFF)
expect("missing build dependencies: fmt (fmt/format.h)" "${out}" TRUE)
configure(TRUE "the command line's value removed" -UTARE_HAVE_FMT_HEADER)

# The optional libdw, in a new build directory (a header found stays found): its note goes once
# libdw-dev is installed.
if(EXISTS /usr/include/elfutils/libdwfl.h)
  file(REMOVE_RECURSE ${build})
  file(WRITE ${shadow}/elfutils/libdwfl.h "#error not installed\n")
  configure(TRUE "libdw missing" -DCMAKE_CXX_FLAGS=-I${shadow})
  expect("libdw-dev is not installed" "${out}" TRUE)
  file(REMOVE_RECURSE ${shadow})
  configure(TRUE "libdw installed since")
  expect("libdw-dev is not installed" "${out}" FALSE)
endif()
file(REMOVE_RECURSE ${WORK})
