#!/usr/bin/env bash
# bench/soak.sh — the Aile soak (not in CI; docs/hardening.md, "The soak (bench/soak.sh)").
#
# Builds `aile` (build/, GUI off, unless AILE_BIN points at one), starts bench/src/sse_upstream.py
# and a real `aile serve` on loopback, and runs bench/src/soak.py:
#   1. a real client's p50/p99 alone, then with 500 slowloris connections plus 200 stalled bodies;
#   2. three rounds of 10,000 streams aborted at random points (client side and upstream side; the
#      abort sharer's cut-stream cooldown cleared after each upstream cut), with the engine's open
#      file descriptors and resident memory before and after each round, once idle;
#   3. kill -9 of `aile serve` under load, three times, then the answers read in full against the
#      ledger rows after the restart (missing, doubled).
# Prints the table (and writes it to bench/results/soak-latest.md). About 10 minutes.
#
# Knobs (environment): AILE_BIN (default build/app/aile, built when missing or stale),
# SOAK_SLOWLORIS (500), SOAK_STALLED (200), SOAK_SAMPLES (400 requests per latency run),
# SOAK_STREAMS (10000), SOAK_ROUNDS (3), SOAK_KILLS (3), SOAK_PHASES (slowloris,streams,kills).
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$BENCH_DIR/.." && pwd)"
WORK="$BENCH_DIR/.work/soak-$(date -u +%Y%m%dT%H%M%SZ)"
log() { printf '[soak %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

command -v python3 >/dev/null || die "python3 is needed (apt install python3)"
# The soak opens about 1,000 sockets at once (and the engine as many); raise the soft limit.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
[[ $(ulimit -n) -ge 4096 ]] || die "the open-file limit is $(ulimit -n); the soak needs at least 4096 (ulimit -n)"

if [[ -z "${AILE_BIN:-}" ]]; then
    AILE_BIN="$REPO_DIR/build/app/aile"
    if [[ ! -f "$REPO_DIR/build/CMakeCache.txt" ]]; then
        log "configuring build/ (RelWithDebInfo, GUI off)"
        cmake -S "$REPO_DIR" -B "$REPO_DIR/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAILE_BUILD_GUI=OFF >/dev/null
    fi
    log "building aile (cmake --build build --target aile)"
    cmake --build "$REPO_DIR/build" --target aile >/dev/null || die "the build of aile failed"
fi
[[ -x "$AILE_BIN" ]] || die "no aile binary at $AILE_BIN"

mkdir -p "$WORK"
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT

# The upstream: canned answers, 40-event streams 1-3 ms apart, and streams it cuts itself (/abort/).
python3 "$BENCH_DIR/src/sse_upstream.py" --port 0 --events 40 --min-ms 1 --max-ms 3 >"$WORK/upstream.log" 2>&1 &
PIDS+=($!)
port=""
for _ in $(seq 100); do
    port="$(grep -m1 -o 'listening on 127\.0\.0\.1:[0-9]\+' "$WORK/upstream.log" 2>/dev/null || true)"
    [[ -n "$port" ]] && break
    sleep 0.1
done
[[ -n "$port" ]] || die "the upstream did not start (see $WORK/upstream.log)"
port="${port##*:}"
log "upstream (bench/src/sse_upstream.py) on 127.0.0.1:$port; work folder ${WORK#"$REPO_DIR"/}"

phases="${SOAK_PHASES:-slowloris,streams,kills}"
python3 "$BENCH_DIR/src/soak.py" --aile "$AILE_BIN" --upstream-port "$port" --work "$WORK" \
    --slowloris "${SOAK_SLOWLORIS:-500}" --stalled "${SOAK_STALLED:-200}" --samples "${SOAK_SAMPLES:-400}" \
    --streams "${SOAK_STREAMS:-10000}" --rounds "${SOAK_ROUNDS:-3}" --kills "${SOAK_KILLS:-3}" --phases "$phases" >"$WORK/table.md" &
PIDS+=($!)
wait $! || die "the soak failed (see above and $WORK/)"
table="$(cat "$WORK/table.md")"
rev="$(git -C "$REPO_DIR" rev-parse --short HEAD 2>/dev/null || echo unknown)"
bin_shown="${AILE_BIN#"$REPO_DIR"/}"
[[ "$bin_shown" == /* ]] && bin_shown="AILE_BIN (outside the repository)"
{
    echo "Run $(date -u '+%Y-%m-%d %H:%M UTC') with \`bench/soak.sh\` on $(nproc) CPU(s), repository at $rev, aile from \`$bin_shown\`."
    echo
    echo "$table"
} | tee "$BENCH_DIR/results/soak-latest.md"
