#!/usr/bin/env bash
# scripts/setup-and-run.sh — from a fresh Debian 12 machine to a running Aile Desktop, in one command.
#
# Installs the Debian packages that are missing (apt-get; through sudo when not root), configures and
# builds aile and aile-desktop into build/ (Ninja, RelWithDebInfo), then starts:
#   - the desktop app, build/app/aile-desktop, when a display is there ($DISPLAY or $WAYLAND_DISPLAY);
#   - the headless engine, build/app/aile serve, when not.
# Arguments are passed on to what it starts, e.g.
#   scripts/setup-and-run.sh --listen 127.0.0.1:0 --data-dir /tmp/aile    (headless)
# Rerunnable: nothing is installed or rebuilt when nothing changed.
#
# Knobs (environment): AILE_RUN=desktop|serve|none (force what to start; none only builds),
# AILE_NO_INSTALL=1, AILE_BUILD_DIR, AILE_BUILD_TYPE (see scripts/lib/common.sh).
set -euo pipefail
AILE_SCRIPT=setup-and-run
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$AILE_ROOT"

mode="${AILE_RUN:-}"
why=""
case "$mode" in
    desktop | serve | none) why="AILE_RUN=$mode" ;;
    "")
        if [[ -n "${DISPLAY:-}" ]]; then
            mode=desktop why="a display is there (DISPLAY=$DISPLAY)"
        elif [[ -n "${WAYLAND_DISPLAY:-}" ]]; then
            mode=desktop why="a display is there (WAYLAND_DISPLAY=$WAYLAND_DISPLAY)"
        else
            mode=serve why="no display (neither DISPLAY nor WAYLAND_DISPLAY is set)"
        fi
        ;;
    *) die "AILE_RUN is desktop, serve or none, not \"$mode\"" ;;
esac

check_platform
packages=("${AILE_BUILD_PACKAGES[@]}")
if [[ "$mode" == desktop ]]; then
    packages+=("${AILE_GUI_RUNTIME_PACKAGES[@]}")
    # Qt talks Wayland natively with its Wayland plugin; without it, it goes through XWayland.
    [[ -n "${WAYLAND_DISPLAY:-}" ]] && packages+=(qt6-wayland)
fi
apt_install "${packages[@]}"

aile_configure
log "building aile and aile-desktop (cmake --build ${AILE_BUILD_DIR#"$AILE_ROOT"/})"
cmake --build "$AILE_BUILD_DIR" --target aile aile-desktop || die "the build failed (see above)"

desktop_bin="$AILE_BUILD_DIR/app/aile-desktop"
serve_bin="$AILE_BUILD_DIR/app/aile"
case "$mode" in
    none)
        log "built: ${desktop_bin#"$AILE_ROOT"/} and ${serve_bin#"$AILE_ROOT"/}; starting nothing ($why)"
        ;;
    desktop)
        log "starting the desktop app, ${desktop_bin#"$AILE_ROOT"/}, because $why"
        log "the proxy runs while the window is open (default http://127.0.0.1:2453; the window shows its address)"
        exec "$desktop_bin" "$@"
        ;;
    serve)
        log "starting the headless engine, ${serve_bin#"$AILE_ROOT"/} serve, because $why"
        log "point your tools at the address it prints (default http://127.0.0.1:2453); Ctrl+C stops it"
        exec "$serve_bin" serve "$@"
        ;;
esac
