#!/usr/bin/env python3
"""gui_load.py — the desktop app under load, beside `aile serve` (driven by bench/gui_load.sh).

For each of `aile serve` and `aile-desktop` (offscreen): a new data folder whose store holds
--traces traces (written in the engine's own schema after the engine created it), the engine
started on it, then loadgen paced at --rate requests per second for --duration seconds. While the
load runs it reads, from /proc, the CPU time of the process's main thread (the GUI thread of the
desktop app; /proc/PID/task/PID/stat) and of the whole process, the process's resident memory at
the end of the measured run (VmRSS and RssAnon), and the proxy throughput loadgen saw.
Prints one JSON object.
"""
import argparse
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request

TICK = os.sysconf("SC_CLK_TCK")
SCHEMA = 9  # the store's PRAGMA user_version this prefill writes for


def log(*a):
    print("gui_load:", *a, file=sys.stderr, flush=True)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def cpu_ticks(pid, tid=None):
    """utime + stime of a thread (or of the whole process), in clock ticks."""
    path = f"/proc/{pid}/task/{tid}/stat" if tid else f"/proc/{pid}/stat"
    with open(path) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # fields 14 and 15 of stat(5)


def thread_ticks(pid):
    """{thread name: ticks} of every thread of the process (threads of one name summed)."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                name = f.read().strip()
            if int(tid) == pid:
                name = "main"
            out[name] = out.get(name, 0) + cpu_ticks(pid, tid)
        except OSError:
            pass
    return out


def resident_mb(pid):
    """VmRSS and RssAnon (the process's own memory, without mapped files) in MB (10^6 bytes)."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "RssAnon"):
                out[name] = int(value.split()[0]) * 1024 / 1e6
    return out


def wait_listening(port, key, proc, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"exited with {proc.returncode} before listening")
        try:
            req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/models", headers={"Authorization": f"Bearer {key}"})
            with urllib.request.urlopen(req, timeout=2) as r:
                if r.status == 200:
                    return
        except Exception:
            pass
        time.sleep(0.2)
    raise RuntimeError("not listening in time")


def prefill(db, count, now_ms):
    """count traces (and their ledger rows) spread over the last 26 hours, newest last."""
    con = sqlite3.connect(db)
    version = con.execute("PRAGMA user_version").fetchone()[0]
    if version != SCHEMA:
        raise RuntimeError(f"the store is at schema {version}; this prefill writes schema {SCHEMA}: update bench/src/gui_load.py")
    rnd = random.Random(7)
    span = 26 * 3600 * 1000
    traces, ledger = [], []
    for i in range(count):
        started = now_ms - span + (span * i) // count
        ok = rnd.random() > 0.05
        tid = f"req_prefill_{i:07d}"
        attempts = json.dumps([{"seq": 1, "sharer": "L00000000000be7c1", "sharerName": "bench", "provider": "openai",
                                "model": "gpt-5.2", "status": 200 if ok else 429, "outcome": "served" if ok else "failed",
                                "startedMs": started, "ttfbMs": 120, "durationMs": 300, "dispatched": True}])
        cost = 0.00002
        day = time.strftime("%Y-%m-%d", time.gmtime(started / 1000))
        traces.append((tid, started, "k_bench", "bench", "openai-sdk", "/v1/chat/completions", "openai/gpt-5.2", "openai/gpt-5.2",
                       None, "L00000000000be7c1", "bench", 200 if ok else 429, 1, 100 + i % 200, 300, 12, 16, cost, 0.0,
                       "fresh", 0, None if ok else "rate limited", attempts, None, None))
        ledger.append((tid, started, day, "k_bench", None, "openai/gpt-5.2", "L00000000000be7c1", cost, 0.0))
    with con:
        con.executemany("INSERT INTO traces(id, started_ms, key_id, key_name, client, endpoint, model_asked, model_served, route,"
                        " sharer, sharer_name, status, attempts, ttfb_ms, duration_ms, input_tokens, output_tokens, cost_usd,"
                        " absorbed_usd, affinity, stream, error, attempts_json, affinity_pin, ordered_by)"
                        " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", traces)
        con.executemany("INSERT INTO ledger(trace_id, at_ms, day, key_id, route, target, sharer, cost_usd, absorbed_usd)"
                        " VALUES(?,?,?,?,?,?,?,?,?)", ledger)
    n = con.execute("SELECT COUNT(*) FROM traces").fetchone()[0]
    con.close()
    return n


def stop(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def run_one(kind, a, work):
    folder = os.path.join(work, kind)
    data = os.path.join(folder, "data")
    os.makedirs(data, exist_ok=True)
    port = free_port()
    config = os.path.join(folder, "config.json")
    key = "sk-aile-bench-0123456789abcdef0123456789abcd"
    with open(config, "w") as f:
        json.dump({"adminToken": "env:BENCH_ADMIN_TOKEN",
                   "sharers": [{"handle": "L00000000000be7c1", "name": "bench", "provider": "openai",
                                "baseUrl": f"http://127.0.0.1:{a.upstream_port}", "credential": "env:BENCH_UPSTREAM_KEY",
                                "models": ["gpt-5.2"], "tested": ["gpt-5.2"], "slots": 4096}],
                   "keys": [{"name": "bench", "key": key}]}, f)
    env = dict(os.environ, BENCH_UPSTREAM_KEY="bench-upstream", BENCH_ADMIN_TOKEN="bench-admin",
               HOME=os.path.join(folder, "home"), XDG_CONFIG_HOME=os.path.join(folder, "config"),
               XDG_DATA_HOME=os.path.join(folder, "xdg-data"), XDG_STATE_HOME=os.path.join(folder, "state"),
               QT_QPA_PLATFORM="offscreen", DBUS_SESSION_BUS_ADDRESS="unix:path=/nonexistent/aile-bench-no-bus")
    args = ["--data-dir", data, "--listen", f"127.0.0.1:{port}", "--config", config]

    # The engine makes the store (its schema, the key, the sharer); then the history goes in.
    first = subprocess.Popen([a.aile, "serve"] + args, env=env, stdout=subprocess.DEVNULL, stderr=open(os.path.join(folder, "first.log"), "w"))
    wait_listening(port, key, first)
    stop(first)
    stored = prefill(os.path.join(data, "aile.db"), a.traces, int(time.time() * 1000))
    log(f"{kind}: {stored} traces in the store")

    cmd = [a.aile, "serve"] + args if kind == "serve" else [a.desktop] + args
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=open(os.path.join(folder, "run.log"), "w"))
    try:
        wait_listening(port, key, proc)
        time.sleep(a.settle)   # the window's first page, counts and charts read before the load
        body = json.dumps({"model": "openai/gpt-5.2", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 16})
        lg = subprocess.Popen([a.loadgen, "lat", "--port", str(port), "--conns", str(a.conns), "--rate", str(a.rate),
                               "--warmup", str(a.warmup), "--duration", str(a.duration), "--body", body,
                               "--header", "Content-Type: application/json", "--header", f"Authorization: Bearer {key}"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(a.warmup)
        t0, main0, all0, threads0 = time.time(), cpu_ticks(proc.pid, proc.pid), cpu_ticks(proc.pid), thread_ticks(proc.pid)
        time.sleep(a.duration)
        t1, main1, all1, threads1 = time.time(), cpu_ticks(proc.pid, proc.pid), cpu_ticks(proc.pid), thread_ticks(proc.pid)
        memory = resident_mb(proc.pid)  # still under load: the window holds its live rows
        out, err = lg.communicate(timeout=a.duration + 60)
        result = json.loads(out) if out.strip() else {"error": err.strip()}
        seconds = t1 - t0
        return {"kind": kind, "stored_traces": stored,
                "rps": result.get("rps", 0),
                "non2xx": result.get("non2xx"), "conn_errors": result.get("conn_errors"),
                "p50_us": result.get("p50_us"), "p99_us": result.get("p99_us"),
                "main_thread_cpu_pct": 100.0 * (main1 - main0) / TICK / seconds,
                "process_cpu_pct": 100.0 * (all1 - all0) / TICK / seconds,
                "rss_mb": round(memory.get("VmRSS", 0), 1), "rss_anon_mb": round(memory.get("RssAnon", 0), 1),
                "threads_cpu_pct": {name: round(100.0 * (threads1[name] - threads0.get(name, 0)) / TICK / seconds, 1)
                                    for name in threads1 if threads1[name] - threads0.get(name, 0) > 0},
                "loadavg": os.getloadavg()[0]}
    finally:
        stop(proc)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--aile", required=True)
    p.add_argument("--desktop", required=True)
    p.add_argument("--loadgen", required=True)
    p.add_argument("--upstream-port", type=int, required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--rate", type=float, default=2000)
    p.add_argument("--conns", type=int, default=32)
    p.add_argument("--traces", type=int, default=100000)
    p.add_argument("--warmup", type=float, default=3)
    p.add_argument("--duration", type=float, default=20)
    p.add_argument("--settle", type=float, default=5)
    p.add_argument("--only", default="serve,desktop")
    p.add_argument("--rounds", type=int, default=1)
    a = p.parse_args()
    results = []
    # Rounds alternate the two, so a change in the machine's other load falls on both.
    for r in range(a.rounds):
        for kind in a.only.split(","):
            results.append(dict(run_one(kind, a, os.path.join(a.work, f"round{r}")), round=r))
            log(json.dumps(results[-1]))
    summary = {}
    for kind in a.only.split(","):
        mine = [x for x in results if x["kind"] == kind]
        summary[kind] = {k: sorted(x[k] for x in mine)[len(mine) // 2] for k in ("rps", "main_thread_cpu_pct", "process_cpu_pct", "rss_mb", "rss_anon_mb")}
    load = os.getloadavg()
    print(json.dumps({"rate": a.rate, "conns": a.conns, "duration": a.duration, "nproc": os.cpu_count(),
                      "loadavg_after": load, "median": summary, "results": results}, indent=1))


if __name__ == "__main__":
    main()
