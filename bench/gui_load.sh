#!/usr/bin/env bash
# bench/gui_load.sh — the desktop app under load (issue 15): the GUI (main) thread's CPU and the
# proxy throughput of aile-desktop (offscreen) beside aile serve, both on a new data folder whose
# store holds 100,000 traces, both under ~2,000 requests per second from bench/src/loadgen against
# a canned nginx upstream (the bench's fake upstream). Prints the driver's JSON; see bench/README.md.
#
# Knobs (environment): AILE_BIN (build/app/aile), AILE_DESKTOP_BIN (build/app/aile-desktop),
# GUI_LOAD_RATE (2000), GUI_LOAD_CONNS (32), GUI_LOAD_DURATION (20 s), GUI_LOAD_TRACES (100000),
# GUI_LOAD_ONLY (serve,desktop), GUI_LOAD_ROUNDS (3; the two alternate, medians reported),
# GUI_LOAD_KEEP=1 (keep the work folder: the stores and each app's log).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
AILE_BIN="${AILE_BIN:-$ROOT/build/app/aile}"
AILE_DESKTOP_BIN="${AILE_DESKTOP_BIN:-$ROOT/build/app/aile-desktop}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/aile-gui-load.XXXXXX")"
log() { echo "gui_load: $*" >&2; }

for bin in "$AILE_BIN" "$AILE_DESKTOP_BIN"; do
    [[ -x "$bin" ]] || { log "$bin not found: build first (cmake -DAILE_BUILD_GUI=ON, ninja aile aile-desktop)"; exit 2; }
done
command -v nginx >/dev/null || { log "nginx is needed for the upstream (apt-get install nginx-light)"; exit 2; }

g++ -O2 -std=c++17 -o "$WORK/loadgen" "$HERE/src/loadgen.cpp" -lpthread

# The upstream: nginx answering every request with a canned chat completion, as bench/run.sh does.
UP_PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
mkdir -p "$WORK/upstream/logs"
CANNED='{"id":"chatcmpl-bench","object":"chat.completion","created":1,"model":"gpt-5.2","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":1,"total_tokens":10}}'
cat >"$WORK/upstream/nginx.conf" <<CONF
worker_processes 1;
error_log $WORK/upstream/logs/error.log warn;
pid $WORK/upstream/nginx.pid;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $WORK/upstream/body;
    keepalive_requests 1000000;
    server {
        listen 127.0.0.1:$UP_PORT;
        default_type application/json;
        location / { return 200 '$CANNED'; }
    }
}
CONF
nginx -p "$WORK/upstream" -c "$WORK/upstream/nginx.conf" -g 'daemon off;' >"$WORK/upstream/logs/stdout.log" 2>&1 &
UP_PID=$!
# The work folder holds a store of GUI_LOAD_TRACES traces per app and round (~100 MB each at the
# default): gone at exit unless GUI_LOAD_KEEP=1 (then its path is in the log above).
trap 'kill $UP_PID 2>/dev/null || true; wait $UP_PID 2>/dev/null || true; [[ "${GUI_LOAD_KEEP:-}" == 1 ]] || rm -rf "$WORK"' EXIT
sleep 0.5
log "upstream nginx on 127.0.0.1:$UP_PORT; work folder $WORK"

python3 "$HERE/src/gui_load.py" --aile "$AILE_BIN" --desktop "$AILE_DESKTOP_BIN" --loadgen "$WORK/loadgen" \
    --upstream-port "$UP_PORT" --work "$WORK" --rate "${GUI_LOAD_RATE:-2000}" --conns "${GUI_LOAD_CONNS:-32}" \
    --duration "${GUI_LOAD_DURATION:-20}" --traces "${GUI_LOAD_TRACES:-100000}" --only "${GUI_LOAD_ONLY:-serve,desktop}" \
    --rounds "${GUI_LOAD_ROUNDS:-3}"
