# The Google Benchmark suites the tests of test/gbench run, as a user has them: their own main
# (BENCHMARK_MAIN), tare::gbench linked, no source change. Included by test/gbench/CMakeLists.txt
# (against the installed, shared libbenchmark) and by static/CMakeLists.txt (against a static
# one), so both builds are the same suites.
set(tare_gbench_suites_dir ${CMAKE_CURRENT_LIST_DIR})

function(tare_gbench_suite name)
  add_executable(${name} ${ARGN})
  tare_target_defaults(${name})
  target_link_libraries(${name} PRIVATE tare::gbench)
endfunction()

tare_gbench_suite(gbench_alloc_counts ${tare_gbench_suites_dir}/alloc_counts_bench.cpp)
tare_gbench_suite(gbench_coexist ${tare_gbench_suites_dir}/coexist_bench.cpp)
tare_gbench_suite(gbench_fixture ${tare_gbench_suites_dir}/fixture_bench.cpp)
tare_gbench_suite(gbench_region ${tare_gbench_suites_dir}/region_bench.cpp)
tare_gbench_suite(gbench_worker ${tare_gbench_suites_dir}/worker_bench.cpp)
tare_gbench_suite(gbench_counted ${tare_gbench_suites_dir}/counted_bench.cpp)
tare_gbench_suite(gbench_retained ${tare_gbench_suites_dir}/retained_bench.cpp)
tare_gbench_suite(gbench_warm ${tare_gbench_suites_dir}/warm_bench.cpp)
# Known allocation sites: with debug information, for their files and lines.
tare_gbench_suite(gbench_sites ${tare_gbench_suites_dir}/site_lines_bench.cpp)
target_compile_options(gbench_sites PRIVATE -g)
# A suite without a main of its own, on Google Benchmark's (benchmark::benchmark_main).
add_executable(gbench_main_linked ${tare_gbench_suites_dir}/main_linked_bench.cpp)
tare_target_defaults(gbench_main_linked)
target_link_libraries(gbench_main_linked PRIVATE tare::gbench_main)
# The same known-allocation suite without the adapter: GB then writes no memory fields.
add_executable(gbench_alloc_counts_plain ${tare_gbench_suites_dir}/alloc_counts_bench.cpp)
tare_target_defaults(gbench_alloc_counts_plain)
target_link_libraries(gbench_alloc_counts_plain PRIVATE benchmark::benchmark)

# The same suite linked with the tare_gbench archive by hand, without the target's link options
# (--wrap, -u): no region hooks, so the memory run measures.
add_executable(gbench_alloc_counts_unwrapped ${tare_gbench_suites_dir}/alloc_counts_bench.cpp)
tare_target_defaults(gbench_alloc_counts_unwrapped)
add_dependencies(gbench_alloc_counts_unwrapped tare_gbench)
target_link_libraries(gbench_alloc_counts_unwrapped PRIVATE "$<TARGET_FILE:tare_gbench>" tare benchmark::benchmark)
target_link_options(gbench_alloc_counts_unwrapped PRIVATE "LINKER:--undefined=tare_gbench_anchor")

# The same suite with every link option of tare::gbench but the wrap of State::PauseTiming: as on
# a Google Benchmark release whose header declares a member the adapter wraps but whose library
# lacks it. The suite must stop before it runs anything, saying so, rather than measure.
add_executable(gbench_missing_member ${tare_gbench_suites_dir}/alloc_counts_bench.cpp)
tare_target_defaults(gbench_missing_member)
add_dependencies(gbench_missing_member tare_gbench)
target_link_libraries(gbench_missing_member PRIVATE "$<TARGET_FILE:tare_gbench>" tare benchmark::benchmark)
target_link_options(gbench_missing_member PRIVATE
                    "$<FILTER:$<TARGET_PROPERTY:tare_gbench,INTERFACE_LINK_OPTIONS>,EXCLUDE,PauseTiming>")

set(tare_gbench_suite_targets gbench_alloc_counts gbench_coexist gbench_fixture gbench_region gbench_worker
    gbench_counted gbench_retained gbench_warm gbench_sites gbench_main_linked gbench_alloc_counts_plain gbench_alloc_counts_unwrapped
    gbench_missing_member)
