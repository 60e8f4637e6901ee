# `cmake --install` puts the aeval binary, its registry and the metric
# library (with the text and audio layers it stands on) under the prefix;
# another CMake project then writes find_package(aeval) and links aeval::metrics.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(AEVAL_EXPORTED base text audio metrics)
foreach(layer IN LISTS AEVAL_EXPORTED)
  install(TARGETS aeval_${layer} aeval_${layer}_archive EXPORT aevalTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endforeach()
# The headers of the exported layers (the model, pipeline and report headers
# belong to libraries the package does not export).
install(FILES include/aeval/audio.hpp include/aeval/error.hpp include/aeval/npy.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/aeval)
install(DIRECTORY include/aeval/metrics include/aeval/text DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/aeval)
install(FILES ${PROJECT_BINARY_DIR}/generated/aeval/version.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/aeval)
install(EXPORT aevalTargets NAMESPACE aeval:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/aeval)
configure_package_config_file(cmake/aevalConfig.cmake.in ${PROJECT_BINARY_DIR}/aevalConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/aeval)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/aevalConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/aevalConfig.cmake ${PROJECT_BINARY_DIR}/aevalConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/aeval)

install(TARGETS aeval RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# DuckDB's library travels with the binary, which finds it next to itself.
install(FILES ${AEVAL_DUCKDB_DIR}/lib/libduckdb.so DESTINATION ${CMAKE_INSTALL_LIBDIR}/aeval)
install(FILES ${AEVAL_DUCKDB_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/aeval RENAME LICENSE.duckdb)
set_target_properties(aeval PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}/aeval")
install(DIRECTORY registry/ DESTINATION ${CMAKE_INSTALL_DATADIR}/aeval/registry)
