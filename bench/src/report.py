#!/usr/bin/env python3
"""Turns one run's raw loadgen JSON files into the results table (markdown) and a JSON summary.

A timed measurement runs in several rounds (files PHASE-PATH-rN.json); each number reported is the
median over the rounds, and the per-round values stay in the JSON.

usage: report.py RAW_DIR OUT_MD OUT_JSON [README]   (run by bench/run.sh; versions come from BENCH_* env vars)
"""
import datetime
import glob
import json
import os
import platform
import sys

BENCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATHS = ["direct", "nginx", "portkey", "aile"]
PROXIES = ["nginx", "portkey", "aile"]


def load_one(path):
    try:
        with open(path) as f:
            return json.loads(f.read().strip() or "{}")
    except (OSError, ValueError) as e:
        return {"skipped": f"no result ({e.__class__.__name__})"}


def median(values):
    values = sorted(v for v in values if v is not None)
    if not values:
        return None
    n = len(values)
    return values[n // 2] if n % 2 else round((values[n // 2 - 1] + values[n // 2]) / 2, 1)


def load(raw, phase, path):
    """One measurement: the rounds of a timed phase merged (median of each number), or a single file."""
    rounds = sorted(glob.glob(os.path.join(raw, f"{phase}-{path}-r*.json")))
    if not rounds:
        return load_one(os.path.join(raw, f"{phase}-{path}.json"))
    rs = [load_one(f) for f in rounds]
    good = [r for r in rs if "skipped" not in r and r.get("samples")]
    if not good:
        bad = [r for r in rs if "skipped" in r]
        return {"skipped": bad[0]["skipped"] if bad else "no samples", "rounds": rs}
    merged = {"rounds": rs, "rounds_used": len(good)}
    for k in ["p50_us", "p90_us", "p99_us", "p999_us", "mean_us", "rps"]:
        merged[k] = median(r.get(k) for r in good)
    for k in ["samples", "completed", "non2xx", "conn_errors"]:
        merged[k] = sum(r.get(k) or 0 for r in rs)
    merged["first_bad_status"] = next((r.get("first_bad_status") for r in rs if r.get("first_bad_status")), "")
    merged["p50_us_per_round"] = [r.get("p50_us") for r in good]
    merged["p99_us_per_round"] = [r.get("p99_us") for r in good]
    merged["rps_per_round"] = [r.get("rps") for r in good]
    return merged


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def mem_total_gb():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    return None


def fmt(v, plus=False):
    if v is None:
        return "—"
    s = f"{v:+.1f}" if plus else f"{v:.1f}"
    return s


def fmt_int(v):
    return "—" if v is None else f"{v:,.0f}"


def errors(r):
    bad = []
    if r.get("non2xx"):
        bad.append(f"{r['non2xx']} non-2xx (first {r.get('first_bad_status') or '?'})")
    if r.get("conn_errors"):
        bad.append(f"{r['conn_errors']} connection errors")
    return "; ".join(bad)


def ok(r):
    return r and "skipped" not in r and r.get("samples", r.get("established", 0))


def sub(a, b):
    return None if a is None or b is None else round(a - b, 1)


BEGIN, END = "<!-- results:begin (written by bench/run.sh) -->", "<!-- results:end -->"


def update_readme(path, md):
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return
    a, b = text.find(BEGIN), text.find(END)
    if a < 0 or b < a:
        return
    with open(path, "w") as f:
        f.write(text[:a + len(BEGIN)] + "\n" + md + text[b:])


def main():
    raw, out_md, out_json = sys.argv[1:4]
    runs = {phase: {p: load(raw, phase, p) for p in PATHS} for phase in ["lat1", "lat32", "lat16", "sse", "hold"]}

    meta = {
        "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "command": "bench/run.sh",
        "nproc": len(os.sched_getaffinity(0)),
        "cpu_model": cpu_model(),
        "kernel": platform.release(),
        "mem_total_gb": mem_total_gb(),
        "nginx": os.environ.get("BENCH_NGINX_VERSION", "?"),
        "node": os.environ.get("BENCH_NODE_VERSION", "?"),
        "portkey_gateway": os.environ.get("BENCH_PORTKEY_VERSION", "?"),
        "python": os.environ.get("BENCH_PYTHON_VERSION", "?"),
        "aile_repo_rev": os.environ.get("BENCH_AILE_REV", "?"),
        "aile_bin": os.environ.get("BENCH_AILE_BIN", "build/app/aile"),
        "aile_build_type": os.environ.get("BENCH_AILE_BUILD", "unknown") or "unspecified",
        "settings": os.environ.get("BENCH_SETTINGS", ""),
        "raw_dir": os.path.relpath(raw, BENCH_DIR),
        "json": os.path.relpath(out_json, BENCH_DIR),
    }

    derived = {"latency": {}, "rps": {}, "sse": {}, "memory": {}}
    for phase in ["lat1", "lat32"]:
        base = runs[phase]["direct"]
        for p in PATHS:
            r = runs[phase][p]
            if not ok(r):
                continue
            d = derived["latency"].setdefault(p, {})
            d[phase] = {"p50_us": r.get("p50_us"), "p99_us": r.get("p99_us")}
            if p != "direct" and ok(base):
                d[phase]["added_p50_us"] = sub(r.get("p50_us"), base.get("p50_us"))
                d[phase]["added_p99_us"] = sub(r.get("p99_us"), base.get("p99_us"))
    for p in PATHS:
        d = {}
        for phase, c in [("lat16", 16), ("lat32", 32)]:
            r = runs[phase][p]
            if ok(r):
                d[f"c{c}"] = r.get("rps")
        if d:
            derived["rps"][p] = d
        r = runs["sse"][p]
        if ok(r):
            d = {"events": r.get("samples"), "p50_us": r.get("p50_us"), "p99_us": r.get("p99_us")}
            base = runs["sse"]["direct"]
            if p != "direct" and ok(base):
                d["added_p50_us"] = sub(r.get("p50_us"), base.get("p50_us"))
                d["added_p99_us"] = sub(r.get("p99_us"), base.get("p99_us"))
            derived["sse"][p] = d
        r = runs["hold"][p]
        if r and "skipped" not in r:
            mem = r.get("memory") or []
            hwm = [m.get("vmhwm_kb") for m in mem if m.get("vmhwm_kb") is not None]
            rss = [m.get("vmrss_kb") for m in mem if m.get("vmrss_kb") is not None]
            anon = [m.get("rssanon_kb") for m in mem if m.get("rssanon_kb") is not None]
            derived["memory"][p] = {
                "streams_target": r.get("target"), "streams_open": r.get("established"),
                "dropped": r.get("dropped"), "hold_events": r.get("hold_events"), "hold_s": r.get("hold_s"),
                "processes": len(mem),
                "vmhwm_mb": round(sum(hwm) * 1024 / 1e6, 1) if hwm else None,
                "vmrss_mb": round(sum(rss) * 1024 / 1e6, 1) if rss else None,
                # the processes' own memory, without the pages of mapped files (libraries, fonts)
                "rssanon_mb": round(sum(anon) * 1024 / 1e6, 1) if anon else None,
                "per_process_vmhwm_mb": [round(k * 1024 / 1e6, 1) for k in hwm],
            }

    # ---- targets ---------------------------------------------------------------------------------
    def skipped_reason(*rs):
        for r in rs:
            if r and "skipped" in r:
                return r["skipped"]
        return "no data"

    targets = []

    def target(name, measured, passed):
        targets.append({"target": name, "measured": measured, "pass": passed})

    def ratio_target(name, a, n, factor, unit, why):
        """Aile's figure a within factor × nginx's n (added latencies: the lower the better)."""
        if a is None or n is None:
            target(name, "not measured: " + why, None)
            return
        limit = factor * max(n, 0.0)
        target(name, f"Aile {fmt(a, True)} {unit} vs nginx {fmt(n, True)} {unit} (limit {limit:.1f} {unit})", a <= limit)

    lat = derived["latency"]
    why1 = skipped_reason(runs["lat1"]["aile"], runs["lat1"]["nginx"], runs["lat1"]["direct"])
    ratio_target("Aile added p50 at c=1 ≤ 2× nginx's added p50", lat.get("aile", {}).get("lat1", {}).get("added_p50_us"),
                 lat.get("nginx", {}).get("lat1", {}).get("added_p50_us"), 2, "µs", why1)
    ratio_target("Aile added p99 at c=1 ≤ 3× nginx's added p99", lat.get("aile", {}).get("lat1", {}).get("added_p99_us"),
                 lat.get("nginx", {}).get("lat1", {}).get("added_p99_us"), 3, "µs", why1)
    a = derived["rps"].get("aile", {}).get("c16")
    n = derived["rps"].get("nginx", {}).get("c16")
    if a is not None and n:
        target("Aile rps at c=16 ≥ 0.35× nginx's", f"Aile {fmt_int(a)} rps vs nginx {fmt_int(n)} rps ({a / n:.2f}×)",
               a >= 0.35 * n)
    else:
        target("Aile rps at c=16 ≥ 0.35× nginx's", "not measured: "
               + skipped_reason(runs["lat16"]["aile"], runs["lat16"]["nginx"]), None)
    k = derived["rps"].get("portkey", {}).get("c16")
    if a is not None and k:
        target("Aile rps at c=16 ≥ 5× Portkey's", f"Aile {fmt_int(a)} rps vs Portkey {fmt_int(k)} rps ({a / k:.1f}×)",
               a >= 5 * k)
    else:
        target("Aile rps at c=16 ≥ 5× Portkey's", "not measured: "
               + skipped_reason(runs["lat16"]["aile"], runs["lat16"]["portkey"]), None)
    e = derived["sse"].get("aile", {}).get("added_p99_us")
    if e is not None:
        target("Aile added p99 per relayed SSE event ≤ 150 µs", f"Aile {fmt(e, True)} µs", e <= 150)
    else:
        target("Aile added p99 per relayed SSE event ≤ 150 µs", "not measured: "
               + skipped_reason(runs["sse"]["aile"], runs["sse"]["direct"]), None)
    m = derived["memory"].get("aile", {})
    name = "Aile ≤ 50 MB resident with 1,000 open streams"
    if m.get("vmhwm_mb") is not None and m.get("streams_open") == m.get("streams_target"):
        target(name, f"VmHWM {m['vmhwm_mb']:.1f} MB with {m['streams_open']} streams open", m["vmhwm_mb"] <= 50)
    elif m.get("vmhwm_mb") is not None:
        target(name, f"VmHWM {m['vmhwm_mb']:.1f} MB but only {m.get('streams_open')} of "
                     f"{m.get('streams_target')} streams opened", False)
    else:
        target(name, "not measured: " + skipped_reason(runs["hold"]["aile"]), None)

    # ---- markdown --------------------------------------------------------------------------------
    L = []
    L.append(f"Run {meta['date_utc']} with `{meta['command']}` on {meta['nproc']} CPU(s), {meta['cpu_model']}, "
             f"Linux {meta['kernel']}, {meta['mem_total_gb']} GB RAM. nginx {meta['nginx']}, node {meta['node']}, "
             f"@portkey-ai/gateway {meta['portkey_gateway']}, Python {meta['python']}, repository at {meta['aile_repo_rev']}, "
             f"aile from `{meta['aile_bin']}` (CMake build type {meta['aile_build_type']}).")
    L.append(f"Settings: {meta['settings']}. Raw numbers: `bench/{meta['json']}` "
             f"(per-run files under `bench/{meta['raw_dir']}`, not committed).")
    L.append("")
    L.append("**Targets**")
    L.append("")
    L.append("| target | measured | result |")
    L.append("|---|---|---|")
    for t in targets:
        res = {True: "PASS", False: "FAIL", None: "not measured"}[t["pass"]]
        L.append(f"| {t['target']} | {t['measured']} | {res} |")
    L.append("")

    def cell_skip(r):
        return "skipped: " + r["skipped"] if r and "skipped" in r else "no samples"

    L.append("**1. Added latency, non-streamed `POST /v1/chat/completions`** (µs, median of the rounds; "
             "added = path − direct, percentile by percentile)")
    L.append("")
    L.append("| path | c=1 p50 | c=1 p99 | c=1 added p50 | c=1 added p99 | c=32 p50 | c=32 p99 | c=32 added p50 | c=32 added p99 | notes |")
    L.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for p in PATHS:
        r1, r32 = runs["lat1"][p], runs["lat32"][p]
        if not ok(r1) and not ok(r32):
            L.append(f"| {p} | | | | | | | | | {cell_skip(r1)} |")
            continue
        d = lat.get(p, {})
        c1, c32 = d.get("lat1", {}), d.get("lat32", {})
        notes = "; ".join(x for x in [errors(r1), errors(r32)] if x)
        L.append(f"| {p} | {fmt(c1.get('p50_us'))} | {fmt(c1.get('p99_us'))} | {fmt(c1.get('added_p50_us'), True)} | "
                 f"{fmt(c1.get('added_p99_us'), True)} | {fmt(c32.get('p50_us'))} | {fmt(c32.get('p99_us'))} | "
                 f"{fmt(c32.get('added_p50_us'), True)} | {fmt(c32.get('added_p99_us'), True)} | {notes} |")
    L.append("")
    L.append("**2. Requests per second** (closed loop, non-streamed, median of the rounds)")
    L.append("")
    L.append("| path | c=16 | c=32 | notes |")
    L.append("|---|---:|---:|---|")
    for p in PATHS:
        r16, r32 = runs["lat16"][p], runs["lat32"][p]
        if not ok(r16) and not ok(r32):
            L.append(f"| {p} | | | {cell_skip(r16)} |")
            continue
        d = derived["rps"].get(p, {})
        notes = "; ".join(x for x in [errors(r16), errors(r32)] if x)
        L.append(f"| {p} | {fmt_int(d.get('c16'))} | {fmt_int(d.get('c32'))} | {notes} |")
    L.append("")
    L.append("**3. Delay per relayed SSE event** (µs, client receive − upstream send, CLOCK_MONOTONIC; "
             "median of the rounds; events = all rounds; added = path − direct)")
    L.append("")
    L.append("| path | events | p50 | p99 | added p50 | added p99 | notes |")
    L.append("|---|---:|---:|---:|---:|---:|---|")
    for p in PATHS:
        r = runs["sse"][p]
        if not ok(r):
            L.append(f"| {p} | | | | | | {cell_skip(r)} |")
            continue
        d = derived["sse"][p]
        L.append(f"| {p} | {fmt_int(d.get('events'))} | {fmt(d.get('p50_us'))} | {fmt(d.get('p99_us'))} | "
                 f"{fmt(d.get('added_p50_us'), True)} | {fmt(d.get('added_p99_us'), True)} | {errors(r)} |")
    L.append("")
    L.append("**4. Peak resident memory with concurrent open SSE streams** (VmHWM of the proxy's processes, "
             "MB = 10⁶ bytes; a fresh process per path; RssAnon: their own memory, without mapped files' pages)")
    L.append("")
    L.append("| path | streams open | events relayed while held | VmHWM MB | VmRSS at end MB | RssAnon at end MB | notes |")
    L.append("|---|---:|---:|---:|---:|---:|---|")
    for p in PATHS:
        r = runs["hold"][p]
        if not r or "skipped" in r:
            L.append(f"| {p} | | | | | | {cell_skip(r)} |")
            continue
        d = derived["memory"][p]
        notes = []
        if d["processes"] > 1:
            notes.append("sum of " + " + ".join(f"{v:.1f}" for v in d["per_process_vmhwm_mb"]) + " (master + worker)")
        if d.get("dropped"):
            notes.append(f"{d['dropped']} streams dropped while held")
        if errors(r):
            notes.append(errors(r))
        expected = (d["streams_open"] or 0) * (d["hold_s"] or 0)
        L.append(f"| {p} | {d['streams_open']} / {d['streams_target']} | {fmt_int(d['hold_events'])} "
                 f"(≈{fmt_int(expected)} expected) | {fmt(d['vmhwm_mb'])} | {fmt(d['vmrss_mb'])} | {fmt(d.get('rssanon_mb'))} | "
                 f"{'; '.join(notes)} |")
    md = "\n".join(L) + "\n"

    os.makedirs(os.path.dirname(out_md), exist_ok=True)
    with open(out_md, "w") as f:
        f.write(md)
    with open(out_json, "w") as f:
        json.dump({"meta": meta, "targets": targets, "derived": derived, "runs": runs}, f, indent=1)
        f.write("\n")
    if len(sys.argv) > 4:  # a full run also refreshes the table in bench/README.md between the markers
        update_readme(sys.argv[4], md)
    print(md)


if __name__ == "__main__":
    main()
