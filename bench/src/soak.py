#!/usr/bin/env python3
"""The Aile soak (bench/soak.sh; docs/hardening.md, "The soak"): a real `aile serve` on loopback
against bench/src/sse_upstream.py, under hostile clients, aborted streams and kill -9.

  1. A real client's latency (a new connection per non-streamed request, p50/p99), first alone,
     then while --slowloris connections send a header line now and then and never finish their
     head, and --stalled requests send their head and part of their body and then nothing.
  2. --streams streamed requests, each aborted at a random point: half by the client (it closes
     its socket after a random number of bytes), half by the upstream (sse_upstream's /abort/,
     which resets or closes mid-stream). A cut stream cools its sharer for 10 minutes, so after
     each upstream abort the soak clears that cooldown (POST /sharers/{handle}/clear-cooldown) and
     the next upstream abort is a real cut again, not a 429. --rounds rounds of --streams: the engine's
     open file descriptors and resident memory are read from /proc, once idle, before and after
     each; a leak grows again in every round, the allocator's high-water mark and SQLite's page
     cache stop growing after the first.
  3. --kills times: --load-conns clients send requests back to back, `aile serve` is killed with
     SIGKILL after a random 1-3 s, and started again on the same data folder. Afterwards every
     request whose answer a client read in full is looked up in the ledger: missing (no row) or
     doubled (more than one).

Everything is bounded in count and time, and stays on 127.0.0.1. Prints a Markdown table.
"""
import argparse
import asyncio
import concurrent.futures
import json
import re
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import time

AILE_KEY = "sk-aile-soak-00000000000000000000"
ADMIN = "soak-admin-token"
CANNED, SSE, ABORT = "L00000000000000c1", "L00000000000000c2", "L00000000000000c3"
BODY = json.dumps({"model": "openai/gpt-5.2", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 16},
                  separators=(",", ":")).encode()
STREAM_BODY = json.dumps({"model": "openai/gpt-5.2", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 16,
                          "stream": True}, separators=(",", ":")).encode()


