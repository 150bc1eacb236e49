# scripts/lib/common.sh — shared by scripts/setup-and-run.sh, scripts/test.sh and scripts/test-deb.sh.
# Sourced, not run. Sets AILE_ROOT (the repository) and gives: log, die, as_root, apt_install,
# aile_configure and the package lists below.
#
# Knobs (environment):
#   AILE_NO_INSTALL=1   never call apt-get or npm: fail with the list of what is missing instead
#   AILE_BUILD_DIR      the build directory (default: build/ in the repository)
#   AILE_BUILD_TYPE     CMAKE_BUILD_TYPE for a new build directory (default RelWithDebInfo)
#   AILE_CMAKE_ARGS     more arguments for CMake's configure step, e.g. "-DAILE_BUILD_GUI=OFF"

AILE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
AILE_BUILD_DIR="${AILE_BUILD_DIR:-$AILE_ROOT/build}"
AILE_BUILD_TYPE="${AILE_BUILD_TYPE:-RelWithDebInfo}"
AILE_SCRIPT="${AILE_SCRIPT:-$(basename "$0")}"

# What building Aile Desktop needs from Debian 12 (bookworm). Three are easy to miss:
# - libqt6opengl6-dev: Qt6Charts' CMake package needs Qt6OpenGL, but bookworm's qt6-charts-dev does
#   not depend on the package that has Qt6OpenGLConfig.cmake ("Qt6Charts could not be found because
#   dependency Qt6OpenGL could not be found");
# - qt6-l10n-tools: lrelease and lupdate (Qt6LinguistTools' CMake files are in qt6-tools-dev);
# - libqt6sql6-sqlite: the SQLite driver Qt Sql loads at run time, which no -dev package pulls in.
AILE_BUILD_PACKAGES=(
    g++ cmake ninja-build
    qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    libqt6opengl6-dev libqt6sql6-sqlite libqt6sql6-psql qtkeychain-qt6-dev libssl-dev libhttp-parser-dev libsqlite3-dev rapidjson-dev
    libglib2.0-dev pkgconf   # the epoll loop runs GLib's context inside it (engine/core/EpollDispatcher.h)
    lld   # links several times faster than ld.bfd (CMakeLists.txt uses it when installed)
    libjemalloc-dev   # the malloc aile and aile-desktop link (cmake/Allocator.cmake)
)
# What the team-mode tests start (docs/team.md): a real PostgreSQL 15 and a real HAProxy.
AILE_TEAM_TEST_PACKAGES=(postgresql haproxy)
# What showing the window on a real X11 display needs beyond that (the xcb platform plugin).
AILE_GUI_RUNTIME_PACKAGES=(qt6-qpa-plugins)

log() { printf '[%s %ss] %s\n' "$AILE_SCRIPT" "$SECONDS" "$*" >&2; }   # with the seconds since the script started
die() { printf '[%s] error: %s\n' "$AILE_SCRIPT" "$*" >&2; exit 1; }

# as_root CMD...: runs CMD as root: directly when we are root, else through sudo.
as_root() {
    if [[ $(id -u) -eq 0 ]]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        die "this needs root and sudo is not installed: run as root: $*"
    fi
}

