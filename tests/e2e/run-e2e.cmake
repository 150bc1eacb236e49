# Runs the end-to-end tests for CTest: cmake -DNODE=<node> -DE2E_DIR=<tests/e2e> -P run-e2e.cmake
# Fails with a clear message when Node.js or the npm packages are missing.
if(NOT NODE OR NODE MATCHES "NOTFOUND$")
  message(FATAL_ERROR "e2e_sdk: Node.js was not found when CMake configured the build. Install it "
                      "(scripts/test.sh does: apt-get install nodejs npm), then reconfigure.")
endif()
foreach(pkg openai @anthropic-ai/sdk @anthropic-ai/claude-code)
  if(NOT EXISTS "${E2E_DIR}/node_modules/${pkg}/package.json")
    message(FATAL_ERROR "e2e_sdk: the npm package ${pkg} is not installed in tests/e2e/node_modules. "
                        "Run `npm ci` in tests/e2e (scripts/test.sh does it), then run the test again.")
  endif()
endforeach()
file(GLOB tests RELATIVE "${E2E_DIR}" "${E2E_DIR}/*.test.mjs")
list(SORT tests)
if(NOT tests)
  message(FATAL_ERROR "e2e_sdk: no *.test.mjs in ${E2E_DIR}")
endif()
# One test file at a time: each starts its own engine and upstream, and the machine may be small.
# (--test-concurrency exists from Node.js 20.10; older ones run files with their own default.)
execute_process(COMMAND "${NODE}" --version OUTPUT_VARIABLE node_version OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REGEX REPLACE "^v" "" node_version "${node_version}")
set(concurrency "")
if(node_version VERSION_GREATER_EQUAL 20.10)
  set(concurrency --test-concurrency=1)
endif()
message(STATUS "e2e_sdk: node ${node_version}: node --test ${tests}")
execute_process(COMMAND "${NODE}" --test ${concurrency} ${tests}
                WORKING_DIRECTORY "${E2E_DIR}"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "e2e_sdk: node --test failed (${rc})")
endif()
