# scripts/lib/deb-in-root.sh PHASE [DEB] — runs INSIDE the clean root (chroot), as root, for
# scripts/lib/deb-clean-root.sh. Phases: install DEB | run | remove. Needs only what a minimal
# bookworm has (bash, coreutils, grep, sed, apt, dpkg).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
say() { printf '[test-deb: clean root] %s\n' "$*" >&2; }
fail() { printf '[test-deb: clean root] FAILED: %s\n' "$*" >&2; exit 1; }

list=/tmp/aile-desktop.files

# Files a user relies on, beside the two programs.
expected_files=(
    /usr/share/applications/aile-desktop.desktop
    /usr/share/metainfo/io.github.aile.AileDesktop.metainfo.xml
    /usr/share/icons/hicolor/scalable/apps/aile-desktop.svg
    /usr/lib/systemd/user/aile.service
)
for size in 16 32 48 64 128 256; do
    expected_files+=("/usr/share/icons/hicolor/${size}x${size}/apps/aile-desktop.png")
done

case "${1:-}" in
install)
    deb="$2"
    say "apt-get update"
    apt-get -q update >/tmp/apt-update.log 2>&1 || { cat /tmp/apt-update.log >&2; fail "apt-get update"; }
    say "apt install $deb"
    # `apt install ./file.deb`, as a person types it; apt resolves the dependencies from the mirror.
    if ! apt install -y "$deb" >/tmp/apt-install.log 2>&1; then
        tail -30 /tmp/apt-install.log >&2
        fail "apt install of the package"
    fi
    grep -E '^(Setting up|Unpacking) aile-desktop' /tmp/apt-install.log >&2 || true
    say "$(grep -cE '^Setting up ' /tmp/apt-install.log) packages set up (the package and its dependencies)"
    dpkg-query -W -f='${Status}\n' aile-desktop | grep -qx 'install ok installed' || fail "dpkg does not list aile-desktop as installed"
    dpkg -L aile-desktop >"$list"
    ;;
run)
    # Programs on the PATH, where the package put them.
    [[ "$(command -v aile)" == /usr/bin/aile ]] || fail "aile is not /usr/bin/aile on the PATH"
    [[ "$(command -v aile-desktop)" == /usr/bin/aile-desktop ]] || fail "aile-desktop is not /usr/bin/aile-desktop on the PATH"
    version="$(aile --version)" || fail "aile --version exited $?"
    say "aile --version: $version"
    [[ "$version" == "aile "* ]] || fail "aile --version printed \"$version\""

    # The headless engine: starts on a free port, answers, stops cleanly on SIGTERM.
    data="$(mktemp -d)"
    aile serve --listen 127.0.0.1:0 --data-dir "$data" >/tmp/serve.log 2>&1 &
    pid=$!
    port=""
    for _ in $(seq 1 100); do
        port="$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9][0-9]*\)$/\1/p' /tmp/serve.log)"
        [[ -n "$port" ]] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    [[ -n "$port" ]] || { cat /tmp/serve.log >&2; fail "aile serve printed no \"listening on 127.0.0.1:<port>\" line within 10 s"; }
    say "aile serve: listening on 127.0.0.1:$port"
    # A request without a key: the engine answers it (401), which is all this test asks.
    exec 3<>"/dev/tcp/127.0.0.1/$port"
    printf 'GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nConnection: close\r\n\r\n' "$port" >&3
    status_line="$(timeout 10 head -n 1 <&3 | tr -d '\r')" || true
    exec 3<&-
    say "aile serve: GET /v1/models without a key -> $status_line"
    [[ "$status_line" == "HTTP/1.1 401"* ]] || fail "expected a 401 from aile serve, got \"$status_line\""
    kill -TERM "$pid"
    rc=0
    wait "$pid" || rc=$?
    [[ $rc -eq 0 ]] || { cat /tmp/serve.log >&2; fail "aile serve exited $rc on SIGTERM"; }
    say "aile serve: stopped cleanly on SIGTERM"

    # The desktop app, offscreen: it must start and keep running until stopped.
    rc=0
    QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$(mktemp -d)" timeout 8 aile-desktop >/tmp/desktop.log 2>&1 || rc=$?
    if [[ $rc -ne 124 ]]; then
        cat /tmp/desktop.log >&2
        fail "aile-desktop (offscreen) exited $rc before it was stopped after 8 s"
    fi
    if grep -qiE 'could not (load|find) the Qt platform plugin|cannot load library|QSqlDatabase: .* driver not loaded' /tmp/desktop.log; then
        cat /tmp/desktop.log >&2
        fail "aile-desktop is missing a Qt plugin"
    fi
    say "aile-desktop: ran offscreen for 8 s until stopped"
    # The plugins Qt loads at run time, which dpkg-shlibdeps cannot see, came with the package's Depends.
    for plugin in platforms/libqxcb.so sqldrivers/libqsqlite.so; do
        [[ -f "/usr/lib/$(uname -m)-linux-gnu/qt6/plugins/$plugin" ]] || fail "Qt plugin $plugin is not installed"
    done

    for f in "${expected_files[@]}"; do
        [[ -s "$f" ]] || fail "$f is not installed"
    done
    grep -qx 'ExecStart=/usr/bin/aile serve' /usr/lib/systemd/user/aile.service || fail "aile.service does not run /usr/bin/aile serve"
    grep -qx 'Exec=aile-desktop' /usr/share/applications/aile-desktop.desktop || fail "the desktop entry does not run aile-desktop"
    say "installed: desktop entry, metainfo, icons (scalable and 6 sizes), systemd user unit"
    ;;
remove)
    say "apt remove aile-desktop"
    apt remove -y aile-desktop >/tmp/apt-remove.log 2>&1 || { tail -20 /tmp/apt-remove.log >&2; fail "apt remove"; }
    status="$(dpkg-query -W -f='${Status}' aile-desktop 2>/dev/null || true)"
    [[ -z "$status" || "$status" == *not-installed || "$status" == *config-files ]] || fail "after apt remove, dpkg says: $status"
    left=()
    while read -r f; do
        [[ -f "$f" || -L "$f" ]] && left+=("$f")
    done <"$list"
    [[ ${#left[@]} -eq 0 ]] || fail "left behind after apt remove: ${left[*]}"
    say "removed: none of its $(wc -l <"$list") paths is left as a file"
    ;;
*)
    fail "unknown phase \"${1:-}\""
    ;;
esac