def log(msg):
    print(f"[soak {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def request(port, body, sharer, extra=b""):
    return (b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAuthorization: Bearer %s\r\n"
            b"Content-Type: application/json\r\nx-aile-sharer: %s\r\nContent-Length: %d\r\n%s\r\n%s"
            % (port, AILE_KEY.encode(), sharer.encode(), len(body), extra, body))


# --- the engine ----------------------------------------------------------------------------------
class Aile:
    def __init__(self, binary, work, upstream_port):
        self.binary, self.work = binary, work
        self.data = os.path.join(work, "data")
        os.makedirs(self.data, exist_ok=True)
        self.config = os.path.join(work, "config.json")
        up = f"http://127.0.0.1:{upstream_port}"
        sharer = lambda handle, name, url: {  # noqa: E731
            "handle": handle, "name": name, "provider": "openai", "baseUrl": url,
            "credential": "env:SOAK_UPSTREAM_KEY", "kind": "api-key", "price": {"percentOfList": 100},
            "models": ["gpt-5.2"], "tested": ["gpt-5.2"], "slots": 4096}
        with open(self.config, "w") as f:
            json.dump({"adminToken": ADMIN,
                       "sharers": [sharer(CANNED, "canned", up), sharer(SSE, "sse", up + "/sse"),
                                   sharer(ABORT, "abort", up + "/abort")],
                       "keys": [{"name": "soak", "key": AILE_KEY}]}, f)
        self.proc, self.port, self.starts = None, None, 0

    def start(self):
        self.starts += 1
        out = open(os.path.join(self.work, f"serve-{self.starts}.log"), "wb")
        env = dict(os.environ, SOAK_UPSTREAM_KEY="sk-soak-upstream-0000000000000000", QT_QPA_PLATFORM="offscreen",
                   QT_LOGGING_RULES="*.debug=false")
        self.proc = subprocess.Popen([self.binary, "serve", "--data-dir", self.data, "--listen", "127.0.0.1:0",
                                      "--config", self.config], stdout=subprocess.PIPE, stderr=out, env=env)
        deadline = time.time() + 30
        while time.time() < deadline:
            line = self.proc.stdout.readline().decode(errors="replace")
            if not line:
                break
            if line.startswith("listening on 127.0.0.1:"):
                self.port = int(line.strip().rsplit(":", 1)[1])
                return
        raise SystemExit(f"aile serve did not start (see {out.name})")

    def kill9(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill9()

    def fds(self):
        return len(os.listdir(f"/proc/{self.proc.pid}/fd"))

    def rss_mb(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1000.0
        return float("nan")


# --- one real client request ---------------------------------------------------------------------
def read_answer(sock):
    """Reads one HTTP/1.1 answer (Content-Length or chunked); returns (status, headers, complete)."""
    buf = b""
    while b"\r\n\r\n" not in buf:
        data = sock.recv(65536)
        if not data:
            return 0, {}, False
        buf += data
    head, _, rest = buf.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in lines[1:])}
    if "content-length" in headers:
        need = int(headers["content-length"])
        while len(rest) < need:
            data = sock.recv(65536)
            if not data:
                return status, headers, False
            rest += data
        return status, headers, True
    if "chunked" in headers.get("transfer-encoding", ""):
        while not rest.endswith(b"0\r\n\r\n"):
            data = sock.recv(65536)
            if not data:
                return status, headers, False
            rest += data
        return status, headers, True
    return status, headers, True


def timed_request(port):
    t0 = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(request(port, BODY, CANNED))
        status, _, complete = read_answer(s)
    return (time.perf_counter() - t0) * 1000.0, status == 200 and complete


def latency(port, samples):
    times, bad = [], 0
    for _ in range(samples):
        try:
            ms, ok = timed_request(port)
        except OSError:
            ms, ok = 30000.0, False
        times.append(ms)
        bad += not ok
    times.sort()
    pct = lambda p: times[min(len(times) - 1, int(p * len(times)))]  # noqa: E731
    return pct(0.5), pct(0.99), bad


# --- 1. slowloris and stalled bodies ---------------------------------------------------------------
async def hostile(port, slowloris, stalled, stop):
    """Holds slowloris and stalled-body connections open until stop is set; re-opens the ones the
    engine closes (that is what an attacker does). Returns (opened, closed by the engine)."""
    counts = {"opened": 0, "closed": 0}

    async def one(kind):
        while not stop.is_set():
            try:
                r, w = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                await asyncio.sleep(0.2)
                continue
            counts["opened"] += 1
            try:
                if kind == "slow":
                    w.write(b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                else:
                    w.write(request(port, BODY + b" " * 4096, CANNED)[:-4096 - len(BODY) // 2])
                await w.drain()
                while not stop.is_set():
                    if kind == "slow":
                        w.write(b"X-a%d: b\r\n" % random.randint(0, 1 << 30))
                        await w.drain()
                    try:
                        data = await asyncio.wait_for(r.read(4096), timeout=random.uniform(5, 10))
                        if not data:
                            break
                    except asyncio.TimeoutError:
                        pass
                counts["closed"] += not stop.is_set()
            except OSError:
                counts["closed"] += 1
            finally:
                w.close()
            await asyncio.sleep(0.5)

    tasks = [asyncio.create_task(one("slow")) for _ in range(slowloris)]
    tasks += [asyncio.create_task(one("stalled")) for _ in range(stalled)]
    await stop.wait()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return counts


async def phase_slowloris(aile, args):
    loop = asyncio.get_running_loop()
    # The real client is a process of its own: in a thread of this one it would wait for the
    # interpreter lock behind the attackers' coroutines, and the soak would measure itself.
    client = concurrent.futures.ProcessPoolExecutor(max_workers=1)
    base = await loop.run_in_executor(client, latency, aile.port, args.samples)
    stop = asyncio.Event()
    attack = asyncio.create_task(hostile(aile.port, args.slowloris, args.stalled, stop))
    await asyncio.sleep(args.settle)   # every hostile connection open
    fds_during = aile.fds()
    loaded = await loop.run_in_executor(client, latency, aile.port, args.samples)
    client.shutdown()
    stop.set()
    counts = await attack
    return base, loaded, fds_during, counts


# --- 2. aborted streams --------------------------------------------------------------------------
# A stream the engine neither continues nor ends for this long counts as hung (and is dropped).
args_read_timeout = 3.0


async def clear_cooldown(port, handle):
    """The user's "try it again now" after a cut: POST /sharers/{handle}/clear-cooldown."""
    try:
        r, w = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return
    try:
        w.write(b"POST /sharers/%s/clear-cooldown HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAuthorization: Bearer %s\r\n"
                b"Content-Length: 0\r\nConnection: close\r\n\r\n" % (handle.encode(), port, ADMIN.encode()))
        await w.drain()
        await asyncio.wait_for(r.read(), timeout=args_read_timeout)
    except (OSError, asyncio.TimeoutError):
        pass
    finally:
        w.close()


async def aborted_stream(port, by_client):
    try:
        r, w = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return "connect failed"
    try:
        w.write(request(port, STREAM_BODY, SSE if by_client else ABORT))
        await w.drain()
        budget = random.randint(0, 6000) if by_client else 1 << 30
        got, tail, head = 0, b"", b""
        while got < budget:
            data = await asyncio.wait_for(r.read(min(4096, budget - got)), timeout=args_read_timeout)
            if not data:
                return "closed by the engine"
            got += len(data)
            tail = (tail + data)[-5:]
            if tail == b"0\r\n\r\n":   # the engine ended the answer (an error event after a cut)
                return "answer ended"
            if len(head) < 65536:
                head += data
            # A whole answer with a length (the 429 of a sharer cooling after its cut, say) is an
            # answer too, not a hang: the connection stays open for the next request.
            end = head.find(b"\r\n\r\n")
            length = re.search(rb"(?im)^content-length:\s*(\d+)", head[:end]) if end >= 0 else None
            if length and len(head) >= end + 4 + int(length.group(1)):
                return "answered " + head.split(b" ", 2)[1].decode(errors="replace")
        return "aborted by the client"
    except asyncio.TimeoutError:
        return f"hung (nothing for {args_read_timeout:g} s)"
    except OSError as e:
        return type(e).__name__
    finally:
        if by_client and random.random() < 0.5:
            w.transport.abort()   # RST
        else:
            w.close()


def idle_figures(aile, wait_s=3.0):
    time.sleep(wait_s)
    return aile.fds(), aile.rss_mb()


async def phase_streams(aile, args):
    """--rounds rounds of --streams aborted streams; returns the idle (fds, rss) before and after each."""
    loop = asyncio.get_running_loop()
    # Warm up the engine's caches and pools with a few complete requests first.
    for _ in range(20):
        await loop.run_in_executor(None, timed_request, aile.port)
    idle = [await loop.run_in_executor(None, idle_figures, aile)]
    sem = asyncio.Semaphore(args.stream_conns)
    outcomes, took = {}, 0.0

    async def one(i):
        async with sem:
            by_client = i % 2 == 0
            o = await aborted_stream(aile.port, by_client)
            outcomes[o] = outcomes.get(o, 0) + 1
            if not by_client:
                await clear_cooldown(aile.port, ABORT)

    for _ in range(args.rounds):
        t0 = time.time()
        await asyncio.gather(*(one(i) for i in range(args.streams)))
        took += time.time() - t0
        idle.append(await loop.run_in_executor(None, idle_figures, aile, args.idle))
    return idle, took, outcomes


# --- 3. kill -9 under load -------------------------------------------------------------------------
async def load_client(port, answered, stop):
    while not stop.is_set():
        try:
            r, w = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            return
        try:
            while not stop.is_set():
                w.write(request(port, BODY, CANNED))
                await w.drain()
                head = await r.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                headers = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in lines[1:])}
                body = await r.readexactly(int(headers.get("content-length", "0")))
                if lines[0].split(" ")[1] == "200" and body:
                    answered.append(headers.get("x-aile-request-id", ""))
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            return
        finally:
            w.close()


async def phase_kills(aile, args):
    answered_all, rounds = [], []
    for k in range(args.kills):
        answered, stop = [], asyncio.Event()
        clients = [asyncio.create_task(load_client(aile.port, answered, stop)) for _ in range(args.load_conns)]
        await asyncio.sleep(random.uniform(1.0, 3.0))
        aile.kill9()
        stop.set()
        await asyncio.gather(*clients, return_exceptions=True)
        rounds.append(len(answered))
        answered_all += answered
        aile.start()
        log(f"kill -9 #{k + 1}: {len(answered)} answers read in full before it; restarted on port {aile.port}")
    aile.stop()
    db = sqlite3.connect(os.path.join(aile.data, "aile.db"))
    rows = {}
    for (trace_id,) in db.execute("SELECT trace_id FROM ledger"):
        rows[trace_id] = rows.get(trace_id, 0) + 1
    integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
    db.close()
    missing = sum(1 for t in answered_all if rows.get(t, 0) == 0)
    doubled = sum(1 for t, n in rows.items() if n > 1)
    no_id = sum(1 for t in answered_all if not t)
    return rounds, len(answered_all), missing, doubled, no_id, integrity


# --- the table -------------------------------------------------------------------------------------
async def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--aile", required=True)
    ap.add_argument("--upstream-port", type=int, required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--samples", type=int, default=400)
    ap.add_argument("--slowloris", type=int, default=500)
    ap.add_argument("--stalled", type=int, default=200)
    ap.add_argument("--settle", type=float, default=5.0)
    ap.add_argument("--streams", type=int, default=10000)
    ap.add_argument("--stream-conns", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--idle", type=float, default=10.0)
    ap.add_argument("--kills", type=int, default=3)
    ap.add_argument("--load-conns", type=int, default=16)
    ap.add_argument("--phases", default="slowloris,streams,kills")
    args = ap.parse_args()
    random.seed(14)
    # bench/soak.sh's cleanup sends SIGTERM: stop `aile serve` on the way out (the finally below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    phases = args.phases.split(",")
    rows = []
    aile = Aile(args.aile, args.work, args.upstream_port)
    aile.start()
    log(f"aile serve on 127.0.0.1:{aile.port} (pid {aile.proc.pid})")
    try:
        if "slowloris" in phases:
            log(f"1. latency alone, then with {args.slowloris} slowloris + {args.stalled} stalled bodies")
            (p50, p99, bad), (lp50, lp99, lbad), fds_during, counts = await phase_slowloris(aile, args)
            rows.append(("real client p50 / p99, alone", f"{p50:.2f} / {p99:.2f} ms ({args.samples} requests, {bad} failed)"))
            rows.append((f"real client p50 / p99, with {args.slowloris} slowloris + {args.stalled} stalled bodies",
                         f"{lp50:.2f} / {lp99:.2f} ms ({args.samples} requests, {lbad} failed)"))
            rows.append(("p99 added by the attack", f"{lp99 - p99:+.2f} ms (target: within 50 ms)"))
            rows.append(("engine FDs during the attack", f"{fds_during}; hostile connections the engine closed: "
                         f"{counts['closed']} of {counts['opened']} opened"))
        if "streams" in phases:
            log(f"2. {args.rounds} × {args.streams} streams aborted at random points ({args.stream_conns} at a time)")
            idle, took, outcomes = await phase_streams(aile, args)
            fds, rss = [f for f, _ in idle], [r for _, r in idle]
            rows.append((f"{args.rounds} × {args.streams} aborted streams (half by the client, half by the upstream)",
                         f"{took:.0f} s; client outcomes {json.dumps(outcomes, sort_keys=True)}"))
            rows.append(("engine FDs idle: before, then after each round",
                         " / ".join(map(str, fds)) + f" ({fds[-1] - fds[0]:+d})"))
            rows.append(("engine RSS idle: before, then after each round",
                         " / ".join(f"{r:.1f}" for r in rss) + " MB (growth per round: "
                         + ", ".join(f"{b - a:+.1f}" for a, b in zip(rss, rss[1:])) + " MB)"))
        if "kills" in phases:
            log(f"3. kill -9 under load ({args.load_conns} clients), {args.kills} times")
            per, total, missing, doubled, no_id, integrity = await phase_kills(aile, args)
            rows.append((f"kill -9 under load, {args.kills} times", f"answered in full: {total} ({' + '.join(map(str, per))})"))
            rows.append(("ledger rows after restart: missing / doubled", f"{missing} / {doubled}"
                         + (f" ({no_id} answers had no x-aile-request-id)" if no_id else "")))
            rows.append(("store after the kills", f"integrity_check: {integrity}"))
    finally:
        aile.stop()
    print("| soak figure | measured |")
    print("|---|---|")
    for k, v in rows:
        print(f"| {k} | {v} |")


if __name__ == "__main__":
    asyncio.run(main())
