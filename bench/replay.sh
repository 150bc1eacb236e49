#!/bin/sh
# The replay benchmark (docs/replay.md): 100,000 recorded requests replayed through POST
# /keys/route-replay with an edited route. Builds its one program in the CMake build (tests on),
# runs it three times and prints the timings as JSON.
#   bench/replay.sh [BUILD_DIR] [REQUESTS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
requests=${2:-100000}
ninja -C "$build" aile-replay-bench >/dev/null
QT_QPA_PLATFORM=offscreen QT_LOGGING_RULES='aile.*.debug=false;*.warning=false' "$build/tests/engine/replay/aile-replay-bench" "$requests" 3
