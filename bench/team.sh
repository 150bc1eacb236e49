#!/usr/bin/env bash
# bench/team.sh — team mode throughput (docs/team.md): requests per second through one `aile serve`
# and through two behind HAProxy, on SQLite and on PostgreSQL, against the fake upstream.
#
#   bench/team.sh          # ~2 minutes; prints the table and writes results/team-latest.md
#
# Needs build/app/aile and build/tests/aile-fake-upstream (or AILE_BIN, FAKE_UPSTREAM_BIN),
# PostgreSQL 15 and HAProxy from Debian (installed when missing). Knobs: TEAM_CONNS (32),
# TEAM_DURATION (10 s), TEAM_WARMUP (2 s), TEAM_ROUNDS (3).
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH_DIR/.." && pwd)"
WORK="$BENCH_DIR/.work/team"
AILE_BIN="${AILE_BIN:-$ROOT/build/app/aile}"
FAKE_UPSTREAM_BIN="${FAKE_UPSTREAM_BIN:-$ROOT/build/tests/aile-fake-upstream}"
CONNS="${TEAM_CONNS:-32}"
DURATION="${TEAM_DURATION:-10}"
WARMUP="${TEAM_WARMUP:-2}"
ROUNDS="${TEAM_ROUNDS:-3}"
KEY="sk-aile-bench-team-0123456789abcdef"

