#!/bin/sh
# Renders every view of aile-desktop into this folder, under Xvfb, against a real engine, the
# fake upstream and a seeded store (tests/ui/ScreenshotTour.cpp). Run from the repository root:
#
#   docs/screenshots/render.sh [BUILD_DIR]      (default build-gui)
#
# Needs xvfb-run (Debian: xvfb, xauth). The pictures are the same from run to run apart from
# the clock and the live requests' timings.
set -eu
build=${1:-build-gui}
here=$(cd "$(dirname "$0")" && pwd)
cmake --build "$build" --target aile-ui-screenshots
tour="$build/tests/ui/aile-ui-screenshots"
unset QT_QPA_PLATFORM
export QT_LOGGING_RULES='aile.*.debug=false;qt.qpa.*=false'
for mode in "" "--dark" "--lang fr" "--get-started" "--get-started --lang fr"; do
  # shellcheck disable=SC2086  # $mode is one or two words on purpose
  xvfb-run -a -s "-screen 0 1600x1000x24" "$tour" --out "$here" $mode
done
# The window attached to a running aile serve (the real one from the build).
cmake --build "$build" --target aile
xvfb-run -a -s "-screen 0 1600x1000x24" "$tour" --out "$here" --attached "$build/app/aile"
