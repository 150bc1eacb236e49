#!/usr/bin/env bash
# bench/run.sh — the Aile benchmark in one command (see bench/README.md).
#
# Side by side on loopback, against the same fake upstreams, in one run:
#   direct   the client calls the upstream itself (the baseline every "added" number subtracts)
#   nginx    nginx as a plain reverse proxy
#   portkey  the Portkey AI gateway (npm @portkey-ai/gateway, pinned in bench/portkey/)
#   aile     the Aile engine: `aile serve` (skipped with a clear line when the binary is missing)
#
# Knobs (environment): AILE_BIN (default build/app/aile), BENCH_PATHS (direct,nginx,portkey,aile),
# BENCH_ROUNDS (3: each timed measurement is repeated, paths interleaved, and the median round reported),
# BENCH_DURATION (s per latency/rps run, 2), BENCH_WARMUP (s, 0.5), BENCH_SSE_DURATION (s, 3),
# BENCH_SSE_CONNS (4), BENCH_SSE_ROUNDS (BENCH_ROUNDS: the SSE phase's rounds alone, the median of
# them reported: its p99 moves more between rounds than the other phases'), BENCH_STREAMS (1000), BENCH_HOLD (s, 10), BENCH_LOADGEN_THREADS (1),
# BENCH_NO_INSTALL=1 (never call apt-get/npm), BENCH_AILE_APP=desktop (the aile path runs the desktop
# app, build/app/aile-desktop or AILE_DESKTOP_BIN, with its window offscreen, instead of `aile serve`;
# a full run writes results/desktop-latest.*).
# BENCH_PROFILE=SECONDS: instead of the table, profile `aile serve` under the c=16 load for that long
# (`perf record --call-graph dwarf` on its pid while loadgen runs) and write the top frames, self and with callees, to
# results/profile-STAMP.txt (the starting point of every hot-path change: docs/performance.md).
# BENCH_CPU=SECONDS: instead of the table, the per-request budget of `aile serve` under the c=16 load:
# CPU µs per completed request by thread (from /proc/PID/task/*/stat), then, in a second shorter run
# under `strace -c -f`, system calls per request by name. CPU per request holds on a busy machine where
# requests per second do not, so it is the figure to compare before and after a change.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$BENCH_DIR/.." && pwd)"
WORK="$BENCH_DIR/.work"
RUN="$WORK/run"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
RAW="$BENCH_DIR/results/raw/$STAMP"
AILE_BIN="${AILE_BIN:-$REPO_DIR/build/app/aile}"
AILE_DESKTOP_BIN="${AILE_DESKTOP_BIN:-$REPO_DIR/build/app/aile-desktop}"
AILE_APP="${BENCH_AILE_APP:-serve}"
if [[ "$AILE_APP" == desktop ]]; then AILE_BIN="$AILE_DESKTOP_BIN"; fi
PATHS="${BENCH_PATHS:-direct,nginx,portkey,aile}"
DURATION="${BENCH_DURATION:-2}"
WARMUP="${BENCH_WARMUP:-0.5}"
SSE_DURATION="${BENCH_SSE_DURATION:-3}"
SSE_CONNS="${BENCH_SSE_CONNS:-4}"
STREAMS="${BENCH_STREAMS:-1000}"
HOLD="${BENCH_HOLD:-10}"
LG_THREADS="${BENCH_LOADGEN_THREADS:-1}"
CPU_CONNS="${BENCH_CPU_CONNS:-16}"
ROUNDS="${BENCH_ROUNDS:-3}"
SSE_ROUNDS="${BENCH_SSE_ROUNDS:-$ROUNDS}"

UPSTREAM_KEY="sk-bench-upstream-0000000000000000"
AILE_KEY="sk-aile-bench-0000000000000000"

log() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
rel() { local p="$1"; printf '%s' "${p#"$REPO_DIR"/}"; }
has_path() { [[ ",$PATHS," == *",$1,"* ]]; }
# rotated ROUND: the four paths, starting one further along each round and in reverse order on
# even rounds, so that no path is always measured first or right after the same neighbour (a
# rotation alone keeps the neighbours: aile came right after portkey in every round)
rotated() {
    local all=(direct nginx portkey aile) i order=()
    for ((i = 0; i < 4; i++)); do order+=("${all[$(((i + $1 - 1) % 4))]}"); done
    if (($1 % 2 == 0)); then
        for ((i = 3; i >= 0; i--)); do printf '%s ' "${order[$i]}"; done
    else
        printf '%s ' "${order[@]}"
    fi
}