log() { printf '[team.sh] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

[[ -x "$AILE_BIN" ]] || die "aile binary not found at $AILE_BIN — build first"
[[ -x "$FAKE_UPSTREAM_BIN" ]] || die "fake upstream not found at $FAKE_UPSTREAM_BIN — build the target aile-fake-upstream"
for p in postgresql haproxy libqt6sql6-psql g++; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" && continue
    log "installing $p"
    ${SUDO:-$([[ $(id -u) -eq 0 ]] || echo sudo)} apt-get install -y --no-install-recommends "$p" >/dev/null
done
PGBIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"

rm -rf "$WORK"
mkdir -p "$WORK"
g++ -O2 -std=c++17 -pthread -o "$WORK/loadgen" "$BENCH_DIR/src/loadgen.cpp"

PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
listen_port() { # listen_port LOGFILE → the port its "listening on" line names
    for _ in $(seq 400); do
        local line
        line="$(grep -m1 -o 'listening on [0-9.]*:[0-9]\+' "$1" 2>/dev/null || true)"
        [[ -n "$line" ]] && { printf '%s' "${line##*:}"; return 0; }
        sleep 0.05
    done
    die "no 'listening on' line in $1: $(tail -5 "$1")"
}

# --- PostgreSQL: initdb into the work folder, a Unix socket only (as postgres when we are root) ---
as_pg=()
if [[ $(id -u) -eq 0 ]]; then as_pg=(runuser -u postgres --); chown postgres "$WORK"; fi
"${as_pg[@]}" "$PGBIN/initdb" -D "$WORK/pg" -U aile --auth=trust --no-sync >/dev/null
"${as_pg[@]}" "$PGBIN/postgres" -D "$WORK/pg" -k "$WORK" -p 5432 -c listen_addresses= -c max_connections=100 \
    >"$WORK/postgres.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do [[ -S "$WORK/.s.PGSQL.5432" ]] && break; sleep 0.1; done
pg_url() { printf 'postgresql://aile@localhost/%s?host=%s&port=5432' "$1" "$(python3 -c 'import sys,urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$WORK")"; }

# --- the fake upstream ---
"$FAKE_UPSTREAM_BIN" --port 0 >"$WORK/upstream.log" 2>&1 &
PIDS+=($!)
UPSTREAM_PORT="$(listen_port "$WORK/upstream.log")"
export BENCH_UPSTREAM_KEY=bench-upstream-secret

# One configuration for every instance: one sharer on the fake upstream, one key with a daily spend
# limit far above what a run spends (so every request takes the budget path: on PostgreSQL, a
# reservation in the shared store), Host "aile-team" accepted.
config() { # config STORE_URL_OR_EMPTY PORT FILE
    local store=""
    [[ -n "$1" ]] && store="\"store\": \"$1\","
    cat >"$3" <<EOF
{ $store
  "sharers": [{"handle": "L00000000000be0c1", "name": "bench", "provider": "openai", "baseUrl": "http://127.0.0.1:$UPSTREAM_PORT",
               "credential": "env:BENCH_UPSTREAM_KEY", "models": ["gpt-5.2"], "tested": ["gpt-5.2"], "slots": 4096}],
  "keys": [{"name": "bench", "key": "$KEY", "routing": {"spendLimitUsdPerDay": 1000000}}],
  "settings": {"allowedHosts": ["aile-team"]} }
EOF
}

INSTANCE_PIDS=()
start_instance() { # start_instance NAME ADDRESS PORT STORE
    local dir="$WORK/$1"
    mkdir -p "$dir"
    config "$4" "$3" "$dir/config.json"
    QT_LOGGING_RULES='*.debug=false' "$AILE_BIN" serve --data-dir "$dir/data" --listen "$2:$3" --config "$dir/config.json" \
        >"$dir/out.log" 2>"$dir/err.log" &
    PIDS+=($!)
    INSTANCE_PIDS+=($!)
    listen_port "$dir/out.log" >/dev/null
}
stop_instances() {
    local pid
    for pid in "${INSTANCE_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    INSTANCE_PIDS=()
}

start_haproxy() { # start_haproxy FRONT_PORT BACK_PORT ADDRESS...
    local front="$1" back="$2"; shift 2
    {
        printf 'global\n    maxconn 4096\ndefaults\n    mode http\n    timeout connect 2s\n    timeout client 60s\n    timeout server 60s\n'
        printf '    option http-keep-alive\nfrontend aile\n    bind 127.0.0.1:%s\n    default_backend instances\n' "$front"
        printf 'backend instances\n    balance roundrobin\n    http-request set-header Host aile-team:%s\n' "$back"
        local i=0 a
        for a in "$@"; do printf '    server s%s %s:%s\n' "$i" "$a" "$back"; i=$((i + 1)); done
    } >"$WORK/haproxy.cfg"
    haproxy -db -f "$WORK/haproxy.cfg" >"$WORK/haproxy.log" 2>&1 &
    PIDS+=($!)
    HAPROXY_PID=$!
    for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$front") 2>/dev/null && return 0; sleep 0.05; done
    die "haproxy did not listen: $(cat "$WORK/haproxy.log")"
}

BODY='{"model":"openai/gpt-5.2","messages":[{"role":"user","content":"hi"}],"max_tokens":16}'
measure() { # measure PORT → rps (HAProxy gives the instances the Host they accept)
    "$WORK/loadgen" lat --port "$1" --conns "$CONNS" --duration "$DURATION" --warmup "$WARMUP" \
        --header "Authorization: Bearer $KEY" --header "Content-Type: application/json" \
        --body "$BODY" >"$WORK/lg.json" 2>"$WORK/lg.err" || { log "loadgen failed: $(head -c 300 "$WORK/lg.err")"; echo 0; return; }
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(round(d.get("rps", 0)))' "$WORK/lg.json"
}

# case NAME INSTANCES STORE_KIND: one instance alone (no balancer), or two behind HAProxy.
declare -A RESULTS
run_case() {
    local name="$1" n="$2" kind="$3" round="$4" port store=""
    port="$(free_port)"
    [[ "$kind" == postgresql ]] && { "${as_pg[@]}" "$PGBIN/createdb" -h "$WORK" -p 5432 -U aile "bench_${name//-/_}_$round"; store="$(pg_url "bench_${name//-/_}_$round")"; }
    start_instance "$name-$round-a" 127.0.0.2 "$port" "$store"
    if [[ "$n" == 2 ]]; then
        start_instance "$name-$round-b" 127.0.0.3 "$port" "$store"
        local front; front="$(free_port)"
        start_haproxy "$front" "$port" 127.0.0.2 127.0.0.3
        RESULTS["$name,$round"]="$(measure "$front")"
        kill -TERM "$HAPROXY_PID"; wait "$HAPROXY_PID" 2>/dev/null || true
    else
        # The lone instance behind HAProxy too, so both columns pay the same balancer hop.
        local front; front="$(free_port)"
        start_haproxy "$front" "$port" 127.0.0.2
        RESULTS["$name,$round"]="$(measure "$front")"
        kill -TERM "$HAPROXY_PID"; wait "$HAPROXY_PID" 2>/dev/null || true
    fi
    stop_instances
    log "$name round $round: ${RESULTS["$name,$round"]} rps"
}

CASES=("sqlite-1:1:sqlite" "sqlite-2:2:sqlite" "postgresql-1:1:postgresql" "postgresql-2:2:postgresql")
for round in $(seq "$ROUNDS"); do
    for c in "${CASES[@]}"; do IFS=: read -r name n kind <<<"$c"; run_case "$name" "$n" "$kind" "$round"; done
done

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
{
    echo "Run $(date -u '+%Y-%m-%d %H:%M') UTC, \`bench/team.sh\` at $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'),"
    echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); $CONNS connections, ${DURATION} s per case, median of $ROUNDS rounds."
    echo
    echo "| store | one instance | two instances | two ÷ one |"
    echo "|---|---:|---:|---:|"
    for kind in sqlite postgresql; do
        local_one=(); local_two=()
        for r in $(seq "$ROUNDS"); do local_one+=("${RESULTS["$kind-1,$r"]}"); local_two+=("${RESULTS["$kind-2,$r"]}"); done
        one="$(median "${local_one[@]}")"; two="$(median "${local_two[@]}")"
        ratio="$(python3 -c "print(f'{$two/$one:.2f}' if $one else '—')")"
        label="$kind"; [[ "$kind" == sqlite ]] && label="SQLite (two: each its own file, not shared)"
        [[ "$kind" == postgresql ]] && label="PostgreSQL (shared)"
        echo "| $label | $one rps | $two rps | $ratio |"
    done
} | tee "$BENCH_DIR/results/team-latest.md"
