# scripts/lib/test-session.sh — run by scripts/test.sh inside `dbus-run-session` (and xvfb-run):
# starts gnome-keyring as the Secret Service on this private session bus, with a login keyring
# unlocked by a throwaway password in the tests' own XDG_DATA_HOME, then runs CTest.
# Not meant to be run by hand: scripts/test.sh sets the environment it relies on.
set -uo pipefail
AILE_SCRIPT=test
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

if command -v gnome-keyring-daemon >/dev/null 2>&1; then
    # --unlock reads the password on stdin and creates the login keyring when there is none.
    printf 'aile-test-keyring' | gnome-keyring-daemon --unlock --components=secrets --daemonize >/dev/null 2>&1
    # --start makes that daemon take org.freedesktop.secrets on the bus now, rather than D-Bus
    # activating a second one at the first request.
    gnome-keyring-daemon --start --components=secrets >/dev/null 2>&1
    # Prove that a secret can be stored and read back, so a keychain test that fails is about Aile.
    if printf 'probe' | secret-tool store --label='aile test probe' aile-test probe 2>/dev/null \
        && [[ "$(secret-tool lookup aile-test probe 2>/dev/null)" == probe ]]; then
        export AILE_TEST_SECRET_SERVICE=1
        log "Secret Service: gnome-keyring, unlocked, on a private session bus"
    else
        log "warning: gnome-keyring did not answer as an unlocked Secret Service; keychain tests may fail"
    fi
else
    log "warning: gnome-keyring-daemon is not installed; keychain tests may fail"
fi
[[ -n "${DISPLAY:-}" ]] && log "X server: Xvfb on DISPLAY=$DISPLAY (tests default to QT_QPA_PLATFORM=offscreen)"

ctest --test-dir "$AILE_BUILD_DIR" --output-on-failure --no-tests=error -j "${AILE_TEST_JOBS:-2}" "$@"
