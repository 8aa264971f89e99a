# cmake -P script of package_consumer_test (tests/package/CMakeLists.txt): install, build
# the example consumer against the install, run it and check what it prints.
set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(file include/ccsched/ccsched.hpp lib/cmake/ccsched/ccschedConfig.cmake bin/ccsched)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "not installed: ${file}")
  endif()
endforeach()

set(flags "")
if(SANITIZE)
  set(flags -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined)
endif()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/consumer -B ${WORK_DIR}/build -G ${GENERATOR}
  -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${prefix} ${flags})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer ${WORK_DIR}/kautz.json)
set(expected "kautz:3,2 AAS: 7 steps, lower bound 7, optimal, 0 violations
hypercube:4 OAB 1-port: 4 steps, lower bound 4, optimal
error: --root: ...")
if(NOT out MATCHES "^kautz:3,2 AAS: 7 steps, lower bound 7, optimal, 0 violations\nhypercube:4 OAB 1-port: 4 steps, lower bound 4, optimal\nerror: ")
  message(FATAL_ERROR "the consumer printed\n${out}\nexpected\n${expected}")
endif()
run(${prefix}/bin/ccsched verify ${WORK_DIR}/kautz.json)

# The Python module, from the prefix's site-packages.
if(PYTHON AND NOT SANITIZE)
  set(ENV{PYTHONPATH} ${prefix}/${PYTHON_SITE})
  # Newlines, not semicolons: a semicolon would split the argument into a CMake list.
  run(${PYTHON} -c "import ccsched\nassert ccsched.__file__.startswith('${prefix}/')\nprint(ccsched.solve('ring:4', 'AAB').steps)")
  if(NOT out STREQUAL "2\n")
    message(FATAL_ERROR "installed Python module: printed ${out}")
  endif()
endif()
message(STATUS "package consumer: ok")
