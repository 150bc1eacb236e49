#!/usr/bin/env bash
# bench/sse_alone.sh — the SSE phase of bench/run.sh alone, on one `aile serve`, for profiling the
# relay of an event (docs/performance.md "Change 14 (SSE)"): the SSE upstream (src/sse_upstream.py,
# 40 events 5–10 ms apart), `aile serve` on port 0 in a fresh data folder, and `loadgen sse` with 4
# streams for SSE_SECONDS; prints loadgen's JSON summary (p50/p90/p99 per event, µs).
#
# Knobs (environment): SSE_SECONDS (10), AILE_BIN (build/app/aile), AILE_WRAP (a command put in
# front of aile, e.g. "valgrind --tool=callgrind --callgrind-out-file=/tmp/sse.cg"),
# SSE_DIRECT=1 (the client calls the upstream itself: the baseline), SSE_APP=desktop (the desktop
# app, AILE_DESKTOP_BIN or build/app/aile-desktop, window offscreen, in place of `aile serve`), and
# ON_READY (a command run in the background once aile listens, with $AILE_PID set, e.g.
# 'perf stat -p $AILE_PID -o x').
# Every other AILE_* variable reaches aile (AILE_EVENT_LOOP=qt, AILE_STORE_WRITER_PRIORITY=...).
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$BENCH_DIR/.." && pwd)"
AILE_BIN="${AILE_BIN:-$REPO_DIR/build/app/aile}"
SECONDS_RUN="${SSE_SECONDS:-10}"
WORK="$(mktemp -d)"
LOADGEN="$BENCH_DIR/.work/loadgen"
PIDS=()
cleanup() {
    local p
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

if [[ ! -x "$LOADGEN" || "$BENCH_DIR/src/loadgen.cpp" -nt "$LOADGEN" ]]; then
    mkdir -p "$BENCH_DIR/.work"
    g++ -O2 -std=c++17 -Wall -Wextra -pthread -o "$LOADGEN" "$BENCH_DIR/src/loadgen.cpp"
fi

port_of() { # port_of LOGFILE PID — the port of its "listening on 127.0.0.1:N" line
    local i line
    for ((i = 0; i < 600; i++)); do
        line="$(grep -m1 -o 'listening on 127\.0\.0\.1:[0-9]\+' "$1" 2>/dev/null || true)"
        if [[ -n "$line" ]]; then printf '%s' "${line##*:}"; return 0; fi
        kill -0 "$2" 2>/dev/null || { echo "sse_alone: $1: the process exited" >&2; cat "$1" >&2; return 1; }
        sleep 0.05
    done
    echo "sse_alone: no listening line in $1" >&2
    return 1
}

python3 "$BENCH_DIR/src/sse_upstream.py" --port 0 --events 40 --min-ms 5 --max-ms 10 >"$WORK/upstream.log" 2>&1 &
PIDS+=($!)
UP_PORT="$(port_of "$WORK/upstream.log" "${PIDS[-1]}")"

body='{"model":"openai/gpt-5.2","messages":[{"role":"user","content":"hi"}],"max_tokens":16,"stream":true}'
if [[ "${SSE_DIRECT:-}" == 1 ]]; then
    args=(--port "$UP_PORT" --path /sse/v1/chat/completions --header "Authorization: Bearer sk-bench-upstream")
    body="${body/openai\//}"
else
    mkdir -p "$WORK/data"
    cat >"$WORK/config.jsonc" <<EOF
{
  "adminToken": "bench-admin-token",
  "sharers": [{"handle": "L00000000000000b1", "name": "bench", "provider": "openai",
               "baseUrl": "http://127.0.0.1:$UP_PORT/sse", "credential": "env:BENCH_UPSTREAM_KEY",
               "kind": "api-key", "price": {"percentOfList": 100}, "models": ["gpt-5.2"],
               "tested": ["gpt-5.2"], "slots": 4096}],
  "keys": [{"name": "bench", "key": "sk-aile-bench-0000000000000000"}]
}
EOF
    read -r -a wrap <<<"${AILE_WRAP:-}"
    cmd=("$AILE_BIN" serve)
    log="$WORK/aile.out"
    if [[ "${SSE_APP:-serve}" == desktop ]]; then
        # As bench/run.sh's BENCH_AILE_APP=desktop: the window offscreen, a home of its own, no
        # session bus (the credential comes from the environment); it logs to its state folder.
        mkdir -p "$WORK/home"
        cmd=(env QT_QPA_PLATFORM=offscreen HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/.config"
             XDG_DATA_HOME="$WORK/home/.local/share" XDG_STATE_HOME="$WORK/home/.local/state"
             DBUS_SESSION_BUS_ADDRESS="unix:path=$WORK/no-bus" "${AILE_DESKTOP_BIN:-$REPO_DIR/build/app/aile-desktop}")
        log="$WORK/home/.local/state/aile/aile.log"
    fi
    BENCH_UPSTREAM_KEY=sk-bench-upstream "${wrap[@]}" "${cmd[@]}" --data-dir "$WORK/data" --listen 127.0.0.1:0 \
        --config "$WORK/config.jsonc" >"$WORK/aile.out" 2>&1 &
    AILE_PID=$!
    PIDS+=("$AILE_PID")
    AILE_PORT="$(port_of "$log" "$AILE_PID")"
    args=(--port "$AILE_PORT" --path /v1/chat/completions --header "Authorization: Bearer sk-aile-bench-0000000000000000")
    if [[ -n "${ON_READY:-}" ]]; then
        export AILE_PID
        bash -c "$ON_READY" &
        PIDS+=($!)
    fi
fi
"$LOADGEN" sse "${args[@]}" --header "Content-Type: application/json" --body "$body" \
    --conns 4 --duration "$SECONDS_RUN" --warmup 0.5
