#!/usr/bin/env python3
"""CPU by request stage, from `perf script` output of aile serve (bench/run.sh BENCH_PROFILE).

Each sample is given to the stage of the innermost frame of its call chain that names one (walking
from the leaf towards main), so a write(2) under HttpExchange::finishStream counts as relay and
a malloc under RequestPlanner::plan as plan. Samples of the store writer's thread are their own
stage; what no stage names (Qt's event loop, timers, notifier bookkeeping) is "event loop".
Usage: perf script -i perf.data -F comm,tid,ip,sym --no-inline | stages.py
"""
import re
import sys
from collections import Counter

# (stage, pattern) in the order tried on each frame; the first frame that matches any wins.
STAGES = [
    ("record", r"ProxyRequest::commit|TraceSink::|StoreWriter::|LedgerJournal|Log::logAccess|TraceRecord|Ledger"),
    ("meter", r"ResponseMeter|readQuotaHeaders|Charge::|SpendBook|UsageMeter|Quota"),
    # Router:: is the planner's; ApiRouter:: (the API layer: the body's parse, the header rules) is parse and admit.
    ("plan", r"RequestPlanner|(?<!Api)Router::|CandidateOrder|CandidateFilter|Affinity|Quote::|RoutingPlan|TranslatedTarget|KeyRouting"),
    ("dial", r"UpstreamClient::send|UpstreamConnection::start|UpstreamConnection::write|UpstreamRequestBuilder|"
             r"TranslatedBody|ProxyRequest::dialNext|Attempt::|UpstreamCredential"),
    ("relay", r"HttpExchange::|HttpConnection::flushOutput|HttpConnection::send\b|ProxyRequest::relay|ProxyRequest::handleUpstream|ProxyRelay|UpstreamConnection::|"
              r"ProxyRequest::completeAttempt|SseParser|ModelEcho"),
    ("parse and admit", r"HttpConnection::|RequestParser|http_parser|ApiRouter::|HttpServer::|ApiKey|KeyBook"),
]
COMPILED = [(name, re.compile(p)) for name, p in STAGES]


def stage_of(frames):
    for sym in frames:
        for name, rx in COMPILED:
            if rx.search(sym):
                return name
    return "event loop and other"


def main():
    counts = Counter()
    thread = None
    frames = []
    total = 0

    def flush():
        nonlocal total
        if thread is None:
            return
        total += 1
        if thread.startswith("aile-store"):
            counts["store writer thread"] += 1
        else:
            counts[stage_of(frames)] += 1

    for line in sys.stdin:
        if not line.strip():
            flush()
            thread, frames = None, []
            continue
        if not line[0].isspace():
            flush()
            thread, frames = line.split()[0], []
            continue
        parts = line.strip().split(None, 1)
        if len(parts) == 2:
            frames.append(parts[1])
    flush()
    if not total:
        print("no samples")
        return
    order = [s for s, _ in STAGES] + ["event loop and other", "store writer thread"]
    for name in order:
        print(f"{name:24s} {100.0 * counts[name] / total:5.1f}%")


if __name__ == "__main__":
    main()
