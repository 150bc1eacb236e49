#pragma once

#include <QtCore/QString>

namespace Aile {

/// The malloc this process runs on, in words for the log: "jemalloc 5.3.0-0-g…" when the program
/// links jemalloc (cmake/Allocator.cmake; docs/performance.md "Change 18 (allocator)"), else
/// "the C library's malloc" (a build with -DAILE_ALLOCATOR=system, a sanitizer build, a test).
/// The engine says it once when it starts.
QString mallocName();

} // namespace Aile