pkg_installed() { [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" == "install ok installed" ]]; }

# apt_install PKG...: installs those of PKG that are missing. The package lists are refreshed
# (apt-get update) once per script run, and only when something is missing.
AILE_APT_UPDATED=""
apt_install() {
    local missing=() p
    for p in "$@"; do pkg_installed "$p" || missing+=("$p"); done
    [[ ${#missing[@]} -eq 0 ]] && return 0
    if [[ "${AILE_NO_INSTALL:-}" == 1 ]]; then
        die "missing Debian packages: ${missing[*]} (AILE_NO_INSTALL=1, so not installing them)"
    fi
    command -v apt-get >/dev/null 2>&1 || die "missing packages ${missing[*]}, and apt-get is not here: this script is for Debian 12"
    if [[ $(id -u) -ne 0 ]] && ! command -v sudo >/dev/null 2>&1; then
        die "missing Debian packages: ${missing[*]}; sudo is not installed, so install them as root:" \
            "apt-get install --no-install-recommends ${missing[*]}"
    fi
    local apt_opts=(-o DPkg::Lock::Timeout=600 -o Dpkg::Use-Pty=0 -q)
    if [[ -z "$AILE_APT_UPDATED" ]]; then
        log "refreshing the package lists (apt-get update)"
        as_root apt-get "${apt_opts[@]}" update >/dev/null || die "apt-get update failed"
        AILE_APT_UPDATED=1
    fi
    log "installing: ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive \
        apt-get "${apt_opts[@]}" install -y --no-install-recommends "${missing[@]}" >/dev/null \
        || die "apt-get install ${missing[*]} failed"
}

# Warns (does not stop) when this is not Debian 12: the package names above are bookworm's.
check_platform() {
    local id="" version=""
    if [[ -r /etc/os-release ]]; then
        id="$(. /etc/os-release && echo "${ID:-}")"
        version="$(. /etc/os-release && echo "${VERSION_ID:-}")"
    fi
    if [[ "$id" != debian || "$version" != 12 ]]; then
        log "note: this is ${id:-an unknown system} ${version}, not Debian 12: package names may differ"
    fi
}

# aile_configure [-DNAME=VALUE...]: configures $AILE_BUILD_DIR with Ninja the first time, and again
# only when one of the given cache entries (or those in $AILE_CMAKE_ARGS, which come last and so win)
# differs from what the cache holds. Otherwise `cmake --build` re-runs CMake itself when a
# CMakeLists.txt changed, so a rerun costs nothing. The scripts build in unity batches
# (-DAILE_UNITY_BUILD=ON: a full build costs a fraction of the CPU; AILE_CMAKE_ARGS can turn it off),
# and RelWithDebInfo carries line tables only (-g1: backtraces, sanitizer reports and perf still name
# functions, files and lines; compiling the engine costs ~17% less CPU than with -g, measured on
# aile_engine_dispatch's unity batch: 18.7 s user with -g, 15.2 s with -g1). For gdb's full debug
# information, `cmake --preset dev` configures build/ with CMake's own -g (README.md, "Set up").
aile_configure() {
    local cache="$AILE_BUILD_DIR/CMakeCache.txt" extra=()
    local args=(-DAILE_UNITY_BUILD=ON "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" "$@")
    read -r -a extra <<<"${AILE_CMAKE_ARGS:-}"
    args+=("${extra[@]}")
    if [[ -f "$cache" ]]; then
        local gen home
        gen="$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$cache")"
        home="$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$cache")"
        if [[ "$gen" != Ninja || ! "$home" -ef "$AILE_ROOT" || ! -f "$AILE_BUILD_DIR/build.ninja" ]]; then
            log "${AILE_BUILD_DIR#"$AILE_ROOT"/} was configured ${gen:+with $gen }for ${home:-another tree}: configuring it afresh"
            rm -rf "$AILE_BUILD_DIR/CMakeCache.txt" "$AILE_BUILD_DIR/CMakeFiles"
        else
            # The last -DNAME=VALUE for a name wins, as it does for CMake.
            local a name have stale="" names=()
            local -A want=()
            for a in "${args[@]}"; do
                [[ "$a" == -D*=* ]] || continue
                name="${a#-D}" && name="${name%%=*}" && name="${name%%:*}"
                [[ -n "${want[$name]+set}" ]] || names+=("$name")
                want[$name]="${a#*=}"
            done
            for name in "${names[@]}"; do
                have="$(sed -n "s/^${name}:[A-Z]*=//p" "$cache")"
                [[ "$have" == "${want[$name]}" ]] || stale+=" $name=${want[$name]}"
            done
            [[ -z "$stale" ]] && return 0
            log "re-configuring ${AILE_BUILD_DIR#"$AILE_ROOT"/} for$stale"
            cmake -S "$AILE_ROOT" -B "$AILE_BUILD_DIR" "${args[@]}" >/dev/null \
                || die "cmake configure failed (see above)"
            return 0
        fi
    fi
    log "configuring ($AILE_BUILD_TYPE, Ninja) into ${AILE_BUILD_DIR#"$AILE_ROOT"/}/"
    cmake -S "$AILE_ROOT" -B "$AILE_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$AILE_BUILD_TYPE" "${args[@]}" >/dev/null \
        || die "cmake configure failed (see above)"
}

# aile_configure_hardening_build: configures the one clang build that scripts/test.sh (the engine
# tests under ASan and UBSan) and scripts/fuzz.sh (the libFuzzer targets) share, so that CI compiles
# the engine with clang once, not twice: build-asan/ (AILE_HARDENING_BUILD_DIR), -O1 with line
# tables (quick to build, stacks still name lines), Debug so that Q_ASSERT stays on, ASan and UBSan,
# libFuzzer's coverage (-DAILE_FUZZ=ON: the fuzz targets are built there too), the GUI left out.
# clang through CC/CXX: they choose the compiler of a new build directory only, so a rerun never
# asks CMake to change compilers in place.
AILE_HARDENING_BUILD_DIR="${AILE_HARDENING_BUILD_DIR:-$AILE_ROOT/build-asan}"
aile_configure_hardening_build() {
    CC=clang CXX=clang++ AILE_BUILD_DIR="$AILE_HARDENING_BUILD_DIR" AILE_BUILD_TYPE=Debug aile_configure \
        "-DCMAKE_C_FLAGS_DEBUG=-O1 -gline-tables-only" "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -gline-tables-only" \
        -DAILE_SANITIZE=address,undefined -DAILE_FUZZ=ON -DAILE_BUILD_TESTS=ON -DAILE_BUILD_GUI=OFF
}
