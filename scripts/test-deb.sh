#!/usr/bin/env bash
# scripts/test-deb.sh — builds the .deb with CPack and proves, in a clean Debian 12 root, that it
# installs with `apt install ./aile-desktop_*.deb`, runs, and removes cleanly (docs/install.md).
#
#   1. installs what it needs (build dependencies, dpkg-dev for dpkg-shlibdeps, debootstrap,
#      desktop-file-utils, appstream), builds a Release tree configured for /usr into build-deb/,
#      and runs `cpack -G DEB`: build-deb/packages/aile-desktop_<version>_<arch>.deb;
#   2. checks the package's desktop entry (desktop-file-validate) and metainfo (appstreamcli);
#   3. as root: unpacks a minimal bookworm (debootstrap --variant=minbase, made once and cached as a
#      tarball) into a new temporary directory, and inside it with chroot: apt install the .deb
#      (from Debian's mirror: its dependencies), `aile --version`, `aile serve --listen 127.0.0.1:0`
#      answering a request, aile-desktop offscreen for a few seconds, the desktop entry, icons,
#      metainfo and user unit in place; then apt remove, and every file of the package gone.
#      The programs run in a network namespace of their own, so they never meet a port in use.
# Ends with "deb test: passed" or exits non-zero. Rerunnable; only step 3's root is made afresh.
#
# Knobs (environment): AILE_DEB_BUILD_DIR (default build-deb), AILE_DEB_CACHE (where the base
# tarball is kept; default ${XDG_CACHE_HOME:-~/.cache}/aile-desktop/deb-test), AILE_DEB_REFRESH=1
# (debootstrap the base again), AILE_DEB_KEEP=1 (keep the clean root for a look),
# AILE_DEB_MIRROR (default http://deb.debian.org/debian), AILE_NO_INSTALL=1.
set -euo pipefail
AILE_SCRIPT=test-deb
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
cd "$AILE_ROOT"

AILE_BUILD_DIR="${AILE_DEB_BUILD_DIR:-$AILE_ROOT/build-deb}"
AILE_BUILD_TYPE=Release
cache="${AILE_DEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/aile-desktop/deb-test}"

check_platform
[[ "$(uname -m)" == x86_64 ]] || log "note: this is $(uname -m); the package will be named for it"
apt_install "${AILE_BUILD_PACKAGES[@]}" dpkg-dev debootstrap desktop-file-utils appstream iproute2 tar

# --- 1. build the package -----------------------------------------------------------------------
aile_configure -DCMAKE_INSTALL_PREFIX=/usr -DAILE_BUILD_TESTS=OFF -DAILE_BUILD_GUI=ON
log "building (cmake --build ${AILE_BUILD_DIR#"$AILE_ROOT"/})"
cmake --build "$AILE_BUILD_DIR" || die "the build failed (see above)"

out="$AILE_BUILD_DIR/packages"
rm -rf "$out"
log "cpack -G DEB"
cpack --config "$AILE_BUILD_DIR/CPackConfig.cmake" -G DEB -B "$out" >"$AILE_BUILD_DIR/cpack.log" 2>&1 \
    || { cat "$AILE_BUILD_DIR/cpack.log" >&2; die "cpack failed"; }
debs=("$out"/aile-desktop_*.deb)
[[ ${#debs[@]} -eq 1 && -f "${debs[0]}" ]] || die "cpack made no single aile-desktop_*.deb in ${out#"$AILE_ROOT"/}"
deb="${debs[0]}"
version="$(dpkg-deb -f "$deb" Version)"
arch="$(dpkg-deb -f "$deb" Architecture)"
[[ "$(basename "$deb")" == "aile-desktop_${version}_${arch}.deb" ]] \
    || die "the package is named $(basename "$deb"), not aile-desktop_${version}_${arch}.deb"
log "made ${deb#"$AILE_ROOT"/} ($(du -h "$deb" | cut -f1))"
log "  Depends: $(dpkg-deb -f "$deb" Depends)"
log "  Recommends: $(dpkg-deb -f "$deb" Recommends)"

# --- 2. the files the desktops read ---------------------------------------------------------------
unpacked="$(mktemp -d)"
trap 'rm -rf "$unpacked"' EXIT
dpkg-deb -x "$deb" "$unpacked"
desktop_file="$unpacked/usr/share/applications/aile-desktop.desktop"
metainfo="$unpacked/usr/share/metainfo/io.github.aile.AileDesktop.metainfo.xml"
[[ -f "$desktop_file" ]] || die "the package has no usr/share/applications/aile-desktop.desktop"
[[ -f "$metainfo" ]] || die "the package has no usr/share/metainfo/io.github.aile.AileDesktop.metainfo.xml"
dfv="$(desktop-file-validate "$desktop_file" 2>&1)" || die "desktop-file-validate: $dfv"
[[ -z "$dfv" ]] || die "desktop-file-validate: $dfv"
log "desktop-file-validate: the desktop entry is valid"
asv="$(appstreamcli validate --no-net "$metainfo" 2>&1)" || die "appstreamcli validate: $asv"
log "appstreamcli validate: $(printf '%s\n' "$asv" | tail -1 | sed 's/^[^A-Za-z]*//')"

# --- 3. a clean root --------------------------------------------------------------------------------
log "installing, running and removing it in a clean Debian 12 root (as root)"
as_root env AILE_DEB_REFRESH="${AILE_DEB_REFRESH:-}" AILE_DEB_KEEP="${AILE_DEB_KEEP:-}" \
    AILE_DEB_MIRROR="${AILE_DEB_MIRROR:-http://deb.debian.org/debian}" \
    bash "$AILE_ROOT/scripts/lib/deb-clean-root.sh" "$deb" "$cache" \
    || die "the package failed in the clean root (see above)"
log "deb test: passed ($(basename "$deb"))"
