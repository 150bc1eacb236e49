# scripts/lib/deb-clean-root.sh DEB CACHE_DIR — run as root by scripts/test-deb.sh.
# Unpacks a cached minimal bookworm (made with debootstrap the first time) into a new directory and
# runs scripts/lib/deb-in-root.sh inside it with chroot, phase by phase:
#   install  (network: Debian's mirror)  apt install the package
#   run      (own network namespace)     the programs and the installed files
#   remove                               apt remove, and the package's files gone
# Every mount is made in a private mount namespace (unshare --mount), so none outlives this script.
set -euo pipefail
AILE_SCRIPT=test-deb
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

deb="$1"
cache="$2"
mirror="${AILE_DEB_MIRROR:-http://deb.debian.org/debian}"
[[ $(id -u) -eq 0 ]] || die "deb-clean-root.sh runs as root"
[[ -f "$deb" ]] || die "no package at $deb"

# --- the base system, once -------------------------------------------------------------------------
base="$cache/bookworm-minbase.tar"
if [[ ! -s "$base" || "${AILE_DEB_REFRESH:-}" == 1 ]]; then
    mkdir -p "$cache"
    staging="$(mktemp -d "$cache/debootstrap.XXXXXX")"
    log "debootstrap --variant=minbase bookworm (once; kept as $base)"
    if ! debootstrap --variant=minbase bookworm "$staging/root" "$mirror" >"$staging/debootstrap.log" 2>&1; then
        tail -20 "$staging/debootstrap.log" >&2
        rm -rf "$staging"
        die "debootstrap failed (its log's end is above)"
    fi
    tar -C "$staging/root" -cf "$base.part" . && mv "$base.part" "$base"
    rm -rf "$staging"
fi

# --- a fresh root from it ------------------------------------------------------------------------
root="$(mktemp -d "${TMPDIR:-/var/tmp}/aile-deb-root.XXXXXX")"
cleanup() {
    if [[ "${AILE_DEB_KEEP:-}" == 1 ]]; then
        log "kept the clean root at $root (AILE_DEB_KEEP=1)"
    else
        rm -rf "$root"
    fi
}
trap cleanup EXIT
tar -C "$root" -xpf "$base"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
# No service is started inside a chroot.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"
cp "$deb" "$root/tmp/"
cp "$(dirname "${BASH_SOURCE[0]}")/deb-in-root.sh" "$root/tmp/deb-in-root.sh"
pkg="/tmp/$(basename "$deb")"

# in_root [--net] PHASE: runs the phase in the root; --net gives it a network namespace of its own
# (loopback only), so that the engine's ports never meet the host's.
in_root() {
    local unshare_args=(--mount --fork) net=0
    if [[ "$1" == --net ]]; then
        unshare_args+=(--net)
        net=1
        shift
    fi
    unshare "${unshare_args[@]}" bash -c '
        set -e
        root="$1" net="$2"; shift 2
        if [[ "$net" == 1 ]]; then ip link set lo up; fi
        mount -t proc proc "$root/proc"
        exec chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
            bash /tmp/deb-in-root.sh "$@"
    ' in_root "$root" "$net" "$@"
}

in_root install "$pkg"
in_root --net run
in_root remove
