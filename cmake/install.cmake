# The C++ package (README.md "C++"): `cmake --install` puts the module libraries (static),
# the public headers, the `ccsched` command and ccschedConfig.cmake under the prefix. A
# consumer writes
#
#   find_package(ccsched REQUIRED)
#   target_link_libraries(app PRIVATE ccsched::ccsched)
#
# and includes <ccsched/ccsched.hpp> (examples/consumer is built and run by the tests).
# The modules register themselves (ccsched_module in the top CMakeLists); the island model
# (dist, Open MPI) and the SimGrid replay (simulate) stay out: they are the command's.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

get_property(ccsched_modules GLOBAL PROPERTY CCSCHED_MODULES)
list(REMOVE_ITEM ccsched_modules ccsched_dist ccsched_simulate)

set_target_properties(ccsched_core PROPERTIES INTERFACE_INCLUDE_DIRECTORIES
  "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>;$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")

# ccsched::ccsched: the facade and everything beneath it (the executable owns the name
# `ccsched`, so the target is called ccsched_package and exported as `ccsched`).
add_library(ccsched_package INTERFACE)
set_target_properties(ccsched_package PROPERTIES EXPORT_NAME ccsched)
target_link_libraries(ccsched_package INTERFACE ${ccsched_modules})
target_compile_features(ccsched_package INTERFACE cxx_std_20)
add_library(ccsched::ccsched ALIAS ccsched_package)

install(TARGETS ccsched_package ccsched_core ccsched_options ${ccsched_modules}
  EXPORT ccschedTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS ccsched RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ccsched
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(ccsched_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/ccsched)
install(EXPORT ccschedTargets NAMESPACE ccsched:: DESTINATION ${ccsched_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ccschedConfig.cmake.in
  ${PROJECT_BINARY_DIR}/ccschedConfig.cmake INSTALL_DESTINATION ${ccsched_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ccschedConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ccschedConfig.cmake
  ${PROJECT_BINARY_DIR}/ccschedConfigVersion.cmake DESTINATION ${ccsched_cmake_dir})
