# cmake/Allocator.cmake: the malloc that `aile` and `aile-desktop` run on (docs/performance.md,
# "Change 18 (allocator)").
#
# -DAILE_ALLOCATOR=jemalloc (the default)  both programs link Debian's jemalloc (libjemalloc-dev;
#     the package depends on libjemalloc2). The engine thread allocates and frees ~90 small blocks
#     a request; jemalloc's thread cache takes ~10k fewer instructions a request than glibc's
#     malloc, for 2–4 MB more resident memory (docs/performance.md has the figures).
# -DAILE_ALLOCATOR=system  the C library's malloc.
# A sanitizer or fuzz build always runs on the C library's: the sanitizers bring their own malloc.
# The engine says which one it runs on when it starts (core/Allocator.h); the tests that start
# the programs read that line (tests/app).
set(AILE_ALLOCATOR "jemalloc" CACHE STRING "The malloc aile and aile-desktop link: jemalloc or system")
set_property(CACHE AILE_ALLOCATOR PROPERTY STRINGS jemalloc system)
if(NOT AILE_ALLOCATOR MATCHES "^(jemalloc|system)$")
  message(FATAL_ERROR "AILE_ALLOCATOR is jemalloc or system, not '${AILE_ALLOCATOR}'")
endif()

set(AILE_MALLOC_IN_USE system)
if(AILE_ALLOCATOR STREQUAL "jemalloc")
  if(AILE_SANITIZE OR AILE_FUZZ)
    message(STATUS "AILE_ALLOCATOR: the sanitizers' malloc, not jemalloc, in this build")
  else()
    find_package(PkgConfig REQUIRED)
    pkg_check_modules(AILE_JEMALLOC IMPORTED_TARGET GLOBAL jemalloc)
    if(NOT AILE_JEMALLOC_FOUND)
      message(FATAL_ERROR "AILE_ALLOCATOR=jemalloc: jemalloc's development files are missing. "
        "Install them (Debian: apt install libjemalloc-dev; scripts/setup-and-run.sh and scripts/test.sh do) "
        "or configure with -DAILE_ALLOCATOR=system for the C library's malloc")
    endif()
    set(AILE_MALLOC_IN_USE jemalloc)
  endif()
endif()

# aile_link_allocator(TARGET): an executable's malloc. jemalloc is linked even where the linker
# drops libraries no symbol was taken from (--as-needed): nothing names it, it replaces malloc
# because the dynamic linker finds its definition before the C library's.
function(aile_link_allocator target)
  if(AILE_MALLOC_IN_USE STREQUAL "jemalloc")
    target_link_libraries(${target} PRIVATE "-Wl,--push-state,--no-as-needed" PkgConfig::AILE_JEMALLOC "-Wl,--pop-state")
  endif()
endfunction()
