# Fails when a UI string has no French translation. Runs lupdate on the sources into a copy of
# the .ts file (the committed one is left alone), lists every message lupdate marks unfinished
# or that has an empty translation, then checks that lrelease compiles the copy.
#
# cmake -DLUPDATE=... -DLRELEASE=... -DTS_FILE=... -DSOURCE_DIR=... -DWORK_DIR=... -P CheckTranslations.cmake
foreach(var LUPDATE LRELEASE TS_FILE SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "CheckTranslations.cmake needs -D${var}=...")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
get_filename_component(ts_name "${TS_FILE}" NAME)
set(ts_copy "${WORK_DIR}/${ts_name}")
file(COPY_FILE "${TS_FILE}" "${ts_copy}")

# The same options as qt_add_translations in ui/CMakeLists.txt. EXTRA_SOURCE_DIR: text the widgets
# show that lives outside ui/ (engine/clients, shared with the CLI).
set(extra "")
if(DEFINED EXTRA_SOURCE_DIR)
  set(extra "${EXTRA_SOURCE_DIR}")
endif()
execute_process(
  COMMAND "${LUPDATE}" -locations none -no-obsolete -extensions cpp,h "${SOURCE_DIR}" ${extra} -ts "${ts_copy}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "lupdate: ${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lupdate failed (${rc})")
endif()

file(READ "${ts_copy}" ts)
# Split into one list item per message; semicolons in the text would split it too, so they are
# swapped out first.
string(REPLACE ";" "<semicolon>" ts "${ts}")
string(REPLACE "<message" ";<message" messages "${ts}")
set(missing "")
set(count 0)
foreach(m IN LISTS messages)
  if(NOT m MATCHES "^<message")
    continue()
  endif()
  math(EXPR count "${count} + 1")
  if(m MATCHES "type=\"unfinished\"" OR m MATCHES "<translation></translation>" OR m MATCHES "<numerusform></numerusform>")
    string(REGEX MATCH "<source>([^<]*)</source>" _ "${m}")
    string(REPLACE "<semicolon>" ";" source "${CMAKE_MATCH_1}")
    list(APPEND missing "  ${source}")
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "no message found in ${ts_name}: did lupdate read the sources?")
endif()
list(LENGTH missing missing_count)
if(missing_count GREATER 0)
  string(REPLACE ";" "\n" listing "${missing}")
  message(FATAL_ERROR "${missing_count} of ${count} messages have no French translation in ${ts_name} "
                      "(run the update_translations target, then translate them):\n${listing}")
endif()
message(STATUS "${count} messages, all translated")

execute_process(
  COMMAND "${LRELEASE}" "${ts_copy}" -qm "${WORK_DIR}/check.qm"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "lrelease: ${out}${err}")
if(NOT rc EQUAL 0 OR NOT EXISTS "${WORK_DIR}/check.qm")
  message(FATAL_ERROR "lrelease failed (${rc})")
endif()
