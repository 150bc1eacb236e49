#!/usr/bin/env bash
# scripts/test.sh — installs what the tests need, builds everything into build/, runs every test.
#
# On a fresh Debian 12 machine: installs the missing Debian packages (build dependencies; Xvfb and
# xauth; D-Bus, gnome-keyring and secret-tool for the keychain tests; desktop-file-utils and
# appstream for the packaging tests; nginx-light when a test uses nginx; Node.js and npm when
# tests/e2e/package.json exists, then `npm ci` there), configures and builds the whole tree (GUI
# and tests included) with Ninja, and runs CTest (-j2, --output-on-failure) inside a throwaway X
# server (xvfb-run) and a private D-Bus session bus (dbus-run-session) on which an unlocked
# gnome-keyring answers as the Secret Service.
# Prints CTest's summary line; exits non-zero when the build or any test fails, or no test ran.
#
# Arguments are passed to ctest, e.g. `scripts/test.sh -R Config` or `scripts/test.sh -L gui`.
# Rerunnable: nothing is installed, fetched or rebuilt when nothing changed.
#
# Knobs (environment): AILE_TEST_JOBS (ctest -j, default 2), AILE_TEST_XVFB=0 (no X server: tests
# run offscreen only), AILE_NO_INSTALL=1, AILE_BUILD_DIR, AILE_BUILD_TYPE (scripts/lib/common.sh).
set -euo pipefail
AILE_SCRIPT=test
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$AILE_ROOT"

check_platform

# --- Debian packages ----------------------------------------------------------------------------
packages=("${AILE_BUILD_PACKAGES[@]}" "${AILE_GUI_RUNTIME_PACKAGES[@]}"
    xvfb xauth dbus dbus-x11 gnome-keyring libsecret-tools
    desktop-file-utils appstream)   # the packaging tests validate the desktop entry and metainfo
if grep -rqsI --exclude-dir=node_modules -e nginx "$AILE_ROOT/tests"; then
    packages+=(nginx-light)
fi
e2e_dir="$AILE_ROOT/tests/e2e"
if [[ -f "$e2e_dir/package.json" ]]; then
    # Debian's nodejs and npm, unless a node and npm are already on the PATH.
    command -v node >/dev/null 2>&1 || packages+=(nodejs)
    command -v npm >/dev/null 2>&1 || packages+=(npm)
fi
apt_install "${packages[@]}"

# --- npm packages of the end-to-end tests ------------------------------------------------------
if [[ -f "$e2e_dir/package.json" ]]; then
    stamp="$e2e_dir/node_modules/.package-lock.json"
    if [[ -f "$stamp" && "$stamp" -nt "$e2e_dir/package.json" \
        && ( ! -f "$e2e_dir/package-lock.json" || "$stamp" -nt "$e2e_dir/package-lock.json" ) ]]; then
        : # node_modules is newer than package.json and its lock: up to date
    elif [[ "${AILE_NO_INSTALL:-}" == 1 ]]; then
        die "tests/e2e/node_modules is missing or stale (AILE_NO_INSTALL=1, so not running npm)"
    elif [[ -f "$e2e_dir/package-lock.json" ]]; then
        log "npm ci in tests/e2e (node $(node --version), npm $(npm --version))"
        (cd "$e2e_dir" && npm ci --no-audit --no-fund --loglevel=error) || die "npm ci in tests/e2e failed"
    else
        log "tests/e2e has no package-lock.json: npm install without one (commit a lock file to pin versions)"
        (cd "$e2e_dir" && npm install --no-audit --no-fund --no-package-lock --loglevel=error) \
            || die "npm install in tests/e2e failed"
    fi
fi

# --- build --------------------------------------------------------------------------------------
aile_configure -DAILE_BUILD_TESTS=ON -DAILE_BUILD_GUI=ON
log "building everything (cmake --build ${AILE_BUILD_DIR#"$AILE_ROOT"/})"
cmake --build "$AILE_BUILD_DIR" || die "the build failed (see above)"

# --- run ----------------------------------------------------------------------------------------
# The tests get their own XDG folders (a fresh build/test-home each run), so that they never touch
# the data, settings or keyring of the person running them, and a private runtime dir for sockets.
test_home="$AILE_BUILD_DIR/test-home"
rm -rf "$test_home"
mkdir -p "$test_home"/{config,data,cache,state}
runtime_dir="$(mktemp -d "${TMPDIR:-/tmp}/aile-test-run.XXXXXX")"
chmod 700 "$runtime_dir"
trap 'rm -rf "$runtime_dir"' EXIT

export XDG_CONFIG_HOME="$test_home/config" XDG_DATA_HOME="$test_home/data" \
    XDG_CACHE_HOME="$test_home/cache" XDG_STATE_HOME="$test_home/state" XDG_RUNTIME_DIR="$runtime_dir"
export AILE_BUILD_DIR AILE_TEST_JOBS="${AILE_TEST_JOBS:-2}"
unset WAYLAND_DISPLAY DBUS_SESSION_BUS_ADDRESS

session=(dbus-run-session -- bash "$AILE_ROOT/scripts/lib/test-session.sh" "$@")
set +e
if [[ "${AILE_TEST_XVFB:-1}" == 0 ]]; then
    unset DISPLAY
    log "running the tests (offscreen, no X server)"
    "${session[@]}"
else
    log "running the tests under Xvfb (xvfb-run) and a private D-Bus session"
    xvfb-run --auto-servernum --server-args="-screen 0 1600x1000x24 -nolisten tcp" "${session[@]}"
fi
rc=$?
set -e
if [[ $rc -ne 0 ]]; then
    log "FAILED (exit code $rc)"
else
    log "all tests passed"
fi
exit $rc
