# Checks, before anything is built, that the headers tare's own sources include are installed,
# and stops with one message naming everything missing and the line that installs it. Without
# it a missing package surfaced as a compile error in whichever file happened to build first.
# fmt and nlohmann-json are compiled into tare's libraries (header-only), CLI11 and SQLite into
# the `tare` command, GoogleTest into the tests; a consumer of an installed tare needs none of them.
# Each result is TARE_HAVE_<NAME>_HEADER: setting one to OFF on the command line skips its check
# and counts it missing, which is how the test of this message runs.
include(CheckIncludeFileCXX)

# check_include_file_cxx(header var), except that a header found missing is looked for again on
# the next configure. CMake keeps a failed check in the cache as it keeps a passed one, so a user
# who installed the package configure named and re-ran cmake in the same build directory got the
# same message. The check's own result is cached under TARE_CHECKED_<var>, a found header once (no
# compile on every configure), a missing one until it is found; <var> is set from it. A <var>
# given on the command line (-D<var>=OFF) is taken as given, without a check.
function(tare_check_header header var)
  get_property(type CACHE ${var} PROPERTY TYPE)
  if(DEFINED CACHE{${var}} AND NOT type STREQUAL "INTERNAL")
    return()
  endif()
  unset(${var} CACHE)  # where an earlier tare cached the check itself, a failure included
  if(DEFINED CACHE{TARE_CHECKED_${var}} AND NOT TARE_CHECKED_${var})
    unset(TARE_CHECKED_${var} CACHE)
  endif()
  check_include_file_cxx(${header} TARE_CHECKED_${var})
  set(${var} "${TARE_CHECKED_${var}}" PARENT_SCOPE)
endfunction()

function(tare_check_dependencies)
  set(checks "fmt|fmt/format.h|libfmt-dev" "nlohmann-json|nlohmann/json.hpp|nlohmann-json3-dev")
  if(TARE_BUILD_TOOLS)
    list(APPEND checks "CLI11|CLI/CLI.hpp|libcli11-dev")
  endif()
  if(TARE_BUILD_TOOLS OR TARE_BUILD_TESTS OR TARE_FUZZ)
    list(APPEND checks "SQLite|sqlite3.h|libsqlite3-dev")
  endif()
  if(TARE_BUILD_TESTS)
    list(APPEND checks "GoogleTest|gtest/gtest.h|libgtest-dev")
  endif()
  set(missing "")
  set(packages "")
  foreach(check IN LISTS checks)
    string(REPLACE "|" ";" parts "${check}")
    list(GET parts 0 name)
    list(GET parts 1 header)
    list(GET parts 2 package)
    string(TOUPPER "${name}" var)
    string(REGEX REPLACE "[^A-Z0-9]" "_" var "TARE_HAVE_${var}_HEADER")
    tare_check_header(${header} ${var})
    if(NOT ${var})
      list(APPEND missing "${name} (${header})")
      list(APPEND packages ${package})
    endif()
  endforeach()
  if(missing)
    list(JOIN missing ", " missing)
    list(JOIN packages " " packages)
    message(FATAL_ERROR "tare: missing build dependencies: ${missing}.\n"
                        "On Debian or Ubuntu: sudo apt-get install ${packages}\n"
                        "(or run scripts/deps, which installs everything tare builds with)")
  endif()
endfunction()