# ---------------------------------------------------------------------------------------------
# Installs (idempotent: each step checks first)
# ---------------------------------------------------------------------------------------------
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi

apt_install() { # apt_install PKG... — installs the missing ones, refreshing the lists once if needed
    local missing=()
    for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
    [[ ${#missing[@]} -eq 0 ]] && return 0
    [[ "${BENCH_NO_INSTALL:-}" == 1 ]] && { log "missing packages: ${missing[*]} (BENCH_NO_INSTALL=1)"; exit 1; }
    log "apt-get install ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1 || {
        $SUDO apt-get update >/dev/null
        $SUDO apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
    }
}

install_deps() {
    command -v nginx >/dev/null || apt_install nginx-light
    command -v g++ >/dev/null || apt_install g++
    command -v python3 >/dev/null || apt_install python3
    command -v curl >/dev/null || apt_install curl
    if has_path portkey; then
        command -v node >/dev/null || apt_install nodejs
        command -v npm >/dev/null || apt_install npm
        local want have=""
        want="$(sed -n 's/.*"@portkey-ai\/gateway": *"\([^"]*\)".*/\1/p' "$BENCH_DIR/portkey/package.json")"
        local pj="$BENCH_DIR/portkey/node_modules/@portkey-ai/gateway/package.json"
        [[ -f "$pj" ]] && have="$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$pj" | head -1)"
        if [[ "$have" != "$want" ]]; then
            [[ "${BENCH_NO_INSTALL:-}" == 1 ]] && { log "Portkey not installed (BENCH_NO_INSTALL=1)"; exit 1; }
            log "npm ci @portkey-ai/gateway@$want into bench/portkey/node_modules"
            (cd "$BENCH_DIR/portkey" && npm ci --ignore-scripts --no-audit --no-fund >/dev/null)
        fi
    fi
}

build_loadgen() {
    mkdir -p "$WORK"
    local src="$BENCH_DIR/src/loadgen.cpp" bin="$WORK/loadgen"
    if [[ ! -x "$bin" || "$src" -nt "$bin" || "$BENCH_DIR/src/ResponseReader.h" -nt "$bin" ]]; then
        log "building loadgen (g++ -O2)"
        g++ -O2 -std=c++17 -Wall -Wextra -pthread -o "$bin" "$src"
    fi
    LOADGEN="$bin"
}

# ---------------------------------------------------------------------------------------------
# Processes: every one we start is remembered by pid and stopped by pid
# ---------------------------------------------------------------------------------------------
PIDS=()
stop_pid() {
    local pid="$1"
    kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do stop_pid "$pid"; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
wait_port() { # wait_port PORT PID NAME
    for _ in $(seq 200); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        kill -0 "$2" 2>/dev/null || { log "$3 exited before listening"; return 1; }
        sleep 0.05
    done
    log "$3 did not listen on $1 in 10 s"
    return 1
}
wait_listen_line() { # wait_listen_line LOGFILE PID NAME SECONDS → prints the port
    local i
    for ((i = 0; i < $4 * 20; i++)); do
        local line
        line="$(grep -m1 -o 'listening on 127\.0\.0\.1:[0-9]\+' "$1" 2>/dev/null || true)"
        if [[ -n "$line" ]]; then printf '%s' "${line##*:}"; return 0; fi
        kill -0 "$2" 2>/dev/null || { log "$3 exited before printing its listening line"; return 1; }
        sleep 0.05
    done
    log "$3 printed no 'listening on' line in $4 s"
    return 1
}

CANNED='{"id":"chatcmpl-bench","object":"chat.completion","created":1700000000,"model":"gpt-5.2","choices":[{"index":0,"message":{"role":"assistant","content":"Hello from the bench."},"finish_reason":"stop"}],"usage":{"prompt_tokens":8,"completion_tokens":6,"total_tokens":14}}'

nginx_common() { # nginx_common DIR — the parts both nginx configs share
    cat <<EOF
worker_processes 1;
worker_rlimit_nofile 16384;
error_log $1/logs/error.log warn;
pid $1/nginx.pid;
events { worker_connections 8192; }
EOF
}
nginx_http_common() {
    cat <<EOF
    access_log off;
    client_body_temp_path $1/tmp/body;
    proxy_temp_path $1/tmp/proxy;
    fastcgi_temp_path $1/tmp/fastcgi;
    uwsgi_temp_path $1/tmp/uwsgi;
    scgi_temp_path $1/tmp/scgi;
    keepalive_requests 10000000;
    keepalive_timeout 300s;
EOF
}

start_nginx() { # start_nginx NAME DIR PORT — config already at DIR/nginx.conf
    local name="$1" dir="$2" port="$3"
    nginx -t -q -p "$dir" -c "$dir/nginx.conf" -g 'daemon off;' 2>"$dir/logs/configtest.log" || {
        log "$name: nginx config test failed:"; cat "$dir/logs/configtest.log" >&2; return 1; }
    nginx -p "$dir" -c "$dir/nginx.conf" -g 'daemon off;' >"$dir/logs/stdout.log" 2>&1 &
    local pid=$!
    PIDS+=("$pid")
    wait_port "$port" "$pid" "$name" || return 1
    LAST_PID=$pid
}

start_upstream_nginx() {
    local dir="$RUN/upstream-nginx"
    mkdir -p "$dir/logs" "$dir/tmp"
    UP_PORT="$(free_port)"
    { nginx_common "$dir"; cat <<EOF
http {
$(nginx_http_common "$dir")
    server {
        listen 127.0.0.1:$UP_PORT backlog=4096;
        default_type application/json;
        location / { return 200 '$CANNED'; }
    }
}
EOF
    } >"$dir/nginx.conf"
    start_nginx "upstream nginx" "$dir" "$UP_PORT"
    log "upstream nginx (canned JSON) on 127.0.0.1:$UP_PORT"
}

start_sse_upstream() {
    local logf="$RUN/sse-upstream.log"
    python3 "$BENCH_DIR/src/sse_upstream.py" --port 0 --events 40 --min-ms 5 --max-ms 10 --hold-interval 1 \
        >"$logf" 2>&1 &
    local pid=$!
    PIDS+=("$pid")
    SSE_PORT="$(wait_listen_line "$logf" "$pid" "SSE upstream" 10)"
    log "SSE upstream (python) on 127.0.0.1:$SSE_PORT"
}

start_proxy_nginx() { # sets NGINX_PORT, NGINX_PID
    local dir="$RUN/proxy-nginx-$1"
    mkdir -p "$dir/logs" "$dir/tmp"
    NGINX_PORT="$(free_port)"
    { nginx_common "$dir"; cat <<EOF
http {
$(nginx_http_common "$dir")
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    upstream canned { server 127.0.0.1:$UP_PORT; keepalive 64; keepalive_requests 10000000; }
    upstream sse    { server 127.0.0.1:$SSE_PORT; keepalive 64; keepalive_requests 10000000; }
    server {
        listen 127.0.0.1:$NGINX_PORT backlog=4096;
        location /sse/  { proxy_pass http://sse; proxy_buffering off; }
        location /hold/ { proxy_pass http://sse; proxy_buffering off; proxy_read_timeout 1h; }
        location /      { proxy_pass http://canned; }
    }
}
EOF
    } >"$dir/nginx.conf"
    start_nginx "nginx proxy" "$dir" "$NGINX_PORT" || return 1
    NGINX_PID=$LAST_PID
    log "nginx reverse proxy on 127.0.0.1:$NGINX_PORT (pid $NGINX_PID)"
}

PORTKEY_JS="$BENCH_DIR/portkey/node_modules/@portkey-ai/gateway/build/start-server.js"
start_portkey() { # sets PK_PORT, PK_PID
    PK_PORT="$(free_port)"
    (cd "$RUN" && exec node "$PORTKEY_JS" --headless --port="$PK_PORT") >"$RUN/portkey-$1.log" 2>&1 &
    PK_PID=$!
    PIDS+=("$PK_PID")
    wait_port "$PK_PORT" "$PK_PID" "Portkey" || { tail -5 "$RUN/portkey-$1.log" >&2; return 1; }
    log "Portkey gateway on 127.0.0.1:$PK_PORT (pid $PK_PID)"
}

AILE_MISSING=""
# settle_sse_upstream: waits (at most 10 s) until the SSE upstream sends no stream. A proxy whose
# client has gone may still be draining that run's streams from the upstream (Portkey finishes
# them; nginx and Aile cancel them): that work, and the upstream's, would load the machine during
# the next path's run. Logs how long it waited when it waited at all.
settle_sse_upstream() {
    local i open
    for ((i = 0; i < 200; i++)); do
        open="$(curl -s -m 1 "http://127.0.0.1:$SSE_PORT/open" | sed -n 's/.*"open":\([0-9]*\).*/\1/p')"
        if [[ "$open" == 0 ]]; then
            ((i > 0)) && log "the SSE upstream finished the previous run's streams after $((i * 50)) ms"
            return 0
        fi
        sleep 0.05
    done
    log "the SSE upstream still sends ${open:-?} stream(s) after 10 s: measuring anyway"
}

start_aile() { # start_aile NAME BASEURL — sets AILE_PORT, AILE_PID
    local dir="$RUN/aile-$1"
    mkdir -p "$dir/data"
    cat >"$dir/config.jsonc" <<EOF
// generated by bench/run.sh for one benchmark phase
{
  "adminToken": "bench-admin-token",
  "sharers": [{"handle": "L00000000000000b1", "name": "bench", "provider": "openai",
               "baseUrl": "$2",
               "credential": "env:BENCH_UPSTREAM_KEY", "kind": "api-key",
               "price": {"percentOfList": 100}, "models": ["gpt-5.2"], "tested": ["gpt-5.2"],
               // enough concurrency slots that a slot limit never gates the measurement
               "slots": 4096}],
  "keys": [{"name": "bench", "key": "$AILE_KEY"}]
}
EOF
    local cmd=(env "$AILE_BIN" serve)
    if [[ "$AILE_APP" == desktop ]]; then
        # The desktop app, window offscreen, in a home of its own and with no session bus (no
        # keychain: the sharer's credential comes from the environment); it logs "listening on".
        mkdir -p "$dir/home"
        cmd=(env HOME="$dir/home" XDG_CONFIG_HOME="$dir/home/.config" XDG_DATA_HOME="$dir/home/.local/share"
             XDG_STATE_HOME="$dir/home/.local/state" DBUS_SESSION_BUS_ADDRESS="unix:path=$dir/no-bus" "$AILE_DESKTOP_BIN")
    fi
    BENCH_UPSTREAM_KEY="$UPSTREAM_KEY" QT_QPA_PLATFORM=offscreen \
        "${cmd[@]}" --data-dir "$dir/data" --listen 127.0.0.1:0 --config "$dir/config.jsonc" \
        >"$dir/stdout.log" 2>"$dir/stderr.log" &
    AILE_PID=$!
    PIDS+=("$AILE_PID")
    local listen_log="$dir/stdout.log"
    [[ "$AILE_APP" == desktop ]] && listen_log="$dir/home/.local/state/aile/aile.log"
    AILE_PORT="$(wait_listen_line "$listen_log" "$AILE_PID" "aile" 30)" || {
        tail -5 "$dir/stdout.log" "$dir/stderr.log" >&2 || true
        return 1
    }
    log "aile ($1) on 127.0.0.1:$AILE_PORT (pid $AILE_PID), upstream $2"
}

app_label() { # what the aile path runs, for the headers of BENCH_PROFILE and BENCH_CPU
    if [[ "$AILE_APP" == desktop ]]; then printf 'aile-desktop (window offscreen)'; else printf 'aile serve'; fi
}

aile_build_type() { # the CMAKE_BUILD_TYPE of the build tree that holds AILE_BIN, if there is one
    local d
    d="$(dirname "$AILE_BIN")"
    while [[ "$d" != / && "$d" != . && ! -f "$d/CMakeCache.txt" ]]; do d="$(dirname "$d")"; done
    if [[ -f "$d/CMakeCache.txt" ]]; then
        sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$d/CMakeCache.txt" | head -1
    else
        echo unknown
    fi
}

# ---------------------------------------------------------------------------------------------
# Requests per path. target PATH KIND sets T_PORT, T_PATH, T_HEADERS[], T_BODY (KIND: json|sse|hold)
# ---------------------------------------------------------------------------------------------
target() {
    local path="$1" kind="$2" prefix=""
    [[ "$kind" == sse ]] && prefix="/sse"
    [[ "$kind" == hold ]] && prefix="/hold"
    local stream=""
    [[ "$kind" != json ]] && stream=',"stream":true'
    local model="gpt-5.2"
    T_HEADERS=("Content-Type: application/json")
    case "$path" in
    direct | nginx)
        if [[ "$path" == nginx ]]; then T_PORT="$NGINX_PORT"
        elif [[ "$kind" == json ]]; then T_PORT="$UP_PORT"
        else T_PORT="$SSE_PORT"; fi
        T_PATH="$prefix/v1/chat/completions"
        T_HEADERS+=("Authorization: Bearer $UPSTREAM_KEY")
        ;;
    portkey)
        local up="$UP_PORT"
        [[ "$kind" != json ]] && up="$SSE_PORT"
        T_PORT="$PK_PORT"
        T_PATH="/v1/chat/completions"
        T_HEADERS+=("Authorization: Bearer $UPSTREAM_KEY" "x-portkey-provider: openai"
            "x-portkey-custom-host: http://127.0.0.1:$up$prefix/v1")
        ;;
    aile)
        T_PORT="$AILE_PORT"
        T_PATH="/v1/chat/completions"
        T_HEADERS+=("Authorization: Bearer $AILE_KEY")
        model="openai/gpt-5.2"
        ;;
    esac
    T_BODY="{\"model\":\"$model\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":16$stream}"
}

loadgen() { # loadgen MODE PATH KIND OUTFILE EXTRA...
    local mode="$1" path="$2" kind="$3" out="$4"
    shift 4
    target "$path" "$kind"
    local args=(--port "$T_PORT" --path "$T_PATH" --body "$T_BODY")
    local h
    for h in "${T_HEADERS[@]}"; do args+=(--header "$h"); done
    "$LOADGEN" "$mode" "${args[@]}" "$@" >"$out" 2>"$out.stderr" || {
        log "loadgen $mode $path failed: $(head -c 300 "$out.stderr")"
        printf '{"skipped":"loadgen failed"}\n' >"$out"
    }
}

smoke() { # smoke PATH KIND — one request with curl; prints a reason and fails when it is wrong
    target "$1" "$2"
    local args=(-sS -m 10 -o "$RUN/smoke-$1-$2.body" -w '%{http_code}' -X POST --data "$T_BODY")
    local h
    for h in "${T_HEADERS[@]}"; do args+=(-H "$h"); done
    local code
    code="$(curl "${args[@]}" "http://127.0.0.1:$T_PORT$T_PATH" 2>"$RUN/smoke-$1-$2.err")" || code="curl-failed"
    local want='"choices"'
    [[ "$2" == sse ]] && want='"@'
    if [[ "$code" != 200 ]] || ! grep -q "$want" "$RUN/smoke-$1-$2.body"; then
        SMOKE_REASON="$2 smoke request answered $code: $(head -c 200 "$RUN/smoke-$1-$2.body" | tr '\n' ' ')$(head -c 200 "$RUN/smoke-$1-$2.err")"
        return 1
    fi
}

skip_file() { printf '{"skipped":%s}\n' "$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$2")" >"$1"; }

# ---------------------------------------------------------------------------------------------
start_diagnosis() { # BENCH_PROFILE and BENCH_CPU: the canned upstream and one aile, checked by one request
    [[ -x "$AILE_BIN" ]] || { log "aile binary not found at $(rel "$AILE_BIN") — build first"; exit 1; }
    build_loadgen
    rm -rf "$RUN"
    mkdir -p "$RUN" "$RAW"
    start_upstream_nginx
    start_aile json "http://127.0.0.1:$UP_PORT"
    smoke aile json || { log "aile: $SMOKE_REASON"; exit 1; }
}

profile() { # BENCH_PROFILE=SECONDS: perf's view of aile serve under the c=16 load
    command -v nginx >/dev/null || apt_install nginx-light
    command -v curl >/dev/null || apt_install curl
    command -v perf >/dev/null || apt_install linux-perf
    start_diagnosis
    # perf's data is kept outside the run folder, which the next run of any mode empties: the
    # latest profile's call graphs stay there to read with `perf report -i` after later runs.
    local data="$WORK/profile-latest.data" out="$BENCH_DIR/results/profile-$STAMP.txt"
    log "profiling aile (pid $AILE_PID) for ${BENCH_PROFILE}s at 16 connections"
    perf record --call-graph dwarf,8192 -F 299 -o "$data" -p "$AILE_PID" -- sleep "$((BENCH_PROFILE + 1))" 2>"$RUN/perf.err" &
    local perf_pid=$!
    sleep 0.5
    loadgen lat aile json "$RAW/profile-lat16.json" --conns 16 --threads "$LG_THREADS" \
        --duration "$BENCH_PROFILE" --warmup 0
    wait "$perf_pid" || { log "perf record failed: $(head -c 300 "$RUN/perf.err")"; exit 1; }
    # perf's full reports go to files first: `head` closing a pipe would stop the script (pipefail)
    perf report -i "$data" --no-children --stdio --percent-limit 0.3 -g none --sort comm,dso,symbol \
        >"$RUN/self.txt" 2>/dev/null
    perf report -i "$data" --children --stdio --percent-limit 1 -g none --sort comm,dso,symbol \
        >"$RUN/children.txt" 2>/dev/null
    perf report -i "$data" --no-children --stdio -g none --sort comm >"$RUN/threads.txt" 2>/dev/null
    perf script -i "$data" -F comm,tid,ip,sym 2>/dev/null | python3 "$BENCH_DIR/src/stages.py" >"$RUN/stages.txt"
    frames() { grep -v -e '^$' -e '^#' "$1" | sed -e 's/  */ /g' -e 's/ - - *$//' | awk -v n="$2" 'NR <= n'; }
    {
        echo "# $(app_label) under bench/run.sh's c=16 load for ${BENCH_PROFILE}s ($(aile_build_type) build)"
        echo "# command: BENCH_PROFILE=$BENCH_PROFILE bench/run.sh    loadgen: $(cat "$RAW/profile-lat16.json")"
        echo "# perf data: bench/.work/profile-latest.data (replaced by the next BENCH_PROFILE run)"
        echo "## CPU by thread"
        frames "$RUN/threads.txt" 10
        echo "## CPU by request stage (bench/src/stages.py: the innermost frame that names a stage)"
        cat "$RUN/stages.txt"
        echo "## self: the 50 hottest frames"
        frames "$RUN/self.txt" 50
        echo "## with callees: the 80 hottest frames"
        frames "$RUN/children.txt" 80
    } >"$out"
    log "wrote $(rel "$out")"
    cat "$out"
}

# ---------------------------------------------------------------------------------------------
thread_ticks() { # thread_ticks PID — "name ticks" per thread (utime + stime, in clock ticks)
    local t
    for t in /proc/"$1"/task/*; do
        awk '{ s = $0; sub(/^[^(]*\(/, "", s); name = substr(s, 1, index(s, ")") - 1); gsub(/ /, "_", name)
               sub(/^[^)]*\) /, "", s); split(s, f, " "); print name, f[12] + f[13] }' "$t/stat" 2>/dev/null || true
    done
}

cpu_budget() { # BENCH_CPU=SECONDS: CPU µs and system calls per request of aile serve at c=16
    command -v nginx >/dev/null || apt_install nginx-light
    command -v curl >/dev/null || apt_install curl
    command -v strace >/dev/null || apt_install strace
    start_diagnosis
    loadgen lat aile json "$RAW/cpu-warm.json" --conns "$CPU_CONNS" --duration 1 --warmup 0
    thread_ticks "$AILE_PID" >"$RUN/ticks-before"
    loadgen lat aile json "$RAW/cpu-lat16.json" --conns "$CPU_CONNS" --threads "$LG_THREADS" --duration "$BENCH_CPU" --warmup 0
    thread_ticks "$AILE_PID" >"$RUN/ticks-after"
    local done_n hz out="$BENCH_DIR/results/cpu-$STAMP.txt"
    done_n="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["completed"])' "$RAW/cpu-lat16.json")"
    hz="$(getconf CLK_TCK)"
    local sdur=$(( BENCH_CPU > 3 ? 3 : BENCH_CPU ))
    strace -c -f -o "$RUN/strace.txt" -p "$AILE_PID" 2>"$RUN/strace.err" &
    local strace_pid=$!
    sleep 0.5
    loadgen lat aile json "$RAW/cpu-strace.json" --conns "$CPU_CONNS" --duration "$sdur" --warmup 0
    kill -INT "$strace_pid" 2>/dev/null || true
    wait "$strace_pid" 2>/dev/null || true
    python3 - "$RUN/ticks-before" "$RUN/ticks-after" "$done_n" "$hz" "$RAW/cpu-lat16.json" \
        "$RUN/strace.txt" "$RAW/cpu-strace.json" "$(aile_build_type)" "$BENCH_CPU" "$(app_label)" >"$out" <<'PY'
import json, sys, collections
before, after, n, hz, lat, strace, slat, btype, secs, label = sys.argv[1:]
prefix = "BENCH_AILE_APP=desktop " if label.startswith("aile-desktop") else ""
n, hz = int(n), int(hz)
def ticks(p):
    d = collections.Counter()
    for line in open(p):
        name, t = line.rsplit(" ", 1)
        d[name] += int(t)
    return d
b, a = ticks(before), ticks(after)
l = json.load(open(lat))
conns = l.get("conns", 16)
if conns != 16: prefix += f"BENCH_CPU_CONNS={conns} "
print(f"# {label} under bench/run.sh's c={conns} load for {secs}s ({btype} build); command: {prefix}BENCH_CPU={secs} bench/run.sh")
print(f"# {n} requests completed, {l['rps']:.0f} per second; latency p50 {l['p50_us']:.0f}, p90 {l['p90_us']:.0f}, "
      f"p99 {l['p99_us']:.0f}, p99.9 {l['p999_us']:.0f} µs; non-2xx {l['non2xx']}")
print("## CPU µs per request, by thread")
tot = 0.0
for name in sorted(a, key=lambda k: -(a[k] - b.get(k, 0))):
    us = (a[name] - b.get(name, 0)) * 1e6 / hz / max(n, 1)
    tot += us
    if us >= 0.05: print(f"{name:20s} {us:8.1f}")
print(f"{'all threads':20s} {tot:8.1f}")
sn = json.load(open(slat)).get("completed", 0)
print(f"## system calls per request (a second run of {sn} requests under strace -c -f, which slows it)")
rows = []
for line in open(strace):
    f = line.split()
    if len(f) >= 5 and f[0][0].isdigit() and f[-1] != "total":
        calls = int(f[3]); rows.append((calls, f[-1]))
for calls, name in sorted(rows, reverse=True):
    if sn and calls / sn >= 0.05: print(f"{name:20s} {calls / sn:8.2f}")
if sn: print(f"{'all':20s} {sum(c for c, _ in rows) / sn:8.2f}")
PY
    log "wrote $(rel "$out")"
    cat "$out"
}

main() {
    [[ -n "${BENCH_PROFILE:-}" ]] && { profile; return; }
    [[ -n "${BENCH_CPU:-}" ]] && { cpu_budget; return; }
    ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
    if [[ $(ulimit -n) -lt 5000 ]]; then log "open-file limit $(ulimit -n) is too low for $STREAMS streams"; fi
    install_deps
    build_loadgen
    rm -rf "$RUN"
    mkdir -p "$RUN" "$RAW"
    log "raw results in $(rel "$RAW")"

    start_upstream_nginx
    start_sse_upstream

    declare -gA SKIP=()
    local p
    for p in direct nginx portkey aile; do has_path "$p" || SKIP[$p]="not in BENCH_PATHS"; done
    if [[ ! -x "$AILE_BIN" && -z "${SKIP[aile]:-}" ]]; then
        AILE_MISSING="aile binary not found at $(rel "$AILE_BIN") — build first"
        SKIP[aile]="$AILE_MISSING"
        log "$AILE_MISSING"
    fi

    # --- phases 1-3: one long-lived instance per proxy (Aile needs one per upstream) ----------
    [[ -z "${SKIP[nginx]:-}" ]] && { start_proxy_nginx main || SKIP[nginx]="nginx proxy did not start"; }
    [[ -z "${SKIP[portkey]:-}" ]] && { start_portkey main || SKIP[portkey]="Portkey did not start"; }
    if [[ -z "${SKIP[aile]:-}" ]]; then
        start_aile json "http://127.0.0.1:$UP_PORT" || SKIP[aile]="aile serve did not start (see $(rel "$RUN")/aile-json/)"
    fi
    for p in direct nginx portkey aile; do
        [[ -n "${SKIP[$p]:-}" ]] && continue
        smoke "$p" json || { SKIP[$p]="$SMOKE_REASON"; log "$p: $SMOKE_REASON"; }
    done

    local phase conns
    local phase conns round
    for phase in lat1:1 lat32:32 lat16:16; do
        conns="${phase#*:}"
        phase="${phase%%:*}"
        for ((round = 1; round <= ROUNDS; round++)); do
            for p in $(rotated "$round"); do
                local out="$RAW/$phase-$p-r$round.json"
                if [[ -n "${SKIP[$p]:-}" ]]; then skip_file "$out" "${SKIP[$p]}"; continue; fi
                log "$phase round $round/$ROUNDS: $p, $conns connection(s), ${DURATION}s"
                loadgen lat "$p" json "$out" --conns "$conns" --threads "$LG_THREADS" \
                    --duration "$DURATION" --warmup "$WARMUP"
            done
        done
    done

    # --- phase 3: SSE per-event delay --------------------------------------------------------
    declare -A SSE_SKIP=()
    for p in direct nginx portkey aile; do SSE_SKIP[$p]="${SKIP[$p]:-}"; done
    if [[ -z "${SSE_SKIP[aile]}" ]]; then
        stop_pid "$AILE_PID"
        start_aile sse "http://127.0.0.1:$SSE_PORT/sse" || SSE_SKIP[aile]="aile serve did not start (see $(rel "$RUN")/aile-sse/)"
    fi
    for p in direct nginx portkey aile; do
        [[ -z "${SSE_SKIP[$p]}" ]] && { smoke "$p" sse || { SSE_SKIP[$p]="$SMOKE_REASON"; log "$p: $SMOKE_REASON"; }; }
    done
    for ((round = 1; round <= SSE_ROUNDS; round++)); do
        for p in $(rotated "$round"); do
            local out="$RAW/sse-$p-r$round.json"
            if [[ -n "${SSE_SKIP[$p]}" ]]; then skip_file "$out" "${SSE_SKIP[$p]}"; continue; fi
            settle_sse_upstream
            log "sse round $round/$SSE_ROUNDS: $p, $SSE_CONNS streams at a time, ${SSE_DURATION}s"
            loadgen sse "$p" sse "$out" --conns "$SSE_CONNS" --duration "$SSE_DURATION" --warmup "$WARMUP" \
                --dump "$RAW/sse-$p-r$round.samples"
        done
    done

    # --- phase 4: memory with many open streams, each proxy fresh and alone -------------------
    [[ -z "${SKIP[aile]:-}" ]] && stop_pid "$AILE_PID"
    [[ -z "${SKIP[portkey]:-}" ]] && stop_pid "$PK_PID"
    [[ -z "${SKIP[nginx]:-}" ]] && stop_pid "$NGINX_PID"
    skip_file "$RAW/hold-direct.json" "no proxy process on this path"
    for p in nginx portkey aile; do
        local out="$RAW/hold-$p.json" pids=""
        if [[ -n "${SKIP[$p]:-}" ]]; then skip_file "$out" "${SKIP[$p]}"; continue; fi
        case "$p" in
        nginx)
            start_proxy_nginx hold || { skip_file "$out" "nginx proxy did not start"; continue; }
            local workers=""
            for _ in $(seq 100); do
                workers="$(ps -o pid= --ppid "$NGINX_PID" | tr -d ' ' | paste -sd, || true)"
                [[ -n "$workers" ]] && break
                sleep 0.05
            done
            pids="$NGINX_PID${workers:+,$workers}"
            ;;
        portkey)
            start_portkey hold || { skip_file "$out" "Portkey did not start"; continue; }
            pids="$PK_PID"
            ;;
        aile)
            start_aile hold "http://127.0.0.1:$SSE_PORT/hold" || { skip_file "$out" "aile serve did not start"; continue; }
            pids="$AILE_PID"
            ;;
        esac
        log "hold: $p, $STREAMS streams for ${HOLD}s (pids $pids)"
        # From 4 loopback addresses: the engine caps one peer at 256 connections (docs/hardening.md),
        # and a memory figure needs all the streams open; every path gets the same.
        loadgen hold "$p" hold "$out" --conns "$STREAMS" --hold "$HOLD" --ramp 100 --ramp-timeout 60 --pids "$pids" --sources 4
        case "$p" in nginx) stop_pid "$NGINX_PID" ;; portkey) stop_pid "$PK_PID" ;; aile) stop_pid "$AILE_PID" ;; esac
    done

    # --- report: a full run replaces results/latest.*, a partial one stays in its raw folder ----
    local out_md="$BENCH_DIR/results/latest.md" out_json="$BENCH_DIR/results/latest.json"
    local readme=("$BENCH_DIR/README.md")
    # A partial run keeps its table in its raw folder; a full run of the desktop app replaces
    # results/desktop-latest.*: README.md's table is the full run of `aile serve`.
    if [[ "$PATHS" != "direct,nginx,portkey,aile" ]]; then
        out_md="$RAW/report.md"
        out_json="$RAW/report.json"
        readme=()
    elif [[ "$AILE_APP" == desktop ]]; then
        out_md="$BENCH_DIR/results/desktop-latest.md"
        out_json="$BENCH_DIR/results/desktop-latest.json"
        readme=()
    fi
    local aile_rev
    aile_rev="$(git -C "$REPO_DIR" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    BENCH_NGINX_VERSION="$(nginx -v 2>&1 | sed 's/.*nginx\///')" \
    BENCH_NODE_VERSION="$(node --version 2>/dev/null || echo none)" \
    BENCH_PORTKEY_VERSION="$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' \
        "$BENCH_DIR/portkey/node_modules/@portkey-ai/gateway/package.json" 2>/dev/null | head -1)" \
    BENCH_PYTHON_VERSION="$(python3 --version 2>&1 | cut -d' ' -f2)" \
    BENCH_AILE_REV="$aile_rev" BENCH_AILE_BIN="$(rel "$AILE_BIN")" \
    BENCH_SETTINGS="rounds=$ROUNDS duration=${DURATION}s warmup=${WARMUP}s sse=${SSE_CONNS}x${SSE_DURATION}s sse-rounds=${SSE_ROUNDS} streams=$STREAMS hold=${HOLD}s loadgen-threads=$LG_THREADS" \
    BENCH_AILE_BUILD="$(aile_build_type)" \
        python3 "$BENCH_DIR/src/report.py" "$RAW" "$out_md" "$out_json" "${readme[@]}"
}

main "$@"
