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
# Then the hardening checks (docs/hardening.md, "Fuzzing and sanitizers"), in one clang build
# (build-asan/, GUI off): the engine and its tests built with ASan and UBSan and run, the end-to-end
# tests left out; and every libFuzzer target, built there too, run for AILE_FUZZ_TIME seconds on a
# copy of its committed seed corpus (scripts/fuzz.sh). A sanitizer report or a fuzzer crash fails the run.
# Prints CTest's summary line for each CTest run, then one line "N passed, N failed" over all
# parts (the fuzz targets count one each); exits non-zero when a build or any test fails, or no
# test ran.
#
# Arguments are passed to ctest, e.g. `scripts/test.sh -R Config` or `scripts/test.sh -L gui`
# (with arguments, the sanitizer run takes them too).
# Rerunnable: nothing is installed, fetched or rebuilt when nothing changed.
#
# Knobs (environment): AILE_TEST_JOBS (ctest -j, default 2), AILE_TEST_XVFB=0 (no X server: tests
# run offscreen only), AILE_TEST_SANITIZE=0 (skip the ASan/UBSan build and run), AILE_TEST_FUZZ=0
# (skip the fuzz targets), AILE_FUZZ_TIME (seconds per fuzz target, default 30), AILE_NO_INSTALL=1,
# AILE_BUILD_DIR, AILE_BUILD_TYPE (scripts/lib/common.sh). CI runs everything: leave the knobs unset.
set -euo pipefail
AILE_SCRIPT=test
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$AILE_ROOT"

check_platform

# --- Debian packages ----------------------------------------------------------------------------
packages=("${AILE_BUILD_PACKAGES[@]}" "${AILE_GUI_RUNTIME_PACKAGES[@]}" "${AILE_TEAM_TEST_PACKAGES[@]}"
    xvfb xauth dbus dbus-x11 gnome-keyring libsecret-tools
    desktop-file-utils appstream)   # the packaging tests validate the desktop entry and metainfo
if [[ "${AILE_TEST_SANITIZE:-1}" != 0 || "${AILE_TEST_FUZZ:-1}" != 0 ]]; then
    packages+=(clang libclang-rt-14-dev)   # the sanitizer build and the fuzz targets (libFuzzer)
fi
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

# ctest_counts FILE: "passed failed" from the summary line CTest printed into FILE ("0 0" if none).
ctest_counts() {
    local line total failed
    line="$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$1" | tail -1)"
    [[ -n "$line" ]] || { echo "0 0"; return; }
    failed="$(sed -E 's/.* ([0-9]+) tests? failed.*/\1/' <<<"$line")"
    total="$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$line")"
    echo "$((total - failed)) $failed"
}
summary="$runtime_dir/summary"
passed=0 failed=0 rc=0

session=(dbus-run-session -- bash "$AILE_ROOT/scripts/lib/test-session.sh" "$@")
set +e
if [[ "${AILE_TEST_XVFB:-1}" == 0 ]]; then
    unset DISPLAY
    log "running the tests (offscreen, no X server)"
    "${session[@]}" | tee "$summary"
else
    log "running the tests under Xvfb (xvfb-run) and a private D-Bus session"
    xvfb-run --auto-servernum --server-args="-screen 0 1600x1000x24 -nolisten tcp" "${session[@]}" | tee "$summary"
fi
rc=${PIPESTATUS[0]}
set -e
read -r p f < <(ctest_counts "$summary")
passed=$((passed + p)) failed=$((failed + f))
[[ $rc -eq 0 ]] || log "the test suite FAILED (exit code $rc)"

# --- the engine tests under ASan and UBSan ----------------------------------------------------------
# The hardening build (aile_configure_hardening_build in scripts/lib/common.sh: clang, ASan, UBSan,
# libFuzzer's coverage, the GUI and its tests left out), whose fuzz targets scripts/fuzz.sh runs
# below. The end-to-end tests are left out too (node drives `aile serve` there; the engine code they
# reach is the one the engine tests cover). A finding aborts the test that hit it.
if [[ "${AILE_TEST_SANITIZE:-1}" != 0 ]]; then
    asan_dir="$AILE_HARDENING_BUILD_DIR"
    aile_configure_hardening_build
    log "building the engine tests with ASan and UBSan (cmake --build ${asan_dir#"$AILE_ROOT"/})"
    set +e
    cmake --build "$asan_dir"
    build_rc=$?
    if [[ $build_rc -ne 0 ]]; then
        log "the sanitizer build FAILED (see above)"
        rc=1 failed=$((failed + 1))
    else
        sanitizer_home="$asan_dir/test-home"
        rm -rf "$sanitizer_home"
        mkdir -p "$sanitizer_home"/{config,data,cache,state}
        log "running the engine tests under ASan and UBSan (a private D-Bus session, no X server)"
        # Leaks are findings too, except the few inside system libraries that
        # tests/sanitizers/lsan.supp names, each with its reason.
        AILE_BUILD_DIR="$asan_dir" XDG_CONFIG_HOME="$sanitizer_home/config" XDG_DATA_HOME="$sanitizer_home/data" \
            XDG_CACHE_HOME="$sanitizer_home/cache" XDG_STATE_HOME="$sanitizer_home/state" DISPLAY= \
            ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1" \
            UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
            LSAN_OPTIONS="suppressions=$AILE_ROOT/tests/sanitizers/lsan.supp:print_suppressions=0" \
            dbus-run-session -- bash "$AILE_ROOT/scripts/lib/test-session.sh" -LE e2e "$@" | tee "$summary"
        asan_rc=${PIPESTATUS[0]}
        read -r p f < <(ctest_counts "$summary")
        passed=$((passed + p)) failed=$((failed + f))
        if [[ $asan_rc -ne 0 ]]; then
            log "the engine tests under ASan and UBSan FAILED (exit code $asan_rc)"
            rc=1
        fi
    fi
    set -e
else
    log "skipping the ASan/UBSan run (AILE_TEST_SANITIZE=0)"
fi

# --- the fuzz targets ------------------------------------------------------------------------------
if [[ "${AILE_TEST_FUZZ:-1}" != 0 ]]; then
    set +e
    # In the hardening build the sanitizer run above already built (or builds them now).
    AILE_FUZZ_BUILD_DIR="$AILE_HARDENING_BUILD_DIR" bash "$AILE_ROOT/scripts/fuzz.sh" 2>&1 | tee "$summary" >&2
    fuzz_rc=${PIPESTATUS[0]}
    set -e
    f="$(grep -cE '^\[fuzz( [0-9]+s)?\] fuzz_[A-Za-z0-9_]* FAILED' "$summary" || true)"
    p="$(grep -cE '^\[fuzz( [0-9]+s)?\] fuzz_[A-Za-z0-9_]*: clean' "$summary" || true)"
    if [[ $fuzz_rc -ne 0 ]]; then
        rc=1
        [[ $f -gt 0 ]] || f=1   # the build failed before any target ran
        log "fuzzing FAILED (exit code $fuzz_rc)"
    fi
    passed=$((passed + p)) failed=$((failed + f))
else
    log "skipping the fuzz targets (AILE_TEST_FUZZ=0)"
fi

if [[ $rc -ne 0 ]]; then
    log "FAILED"
else
    log "all tests passed"
fi
echo "$passed passed, $failed failed"
exit $rc
