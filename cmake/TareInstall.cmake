# Install rules and the CMake package: find_package(tare CONFIG) after `cmake --install`, and
# a build-tree export so a build directory can be used in place without installing.
include(CMakePackageConfigHelpers)

set(TARE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tare)

install(TARGETS tare tare_main tare_copies EXPORT tareTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/tare DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/tare)

# tare.pc for builds without CMake: `pkg-config --cflags --libs tare` gives tare::tare and
# tare::main. The prefix is found from the file's own place (${pcfiledir}), so an installed tree
# can move.
file(RELATIVE_PATH TARE_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" TARE_PC_TO_PREFIX "${TARE_PC_TO_PREFIX}")
configure_file(cmake/tare.pc.in ${CMAKE_CURRENT_BINARY_DIR}/tare.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tare.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/include/tare/version.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tare)
if(TARGET tare_cli)
  install(TARGETS tare_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/man/tare.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/man/tare.bash
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME tare)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/man/_tare DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
endif()
# The documentation --help points to, beside the licence.
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/tare)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/tare)

install(EXPORT tareTargets NAMESPACE tare:: DESTINATION ${TARE_CMAKE_DIR})
export(EXPORT tareTargets NAMESPACE tare:: FILE ${CMAKE_CURRENT_BINARY_DIR}/tareTargets.cmake)

configure_package_config_file(cmake/tareConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/tareConfig.cmake
                              INSTALL_DESTINATION ${TARE_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/tareConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tareConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/tareConfigVersion.cmake
        DESTINATION ${TARE_CMAKE_DIR})

# tare::gbench in its own export set: only a consumer that asks for it needs Google Benchmark.
# tareConfig.cmake includes tareGbenchTargets.cmake when it was installed and benchmark is found.
if(TARGET tare_gbench)
  install(TARGETS tare_gbench EXPORT tareGbenchTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  if(TARGET tare_gbench_main)
    install(TARGETS tare_gbench_main EXPORT tareGbenchTargets)
  endif()
  install(EXPORT tareGbenchTargets NAMESPACE tare:: DESTINATION ${TARE_CMAKE_DIR})
  export(EXPORT tareGbenchTargets NAMESPACE tare:: FILE ${CMAKE_CURRENT_BINARY_DIR}/tareGbenchTargets.cmake)
endif()
