# Test files gathered into one executable compiled in unity batches (TARE_UNITY_TESTS, as every
# leg of CI configures): a test file compiled alone spends most of its time on what its neighbours
# share (GoogleTest's, nlohmann-json's and fmt's templates and inline functions, and
# under a sanitizer their instrumentation), which a batch generates once, and the executables
# link once instead of once a file (bench/README.md, "The unit tests in unity batches"). Each test
# is still a ctest test of its own, a process of its own, under the same name as in the layout
# of an executable per file. Files compiled together keep their helpers' names distinct, or
# share them from one header (test/text_helpers.hpp, test/command.hpp, …).

# tare_test_batch_add(<batch> SOURCES <sources>... [DEFINES <definitions>...]
#                     [DEPENDS <targets>...] [LIBS <libraries>...]): one test file's part of
# <batch>; relative sources are taken from the calling folder.
function(tare_test_batch_add batch)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;DEFINES;DEPENDS;LIBS")
  foreach(source IN LISTS arg_SOURCES)
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
    set_property(GLOBAL APPEND PROPERTY TARE_TEST_BATCH_${batch}_SOURCES ${source})
  endforeach()
  foreach(kind DEFINES DEPENDS LIBS)
    set_property(GLOBAL APPEND PROPERTY TARE_TEST_BATCH_${batch}_${kind} ${arg_${kind}})
  endforeach()
endfunction()

# tare_test_batch_make(<batch> <function>): the executable <batch>, made by calling
# <function>(<batch> <sources>...) as for one file, then given every file's definitions,
# dependencies and libraries, in unity batches of eight files. Nothing when no file was added.
function(tare_test_batch_make batch make)
  get_property(sources GLOBAL PROPERTY TARE_TEST_BATCH_${batch}_SOURCES)
  if(NOT sources)
    return()
  endif()
  cmake_language(CALL ${make} ${batch} ${sources})
  foreach(kind DEFINES DEPENDS LIBS)
    get_property(${kind} GLOBAL PROPERTY TARE_TEST_BATCH_${batch}_${kind})
    list(REMOVE_DUPLICATES ${kind})
  endforeach()
  target_compile_definitions(${batch} PRIVATE ${DEFINES})
  if(DEPENDS)
    add_dependencies(${batch} ${DEPENDS})
  endif()
  target_link_libraries(${batch} PRIVATE ${LIBS})
  set_target_properties(${batch} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
endfunction()
