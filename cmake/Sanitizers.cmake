# cmake/Sanitizers.cmake: the two sanitizer builds (docs/hardening.md, "Fuzzing and sanitizers").
#
# -DAILE_SANITIZE=address,undefined  the engine, `aile` and the tests are compiled and linked with
#     these sanitizers. A finding aborts (no recovery), so the test that hit it fails. The GUI is
#     left out: it is not what a hostile client or upstream reaches, and it doubles the build.
# -DAILE_FUZZ=ON  clang only. Everything is also compiled with -fsanitize=fuzzer-no-link (libFuzzer's
#     coverage), with AILE_SANITIZE's sanitizers (address,undefined when it is empty); tests/fuzz
#     links each target with -fsanitize=fuzzer. The tests build and run in the same directory, so
#     one clang build serves both (scripts/lib/common.sh, aile_configure_hardening_build).
if(AILE_FUZZ AND NOT AILE_SANITIZE)
  set(AILE_SANITIZE address,undefined)
endif()

if(AILE_FUZZ OR AILE_SANITIZE)
  if(AILE_BUILD_GUI)
    message(STATUS "AILE_FUZZ/AILE_SANITIZE: building without the GUI (AILE_BUILD_GUI=OFF)")
    set(AILE_BUILD_GUI OFF CACHE BOOL "Build the desktop GUI (aile-desktop)" FORCE)
  endif()
  # Stacks a sanitizer report can name, frame by frame.
  add_compile_options(-fno-omit-frame-pointer)
endif()

if(AILE_SANITIZE)
  add_compile_options(-fsanitize=${AILE_SANITIZE} -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${AILE_SANITIZE})
endif()

if(AILE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "AILE_FUZZ needs clang (libFuzzer): configure a fresh build directory with "
      "-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ (Debian: apt install clang libclang-rt-14-dev)")
  endif()
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS -fsanitize=fuzzer,address,undefined)
  set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=fuzzer,address,undefined)
  check_cxx_source_compiles([[
    #include <cstddef>
    #include <cstdint>
    extern "C" int LLVMFuzzerTestOneInput(const uint8_t *, size_t) { return 0; }
  ]] AILE_HAVE_LIBFUZZER)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(NOT AILE_HAVE_LIBFUZZER)
    message(FATAL_ERROR "AILE_FUZZ: clang cannot link -fsanitize=fuzzer here: install libFuzzer "
      "(Debian: apt install libclang-rt-14-dev)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
