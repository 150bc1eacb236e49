// The one source of the targets that own the tests' precompiled headers (tests/CMakeLists.txt).
